import type { Selectable } from 'kysely';
import type { Db } from '../../db/index';
import type { TodosTable } from '../../db/schema';
import { now } from '../../lib/time';

export type TodoRow = Selectable<TodosTable>;

/** GitLab's numbers for what a todo asks of its user. */
export const TODO_ACTIONS = { assigned: 1, mentioned: 2, build_failed: 3, marked: 4 } as const;
export type TodoActionName = keyof typeof TODO_ACTIONS;

export function actionName(action: number): TodoActionName | undefined {
  return (Object.keys(TODO_ACTIONS) as TodoActionName[]).find((name) => TODO_ACTIONS[name] === action);
}

/** What a todo points at. */
export interface TodoTarget {
  projectId: number;
  targetType: 'Issue' | 'MergeRequest';
  targetId: number;
}

export interface NewTodos extends TodoTarget {
  authorId: number;
  action: number;
  noteId?: number;
}

/**
 * One pending todo for each user who has none on the target yet, as GitLab 8.12's `create_todos`:
 * a user with any pending todo on it (whatever its action) gets no second one. Returns the new rows.
 */
export async function createTodos(trx: Db, userIds: number[], todo: NewTodos): Promise<TodoRow[]> {
  const candidates = [...new Set(userIds)];
  if (candidates.length === 0) return [];
  const pending = await pendingOn(trx, todo).select('user_id').where('user_id', 'in', candidates).execute();
  const busy = new Set(pending.map((row) => row.user_id));
  const time = now();
  const rows = candidates
    .filter((id) => !busy.has(id))
    .map((userId) => ({
      user_id: userId,
      project_id: todo.projectId,
      author_id: todo.authorId,
      target_type: todo.targetType,
      target_id: todo.targetId,
      note_id: todo.noteId ?? null,
      action: todo.action,
      state: 'pending',
      created_at: time,
      updated_at: time,
    }));
  if (rows.length === 0) return [];
  return trx.insertInto('todos').values(rows).returningAll().execute();
}

/** The user's pending todos on the target are done (GitLab 8.12's `mark_pending_todos_as_done`). */
export async function markPendingDone(trx: Db, userId: number, target: TodoTarget): Promise<void> {
  await trx
    .updateTable('todos')
    .set({ state: 'done', updated_at: now() })
    .where('user_id', '=', userId)
    .where('state', '=', 'pending')
    .where('project_id', '=', target.projectId)
    .where('target_type', '=', target.targetType)
    .where('target_id', '=', target.targetId)
    .execute();
}

/** Whether the user has a pending todo on the target (GitLab 8.12's `TodoService#todo_exist?`). */
export async function hasPendingTodo(db: Db, userId: number, target: TodoTarget): Promise<boolean> {
  return (await pendingOn(db, target).select('id').where('user_id', '=', userId).executeTakeFirst()) !== undefined;
}

function pendingOn(trx: Db, target: TodoTarget) {
  return trx
    .selectFrom('todos')
    .where('state', '=', 'pending')
    .where('project_id', '=', target.projectId)
    .where('target_type', '=', target.targetType)
    .where('target_id', '=', target.targetId);
}
