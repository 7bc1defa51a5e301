import type { ServiceContext } from '../../context';
import type { BuildRow } from '../types';
import { transitionBuild } from './transitions';
import { inTransaction } from '../../../db/transaction';

/** Builds read per round: bounded statements, bounded memory. */
const BATCH = 100;

/** What a runner counts down from when the project's `build_timeout` is not positive (gitlab-ci-multi-runner's default). */
const RUNNER_DEFAULT_TIMEOUT_S = 2 * 60 * 60;

/**
 * Time beyond a build's timeout for a live runner to report the build's end. A runner stops a
 * build at its timeout and sends its final PUT with the whole trace, retried every 3 s while the
 * server cannot take it (a restart, an outage); failing the build before that PUT lands would
 * refuse it (404) and lose the trace's tail and the build's real outcome. An hour covers a
 * restart or an outage of the server and any skew between the server's `started_at` and the
 * runner's own count; a build still running an hour past its timeout has a runner that is gone
 * (GitLab's later `BUILD_RUNNING_OUTDATED_TIMEOUT` is the same hour). So no build runs for ever:
 * it ends at most its timeout, this margin and one sweep interval after it started.
 */
const RUNNING_MARGIN_MS = 60 * 60 * 1000;

/** A pending build no runner took for a day is given up (GitLab 8.12's `StuckCiBuildsWorker`). */
const PENDING_OUTDATED_MS = 24 * 60 * 60 * 1000;

/**
 * GitLab's `StuckCiBuildsWorker`: builds whose runner vanished, and builds no runner took, are
 * failed through `transitionBuild`, so their pipelines move on and hooks fire; a build that
 * changed meanwhile (its runner finished it) is left as it is.
 *
 * A running build is judged by its start, not by `updated_at` as 8.12 did: a runner's trace
 * PATCHes and its `state=running` PUTs do not write the build's row, so `updated_at` says nothing
 * about whether its runner is alive. The runner itself ends a build at its timeout, so a build
 * running past `started_at + timeout + RUNNING_MARGIN_MS` is one no runner will ever finish.
 * Pending builds are judged by `updated_at` (when they were queued), as 8.12 did.
 *
 * Returns how many builds were failed.
 */
export async function dropStuckBuilds(ctx: ServiceContext, time = Date.now()): Promise<number> {
  let dropped = 0;
  for (const build of await stuckRunningBuilds(ctx, time)) dropped += await drop(ctx, build);
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
    for (const build of outdated) dropped += await drop(ctx, build);
    if (outdated.length < BATCH) return dropped;
    after = outdated[outdated.length - 1]!.id;
  }
}

/** Running builds past their project's timeout and the margin. Running builds are few: one per busy runner. */
async function stuckRunningBuilds(ctx: ServiceContext, time: number): Promise<BuildRow[]> {
  const stuck: BuildRow[] = [];
  // No build can be stuck that started within the margin, whatever its timeout.
  const startedBefore = new Date(time - RUNNING_MARGIN_MS).toISOString();
  let after = 0;
  for (;;) {
    const running = await ctx.db
      .selectFrom('ci_builds')
      .innerJoin('projects', 'projects.id', 'ci_builds.project_id')
      .selectAll('ci_builds')
      .select('projects.build_timeout')
      .where('ci_builds.status', '=', 'running')
      .where('ci_builds.type', '=', 'Build')
      .where((eb) => eb(eb.fn.coalesce('ci_builds.started_at', 'ci_builds.updated_at'), '<', startedBefore))
      .where('ci_builds.id', '>', after)
      .orderBy('ci_builds.id')
      .limit(BATCH)
      .execute();
    for (const { build_timeout, ...build } of running) {
      const timeoutMs = (build_timeout > 0 ? build_timeout : RUNNER_DEFAULT_TIMEOUT_S) * 1000;
      const started = Date.parse(build.started_at ?? build.updated_at);
      if (started + timeoutMs + RUNNING_MARGIN_MS < time) stuck.push(build);
    }
    if (running.length < BATCH) return stuck;
    after = running[running.length - 1]!.id;
  }
}

async function drop(ctx: ServiceContext, build: BuildRow): Promise<number> {
  const failed = await inTransaction(ctx.db, (trx) => transitionBuild(ctx, trx, build, 'drop'));
  if (!failed) return 0;
  ctx.log.info({ buildId: build.id, runnerId: build.runner_id, status: build.status }, 'dropped a stuck build');
  return 1;
}
