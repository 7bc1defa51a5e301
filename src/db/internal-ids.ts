import { sql } from 'kysely';
import type { Db } from './index';

/** The kinds of per-project numbers (GitLab's `iid`s). */
export type InternalIdUsage = 'deployments' | 'issues' | 'merge_requests' | 'milestones';

/**
 * The next per-project number of a kind: 1, 2, 3 … One upsert, so two writers at once (in two
 * processes, on either database) never get the same number; run it inside the transaction that
 * saves the record, so a rolled-back record gives its number back.
 */
export async function nextInternalId(db: Db, projectId: number, usage: InternalIdUsage): Promise<number> {
  const row = await db
    .insertInto('internal_ids')
    .values({ project_id: projectId, usage, last_value: 1 })
    .onConflict((oc) => oc.columns(['project_id', 'usage']).doUpdateSet({ last_value: sql`internal_ids.last_value + 1` }))
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return Number(row.last_value);
}
