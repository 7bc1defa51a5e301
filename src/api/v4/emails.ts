import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Email, presentEmail } from '../shared/entities/email';
import { UserIdParam, recordId } from '../shared/record-params';
import { NameString } from '../shared/params';
import { notFound } from '../../errors';
import { PageQuery, pageOfList } from './paging';
import { renameNotFound } from './not-found';

const CreateEmail = Type.Object({ email: NameString() });
const EmailId = Type.Object({ email_id: Type.String() });

/** Secondary e-mails (GitLab 11's `users.rb`): deletions answer 204, an unknown one 404. */
export function emailsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const emails = services.emails;

  api.get(
    '/user/emails',
    { schema: { querystring: Type.Object(PageQuery), response: { 200: Type.Array(Email) } } },
    async (request, reply) => pageOfList(request, reply, presenter, (await emails.listOwn(request.user!.id)).map(presentEmail)),
  );

  api.get('/user/emails/:email_id', { schema: { params: EmailId, response: { 200: Email } } }, async (request) =>
    presentEmail(await emails.findOwn(request.user!.id, recordId(request.params.email_id)).catch(renameNotFound('Email'))),
  );

  api.post('/user/emails', { schema: { body: CreateEmail, response: { 201: Email } } }, async (request, reply) =>
    reply.status(201).send(presentEmail(await emails.createOwn(request.user!.id, request.body.email))),
  );

  api.delete('/user/emails/:email_id', { schema: { params: EmailId } }, async (request, reply) => {
    if (!(await emails.removeOwn(request.user!.id, recordId(request.params.email_id)))) throw notFound('Email');
    return reply.status(204).send();
  });

  api.get(
    '/users/:id/emails',
    {
      config: { access: 'admin' },
      schema: { params: Type.Object({ id: UserIdParam }), querystring: Type.Object(PageQuery), response: { 200: Type.Array(Email) } },
    },
    async (request, reply) => pageOfList(request, reply, presenter, (await emails.listOf(recordId(request.params.id))).map(presentEmail)),
  );

  api.post(
    '/users/:id/emails',
    { config: { access: 'admin' }, schema: { params: Type.Object({ id: UserIdParam }), body: CreateEmail, response: { 201: Email } } },
    async (request, reply) => {
      if (!(await services.users.findById(recordId(request.params.id)))) throw notFound('User');
      return reply.status(201).send(presentEmail(await emails.createFor(recordId(request.params.id), request.body.email)));
    },
  );

  api.delete(
    '/users/:id/emails/:email_id',
    { config: { access: 'admin' }, schema: { params: Type.Object({ id: UserIdParam, email_id: Type.String() }) } },
    async (request, reply) => {
      await emails.removeFrom(recordId(request.params.id), recordId(request.params.email_id));
      return reply.status(204).send();
    },
  );
}
