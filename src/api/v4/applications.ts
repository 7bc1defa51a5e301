import { Type, type Static } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { NameString, RecordId, TextString } from '../shared/params';
import { notFound } from '../../errors';
import type { OAuthApplication } from '../../services/access-tokens/oauth';
import { PageQuery, pageOfList } from './paging';

/** GitLab's `Application` entity (10.5+): the client id is `application_id`. */
const Application = Type.Object({
  id: Type.Integer(),
  application_id: Type.String(),
  application_name: Type.String(),
  callback_url: Type.String(),
  confidential: Type.Boolean(),
});

const ApplicationWithSecret = Type.Object({ ...Application.properties, secret: Type.String() });

const presentApplication = (application: OAuthApplication): Static<typeof Application> => ({
  id: application.id,
  application_id: application.uid,
  application_name: application.name,
  callback_url: application.redirect_uri,
  confidential: application.confidential === 1,
});

const CreateApplication = Type.Object({
  name: NameString(),
  redirect_uri: TextString(),
  scopes: NameString({ description: 'scopes separated by spaces: api, read_api, read_user, read_repository, write_repository, sudo' }),
  confidential: Type.Optional(Type.Boolean()),
});

/** OAuth2 applications (GitLab 11's `applications.rb`): administrators register the clients of `/oauth`; the secret is shown once. */
export function applicationsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const oauth = services.oauth;
  const config = { access: 'admin' } as const;

  api.post(
    '/applications',
    { config, schema: { body: CreateApplication, response: { 201: ApplicationWithSecret } } },
    async (request, reply) => {
      const { application, secret } = await oauth.createApplication(request.body, request.user!.id);
      return reply.status(201).send({ ...presentApplication(application), secret });
    },
  );

  api.get(
    '/applications',
    { config, schema: { querystring: Type.Object(PageQuery), response: { 200: Type.Array(Application) } } },
    async (request, reply) => pageOfList(request, reply, presenter, (await oauth.listApplications()).map(presentApplication)),
  );

  api.delete('/applications/:id', { config, schema: { params: Type.Object({ id: RecordId }) } }, async (request, reply) => {
    if (!(await oauth.deleteApplication(request.params.id))) throw notFound('Application');
    return reply.status(204).send();
  });
}
