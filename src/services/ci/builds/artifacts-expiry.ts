import type { ServiceContext } from '../../context';
import { now } from '../../../lib/time';
import { artifactsKey, junitReportKey } from './files';

/** Builds whose artifacts are removed per round: bounded statements, bounded memory. */
const BATCH = 200;

/**
 * What expires on a build, each by its own expiry: the archive, and the JUnit report, which carries
 * its own upload's `junit_report_expire_at`. `present` is the column that says the build holds one
 * (a report's expiry is set only while it does), `cleared` the columns the row forgets, `key` the
 * file that then goes from the store.
 */
const KINDS = [
  {
    expiresAt: 'artifacts_expire_at',
    present: 'artifacts_file',
    cleared: { artifacts_file: null, artifacts_size: null, artifacts_metadata: null, artifacts_expire_at: null },
    key: artifactsKey,
  },
  {
    expiresAt: 'junit_report_expire_at',
    present: 'junit_report_expire_at',
    cleared: { junit_report_size: null, junit_report_summary: null, junit_report_expire_at: null },
    key: junitReportKey,
  },
] as const;

/**
 * GitLab's hourly `ExpireBuildArtifactsWorker`: artifacts whose `artifacts_expire_at` has passed
 * are removed (the row forgets them, then the file goes from the store); artifacts without an
 * expiry (never set, or kept) stay, and so do JUnit reports, each by its own expiry. The row is cleared first and only while it is still expired,
 * so artifacts kept meanwhile are not touched; a file left by a failed deletion is overwritten by
 * the build's next upload or removed with its project. Returns how many were removed.
 */
export async function removeExpiredArtifacts(ctx: ServiceContext): Promise<number> {
  let removed = 0;
  for (const kind of KINDS) removed += await removeExpired(ctx, kind);
  return removed;
}

async function removeExpired(ctx: ServiceContext, { expiresAt, present, cleared, key }: (typeof KINDS)[number]): Promise<number> {
  let removed = 0;
  for (;;) {
    const time = now();
    const expired = await ctx.db
      .selectFrom('ci_builds')
      .select('id')
      .where(expiresAt, '<', time)
      .where(present, 'is not', null)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (expired.length === 0) return removed;
    const gone = await ctx.db
      .updateTable('ci_builds')
      .set({ ...cleared, updated_at: time })
      .where(
        'id',
        'in',
        expired.map((row) => row.id),
      )
      .where(expiresAt, '<', time)
      .returning(['id', 'project_id'])
      .execute();
    await Promise.all(gone.map((build) => ctx.files.delete(key(build))));
    removed += gone.length;
    if (expired.length < BATCH) return removed;
  }
}
