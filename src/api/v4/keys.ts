import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { SSHKey, SSHKeyWithUser, presentKey } from '../shared/entities/key';
import { presentUserFull } from '../shared/entities/user';
import { UserIdParam, recordId } from '../shared/record-params';
import { notFound } from '../../errors';
import { PageQuery, pageOfList } from './paging';
import { renameNotFound } from './not-found';

// Required in the order GitLab checks them, so the first missing one is named.
const CreateKey = Type.Object({ title: Type.String(), key: Type.String() });
const KeyId = Type.Object({ key_id: Type.String() });
const UserKey = Type.Object({ id: UserIdParam, key_id: Type.String() });

/** SSH keys of users (GitLab 11's `users.rb` and `keys.rb`): deletions answer 204, a user's keys are public. */
export function keysRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const keys = services.keys;
  const userOrThrow = async (id: string) => {
    const user = await services.users.findById(recordId(id));
    if (!user) throw notFound('User');
    return user;
  };

  api.get(
    '/user/keys',
    { schema: { querystring: Type.Object(PageQuery), response: { 200: Type.Array(SSHKey) } } },
    async (request, reply) => pageOfList(request, reply, presenter, (await keys.listOwn(request.user!.id)).map(presentKey)),
  );

  api.get('/user/keys/:key_id', { schema: { params: KeyId, response: { 200: SSHKey } } }, async (request) => {
    const [key] = (await keys.listOwn(request.user!.id)).filter((own) => own.id === recordId(request.params.key_id));
    if (!key) throw notFound('Key');
    return presentKey(key);
  });

  api.post('/user/keys', { schema: { body: CreateKey, response: { 201: SSHKey } } }, async (request, reply) =>
    reply.status(201).send(presentKey(await keys.createOwn(request.user!, request.body))),
  );

  api.delete('/user/keys/:key_id', { schema: { params: KeyId } }, async (request, reply) => {
    if (!(await keys.removeOwn(request.user!, recordId(request.params.key_id)))) throw notFound('Key');
    return reply.status(204).send();
  });

  // Anyone may read a user's public keys in v4 (GitLab 9+), as `https://host/:username.keys` shows them.
  api.get(
    '/users/:id/keys',
    {
      config: { access: 'optional' },
      schema: { params: Type.Object({ id: UserIdParam }), querystring: Type.Object(PageQuery), response: { 200: Type.Array(SSHKey) } },
    },
    async (request, reply) => pageOfList(request, reply, presenter, (await keys.listOf(recordId(request.params.id))).map(presentKey)),
  );

  api.post(
    '/users/:id/keys',
    { config: { access: 'admin' }, schema: { params: Type.Object({ id: UserIdParam }), body: CreateKey, response: { 201: SSHKey } } },
    async (request, reply) => {
      const user = await userOrThrow(request.params.id);
      return reply.status(201).send(presentKey(await keys.createFor(user.id, request.body)));
    },
  );

  api.delete('/users/:id/keys/:key_id', { config: { access: 'admin' }, schema: { params: UserKey } }, async (request, reply) => {
    await keys.removeFrom(recordId(request.params.id), recordId(request.params.key_id));
    return reply.status(204).send();
  });

  api.get(
    '/keys/:id',
    { config: { access: 'admin' }, schema: { params: Type.Object({ id: Type.String() }), response: { 200: SSHKeyWithUser } } },
    async (request) => {
      const key = await keys.find(recordId(request.params.id)).catch(renameNotFound('Key'));
      const owner = key.user_id === null ? undefined : await services.users.findById(key.user_id);
      if (!owner) return { ...presentKey(key), user: null };
      return { ...presentKey(key), user: presentUserFull(owner, await services.users.profileExtras(owner.id), presenter) };
    },
  );
}
