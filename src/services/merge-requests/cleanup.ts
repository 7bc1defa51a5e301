import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/index';
import type { Database } from '../../db/schema';

type MergeRequestIds = SelectQueryBuilder<Database, 'merge_requests', { id: number }>;

/**
 * Removes what points at merge requests without a foreign key (label links, award emoji of the
 * merge requests and of their notes, subscriptions, todos and notes name their target by type and
 * id), in the deletion of a merge request or of its project; `choose` narrows the merge requests
 * (one by id, or a project's). Their versions and the merge requests' rows cascade or are the caller's.
 */
export async function deleteMergeRequestTraces(trx: Db, choose: (ids: MergeRequestIds) => MergeRequestIds): Promise<void> {
  const ids = choose(trx.selectFrom('merge_requests').select('id'));
  await trx.deleteFrom('label_links').where('target_type', '=', 'MergeRequest').where('target_id', 'in', ids).execute();
  const noteIds = trx.selectFrom('notes').select('id').where('noteable_type', '=', 'MergeRequest').where('noteable_id', 'in', ids);
  await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Note').where('awardable_id', 'in', noteIds).execute();
  await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'MergeRequest').where('awardable_id', 'in', ids).execute();
  await trx.deleteFrom('subscriptions').where('subscribable_type', '=', 'MergeRequest').where('subscribable_id', 'in', ids).execute();
  await trx.deleteFrom('todos').where('target_type', '=', 'MergeRequest').where('target_id', 'in', ids).execute();
  await trx.deleteFrom('notes').where('noteable_type', '=', 'MergeRequest').where('noteable_id', 'in', ids).execute();
}
