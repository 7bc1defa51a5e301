import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Email, presentEmail } from '../shared/entities/email';
import { UserIdParam, recordId } from '../shared/record-params';
import { NameString } from '../shared/params';

const CreateEmail = Type.Object({ email: NameString() });

export function emailsRoutes(api: Api, { services }: RouteDeps): void {
  const emails = services.emails;

  api.get('/user/emails', { schema: { response: { 200: Type.Array(Email) } } }, async (request) =>
    (await emails.listOwn(request.user!.id)).map(presentEmail),
  );

  api.get(
    '/user/emails/:id',
    {
      schema: { params: Type.Object({ id: Type.String() }), response: { 200: Email } },
    },
    async (request) => presentEmail(await emails.findOwn(request.user!.id, recordId(request.params.id))),
  );

  api.post(
    '/user/emails',
    {
      schema: { body: CreateEmail, response: { 201: Email } },
    },
    async (request, reply) => reply.status(201).send(presentEmail(await emails.createOwn(request.user!.id, request.body.email))),
  );

  // 200 even when the e-mail is already gone. GitLab's body here is incidental
  // (the result of refreshing the user's notification address); ours is the deleted e-mail, or null.
  api.delete(
    '/user/emails/:id',
    {
      schema: { params: Type.Object({ id: Type.String() }), response: { 200: Type.Union([Email, Type.Null()]) } },
    },
    async (request) => {
      const email = await emails.removeOwn(request.user!.id, recordId(request.params.id));
      return email ? presentEmail(email) : null;
    },
  );

  api.get(
    '/users/:uid/emails',
    {
      config: { access: 'admin' },
      schema: { params: Type.Object({ uid: UserIdParam }), response: { 200: Type.Array(Email) } },
    },
    async (request) => (await emails.listOf(recordId(request.params.uid))).map(presentEmail),
  );

  api.post(
    '/users/:id/emails',
    {
      config: { access: 'admin' },
      schema: { params: Type.Object({ id: UserIdParam }), body: CreateEmail, response: { 201: Email } },
    },
    async (request, reply) => reply.status(201).send(presentEmail(await emails.createFor(recordId(request.params.id), request.body.email))),
  );

  api.delete(
    '/users/:uid/emails/:id',
    {
      config: { access: 'admin' },
      schema: { params: Type.Object({ uid: UserIdParam, id: UserIdParam }), response: { 200: Email } },
    },
    async (request) => presentEmail(await emails.removeFrom(recordId(request.params.uid), recordId(request.params.id))),
  );
}
