import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { NameString, RecordId, givenAttributes } from '../shared/params';
import { UserBasic, UserFull, User, presentUser, presentUserBasic, presentUserFull } from '../shared/entities/user';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { sendAs } from '../shared/send-as';
import { recordNotFound } from '../../errors';
import type { User as UserRow, UserAttributes } from '../../services/users/users';
import { seesUserDetails } from '../../services/policy';

const UserId = Type.Object({ id: RecordId });

const optionalProfile = {
  skype: Type.Optional(NameString()),
  linkedin: Type.Optional(NameString()),
  twitter: Type.Optional(NameString()),
  projects_limit: Type.Optional(Type.Integer({ maximum: 2147483647 })),
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
  website_url: Type.Optional(NameString()),
  confirm: Type.Optional(Type.Boolean()),
});

const UpdateUser = Type.Object({
  email: Type.Optional(NameString()),
  password: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  username: Type.Optional(Type.String()),
  website_url: Type.Optional(NameString()),
  ...optionalProfile,
});

const UserFullList = Type.Array(UserFull);
const UserBasicList = Type.Array(UserBasic);

export function usersRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const users = services.users;

  const full = async (user: UserRow) => presentUserFull(user, await users.profileExtras(user.id), presenter);

  api.get(
    '/users',
    {
      schema: {
        querystring: Type.Object({
          search: Type.Optional(NameString()),
          username: Type.Optional(NameString()),
          active: Type.Optional(Type.Any()),
          page: Type.Optional(Type.Any()),
          per_page: Type.Optional(Type.Any()),
        }),
        response: { 200: Type.Array(Type.Union([UserFull, UserBasic])) },
      },
    },
    async (request, reply) => {
      const { search, username, active } = request.query;
      // `username` is an exact look-up and is not paginated.
      const page = username !== undefined ? { page: 1, perPage: 1000, offset: 0, limit: 1000 } : pageOf(request.query);
      const result = await users.list({
        search,
        username,
        active: active !== undefined && active !== '',
        offset: page.offset,
        limit: page.limit,
      });
      if (username === undefined) setPageHeaders(request, reply, presenter.externalUrl, page, result.total);
      if (!seesUserDetails(request.user!))
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

  api.get(
    '/users/:id',
    {
      schema: { params: UserId, response: { 200: Type.Union([UserFull, User]) } },
    },
    async (request) => {
      const user = await users.findById(request.params.id);
      if (!user) throw recordNotFound();
      return seesUserDetails(request.user!) ? full(user) : presentUser(user, presenter);
    },
  );

  api.post(
    '/users',
    {
      config: { access: 'admin' },
      schema: { body: CreateUser, response: { 201: UserFull } },
    },
    async (request, reply) => {
      const user = await users.create(request.body as UserAttributes & typeof request.body);
      return reply.status(201).send(await full(user));
    },
  );

  api.put(
    '/users/:id',
    {
      config: { access: 'admin' },
      schema: { params: UserId, body: UpdateUser, response: { 200: UserFull } },
    },
    async (request) => full(await users.update(request.params.id, givenAttributes(request.body))),
  );

  // The spec: 200 always, with the user as body only when it was deleted.
  api.delete(
    '/users/:id',
    {
      config: { access: 'admin' },
      schema: { params: UserId, response: { 200: Type.Union([UserFull, Type.Null()]) } },
    },
    async (request) => {
      const user = await users.delete(request.params.id);
      return user ? presentUserFull(user, { identities: [], personalProjects: 0 }, presenter) : null;
    },
  );

  api.put(
    '/users/:id/block',
    {
      config: { access: 'admin' },
      schema: { params: UserId, response: { 200: Type.Boolean() } },
    },
    async (request) => users.setBlocked(request.params.id, true),
  );

  api.put(
    '/users/:id/unblock',
    {
      config: { access: 'admin' },
      schema: { params: UserId, response: { 200: Type.Boolean() } },
    },
    async (request) => users.setBlocked(request.params.id, false),
  );

  api.get('/user', { schema: { response: { 200: UserFull } } }, async (request) => full(request.user!));
}
