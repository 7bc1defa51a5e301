import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../errors';
import { administers } from '../services/policy';
import type { Services } from '../services/index';
import type { User } from '../services/users/users';
import { PAGE, pageContext, sendPage, WebError } from './request';
import { recordId } from './pipeline-routes';
import { pageNumber } from './pages/pager';
import { adminOverviewPage, adminProjectsPage, adminRunnersPage, adminUsersPage } from './pages/admin/admin';

const PER_PAGE = 50;
const PageQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 10 })) });
const TokenBody = Type.Object({ authenticity_token: Type.Optional(Type.String({ maxLength: 255 })) });
type Paged = { Querystring: typeof PageQuery.static };

/**
 * The administration pages (GitLab 8.12's `/admin` basics): users (block, unblock), projects,
 * runners and the shared runners' registration token. To anyone but an administrator, signed in
 * or not, every one of them is a 404, as a page that does not exist.
 */
export function adminRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const admin = (request: FastifyRequest): User => {
    const user = request.web.user;
    if (!user || !administers(user)) throw notFound();
    return user;
  };
  const window = (page: number) => ({ offset: (page - 1) * PER_PAGE, limit: PER_PAGE });

  pages.get('/admin', { config: PAGE }, async (request, reply) => {
    const user = admin(request);
    const one = { offset: 0, limit: 1 };
    const [users, projects, runners] = await Promise.all([
      services.users.list(one),
      services.projects.list(user, { scope: 'visible', orderBy: 'id', sort: 'asc', ...one }),
      services.runnerAdmin.listAll(undefined, one),
    ]);
    return sendPage(
      request,
      reply,
      'Admin area',
      adminOverviewPage({ users: users.total, projects: projects.total, runners: runners.total }),
    );
  });

  pages.get<Paged>('/admin/users', { config: PAGE, schema: { querystring: PageQuery } }, async (request, reply) => {
    const user = admin(request);
    const page = pageNumber(request.query.page);
    const { users, total } = await services.users.list(window(page));
    const list = { items: users, page, perPage: PER_PAGE, total };
    return sendPage(request, reply, 'Users · Admin area', adminUsersPage(list, pageContext(request).csrfToken, user.id));
  });

  for (const action of ['block', 'unblock'] as const) {
    pages.post<{ Params: { id: string } }>(
      `/admin/users/:id/${action}`,
      { config: PAGE, schema: { body: TokenBody } },
      async (request, reply) => {
        const user = admin(request);
        const id = recordId(request.params.id);
        // An administrator who blocked themselves would be signed out with nobody to undo it.
        if (id === user.id) throw new WebError(400, 'You cannot block yourself.');
        await services.users.setBlocked(id, action === 'block');
        return reply.redirect('/admin/users', 303);
      },
    );
  }

  pages.get<Paged>('/admin/projects', { config: PAGE, schema: { querystring: PageQuery } }, async (request, reply) => {
    const user = admin(request);
    const page = pageNumber(request.query.page);
    const { projects, total } = await services.projects.list(user, { scope: 'visible', orderBy: 'id', sort: 'desc', ...window(page) });
    return sendPage(request, reply, 'Projects · Admin area', adminProjectsPage({ items: projects, page, perPage: PER_PAGE, total }));
  });

  pages.get<Paged>('/admin/runners', { config: PAGE, schema: { querystring: PageQuery } }, async (request, reply) => {
    admin(request);
    const page = pageNumber(request.query.page);
    const [{ runners, total }, settings] = await Promise.all([
      services.runnerAdmin.listAll(undefined, window(page)),
      services.settings.get(),
    ]);
    const list = { items: runners, page, perPage: PER_PAGE, total };
    const body = adminRunnersPage(list, settings.runners_registration_token, pageContext(request).csrfToken);
    return sendPage(request, reply, 'Runners · Admin area', body);
  });

  // Any other path under /admin is the web door's 404 page too, not the API's (the router does not
  // fall back from `/admin/…` to `/:namespace/:project`): a missing admin page reads as a hidden one.
  pages.get('/admin/*', { config: PAGE }, async () => {
    throw notFound();
  });

  pages.post('/admin/application_settings/reset_runners_token', { config: PAGE, schema: { body: TokenBody } }, async (request, reply) => {
    admin(request);
    await services.settings.resetRunnersToken();
    return reply.redirect('/admin/runners', 303);
  });
}
