import type { ServiceContext } from '../../context';
import { now } from '../../../lib/time';
import { artifactsKey, junitReportKey } from './files';

/** Builds whose artifacts are removed per round: bounded statements, bounded memory. */
const BATCH = 200;

/**
 * GitLab's hourly `ExpireBuildArtifactsWorker`: artifacts whose `artifacts_expire_at` has passed
 * are removed (the row forgets them, then the file goes from the store); artifacts without an
 * expiry (never set, or kept) stay, and so do JUnit reports, each by its own expiry. The row is cleared first and only while it is still expired,
 * so artifacts kept meanwhile are not touched; a file left by a failed deletion is overwritten by
 * the build's next upload or removed with its project. Returns how many were removed.
 */
export async function removeExpiredArtifacts(ctx: ServiceContext): Promise<number> {
  return (await removeExpiredArchives(ctx)) + (await removeExpiredJunitReports(ctx));
}

async function removeExpiredArchives(ctx: ServiceContext): Promise<number> {
  let removed = 0;
  for (;;) {
    const time = now();
    const expired = await ctx.db
      .selectFrom('ci_builds')
      .select('id')
      .where('artifacts_expire_at', '<', time)
      .where('artifacts_file', 'is not', null)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (expired.length === 0) return removed;
    const cleared = await ctx.db
      .updateTable('ci_builds')
      .set({ artifacts_file: null, artifacts_size: null, artifacts_metadata: null, artifacts_expire_at: null, updated_at: time })
      .where(
        'id',
        'in',
        expired.map((row) => row.id),
      )
      .where('artifacts_expire_at', '<', time)
      .returning(['id', 'project_id'])
      .execute();
    await Promise.all(cleared.map((build) => ctx.files.delete(artifactsKey(build))));
    removed += cleared.length;
    if (expired.length < BATCH) return removed;
  }
}

/** The same for JUnit reports, which carry their own upload's expiry (`junit_report_expire_at`). */
async function removeExpiredJunitReports(ctx: ServiceContext): Promise<number> {
  let removed = 0;
  for (;;) {
    const time = now();
    const expired = await ctx.db
      .selectFrom('ci_builds')
      .select('id')
      .where('junit_report_expire_at', '<', time)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (expired.length === 0) return removed;
    const cleared = await ctx.db
      .updateTable('ci_builds')
      .set({ junit_report_size: null, junit_report_summary: null, junit_report_expire_at: null, updated_at: time })
      .where(
        'id',
        'in',
        expired.map((row) => row.id),
      )
      .where('junit_report_expire_at', '<', time)
      .returning(['id', 'project_id'])
      .execute();
    await Promise.all(cleared.map((build) => ctx.files.delete(junitReportKey(build))));
    removed += cleared.length;
    if (expired.length < BATCH) return removed;
  }
}
