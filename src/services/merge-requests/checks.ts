import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import { refValues } from '../../git/refs';
import { mergeTrees } from '../../git/merge';
import { now } from '../../lib/time';
import { repoPathOf } from '../repository/repositories';
import { latestVersions } from './versions';
import type { VersionContentCache } from './version-contents';
import { OPEN_STATES, type MergeRequestRow } from './types';

/**
 * Asks for the merge requests' `merge_status` to be worked out again in the background (after a
 * creation, a change of target branch, a push to either branch): they show `unchecked` until then.
 * Called inside the transaction of the change, so the check never runs before the change is saved.
 */
export async function queueMergeStatusCheck(ctx: ServiceContext, trx: Db, mergeRequestIds: number[]): Promise<void> {
  if (mergeRequestIds.length === 0) return;
  await trx.updateTable('merge_requests').set({ merge_status: 'unchecked' }).where('id', 'in', mergeRequestIds).execute();
  await ctx.jobs.enqueue('merge_requests.check', { mergeRequestIds }, trx);
}

/** Merge requests checked side by side: each check is one `merge-tree` process. */
const PARALLEL_CHECKS = 4;

/**
 * The background check: each open merge request's latest source head merged into its target
 * branch's head in the object database. Only a request still `unchecked` takes the answer, so a
 * check that a newer push made stale is overwritten by the newer one's, never the other way round.
 */
export async function checkMergeStatus(ctx: ServiceContext, contents: VersionContentCache, mergeRequestIds: number[]): Promise<void> {
  const rows = await ctx.db
    .selectFrom('merge_requests')
    .selectAll()
    .where('id', 'in', mergeRequestIds)
    .where('state', 'in', [...OPEN_STATES])
    .execute();
  const versions = await latestVersions(
    ctx.db,
    rows.map((row) => row.id),
  );
  for (let start = 0; start < rows.length; start += PARALLEL_CHECKS) {
    await Promise.all(
      rows.slice(start, start + PARALLEL_CHECKS).map(async (row) => {
        const version = versions.get(row.id);
        const status = await mergeability(ctx, row, version?.head_commit_sha ?? null);
        await ctx.db
          .updateTable('merge_requests')
          .set({ merge_status: status, updated_at: now() })
          .where('id', '=', row.id)
          .where('merge_status', '=', 'unchecked')
          .execute();
        // The version's diff is read now, as 8.12 stored it when the version was made: the first
        // look at the changes then finds it ready.
        // A failure here only leaves the read for later.
        if (version) await contents.versionDiffs(row.target_project_id, version).catch(() => undefined);
      }),
    );
  }
}

async function mergeability(
  ctx: ServiceContext,
  row: MergeRequestRow,
  sourceHead: string | null,
): Promise<'can_be_merged' | 'cannot_be_merged'> {
  const repoPath = repoPathOf(ctx, row.target_project_id);
  const ref = `refs/heads/${row.target_branch}`;
  const targetHead = (await refValues(repoPath, [ref])).get(ref);
  if (sourceHead === null || targetHead === undefined) return 'cannot_be_merged';
  const merged = await mergeTrees(repoPath, targetHead, sourceHead);
  return merged.clean ? 'can_be_merged' : 'cannot_be_merged';
}
