import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, notFound } from '../errors';
import type { Services } from '../services/index';
import type { User } from '../services/users/users';
import { PAGE, pageContext, sendPage } from './request';
import { recordId } from './pipeline-routes';
import { pageNumber } from './pages/pager';
import { projectsPage } from './pages/listing';
import { projectPath } from './paths';
import { dashboardNav } from './pages/dashboard/nav';
import { todosPage } from './pages/dashboard/todos';
import { assignedIssuesPage, assignedMergeRequestsPage } from './pages/dashboard/assigned';
import { html } from './html';

const PER_PAGE = 20;
const PageQuery = Type.Object({ page: Type.Optional(Type.String({ maxLength: 10 })) });
const TokenBody = Type.Object({ authenticity_token: Type.Optional(Type.String({ maxLength: 255 })) });
type Paged = { Querystring: typeof PageQuery.static };

/**
 * A signed-in user's own work (GitLab 8.12's `/dashboard/…`): pending todos to mark done, the open
 * issues and merge requests assigned to them, their starred projects, and the project page's star
 * button. Reads and writes are the services `GET /todos`, `POST /todos/:id/mark_as_done`,
 * `GET /issues?scope=assigned_to_me` and `POST /projects/:id/star` use. Anonymous visitors are sent
 * to sign in; their forms are a 404.
 */
export function dashboardRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  const me = (request: FastifyRequest): User => {
    if (!request.web.user) throw notFound();
    return request.web.user;
  };
  const signInFirst = (request: FastifyRequest, reply: FastifyReply) =>
    reply.redirect(`/users/sign_in?redirect_to=${encodeURIComponent(request.url)}`, 303);
  const window = (page: number) => ({ offset: (page - 1) * PER_PAGE, limit: PER_PAGE });

  const showTodos = async (request: FastifyRequest<Paged>, reply: FastifyReply, notice?: string) => {
    const user = me(request);
    const page = pageNumber(request.query?.page);
    const { todos, total } = await services.todos.list(user, { state: 'pending' }, window(page));
    return sendPage(request, reply, 'Todos', todosPage({ todos, total, page, perPage: PER_PAGE }, pageContext(request).csrfToken, notice));
  };

  pages.get<Paged>('/dashboard/todos', { config: PAGE, schema: { querystring: PageQuery } }, async (request, reply) => {
    if (!request.web.user) return signInFirst(request, reply);
    return showTodos(request, reply);
  });

  pages.post<{ Params: { id: string } }>(
    '/dashboard/todos/:id/done',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      await services.todos.markDone(me(request), recordId(request.params.id));
      return reply.redirect('/dashboard/todos', 303);
    },
  );

  pages.post('/dashboard/todos/mark_all_done', { config: PAGE, schema: { body: TokenBody } }, async (request, reply) => {
    await services.todos.markAllDone(me(request), { state: 'pending' });
    return reply.redirect('/dashboard/todos', 303);
  });

  pages.get<Paged>('/dashboard/issues', { config: PAGE, schema: { querystring: PageQuery } }, async (request, reply) => {
    if (!request.web.user) return signInFirst(request, reply);
    const user = request.web.user;
    const page = pageNumber(request.query.page);
    const filters = { state: 'opened' as const, assigneeId: user.id, orderBy: 'updated_at' as const, sort: 'desc' as const };
    const { issues, total } = await services.issues.listReadable(user, filters, window(page));
    return sendPage(request, reply, 'Issues', assignedIssuesPage(issues, total, page, PER_PAGE));
  });

  pages.get<Paged>('/dashboard/merge_requests', { config: PAGE, schema: { querystring: PageQuery } }, async (request, reply) => {
    if (!request.web.user) return signInFirst(request, reply);
    const user = request.web.user;
    const page = pageNumber(request.query.page);
    const filters = { state: 'opened' as const, assigneeId: user.id, orderBy: 'updated_at' as const, sort: 'desc' as const };
    const { mergeRequests, total } = await services.mergeRequests.listReadable(user, filters, window(page));
    return sendPage(request, reply, 'Merge requests', assignedMergeRequestsPage(mergeRequests, total, page, PER_PAGE));
  });

  pages.get('/dashboard/projects/starred', { config: PAGE }, async (request, reply) => {
    if (!request.web.user) return signInFirst(request, reply);
    const { projects } = await services.projects.list(request.web.user, {
      scope: 'visible',
      starred: true,
      orderBy: 'last_activity_at',
      sort: 'desc',
      offset: 0,
      limit: 100,
    });
    const body = html`${dashboardNav('Starred projects')}${projectsPage('Starred projects', projects, 'You have not starred any project yet.')}`;
    return sendPage(request, reply, 'Starred projects', body);
  });

  // Star or unstar, whichever the project is not (GitLab 8.12's `toggle_star`), then back to its page.
  pages.post<{ Params: { namespace: string; project: string } }>(
    '/:namespace/:project/toggle_star',
    { config: PAGE, schema: { body: TokenBody } },
    async (request, reply) => {
      const user = me(request);
      const { project } = await services.projects.findReadable(`${request.params.namespace}/${request.params.project}`, user);
      await services.projects.star(project, user).catch(async (error) => {
        if (!(error instanceof ApiError && error.status === 304)) throw error;
        await services.projects.unstar(project, user);
      });
      return reply.redirect(projectPath(project), 303);
    },
  );

  // The router does not fall back from `/dashboard/…` to `/:namespace/:project`: other paths are the web door's 404 page.
  pages.get('/dashboard/*', { config: PAGE }, async () => {
    throw notFound();
  });
}
