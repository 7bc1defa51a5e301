import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../services/index';
import type { Group } from '../services/groups/groups';
import { canOnGroup, type GroupStanding } from '../services/policy';
import { PAGE, sendPage } from './request';
import { type GroupParams, readableGroup } from './group-scope';
import { signInFirst } from './issue-routes';
import { pageNumber } from './pages/pager';
import { groupPage } from './pages/groups/show';
import { type GroupIssuable, groupIssuablesPage } from './pages/groups/issuables';
import type { Joining } from './pages/access-requests';

const PER_PAGE = 20;

const ListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 255 })),
  state: Type.Optional(Type.String({ maxLength: 20 })),
  page: Type.Optional(Type.String({ maxLength: 20 })),
});
type ListQuery = Static<typeof ListQuery>;
type ListRequest = FastifyRequest<{ Params: GroupParams; Querystring: ListQuery }>;

const window = (page: number) => ({ offset: (page - 1) * PER_PAGE, limit: PER_PAGE });

/**
 * A group's pages for reading (GitLab 8.12's `groups#show`, `issues`, `merge_requests`): its
 * projects, and the issues and merge requests of its projects, each by the API's reading rule.
 */
export function groupRoutes(pages: FastifyInstance, { services }: { services: Services }): void {
  /** Where the signed-in viewer stands towards joining: a member, a pending requester, or neither. */
  async function joiningOf(request: FastifyRequest, group: Group, standing: GroupStanding): Promise<Joining | undefined> {
    const user = request.web.user;
    if (!user) return undefined;
    const member = standing.memberAccess !== null;
    const pending = !member && (await services.accessRequests.pending(services.members.groupSource(group, standing), user));
    return { member, pending, csrfToken: request.web.csrfToken };
  }

  pages.get<{ Params: GroupParams; Querystring: ListQuery }>(
    '/groups/:path',
    { config: PAGE, schema: { querystring: ListQuery } },
    async (request, reply) => {
      const { group, standing } = await readableGroup(services, request);
      const search = request.query.search?.trim() ?? '';
      const page = pageNumber(request.query.page);
      // The API's `GET /groups/:id/projects`: the group's own projects and those shared with it, as far as the viewer reads them.
      const user = request.web.user;
      const [{ projects, total }, joining, notification] = await Promise.all([
        services.projects.list(request.web.user, {
          scope: 'visible',
          groupId: group.id,
          search: search || undefined,
          orderBy: 'name',
          sort: 'asc',
          ...window(page),
        }),
        joiningOf(request, group, standing),
        user ? services.notificationSettings.of(user.id, 'Namespace', group.id) : undefined,
      ]);
      const home = {
        group,
        projects,
        total,
        page,
        perPage: PER_PAGE,
        search,
        owner: canOnGroup(standing, 'admin_group'),
        mayCreate: canOnGroup(standing, 'create_projects'),
        joining,
        notification: notification && { level: notification.level, csrfToken: request.web.csrfToken },
      };
      return sendPage(request, reply, group.name, groupPage(home));
    },
  );

  /** The list's state as asked, or open ones. */
  const stateOf = <T extends string>(asked: string | undefined, states: readonly T[]): T =>
    states.includes(asked as T) ? (asked as T) : states[0]!;

  // The API's group issue list is for signed-in callers: anonymous visitors of a group they may see are asked to sign in.
  async function listScope(request: ListRequest, reply: FastifyReply) {
    const found = await readableGroup(services, request);
    const user = request.web.user;
    if (!user) return { signIn: signInFirst(request, reply) };
    const search = request.query.search?.trim() ?? '';
    return { ...found, user, search, page: pageNumber(request.query.page) };
  }

  pages.get<{ Params: GroupParams; Querystring: ListQuery }>(
    '/groups/:path/issues',
    { config: PAGE, schema: { querystring: ListQuery } },
    async (request, reply) => {
      const scope = await listScope(request, reply);
      if ('signIn' in scope) return scope.signIn;
      const { group, standing, user, search, page } = scope;
      const state = stateOf(request.query.state, ['opened', 'closed', 'all'] as const);
      const filters = { state, search: search || undefined, orderBy: 'created_at' as const, sort: 'desc' as const };
      const { issues, total } = await services.issues.listForGroup(group.id, user, filters, window(page));
      const items: GroupIssuable[] = issues.map(({ issue, project, author }) => ({
        project,
        iid: issue.iid,
        title: issue.title,
        state: issue.state,
        author: author?.name,
        confidential: issue.confidential === 1,
      }));
      const list = { group, kind: 'issues' as const, items, total, page, perPage: PER_PAGE, state, search };
      return sendPage(
        request,
        reply,
        `Issues · ${group.name}`,
        groupIssuablesPage({ ...list, owner: canOnGroup(standing, 'admin_group') }),
      );
    },
  );

  pages.get<{ Params: GroupParams; Querystring: ListQuery }>(
    '/groups/:path/merge_requests',
    { config: PAGE, schema: { querystring: ListQuery } },
    async (request, reply) => {
      const scope = await listScope(request, reply);
      if ('signIn' in scope) return scope.signIn;
      const { group, standing, user, search, page } = scope;
      const state = stateOf(request.query.state, ['opened', 'merged', 'closed', 'all'] as const);
      const filters = { state, search: search || undefined, orderBy: 'created_at' as const, sort: 'desc' as const };
      const { mergeRequests, total } = await services.mergeRequests.listForGroup(group.id, user, filters, window(page));
      const items: GroupIssuable[] = mergeRequests.map(({ mergeRequest, project, author }) => ({
        project,
        iid: mergeRequest.iid,
        title: mergeRequest.title,
        state: mergeRequest.state,
        author: author?.name,
      }));
      const list = { group, kind: 'merge_requests' as const, items, total, page, perPage: PER_PAGE, state, search };
      const body = groupIssuablesPage({ ...list, owner: canOnGroup(standing, 'admin_group') });
      return sendPage(request, reply, `Merge Requests · ${group.name}`, body);
    },
  );
}
