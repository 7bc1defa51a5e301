import type { SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/index';
import type { Database } from '../../db/schema';

/** The ids of some issues or merge requests, as a subquery. */
type Ids = SelectQueryBuilder<Database, 'issues' | 'merge_requests', { id: number }>;

/**
 * Removes what points at issues or merge requests without a foreign key (label links, award emoji
 * of them and of their notes, subscriptions, todos and notes name their target by type and id), in
 * the deletion of one of them or of their project. The rows themselves are the caller's.
 */
export async function deleteIssuableTraces(trx: Db, type: 'Issue' | 'MergeRequest', ids: Ids): Promise<void> {
  await trx.deleteFrom('label_links').where('target_type', '=', type).where('target_id', 'in', ids).execute();
  const noteIds = trx.selectFrom('notes').select('id').where('noteable_type', '=', type).where('noteable_id', 'in', ids);
  await trx.deleteFrom('award_emoji').where('awardable_type', '=', 'Note').where('awardable_id', 'in', noteIds).execute();
  await trx.deleteFrom('award_emoji').where('awardable_type', '=', type).where('awardable_id', 'in', ids).execute();
  await trx.deleteFrom('subscriptions').where('subscribable_type', '=', type).where('subscribable_id', 'in', ids).execute();
  await trx.deleteFrom('todos').where('target_type', '=', type).where('target_id', 'in', ids).execute();
  await trx.deleteFrom('notes').where('noteable_type', '=', type).where('noteable_id', 'in', ids).execute();
}
