import type { Db } from '../../db/index';
import { now } from '../../lib/time';
import type { MergeRequestRow } from '../merge-requests/types';

/** A merge request merged or closed: every pending todo on it is done, whoever's (8.12's `TodoService#merge_merge_request`). */
export async function mergeRequestFinishedTodos(trx: Db, mergeRequest: MergeRequestRow): Promise<void> {
  await trx
    .updateTable('todos')
    .set({ state: 'done', updated_at: now() })
    .where('state', '=', 'pending')
    .where('target_type', '=', 'MergeRequest')
    .where('target_id', '=', mergeRequest.id)
    .execute();
}
