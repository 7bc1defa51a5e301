import { Type, type Static } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import type { IssueAttributes, IssueFilters } from '../../services/issues/types';
import { Issue, IssueRecord, presentIssue, presentIssueRecord } from './entities/issue';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { toBoolean } from '../../http/params';
import { filterTitles, labelTitles } from '../../services/issues/label-names';
import { invalidParam, validationFailed } from '../../errors';
import { filterId, idParam, NameString, RecordId, TextString } from '../shared/params';

const ProjectId = Type.Object({ id: Type.String() });
const IssuePath = Type.Object({ id: Type.String(), issue_id: RecordId });
const Loose = Type.Optional(Type.Union([Type.Integer(), Type.String(), Type.Boolean(), Type.Null()]));
const Text = Type.Optional(Type.String());

const ListQuery = Type.Object({
  state: Text,
  labels: Text,
  milestone: Text,
  order_by: Text,
  sort: Text,
  iid: Loose,
  search: Text,
  author_id: Loose,
  assignee_id: Loose,
  scope: Text,
  page: Type.Optional(Type.Any()),
  per_page: Type.Optional(Type.Any()),
});
type ListParams = Static<typeof ListQuery>;

const IssueFields = {
  description: Type.Optional(TextString()),
  assignee_id: Loose,
  milestone_id: Loose,
  labels: Type.Optional(TextString()),
  due_date: Text,
  confidential: Loose,
};
const CreateBody = Type.Object({ title: NameString(), created_at: Text, ...IssueFields });
const UpdateBody = Type.Object({ title: Type.Optional(NameString()), updated_at: Text, state_event: Text, ...IssueFields });
// Required: a missing or blank one is 8.12's `"to_project_id" not given` (`http/params.ts` drops a blank one).
const MoveBody = Type.Object({ to_project_id: Type.Union([Type.Integer(), Type.String(), Type.Boolean()]) });

/** `YYYY-MM-DD` naming a real day. */
function dateParam(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const date = new Date(`${value}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value) {
    throw validationFailed({ due_date: ['is not a valid date'] });
  }
  return value;
}

/** An ISO 8601 time, stored as Forge stores every time. */
function timeParam(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) throw invalidParam(name);
  return time.toISOString();
}

/** The fields create and update share, read as 8.12 did: blank values are not given (`attributes_for_keys`), except `labels`. */
function issueAttributes(body: Static<typeof CreateBody> | Static<typeof UpdateBody>): IssueAttributes {
  const assigneeId = idParam('assignee_id', body.assignee_id);
  const milestoneId = idParam('milestone_id', body.milestone_id);
  return {
    title: body.title === '' ? undefined : body.title,
    description: body.description === '' ? undefined : body.description,
    // 0 names nobody and no milestone: it clears them.
    assigneeId: assigneeId === 0 ? null : assigneeId,
    milestoneId: milestoneId === 0 ? null : milestoneId,
    labels: body.labels === undefined ? undefined : labelTitles(body.labels),
    dueDate: dateParam(body.due_date),
    confidential: toBoolean(body.confidential),
  };
}

/** `order_by` and `sort` as 8.12's helpers read them: anything unknown is the default. */
function order(query: ListParams): Pick<IssueFilters, 'orderBy' | 'sort'> {
  return { orderBy: query.order_by === 'updated_at' ? 'updated_at' : 'created_at', sort: query.sort === 'asc' ? 'asc' : 'desc' };
}

/** `state` of the project and user lists: `opened`, `closed`, or every issue. */
function listState(state: string | undefined): IssueFilters['state'] {
  return state === 'opened' || state === 'closed' ? state : 'all';
}

/** Issues: the caller's, a group's and a project's, and each project issue (GitLab 8.12's `issues.rb`). */
export function issuesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { issues, slashCommands } = services;

  api.get('/issues', { schema: { querystring: ListQuery, response: { 200: Type.Array(Issue) } } }, async (request, reply) => {
    const page = pageOf(request.query);
    const { query } = request;
    const filters: IssueFilters = { state: listState(query.state), anyLabels: filterTitles(query.labels), ...order(query) };
    const { issues: list, total } = await issues.listAuthored(request.user!, filters, page);
    setPageHeaders(request, reply, presenter.externalUrl, page, total);
    return list.map((details) => presentIssue(details, presenter));
  });

  api.get(
    '/groups/:id/issues',
    {
      config: { group: 'read_group' },
      schema: { params: ProjectId, querystring: ListQuery, response: { 200: Type.Array(Issue) } },
    },
    async (request, reply) => {
      const group = request.group;
      const page = pageOf(request.query);
      const { query } = request;
      const caller = request.user!;
      const scope = query.scope?.replace('_', '-');
      // The finder's state: `opened` unless asked; `all` and anything else show every state.
      const state = query.state === undefined ? 'opened' : query.state === 'opened' || query.state === 'closed' ? query.state : 'all';
      const filters: IssueFilters = {
        state,
        allLabels: filterTitles(query.labels),
        milestone: query.milestone === '' ? undefined : query.milestone,
        search: query.search,
        authorId: scope === 'created-by-me' ? caller.id : filterId(query.author_id),
        assigneeId: scope === 'assigned-to-me' ? caller.id : filterId(query.assignee_id),
        // Newest first by id unless an order was asked for.
        ...(query.order_by === undefined && query.sort === undefined ? { orderBy: 'id', sort: 'desc' } : order(query)),
      };
      const { issues: list, total } = await issues.listForGroup(group.id, caller, filters, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map((details) => presentIssue(details, presenter));
    },
  );

  api.get(
    '/projects/:id/issues',
    {
      config: { project: 'read_issue' },
      schema: { params: ProjectId, querystring: ListQuery, response: { 200: Type.Array(Issue) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { query } = request;
      const filters: IssueFilters = {
        state: listState(query.state),
        anyLabels: filterTitles(query.labels),
        milestone: query.milestone,
        iid: filterId(query.iid),
        ...order(query),
      };
      const { issues: list, total } = await issues.listForProject(request.project, request.standing, filters, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map((details) => presentIssue(details, presenter));
    },
  );

  api.get(
    '/projects/:id/issues/:issue_id',
    {
      config: { project: 'read_issue' },
      schema: { params: IssuePath, querystring: Type.Object({}), response: { 200: Issue } },
    },
    async (request) => presentIssue(await issues.find(request.project, request.standing, request.params.issue_id), presenter),
  );

  api.post(
    '/projects/:id/issues',
    {
      config: { project: 'create_issue' },
      schema: { params: ProjectId, body: CreateBody, response: { 201: Issue } },
    },
    async (request, reply) => {
      const { body } = request;
      const attributes = { ...issueAttributes(body), createdAt: timeParam('created_at', body.created_at) };
      // The description's slash commands run with the issue's creation.
      const created = await slashCommands.createIssue(request.project, request.standing, request.user!, attributes);
      return reply.status(201).send(presentIssue(created, presenter));
    },
  );

  api.put(
    '/projects/:id/issues/:issue_id',
    {
      config: { project: 'read_issue' },
      schema: { params: IssuePath, body: UpdateBody, response: { 200: Issue } },
    },
    async (request) => {
      const { body } = request;
      const stateEvent: IssueAttributes['stateEvent'] =
        body.state_event === 'close' || body.state_event === 'reopen' ? body.state_event : undefined;
      const attributes = { ...issueAttributes(body), stateEvent, updatedAt: timeParam('updated_at', body.updated_at) };
      const updated = await slashCommands.updateIssue(
        request.project,
        request.standing,
        request.user!,
        request.params.issue_id,
        attributes,
      );
      return presentIssue(updated, presenter);
    },
  );

  api.delete(
    '/projects/:id/issues/:issue_id',
    {
      config: { project: 'destroy_issue' },
      schema: { params: IssuePath, querystring: Type.Object({}), response: { 200: IssueRecord } },
    },
    async (request) => presentIssueRecord(await issues.remove(request.project, request.params.issue_id)),
  );

  api.post(
    '/projects/:id/issues/:issue_id/move',
    {
      config: { project: 'read_issue' },
      schema: { params: IssuePath, body: MoveBody, response: { 201: Issue } },
    },
    async (request, reply) => {
      const targetId = idParam('to_project_id', request.body.to_project_id) ?? 0;
      const moved = await issues.move(request.project, request.standing, request.user!, request.params.issue_id, targetId);
      return reply.status(201).send(presentIssue(moved, presenter));
    },
  );
}
