import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { NameString } from '../shared/params';
import { UserLogin, presentUserFull } from '../shared/entities/user';

export function sessionRoutes(api: Api, { services, presenter }: RouteDeps): void {
  api.post(
    '/session',
    {
      config: { access: 'public' },
      schema: {
        body: Type.Object({
          login: Type.Optional(NameString()),
          email: Type.Optional(NameString()),
          password: Type.Optional(NameString()),
        }),
        response: { 201: UserLogin },
      },
    },
    async (request, reply) => {
      const { login, email, password } = request.body;
      const user = await services.users.login(email || login, password);
      const extras = await services.users.profileExtras(user.id);
      return reply.status(201).send(
        Object.assign(presentUserFull(user, extras, presenter), {
          private_token: services.users.privateToken(user),
        }),
      );
    },
  );
}
