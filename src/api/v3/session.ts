import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from './types';
import { UserLogin, presentUserFull } from './entities/user';

export function sessionRoutes(api: Api, { services, presenter }: RouteDeps): void {
  api.post('/session', {
    config: { access: 'public' },
    schema: {
      body: Type.Object({ login: Type.Optional(Type.String()), email: Type.Optional(Type.String()), password: Type.Optional(Type.String()) }),
      response: { 201: UserLogin },
    },
  }, async (request, reply) => {
    const { login, email, password } = request.body;
    const user = await services.users.login(email || login, password);
    const identities = await services.users.identities([user.id]);
    const personalProjects = await services.users.personalProjectCount(user.id);
    return reply.status(201).send({
      ...presentUserFull(user, { identities: identities.get(user.id) ?? [], personalProjects }, presenter),
      private_token: services.users.privateToken(user),
    });
  });
}
