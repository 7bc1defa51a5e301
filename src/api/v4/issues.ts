import { Type, type Static } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import type { IssueAttributes, IssueFilters } from '../../services/issues/types';
import { Issue, IssueBasic, presentIssue, presentIssueBasic } from './entities/issue';
import { Todo, presentTodo } from './entities/todo';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { toBoolean } from '../../http/params';
import { filterId, idParam, NameString, RecordId, TextString } from '../shared/params';
import {
  assigneeParam,
  dateParam,
  iidsFilter,
  labelFilter,
  Labels,
  labelsParam,
  listOrder,
  Loose,
  milestoneFilter,
  OneOrMany,
  PageParams,
  scopeFilter,
  stateEvent,
  Text,
  timeParam,
} from './issuable-params';

const ProjectId = Type.Object({ id: Type.String() });
const IssuePath = Type.Object({ id: Type.String(), issue_iid: RecordId });
const NoParams = Type.Object({});
// A subscription or a todo that changes nothing is 304 with no body.
const NotModified = { 304: Type.Null({ description: 'nothing changed' }) };

const ListQuery = Type.Object({
  state: Text,
  labels: Labels,
  milestone: Text,
  scope: Text,
  author_id: Loose,
  assignee_id: Loose,
  iids: OneOrMany,
  search: Text,
  order_by: Text,
  sort: Text,
  ...PageParams,
});
type ListParams = Static<typeof ListQuery>;

const IssueFields = {
  description: Type.Optional(TextString()),
  assignee_ids: OneOrMany,
  assignee_id: Loose,
  milestone_id: Loose,
  labels: Labels,
  due_date: Text,
  confidential: Loose,
};
const CreateBody = Type.Object({ title: NameString(), created_at: Text, ...IssueFields });
const UpdateBody = Type.Object({ title: Type.Optional(NameString()), updated_at: Text, state_event: Text, ...IssueFields });
const MoveBody = Type.Object({ to_project_id: Type.Union([Type.Integer(), Type.String(), Type.Boolean()]) });

/** The fields create and update share; blank values are not given, except `labels` (blank removes them). */
function issueAttributes(body: Static<typeof CreateBody> | Static<typeof UpdateBody>): IssueAttributes {
  const milestoneId = idParam('milestone_id', body.milestone_id);
  return {
    title: body.title === '' ? undefined : body.title,
    description: body.description === '' ? undefined : body.description,
    assigneeId: assigneeParam(body.assignee_ids, body.assignee_id),
    // 0 names no milestone: it clears it.
    milestoneId: milestoneId === 0 ? null : milestoneId,
    labels: labelsParam(body.labels),
    dueDate: dateParam(body.due_date),
    confidential: toBoolean(body.confidential),
  };
}

/** v4's list filters: `state` (every state unless asked), `labels` all of them, `iids[]`, and the caller's `scope`. */
function listFilters(query: ListParams, callerId: number | undefined, scope: 'created_by_me' | 'all'): IssueFilters {
  const byScope = scopeFilter(query.scope, callerId, scope);
  return {
    state: query.state === 'opened' || query.state === 'closed' ? query.state : 'all',
    allLabels: labelFilter(query.labels),
    milestone: milestoneFilter(query.milestone),
    iids: iidsFilter(query.iids),
    search: query.search === '' ? undefined : query.search,
    authorId: byScope.authorId ?? filterId(query.author_id),
    assigneeId: byScope.assigneeId ?? filterId(query.assignee_id),
    ...listOrder(query.order_by, query.sort),
  };
}

/** Issues in v4 (GitLab 11's `issues.rb`): the caller's, a group's and a project's; each project issue by its `iid`. */
export function issuesRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { issues, slashCommands, subscriptions, todos } = services;
  const read = { access: 'optional', project: 'read_issue' } as const;

  api.get('/issues', { schema: { querystring: ListQuery, response: { 200: Type.Array(IssueBasic) } } }, async (request, reply) => {
    const page = pageOf(request.query);
    const caller = request.user!;
    const { issues: list, total } = await issues.listReadable(caller, listFilters(request.query, caller.id, 'created_by_me'), page);
    setPageHeaders(request, reply, presenter.externalUrl, page, total);
    return list.map((details) => presentIssueBasic(details, presenter));
  });

  api.get(
    '/groups/:id/issues',
    {
      config: { group: 'read_group' },
      schema: { params: ProjectId, querystring: ListQuery, response: { 200: Type.Array(IssueBasic) } },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const caller = request.user!;
      const filters = listFilters(request.query, caller.id, 'all');
      const { issues: list, total } = await issues.listForGroup(request.group.id, caller, filters, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map((details) => presentIssueBasic(details, presenter));
    },
  );

  api.get(
    '/projects/:id/issues',
    { config: read, schema: { params: ProjectId, querystring: ListQuery, response: { 200: Type.Array(IssueBasic) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const filters = listFilters(request.query, request.user?.id, 'all');
      const { issues: list, total } = await issues.listForProject(request.project, request.standing, filters, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map((details) => presentIssueBasic(details, presenter));
    },
  );

  api.get(
    '/projects/:id/issues/:issue_iid',
    { config: read, schema: { params: IssuePath, querystring: NoParams, response: { 200: Issue } } },
    async (request) => presentIssue(await issues.findByIid(request.project, request.standing, request.params.issue_iid), presenter),
  );

  api.post(
    '/projects/:id/issues',
    { config: { project: 'create_issue' }, schema: { params: ProjectId, body: CreateBody, response: { 201: Issue } } },
    async (request, reply) => {
      const { body } = request;
      const attributes = { ...issueAttributes(body), createdAt: timeParam('created_at', body.created_at) };
      // The description's slash commands run with the issue's creation.
      const created = await slashCommands.createIssue(request.project, request.standing, request.user!, attributes);
      return reply.status(201).send(presentIssue(created, presenter));
    },
  );

  api.put(
    '/projects/:id/issues/:issue_iid',
    { config: { project: 'read_issue' }, schema: { params: IssuePath, body: UpdateBody, response: { 200: Issue } } },
    async (request) => {
      const { body, project, standing } = request;
      const issueId = await issues.idByIid(project, standing, request.params.issue_iid);
      const attributes = {
        ...issueAttributes(body),
        stateEvent: stateEvent(body.state_event),
        updatedAt: timeParam('updated_at', body.updated_at),
      };
      return presentIssue(await slashCommands.updateIssue(project, standing, request.user!, issueId, attributes), presenter);
    },
  );

  // v4 answers a deletion with no content.
  api.delete(
    '/projects/:id/issues/:issue_iid',
    {
      config: { project: 'destroy_issue' },
      schema: { params: IssuePath, querystring: NoParams, response: { 204: Type.Null({ description: 'removed' }) } },
    },
    async (request, reply) => {
      await issues.remove(request.project, await issues.idByIid(request.project, request.standing, request.params.issue_iid));
      return reply.status(204).send(null);
    },
  );

  api.post(
    '/projects/:id/issues/:issue_iid/move',
    { config: { project: 'read_issue' }, schema: { params: IssuePath, body: MoveBody, response: { 201: Issue } } },
    async (request, reply) => {
      const { project, standing } = request;
      const issueId = await issues.idByIid(project, standing, request.params.issue_iid);
      const targetId = idParam('to_project_id', request.body.to_project_id) ?? 0;
      const moved = await issues.move(project, standing, request.user!, issueId, targetId);
      return reply.status(201).send(presentIssue(moved, presenter));
    },
  );

  for (const [action, subscribed] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const) {
    api.post(
      `/projects/:id/issues/:issue_iid/${action}`,
      {
        config: { project: 'read_issue' },
        schema: { params: IssuePath, body: Type.Optional(NoParams), response: { 201: Issue, ...NotModified } },
      },
      async (request, reply) => {
        const { project, standing } = request;
        const issueId = await issues.idByIid(project, standing, request.params.issue_iid);
        const changed = subscribed
          ? await subscriptions.subscribeToIssue(project, standing, issueId)
          : await subscriptions.unsubscribeFromIssue(project, standing, issueId);
        return reply.status(201).send(presentIssue(changed, presenter));
      },
    );
  }

  api.post(
    '/projects/:id/issues/:issue_iid/todo',
    {
      config: { project: 'read_issue' },
      schema: { params: IssuePath, body: Type.Optional(NoParams), response: { 201: Todo, ...NotModified } },
    },
    async (request, reply) => {
      const { project, standing } = request;
      const issueId = await issues.idByIid(project, standing, request.params.issue_iid);
      return reply.status(201).send(presentTodo(await todos.markIssue(project, standing, request.user!, issueId), presenter));
    },
  );

  api.get(
    '/projects/:id/milestones/:milestone_id/issues',
    {
      config: { access: 'optional', project: 'read_milestone' },
      schema: {
        params: Type.Object({ id: Type.String(), milestone_id: RecordId }),
        querystring: Type.Object(PageParams),
        response: { 200: Type.Array(IssueBasic) },
      },
    },
    async (request, reply) => {
      const page = pageOf(request.query);
      const { project, standing } = request;
      const { issues: list, total } = await issues.listForMilestone(project, standing, request.params.milestone_id, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map((details) => presentIssueBasic(details, presenter));
    },
  );
}
