import { Type, type Static } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import type { TodoFilters } from '../../services/todos/todos';
import { TODO_ACTIONS, type TodoActionName } from '../../services/todos/records';
import { Todo, presentTodo } from './entities/todo';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { RecordId, filterId } from '../shared/params';

const Loose = Type.Optional(Type.Union([Type.Integer(), Type.String(), Type.Boolean(), Type.Null()]));
const Text = Type.Optional(Type.String());

const Filters = {
  action_id: Loose,
  action: Text,
  author_id: Loose,
  project_id: Loose,
  state: Text,
  type: Text,
};
const ListQuery = Type.Object({ ...Filters, page: Type.Optional(Type.Any()), per_page: Type.Optional(Type.Any()) });
const MarkAllQuery = Type.Object(Filters);
const IssuePath = Type.Object({ id: Type.String(), issue_id: RecordId });

/**
 * The filters as 8.12's `TodosFinder` read them: an unknown `action_id`, `action` or `type` does
 * not filter; `state` is `pending` unless it is `done`. Given both, `action_id` and `action` must agree.
 */
function todoFilters(query: Static<typeof MarkAllQuery>): TodoFilters {
  const known = Object.values(TODO_ACTIONS) as number[];
  const actionId = filterId(query.action_id);
  const byId = actionId !== undefined && known.includes(actionId) ? actionId : undefined;
  const byName =
    query.action !== undefined && Object.hasOwn(TODO_ACTIONS, query.action) ? TODO_ACTIONS[query.action as TodoActionName] : undefined;
  return {
    action: byId !== undefined && byName !== undefined && byId !== byName ? -1 : (byId ?? byName),
    authorId: filterId(query.author_id),
    projectId: filterId(query.project_id),
    state: query.state === 'done' ? 'done' : 'pending',
    type: query.type === 'Issue' || query.type === 'MergeRequest' ? query.type : undefined,
  };
}

/** The caller's todos (GitLab 8.12's `todos.rb`). */
export function todosRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { todos } = services;

  api.get('/todos', { schema: { querystring: ListQuery, response: { 200: Type.Array(Todo) } } }, async (request, reply) => {
    const page = pageOf(request.query);
    const { todos: list, total } = await todos.list(request.user!, todoFilters(request.query), page);
    setPageHeaders(request, reply, presenter.externalUrl, page, total);
    return list.map((details) => presentTodo(details, presenter));
  });

  api.delete(
    '/todos/:id',
    {
      schema: { params: Type.Object({ id: RecordId }), querystring: Type.Object({}), response: { 200: Todo } },
    },
    async (request) => presentTodo(await todos.markDone(request.user!, request.params.id), presenter),
  );

  // 8.12 answered the number of todos it marked done, a bare integer.
  api.delete('/todos', { schema: { querystring: MarkAllQuery, response: { 200: Type.Integer() } } }, async (request) =>
    todos.markAllDone(request.user!, todoFilters(request.query)),
  );

  api.post(
    '/projects/:id/issues/:issue_id/todo',
    {
      config: { project: 'read_issue' },
      schema: { params: IssuePath, response: { 201: Todo } },
    },
    async (request, reply) => {
      const marked = await todos.markIssue(request.project, request.standing, request.user!, request.params.issue_id);
      return reply.status(201).send(presentTodo(marked, presenter));
    },
  );
}
