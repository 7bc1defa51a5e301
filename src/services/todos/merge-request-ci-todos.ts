import type { Db } from '../../db/index';
import { now } from '../../lib/time';
import type { MergeRequestRow } from '../merge-requests/types';
import { createTodos, TODO_ACTIONS } from './queries';

/*
 * GitLab 8.12's `MergeRequests::AddTodoWhenBuildFailsService`: when the head pipeline of an open
 * merge request fails, the merge request's author gets a `build_failed` todo (authored by
 * themselves, as 8.12 made it); when that pipeline runs again or succeeds, those todos are done.
 */

export async function buildFailedTodos(trx: Db, mergeRequests: MergeRequestRow[]): Promise<void> {
  for (const mergeRequest of mergeRequests) {
    if (mergeRequest.author_id === null) continue;
    await createTodos(trx, [mergeRequest.author_id], {
      projectId: mergeRequest.target_project_id,
      targetType: 'MergeRequest',
      targetId: mergeRequest.id,
      authorId: mergeRequest.author_id,
      action: TODO_ACTIONS.build_failed,
    });
  }
}

export async function buildFailedTodosDone(trx: Db, mergeRequests: MergeRequestRow[]): Promise<void> {
  if (mergeRequests.length === 0) return;
  await trx
    .updateTable('todos')
    .set({ state: 'done', updated_at: now() })
    .where('state', '=', 'pending')
    .where('action', '=', TODO_ACTIONS.build_failed)
    .where('target_type', '=', 'MergeRequest')
    .where(
      'target_id',
      'in',
      mergeRequests.map((row) => row.id),
    )
    .execute();
}
