import { Type, type Static } from '@sinclair/typebox';
import type { Api, RouteDeps } from '../shared/types';
import type { TodoFilters } from '../../services/todos/todos';
import { TODO_ACTIONS, type TodoActionName } from '../../services/todos/queries';
import { Todo, presentTodo } from './entities/todo';
import { pageOf, setPageHeaders } from '../../http/pagination';
import { RecordId, filterId } from '../shared/params';
import { Loose, PageParams, Text } from './issuable-params';

const Filters = { action: Text, author_id: Loose, project_id: Loose, state: Text, type: Text };
const ListQuery = Type.Object({ ...Filters, ...PageParams });

/** The filters as GitLab's `TodosFinder` reads them: an unknown `action` or `type` does not filter; `state` is `pending` unless it is `done`. */
function todoFilters(query: Static<typeof ListQuery>): TodoFilters {
  const action =
    query.action !== undefined && Object.hasOwn(TODO_ACTIONS, query.action) ? TODO_ACTIONS[query.action as TodoActionName] : undefined;
  return {
    action,
    authorId: filterId(query.author_id),
    projectId: filterId(query.project_id),
    state: query.state === 'done' ? 'done' : 'pending',
    type: query.type === 'Issue' || query.type === 'MergeRequest' ? query.type : undefined,
  };
}

/** The caller's todos in v4 (GitLab 11's `todos.rb`): marking one or all done is a POST. Marking one is `issues.ts`'s and `merge-requests.ts`'s. */
export function todosRoutes(api: Api, { services, presenter }: RouteDeps): void {
  const { todos } = services;

  api.get('/todos', { schema: { querystring: ListQuery, response: { 200: Type.Array(Todo) } } }, async (request, reply) => {
    const page = pageOf(request.query);
    const { todos: list, total } = await todos.list(request.user!, todoFilters(request.query), page);
    setPageHeaders(request, reply, presenter.externalUrl, page, total);
    return list.map((details) => presentTodo(details, presenter));
  });

  api.post(
    '/todos/:id/mark_as_done',
    { schema: { params: Type.Object({ id: RecordId }), body: Type.Optional(Type.Object({})), response: { 201: Todo } } },
    async (request, reply) => reply.status(201).send(presentTodo(await todos.markDone(request.user!, request.params.id), presenter)),
  );

  // Every pending todo of the caller; v4 answers with no content.
  api.post(
    '/todos/mark_as_done',
    { schema: { body: Type.Optional(Type.Object({})), response: { 204: Type.Null({ description: 'marked' }) } } },
    async (request, reply) => {
      await todos.markAllDone(request.user!, { state: 'pending' });
      return reply.status(204).send(null);
    },
  );
}
