import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { EventBase, presentEventBase } from '../shared/entities/event';
import { pageOf, setPageHeaders } from '../../http/pagination';

const ProjectId = Type.Object({ id: Type.String() });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });

/**
 * A project's events, newest first, as far as the caller may see them (anonymous callers: those of a
 * public project). A comment event does not embed its note in v4 here (see the report of issue 24).
 */
export function eventsRoutes(api: Api, { services, presenter }: RouteDeps): void {
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
      const authorIds = events.map((event) => event.author_id).filter((id): id is number => id !== null);
      const authors = await services.users.findMany(authorIds);
      return events.map((event) => presentEventBase(event, authors, presenter));
    },
  );
}
