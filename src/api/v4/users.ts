import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { NameString, RecordId, givenAttributes } from '../shared/params';
import { UserBasic, UserFull, User, presentUser, presentUserBasic, presentUserFull } from '../shared/entities/user';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { sendAs } from '../shared/send-as';
import { conflict, notFound } from '../../errors';
import { ONLY_GROUP_OWNER, type User as UserRow, type UserAttributes } from '../../services/users/users';
import { seesUserDetails } from '../../services/policy';
import { PageQuery } from './paging';

const UserId = Type.Object({ id: RecordId });

const optionalProfile = {
  skype: Type.Optional(NameString()),
  linkedin: Type.Optional(NameString()),
  twitter: Type.Optional(NameString()),
  website_url: Type.Optional(NameString()),
  projects_limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 2147483647 })),
  extern_uid: Type.Optional(NameString()),
  provider: Type.Optional(NameString()),
  bio: Type.Optional(Type.String()),
  location: Type.Optional(Type.String()),
  admin: Type.Optional(Type.Boolean()),
  can_create_group: Type.Optional(Type.Boolean()),
  external: Type.Optional(Type.Boolean()),
};

// Required in the order GitLab checks them, so the first missing one is named.
const CreateUser = Type.Object({
  email: NameString(),
  password: Type.String(),
  name: Type.String(),
  username: Type.String(),
  ...optionalProfile,
  skip_confirmation: Type.Optional(Type.Boolean()),
});

const UpdateUser = Type.Object({
  email: Type.Optional(NameString()),
  password: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  ...optionalProfile,
});

/** GitLab's boolean filters: `true`, `1`, `yes` … (Grape's Boolean); anything else is no filter. */
const truthy = (value: unknown) => value === true || (typeof value === 'string' && ['true', '1', 'yes', 't'].includes(value.toLowerCase()));

const UserFullList = Type.Array(UserFull);
const UserBasicList = Type.Array(UserBasic);

/** Users (GitLab 11's `users.rb`): v4 blocks with POST, deletes with 204, says `404 User Not Found`. */
export function usersRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const users = services.users;

  const full = async (user: UserRow) => presentUserFull(user, await users.profileExtras(user.id), presenter);
  const found = async (id: number) => {
    const user = await users.findById(id);
    if (!user) throw notFound('User');
    return user;
  };

  api.get(
    '/users',
    {
      schema: {
        querystring: Type.Object({
          search: Type.Optional(NameString()),
          username: Type.Optional(NameString()),
          active: Type.Optional(Type.Any()),
          blocked: Type.Optional(Type.Any()),
          external: Type.Optional(Type.Any()),
          ...PageQuery,
        }),
        response: { 200: Type.Array(Type.Union([UserFull, UserBasic])) },
      },
    },
    async (request, reply) => {
      const { search, username, active, blocked, external } = request.query;
      const page = pageOf(request.query);
      const admin = seesUserDetails(request.user!);
      const result = await users.list({
        search,
        username,
        active: truthy(active),
        blocked: truthy(blocked),
        // Who is external is for administrators to ask (GitLab ignores the filter for others).
        external: admin && truthy(external),
        offset: page.offset,
        limit: page.limit,
      });
      setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
      if (!admin)
        return sendAs(
          reply,
          UserBasicList,
          result.users.map((user) => presentUserBasic(user, presenter)),
        );
      const identities = await users.identities(result.users.map((user) => user.id));
      return sendAs(
        reply,
        UserFullList,
        result.users.map((user) => presentUserFull(user, { identities: identities.get(user.id) ?? [], personalProjects: 0 }, presenter)),
      );
    },
  );

  api.get('/users/:id', { schema: { params: UserId, response: { 200: Type.Union([UserFull, User]) } } }, async (request) => {
    const user = await found(request.params.id);
    return seesUserDetails(request.user!) ? full(user) : presentUser(user, presenter);
  });

  api.post('/users', { config: { access: 'admin' }, schema: { body: CreateUser, response: { 201: UserFull } } }, async (request, reply) => {
    const { skip_confirmation, ...attributes } = request.body;
    const user = await users.create({ ...(attributes as UserAttributes & typeof attributes), confirm: skip_confirmation !== true });
    return reply.status(201).send(await full(user));
  });

  api.put(
    '/users/:id',
    { config: { access: 'admin' }, schema: { params: UserId, body: UpdateUser, response: { 200: UserFull } } },
    async (request) => {
      await found(request.params.id);
      return full(await users.update(request.params.id, givenAttributes(request.body)));
    },
  );

  api.delete('/users/:id', { config: { access: 'admin' }, schema: { params: UserId } }, async (request, reply) => {
    await found(request.params.id);
    await users.delete(request.params.id);
    // The only owner of a group is kept, as in GitLab 8.12: say so rather than answer a deletion.
    if (await users.findById(request.params.id)) throw conflict(ONLY_GROUP_OWNER);
    return reply.status(204).send();
  });

  for (const [action, blocked] of [
    ['block', true],
    ['unblock', false],
  ] as const) {
    api.post(
      `/users/:id/${action}`,
      { config: { access: 'admin' }, schema: { params: UserId, response: { 201: Type.Boolean() } } },
      async (request, reply) => reply.status(201).send(await users.setBlocked(request.params.id, blocked)),
    );
  }

  api.get('/user', { schema: { response: { 200: UserFull } } }, async (request) => full(request.user!));
}
