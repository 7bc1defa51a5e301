import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Milestone, presentMilestone } from '../shared/entities/milestone';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { RecordId, TextString, givenAttributes } from '../shared/params';

const ProjectId = Type.Object({ id: Type.String() });
// A path that is not a record id names no milestone (404).
const MilestonePath = Type.Object({ id: Type.String(), milestone_id: RecordId });
const ListQuery = Type.Object({
  state: Type.Optional(Type.String()),
  // `iid=1` or `iid[]=1&iid[]=2`
  iid: Type.Optional(Type.Array(Type.String())),
  page: Type.Optional(Type.Any()),
  per_page: Type.Optional(Type.Any()),
});
// Lengths and dates are the service's checks, answered in 8.12's `Failed to … milestone` shape.
const CreateBody = Type.Object({ title: TextString(), description: Type.Optional(TextString()), due_date: Type.Optional(TextString()) });
const UpdateBody = Type.Object({
  title: Type.Optional(TextString()),
  description: Type.Optional(TextString()),
  due_date: Type.Optional(TextString()),
  state_event: Type.Optional(TextString()),
});

/**
 * A project's milestones: readers list them, masters create and change them. Both need issues or
 * merge requests on. `GET …/milestones/:milestone_id/issues` belongs to the issues API.
 */
export function milestonesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { milestones } = services;

  api.get(
    '/projects/:id/milestones',
    {
      config: { project: 'read_milestone' },
      schema: { params: ProjectId, querystring: ListQuery, response: { 200: Type.Array(Milestone) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { milestones: list, total } = await milestones.list(
        request.project.id,
        { state: request.query.state, iids: request.query.iid },
        page,
      );
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map(presentMilestone);
    },
  );

  api.get(
    '/projects/:id/milestones/:milestone_id',
    {
      config: { project: 'read_milestone' },
      schema: { params: MilestonePath, querystring: Type.Object({}), response: { 200: Milestone } },
    },
    async (request) => presentMilestone(await milestones.find(request.project.id, request.params.milestone_id)),
  );

  // `required_attributes! [:title]`: a missing or blank title is `400 (Bad request) "title" not given`.
  api.post(
    '/projects/:id/milestones',
    {
      config: { project: 'admin_milestone' },
      schema: { params: ProjectId, body: CreateBody, response: { 201: Milestone } },
    },
    async (request, reply) => {
      const { title, description, due_date } = request.body;
      const created = await milestones.create(request.project.id, request.user!.id, {
        title,
        ...givenAttributes({ description, due_date }),
      });
      return reply.status(201).send(presentMilestone(created));
    },
  );

  api.put(
    '/projects/:id/milestones/:milestone_id',
    {
      config: { project: 'admin_milestone' },
      schema: { params: MilestonePath, body: UpdateBody, response: { 200: Milestone } },
    },
    async (request) => {
      const changes = givenAttributes(request.body);
      return presentMilestone(await milestones.update(request.project.id, request.user!.id, request.params.milestone_id, changes));
    },
  );
}
