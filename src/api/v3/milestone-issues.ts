import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Issue, presentIssue } from './entities/issue';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { RecordId } from '../shared/params';

const MilestonePath = Type.Object({ id: Type.String(), milestone_id: RecordId });
const PageQuery = Type.Object({ page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });

/** A milestone's issues, every state, confidential ones only for those who may see them. */
export function milestoneIssuesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  api.get(
    '/projects/:id/milestones/:milestone_id/issues',
    {
      config: { project: 'read_milestone' },
      schema: { params: MilestonePath, querystring: PageQuery, response: { 200: Type.Array(Issue) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { issues, total } = await services.issues.listForMilestone(
        request.project,
        request.standing,
        request.params.milestone_id,
        page,
      );
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return issues.map((details) => presentIssue(details, presenter));
    },
  );
}
