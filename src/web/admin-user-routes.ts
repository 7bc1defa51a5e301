import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../errors';
import type { Services } from '../services/index';
import { ONLY_GROUP_OWNER, type User, type UserAttributes } from '../services/users/users';
import { PAGE, pageContext, sendPage } from './request';
import { fieldErrors, type FieldErrors } from './form-errors';
import { pageNumber } from './pages/pager';
import { ADMIN_PER_PAGE, adminWindow, administrator, Checkbox, ticked } from './admin-guard';
import { adminUserPage, adminUsersPage, newUserPage, type UserFormValues } from './pages/admin/users';
import { redirectWithNotice } from './flash';
import { isDelete } from './settings-scope';

const Text = (maxLength = 1024) => Type.Optional(Type.String({ maxLength }));
const UserBody = Type.Object({
  authenticity_token: Text(255),
  name: Text(),
  username: Text(),
  email: Text(),
  password: Text(),
  projects_limit: Text(12),
  admin: Checkbox,
  can_create_group: Checkbox,
  _method: Text(10),
  confirm_username: Text(255),
});
type UserBodyType = typeof UserBody.static;
const SearchQuery = Type.Object({ page: Text(10), search: Text(255) });
const USER_FIELDS = ['email', 'username', 'name', 'password', 'projects_limit'];

function valuesOf(body: UserBodyType): UserFormValues {
  return {
    name: body.name ?? '',
    username: body.username ?? '',
    email: body.email ?? '',
    projects_limit: body.projects_limit ?? '',
    admin: ticked(body.admin),
    can_create_group: ticked(body.can_create_group),
  };
}

const valuesOfUser = (user: User): UserFormValues => ({
  name: user.name,
  username: user.username,
  email: user.email,
  projects_limit: String(user.projects_limit),
  admin: Boolean(user.admin),
  can_create_group: Boolean(user.can_create_group),
});

/** The form as the users service takes it, or the door's own refusal of a projects limit that is not a whole number (the API's schema refuses it too). */
function attributesOf(values: UserFormValues, password: string | undefined): { attributes: UserAttributes } | { errors: FieldErrors } {
  const limit = values.projects_limit.trim();
  if (limit !== '' && !/^\d{1,9}$/.test(limit)) return { errors: { projects_limit: ['must be a whole number, 0 or more'] } };
  return {
    attributes: {
      name: values.name,
      username: values.username,
      email: values.email,
      ...(password ? { password } : {}),
      ...(limit === '' ? {} : { projects_limit: Number(limit) }),
      admin: values.admin,
      can_create_group: values.can_create_group,
    },
  };
}

/**
 * The administration of users (GitLab 8.12's `/admin/users`): the searchable list, a new user,
 * and each user's page to edit their account, see their projects and remove them. Writes go through
 * the same `UsersService` calls as `POST /users`, `PUT /users/:id` and `DELETE /users/:id`, so
 * system hooks fire alike.
 */
export function adminUserRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  pages.get<{ Querystring: typeof SearchQuery.static }>(
    '/admin/users',
    { config: PAGE, schema: { querystring: SearchQuery } },
    async (request, reply) => {
      const user = administrator(request);
      const page = pageNumber(request.query.page);
      const search = (request.query.search ?? '').trim();
      const { users, total } = await services.users.list({ search: search || undefined, ...adminWindow(page) });
      const list = { items: users, page, perPage: ADMIN_PER_PAGE, total };
      return sendPage(request, reply, 'Users · Admin area', adminUsersPage(list, search, pageContext(request).csrfToken, user.id));
    },
  );

  const showNew = (request: FastifyRequest, reply: FastifyReply, values: UserFormValues, errors?: FieldErrors) =>
    sendPage(
      request,
      reply,
      'New user · Admin area',
      newUserPage({ csrfToken: pageContext(request).csrfToken, values, errors }),
      errors ? 400 : 200,
    );

  pages.get('/admin/users/new', { config: PAGE }, async (request, reply) => {
    administrator(request);
    const settings = await services.settings.get();
    const values = {
      name: '',
      username: '',
      email: '',
      projects_limit: String(settings.default_projects_limit),
      admin: false,
      can_create_group: true,
    };
    return showNew(request, reply, values);
  });

  pages.post<{ Body: UserBodyType }>('/admin/users', { config: PAGE, schema: { body: UserBody } }, async (request, reply) => {
    administrator(request);
    const values = valuesOf(request.body);
    const given = attributesOf(values, request.body.password);
    if ('errors' in given) return showNew(request, reply, values, given.errors);
    try {
      const { name = '', username = '', email = '' } = given.attributes;
      // As `POST /users` without `skip_confirmation`: the new user is sent a confirmation.
      const created = await services.users.create({
        ...given.attributes,
        name,
        username,
        email,
        password: request.body.password ?? '',
        confirm: true,
      });
      return redirectWithNotice(request, reply, `/admin/users/${encodeURIComponent(created.username)}`, 'User was successfully created.');
    } catch (error) {
      const errors = fieldErrors(error, USER_FIELDS);
      if (!errors) throw error;
      return showNew(request, reply, values, errors);
    }
  });

  const found = async (username: string) => {
    const user = await services.users.findByIdOrUsername(username);
    // Only by username: a number in the path is a username that looks like one.
    if (!user || user.username.toLowerCase() !== username.toLowerCase()) throw notFound();
    return user;
  };

  const showUser = async (
    request: FastifyRequest,
    reply: FastifyReply,
    user: User,
    form: { values?: UserFormValues; errors?: FieldErrors; removeErrors?: FieldErrors; notice?: string },
  ) => {
    const self = administrator(request);
    const { projects } = await services.projects.list(self, {
      scope: 'visible',
      ownerId: user.id,
      orderBy: 'name',
      sort: 'asc',
      offset: 0,
      limit: 100,
    });
    const page = adminUserPage(
      user,
      projects,
      { csrfToken: pageContext(request).csrfToken, values: form.values ?? valuesOfUser(user), ...form },
      self.id,
    );
    return sendPage(request, reply, `${user.username} · Users · Admin area`, page, form.errors || form.removeErrors ? 400 : 200);
  };

  pages.get<{ Params: { username: string } }>('/admin/users/:username', { config: PAGE }, async (request, reply) => {
    administrator(request);
    return showUser(request, reply, await found(request.params.username), {});
  });

  pages.post<{ Params: { username: string }; Body: UserBodyType }>(
    '/admin/users/:username',
    { config: PAGE, schema: { body: UserBody } },
    async (request, reply) => {
      const self = administrator(request);
      const user = await found(request.params.username);
      if (isDelete(request.body)) return remove(request, reply, self, user);
      const values = valuesOf(request.body);
      const given = attributesOf(values, request.body.password);
      if ('errors' in given) return showUser(request, reply, user, { values, errors: given.errors });
      // An administrator who took their own rights away would have nobody left to give them back.
      if (user.id === self.id && !values.admin)
        return showUser(request, reply, user, { values, errors: { base: ['You cannot remove your own administrator rights.'] } });
      try {
        const updated = await services.users.update(user.id, given.attributes);
        return showUser(request, reply, updated, { notice: 'User was successfully updated.' });
      } catch (error) {
        const errors = fieldErrors(error, USER_FIELDS);
        if (!errors) throw error;
        return showUser(request, reply, user, { values, errors });
      }
    },
  );

  /** GitLab's `DELETE /admin/users/:id`: refused beside the form for oneself, a mistyped confirmation, or (as the API refuses it) the only owner of a group. */
  async function remove(request: FastifyRequest<{ Body: UserBodyType }>, reply: FastifyReply, self: User, user: User) {
    const refuse = (removeErrors: FieldErrors) => showUser(request, reply, user, { removeErrors });
    if (user.id === self.id) return refuse({ base: ['You cannot remove your own account.'] });
    if ((request.body.confirm_username ?? '').trim() !== user.username)
      return refuse({ confirm_username: ['does not match the username'] });
    await services.users.delete(user.id);
    if (await services.users.findById(user.id)) return refuse({ base: [ONLY_GROUP_OWNER] });
    return redirectWithNotice(request, reply, '/admin/users', 'User was successfully removed.');
  }
}
