import type { ServiceContext } from '../context';

/** Longer than any merge takes: a merge request locked this long lost its merge to a crash. */
const STUCK_AFTER_MS = 10 * 60 * 1000;

/**
 * GitLab 8.12's `StuckMergeJobsWorker`: a merge request left `locked` by a process that died
 * mid-merge goes back to the state it was in (a merge that did move the branch is then seen as
 * merged by hand at the next push). Answers how many were unlocked.
 */
export async function unlockStuckMerges(ctx: ServiceContext): Promise<number> {
  const before = new Date(Date.now() - STUCK_AFTER_MS).toISOString();
  const result = await ctx.db
    .updateTable('merge_requests')
    .set((eb) => ({ state: eb.fn.coalesce('locked_from', eb.val('opened')), locked_from: null, locked_at: null }))
    .where('state', '=', 'locked')
    .where((eb) => eb.or([eb('locked_at', '<', before), eb('locked_at', 'is', null)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
