import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { KeyRecord, SSHKey, SSHKeyWithUser, presentKey, presentKeyRecord } from '../shared/entities/key';
import { presentUserFull } from '../shared/entities/user';
import { UserIdParam, recordId } from '../shared/record-params';

// Required in the order GitLab checks them, so the first missing one is named.
const CreateKey = Type.Object({ title: Type.String(), key: Type.String() });

export function keysRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const keys = services.keys;

  api.get('/user/keys', { schema: { response: { 200: Type.Array(SSHKey) } } }, async (request) =>
    (await keys.listOwn(request.user!.id)).map(presentKey),
  );

  api.get(
    '/user/keys/:id',
    {
      schema: { params: Type.Object({ id: Type.String() }), response: { 200: SSHKey } },
    },
    async (request) => presentKey(await keys.findOwn(request.user!.id, recordId(request.params.id))),
  );

  api.post(
    '/user/keys',
    {
      schema: { body: CreateKey, response: { 201: SSHKey } },
    },
    async (request, reply) => reply.status(201).send(presentKey(await keys.createOwn(request.user!, request.body))),
  );

  // 200 even when the key is already gone: the body is then null.
  api.delete(
    '/user/keys/:id',
    {
      schema: { params: Type.Object({ id: Type.String() }), response: { 200: Type.Union([KeyRecord, Type.Null()]) } },
    },
    async (request) => {
      const key = await keys.removeOwn(request.user!, recordId(request.params.id));
      return key ? presentKeyRecord(key) : null;
    },
  );

  api.get(
    '/users/:uid/keys',
    {
      config: { access: 'admin' },
      schema: { params: Type.Object({ uid: UserIdParam }), response: { 200: Type.Array(SSHKey) } },
    },
    async (request) => (await keys.listOf(recordId(request.params.uid))).map(presentKey),
  );

  api.post(
    '/users/:id/keys',
    {
      config: { access: 'admin' },
      schema: { params: Type.Object({ id: UserIdParam }), body: CreateKey, response: { 201: SSHKey } },
    },
    async (request, reply) => reply.status(201).send(presentKey(await keys.createFor(recordId(request.params.id), request.body))),
  );

  api.delete(
    '/users/:uid/keys/:id',
    {
      config: { access: 'admin' },
      schema: { params: Type.Object({ uid: UserIdParam, id: UserIdParam }), response: { 200: KeyRecord } },
    },
    async (request) => presentKeyRecord(await keys.removeFrom(recordId(request.params.uid), recordId(request.params.id))),
  );

  api.get(
    '/keys/:id',
    {
      config: { access: 'admin' },
      schema: { params: Type.Object({ id: Type.String() }), response: { 200: SSHKeyWithUser } },
    },
    async (request) => {
      const key = await keys.find(recordId(request.params.id));
      const owner = key.user_id === null ? undefined : await services.users.findById(key.user_id);
      if (!owner) return { ...presentKey(key), user: null };
      return { ...presentKey(key), user: presentUserFull(owner, await services.users.profileExtras(owner.id), presenter) };
    },
  );
}
