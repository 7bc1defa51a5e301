import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { notFound } from '../errors';
import type { Services } from '../services/index';
import { PAGE, sendPage, WebError } from './request';
import { recordId } from './pipeline-routes';
import { pageNumber } from './pages/pager';
import { ADMIN_PER_PAGE, adminWindow, administrator, TokenBody } from './admin-guard';
import { adminGroupsPage, adminOverviewPage, adminProjectsPage } from './pages/admin/admin';
import { redirectWithNotice } from './flash';

const PageQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 10 })) });
type Paged = { Querystring: typeof PageQuery.static };

/**
 * The administration pages' overview, blocking and unblocking users, and every project (GitLab
 * 8.12's `/admin`), and every group; users, runners, broadcast messages, hooks, settings and jobs have files of their own. To anyone but
 * an administrator, signed in or not, every one of them is a 404, as a page that does not exist.
 */
export function adminRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  pages.get('/admin', { config: PAGE }, async (request, reply) => {
    const user = administrator(request);
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

  for (const action of ['block', 'unblock'] as const) {
    pages.post<{ Params: { id: string } }>(
      `/admin/users/:id/${action}`,
      { config: PAGE, schema: { body: TokenBody } },
      async (request, reply) => {
        const user = administrator(request);
        const id = recordId(request.params.id);
        // An administrator who blocked themselves would be signed out with nobody to undo it.
        if (id === user.id) throw new WebError(400, 'You cannot block yourself.');
        await services.users.setBlocked(id, action === 'block');
        return redirectWithNotice(request, reply, '/admin/users', action === 'block' ? 'Successfully blocked' : 'Successfully unblocked');
      },
    );
  }

  pages.get<Paged>('/admin/projects', { config: PAGE, schema: { querystring: PageQuery } }, async (request, reply) => {
    const user = administrator(request);
    const page = pageNumber(request.query.page);
    const { projects, total } = await services.projects.list(user, { scope: 'visible', orderBy: 'id', sort: 'desc', ...adminWindow(page) });
    return sendPage(request, reply, 'Projects · Admin area', adminProjectsPage({ items: projects, page, perPage: ADMIN_PER_PAGE, total }));
  });

  pages.get<Paged>('/admin/groups', { config: PAGE, schema: { querystring: PageQuery } }, async (request, reply) => {
    const user = administrator(request);
    const page = pageNumber(request.query.page);
    const { groups, total } = await services.groups.list(user, { orderBy: 'name', sort: 'asc', ...adminWindow(page) });
    return sendPage(request, reply, 'Groups · Admin area', adminGroupsPage({ items: groups, page, perPage: ADMIN_PER_PAGE, total }));
  });

  // Any other path under /admin is the web door's 404 page too, not the API's (the router does not
  // fall back from `/admin/…` to `/:namespace/:project`): a missing admin page reads as a hidden one.
  pages.get('/admin/*', { config: PAGE }, async () => {
    throw notFound();
  });
}
