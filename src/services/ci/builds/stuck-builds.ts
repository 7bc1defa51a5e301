import type { ServiceContext } from '../../context';
import type { BuildRow } from '../types';
import { transitionBuild } from './transitions';
import { inTransaction } from '../../../db/transaction';
import { jobTimeout } from './job-timeout';
import { parseOptions } from './stored-options';

/** Builds read per round: bounded statements, bounded memory. */
const BATCH = 100;

/** What a runner counts down from when the project's `build_timeout` is not positive (gitlab-ci-multi-runner's default). */
const RUNNER_DEFAULT_TIMEOUT_S = 2 * 60 * 60;

/**
 * Time beyond a build's timeout for its runner to report the end itself. A runner stops a build
 * at its timeout and sends its final PUT with the whole trace and `job_execution_timeout` at
 * once; the server fails the build only when that report has not come, so the runner's own words
 * (and the trace's tail) win whenever the runner is alive. Five minutes cover the runner's last
 * trace upload and a few of its 3 s retries; a sweep every ten minutes adds up to ten more.
 */
const REPORT_GRACE_MS = 5 * 60 * 1000;

/** A pending build no runner took for a day is given up (GitLab 8.12's `StuckCiBuildsWorker`). */
const PENDING_OUTDATED_MS = 24 * 60 * 60 * 1000;

/**
 * GitLab's `StuckCiBuildsWorker`: builds whose runner vanished, and builds no runner took, are
 * failed through `transitionBuild`, so their pipelines move on and hooks fire; a build that
 * changed meanwhile (its runner finished it) is left as it is.
 *
 * A running build is judged by its start and its own timeout (the job's `timeout`, else the
 * project's, capped by its runner's `maximum_timeout`: what the runner counts down), not by
 * `updated_at` as 8.12 did: a runner's trace PATCHes and `state=running` PUTs do not write the
 * build's row. One still running `REPORT_GRACE_MS` past its timeout is failed as its runner would
 * have failed it, `job_execution_timeout`, so no build runs for ever when its runner is gone.
 * Pending builds are judged by `updated_at` (when they were queued), as 8.12 did, and fail with
 * GitLab's `stuck_or_timeout_failure`.
 *
 * Returns how many builds were failed.
 */
export async function dropStuckBuilds(ctx: ServiceContext, time = Date.now()): Promise<number> {
  let dropped = 0;
  for (const build of await timedOutRunningBuilds(ctx, time)) dropped += await drop(ctx, build, 'job_execution_timeout');
  const pendingCutoff = new Date(time - PENDING_OUTDATED_MS).toISOString();
  let after = 0;
  for (;;) {
    const outdated = await ctx.db
      .selectFrom('ci_builds')
      .selectAll()
      .where('status', '=', 'pending')
      .where('type', '=', 'Build')
      .where('updated_at', '<', pendingCutoff)
      .where('id', '>', after)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    for (const build of outdated) dropped += await drop(ctx, build, 'stuck_or_timeout_failure');
    if (outdated.length < BATCH) return dropped;
    after = outdated[outdated.length - 1]!.id;
  }
}

/** Running builds past their timeout and the grace. Running builds are few: one per busy runner. */
async function timedOutRunningBuilds(ctx: ServiceContext, time: number): Promise<BuildRow[]> {
  const timedOut: BuildRow[] = [];
  // No build can be past its timeout and the grace that started within the grace.
  const startedBefore = new Date(time - REPORT_GRACE_MS).toISOString();
  let after = 0;
  for (;;) {
    const running = await ctx.db
      .selectFrom('ci_builds')
      .innerJoin('projects', 'projects.id', 'ci_builds.project_id')
      .leftJoin('ci_runners', 'ci_runners.id', 'ci_builds.runner_id')
      .selectAll('ci_builds')
      .select(['projects.build_timeout', 'ci_runners.maximum_timeout'])
      .where('ci_builds.status', '=', 'running')
      .where('ci_builds.type', '=', 'Build')
      .where((eb) => eb(eb.fn.coalesce('ci_builds.started_at', 'ci_builds.updated_at'), '<', startedBefore))
      .where('ci_builds.id', '>', after)
      .orderBy('ci_builds.id')
      .limit(BATCH)
      .execute();
    for (const { build_timeout, maximum_timeout, ...build } of running) {
      const projectTimeout = build_timeout > 0 ? build_timeout : RUNNER_DEFAULT_TIMEOUT_S;
      const timeoutMs = jobTimeout(parseOptions(build.options), projectTimeout, maximum_timeout ?? null) * 1000;
      const started = Date.parse(build.started_at ?? build.updated_at);
      if (started + timeoutMs + REPORT_GRACE_MS < time) timedOut.push(build);
    }
    if (running.length < BATCH) return timedOut;
    after = running[running.length - 1]!.id;
  }
}

async function drop(ctx: ServiceContext, build: BuildRow, reason: string): Promise<number> {
  const failed = await inTransaction(ctx.db, (trx) => transitionBuild(ctx, trx, build, 'drop', { failure_reason: reason }));
  if (!failed) return 0;
  ctx.log.info({ buildId: build.id, runnerId: build.runner_id, status: build.status, reason }, 'dropped a stuck build');
  return 1;
}
