import { Type, type Static } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import type { MergeRequestAttributes, MergeRequestFilters } from '../../services/merge-requests/types';
import { MergeRequest, MergeRequestBasic, presentMergeRequest, presentMergeRequestBasic } from './entities/merge-request';
import { Todo, presentTodo } from './entities/todo';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { FilePathString, filterId, idParam, NameString, RecordId, TextString } from '../shared/params';
import {
  assigneeParam,
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
} from './issuable-params';

const ProjectId = Type.Object({ id: Type.String() });
const MergeRequestPath = Type.Object({ id: Type.String(), merge_request_iid: RecordId });
const NoParams = Type.Object({});
// A subscription or a todo that changes nothing is 304 with no body.
const NotModified = { 304: Type.Null({ description: 'nothing changed' }) };

const ListQuery = Type.Object({
  state: Text,
  order_by: Text,
  sort: Text,
  milestone: Text,
  labels: Labels,
  iids: OneOrMany,
  scope: Text,
  author_id: Loose,
  assignee_id: Loose,
  source_branch: Type.Optional(FilePathString()),
  target_branch: Type.Optional(FilePathString()),
  ...PageParams,
});
type ListParams = Static<typeof ListQuery>;

const Fields = {
  description: Type.Optional(TextString()),
  assignee_id: Loose,
  assignee_ids: OneOrMany,
  milestone_id: Loose,
  labels: Labels,
};
const CreateBody = Type.Object({
  source_branch: FilePathString(),
  target_branch: FilePathString(),
  title: NameString(),
  ...Fields,
  target_project_id: Loose,
});
// `source_branch` is accepted only to be refused with the service's own message.
const UpdateBody = Type.Object({
  title: Type.Optional(NameString()),
  target_branch: Type.Optional(FilePathString()),
  ...Fields,
  state_event: Text,
  source_branch: Type.Optional(Type.Any()),
});

function mergeRequestAttributes(body: Static<typeof CreateBody> | Static<typeof UpdateBody>): MergeRequestAttributes {
  const milestoneId = idParam('milestone_id', body.milestone_id);
  return {
    title: body.title === '' ? undefined : body.title,
    description: body.description === '' ? undefined : body.description,
    targetBranch: body.target_branch === '' ? undefined : body.target_branch,
    assigneeId: assigneeParam(body.assignee_ids, body.assignee_id),
    milestoneId: milestoneId === 0 ? null : milestoneId,
    labels: labelsParam(body.labels),
  };
}

/** v4's list filters: `state` opened, closed, merged or every state; `labels` all of them; `iids[]`; the caller's `scope`. */
function listFilters(query: ListParams, callerId: number | undefined, scope: 'created_by_me' | 'all'): MergeRequestFilters {
  const byScope = scopeFilter(query.scope, callerId, scope);
  const state = query.state === 'opened' || query.state === 'closed' || query.state === 'merged' ? query.state : 'all';
  const blankless = (value: string | undefined) => (value === '' ? undefined : value);
  return {
    state,
    iids: iidsFilter(query.iids),
    milestone: milestoneFilter(query.milestone),
    allLabels: labelFilter(query.labels),
    authorId: byScope.authorId ?? filterId(query.author_id),
    assigneeId: byScope.assigneeId ?? filterId(query.assignee_id),
    sourceBranch: blankless(query.source_branch),
    targetBranch: blankless(query.target_branch),
    ...listOrder(query.order_by, query.sort),
  };
}

/**
 * Merge requests in v4 (GitLab 11's `merge_requests.rb`), each by its `iid`; their commits, changes,
 * versions and merging are `merge-request-git.ts`'s.
 */
export function mergeRequestsRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { mergeRequests, subscriptions, todos, slashCommands } = services;
  const read = { project: 'read_merge_request' } as const;
  const publicRead = { access: 'optional', project: 'read_merge_request' } as const;

  api.get(
    '/merge_requests',
    { schema: { querystring: ListQuery, response: { 200: Type.Array(MergeRequestBasic) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const caller = request.user!;
      const filters = listFilters(request.query, caller.id, 'created_by_me');
      const { mergeRequests: list, total } = await mergeRequests.listReadable(caller, filters, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map((details) => presentMergeRequestBasic(details, presenter));
    },
  );

  api.get(
    '/projects/:id/merge_requests',
    { config: publicRead, schema: { params: ProjectId, querystring: ListQuery, response: { 200: Type.Array(MergeRequestBasic) } } },
    async (request, reply) => {
      const page = pageOf(request.query);
      const filters = listFilters(request.query, request.user?.id, 'all');
      const { mergeRequests: list, total } = await mergeRequests.list(request.project, request.standing, filters, page);
      setPageHeaders(request, reply, presenter.externalUrl, page, total);
      return list.map((details) => presentMergeRequestBasic(details, presenter));
    },
  );

  api.get(
    '/projects/:id/merge_requests/:merge_request_iid',
    { config: publicRead, schema: { params: MergeRequestPath, querystring: NoParams, response: { 200: MergeRequest } } },
    async (request) => {
      const found = await mergeRequests.find(request.project, request.standing, { iid: request.params.merge_request_iid });
      return presentMergeRequest(found, presenter);
    },
  );

  // The route's project is the source; `target_project_id` names the target (it, or its upstream).
  api.post(
    '/projects/:id/merge_requests',
    { config: { project: 'create_merge_request' }, schema: { params: ProjectId, body: CreateBody, response: { 201: MergeRequest } } },
    async (request, reply) => {
      const { body } = request;
      const attributes = {
        ...mergeRequestAttributes(body),
        sourceBranch: body.source_branch,
        targetProjectId: idParam('target_project_id', body.target_project_id),
      };
      // The description's slash commands run with the merge request's creation.
      const created = await slashCommands.createMergeRequest(request.project, request.user!, attributes);
      return reply.status(201).send(presentMergeRequest(created, presenter));
    },
  );

  api.put(
    '/projects/:id/merge_requests/:merge_request_iid',
    { config: read, schema: { params: MergeRequestPath, body: UpdateBody, response: { 200: MergeRequest } } },
    async (request) => {
      const { body, project, standing } = request;
      const id = await mergeRequests.idByIid(project, request.params.merge_request_iid);
      const given = body.source_branch !== undefined && body.source_branch !== '';
      const attributes = {
        ...mergeRequestAttributes(body),
        stateEvent: stateEvent(body.state_event),
        sourceBranch: given ? String(body.source_branch) : undefined,
      };
      return presentMergeRequest(await slashCommands.updateMergeRequest(project, standing, request.user!, id, attributes), presenter);
    },
  );

  // v4 answers a deletion with no content.
  api.delete(
    '/projects/:id/merge_requests/:merge_request_iid',
    {
      config: read,
      schema: { params: MergeRequestPath, querystring: NoParams, response: { 204: Type.Null({ description: 'removed' }) } },
    },
    async (request, reply) => {
      const id = await mergeRequests.idByIid(request.project, request.params.merge_request_iid);
      await mergeRequests.remove(request.project, request.standing, id);
      return reply.status(204).send(null);
    },
  );

  for (const [action, subscribed] of [
    ['subscribe', true],
    ['unsubscribe', false],
  ] as const) {
    api.post(
      `/projects/:id/merge_requests/:merge_request_iid/${action}`,
      {
        config: read,
        schema: { params: MergeRequestPath, body: Type.Optional(NoParams), response: { 201: MergeRequest, ...NotModified } },
      },
      async (request, reply) => {
        const { project, standing } = request;
        const id = await mergeRequests.idByIid(project, request.params.merge_request_iid);
        const changed = subscribed
          ? await subscriptions.subscribeToMergeRequest(project, standing, id)
          : await subscriptions.unsubscribeFromMergeRequest(project, standing, id);
        return reply.status(201).send(presentMergeRequest(changed, presenter));
      },
    );
  }

  api.post(
    '/projects/:id/merge_requests/:merge_request_iid/todo',
    { config: read, schema: { params: MergeRequestPath, body: Type.Optional(NoParams), response: { 201: Todo, ...NotModified } } },
    async (request, reply) => {
      const id = await mergeRequests.idByIid(request.project, request.params.merge_request_iid);
      return reply.status(201).send(presentTodo(await todos.markMergeRequest(request.project, request.user!, id), presenter));
    },
  );
}
