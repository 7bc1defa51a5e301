import { Type } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import { Milestone, presentMilestone } from '../shared/entities/milestone';
import { MergeRequestBasic, presentMergeRequestBasic } from './entities/merge-request';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { givenAttributes, RecordId, TextString } from '../shared/params';
import { iidsFilter, OneOrMany, PageParams, Text } from './issuable-params';

const ProjectId = Type.Object({ id: Type.String() });
const MilestonePath = Type.Object({ id: Type.String(), milestone_id: RecordId });
const ListQuery = Type.Object({ state: Text, iids: OneOrMany, search: Text, ...PageParams });
// Lengths and dates are the service's checks.
const CreateBody = Type.Object({
  title: TextString(),
  description: Type.Optional(TextString()),
  due_date: Type.Optional(TextString()),
  start_date: Type.Optional(TextString()),
});
const UpdateBody = Type.Object({
  title: Type.Optional(TextString()),
  description: Type.Optional(TextString()),
  due_date: Type.Optional(TextString()),
  start_date: Type.Optional(TextString()),
  state_event: Type.Optional(TextString()),
});

/**
 * A project's milestones in v4: readers list them (`iids[]`, `state`, `search`), masters create
 * and change them. Forge keeps no start dates: `start_date` is accepted and not kept. A milestone's
 * issues are `issues.ts`'s.
 */
export function milestonesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { milestones, mergeRequests } = services;
  const read = { access: 'optional', project: 'read_milestone' } as const;

  api.get(
    '/projects/:id/milestones',
    { config: read, schema: { params: ProjectId, querystring: ListQuery, response: { 200: Type.Array(Milestone) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { state, iids, search } = request.query;
      const filter = {
        state,
        iids: iidsFilter(iids)?.map(String),
        search: search === '' ? undefined : search,
      };
      const { milestones: list, total } = await milestones.list(request.project.id, filter, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map(presentMilestone);
    },
  );

  api.get(
    '/projects/:id/milestones/:milestone_id',
    { config: read, schema: { params: MilestonePath, querystring: Type.Object({}), response: { 200: Milestone } } },
    async (request) => presentMilestone(await milestones.find(request.project.id, request.params.milestone_id)),
  );

  api.post(
    '/projects/:id/milestones',
    { config: { project: 'admin_milestone' }, schema: { params: ProjectId, body: CreateBody, response: { 201: Milestone } } },
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
    { config: { project: 'admin_milestone' }, schema: { params: MilestonePath, body: UpdateBody, response: { 200: Milestone } } },
    async (request) => {
      const { start_date: _ignored, ...changes } = request.body;
      const updated = await milestones.update(request.project.id, request.user!.id, request.params.milestone_id, givenAttributes(changes));
      return presentMilestone(updated);
    },
  );

  // The merge requests of the milestone, every state, as a project's list filtered by the milestone's title.
  api.get(
    '/projects/:id/milestones/:milestone_id/merge_requests',
    {
      config: { access: 'optional', project: 'read_merge_request' },
      schema: { params: MilestonePath, querystring: Type.Object(PageParams), response: { 200: Type.Array(MergeRequestBasic) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const milestone = await milestones.find(request.project.id, request.params.milestone_id);
      const filters = { state: 'all', milestone: milestone.title, orderBy: 'created_at', sort: 'asc' } as const;
      const { mergeRequests: list, total } = await mergeRequests.list(request.project, request.standing, filters, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map((details) => presentMergeRequestBasic(details, presenter));
    },
  );
}
