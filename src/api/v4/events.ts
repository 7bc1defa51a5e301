import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api, RouteDeps } from '../shared/types';
import { EventBase, presentEventBase } from '../shared/entities/event';
import { pageOf, setPageHeaders } from '../../http/pagination';
import type { EventRow } from '../../services/events/events';
import { notFound } from '../../errors';

const ProjectId = Type.Object({ id: Type.String() });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });

/** v4's `target_type` filter names the target in snake case. */
const TARGET_TYPES = { issue: 'Issue', merge_request: 'MergeRequest', milestone: 'Milestone', note: 'Note' } as const;
const UserEventsQuery = Type.Object({
  target_type: Type.Optional(Type.Union(Object.keys(TARGET_TYPES).map((name) => Type.Literal(name)))),
  sort: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  page: Type.Optional(Type.Any()),
  per_page: Type.Optional(Type.Any()),
});
type UserEventsQuery = Static<typeof UserEventsQuery>;

/**
 * Events: a project's (anonymous callers: a public project's), a user's and the caller's own, newest
 * first, as far as the caller may see each. A comment event does not embed its note here yet.
 */
export function eventsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  async function present(events: EventRow[]) {
    const authorIds = events.map((event) => event.author_id).filter((id): id is number => id !== null);
    const authors = await services.users.findMany(authorIds);
    return events.map((event) => presentEventBase(event, authors, presenter));
  }

  /** A user's events in every project, as far as the caller may see each. */
  async function userEvents(request: FastifyRequest, reply: FastifyReply, authorId: number) {
    const query = request.query as UserEventsQuery;
    const page = pageOf(query);
    const { events, total } = await services.events.listByAuthor(request.user!, authorId, {
      sort: query.sort,
      targetType: query.target_type && TARGET_TYPES[query.target_type as keyof typeof TARGET_TYPES],
      offset: page.offset,
      limit: page.limit,
    });
    setPageHeaders(request, reply, presenter.externalUrl, page, total);
    return present(events);
  }

  api.get('/events', { schema: { querystring: UserEventsQuery, response: { 200: Type.Array(EventBase) } } }, (request, reply) =>
    userEvents(request, reply, request.user!.id),
  );

  api.get(
    '/users/:id/events',
    { schema: { params: Type.Object({ id: Type.String() }), querystring: UserEventsQuery, response: { 200: Type.Array(EventBase) } } },
    async (request, reply) => {
      const author = await services.users.findByIdOrUsername(request.params.id);
      if (!author) throw notFound('User');
      return userEvents(request, reply, author.id);
    },
  );

  api.get(
    '/projects/:id/events',
    {
      config: { access: 'optional', project: 'read_project' },
      schema: { params: ProjectId, querystring: PageQuery, response: { 200: Type.Array(EventBase) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { events, total } = await services.events.list(request.project.id, request.standing, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return present(events);
    },
  );
}
