import { html, type SafeHtml } from '../../html';
import type { TodoDetails } from '../../../services/todos/todos';
import { actionName } from '../../../services/todos/queries';
import { projectPath } from '../../paths';
import { actionButton } from '../ci/action-button';
import { timeOf } from '../ci/status';
import { pager } from '../pager';
import { dashboardNav } from './nav';

const ACTION_WORDS: Record<string, string> = {
  assigned: 'assigned you',
  mentioned: 'mentioned you on',
  build_failed: 'The build failed for',
  marked: 'added a todo for',
};

/** Where a todo's issue or merge request is. */
export function todoTargetPath(todo: TodoDetails): string {
  const base = projectPath(todo.project);
  return todo.target.type === 'Issue'
    ? `${base}/issues/${todo.target.details.issue.iid}`
    : `${base}/merge_requests/${todo.target.details.mergeRequest.iid}`;
}

function todoItem(todo: TodoDetails, csrfToken: string): SafeHtml {
  const action = actionName(todo.todo.action) ?? 'marked';
  const target = todo.target.type === 'Issue' ? todo.target.details.issue : todo.target.details.mergeRequest;
  const reference = todo.target.type === 'Issue' ? `#${target.iid}` : `!${target.iid}`;
  const who = action === 'build_failed' ? '' : `${todo.author?.name ?? 'Someone'} `;
  return html`<li class="todo">
<p>${who}${ACTION_WORDS[action]} <a href="${todoTargetPath(todo)}">${todo.target.type === 'Issue' ? 'issue' : 'merge request'} ${reference} ${target.title}</a>
<span class="muted">in ${todo.project.namespace.name} / ${todo.project.name} · ${timeOf(todo.todo.created_at)}</span></p>
${todo.noteText && html`<blockquote>${todo.noteText}</blockquote>`}
${actionButton(`/dashboard/todos/${todo.todo.id}/done`, `Done: ${reference} ${target.title}`.slice(0, 120), csrfToken)}
</li>`;
}

/** `/dashboard/todos`: the signed-in user's pending todos, newest first, each to mark done, or all at once. */
export function todosPage(
  list: { todos: TodoDetails[]; total: number; page: number; perPage: number },
  csrfToken: string,
  notice?: string,
): SafeHtml {
  return html`${dashboardNav('Todos')}
<h1>Todos (${list.total})</h1>
${notice && html`<p class="notice" role="status">${notice}</p>`}
${
  list.total === 0
    ? html`<p class="muted">You have no pending todos.</p>`
    : html`${actionButton('/dashboard/todos/mark_all_done', 'Mark all as done', csrfToken)}
<ul class="todos">${list.todos.map((todo) => todoItem(todo, csrfToken))}</ul>
${pager('/dashboard/todos', list.page, list.perPage, list.total)}`
}`;
}
