import type { Db } from '../../../db/index';
import { now } from '../../../lib/time';
import { combinedStatus, type CiStatus } from './status';
import { neededNames, needsOutcome, type ProcessedBuild } from './dag';
import { parseOptions } from '../builds/stored-options';
import { parseDuration } from '../yaml/checks';

const COMPLETED: readonly string[] = ['success', 'failed', 'canceled'];

/** Which `when` values run after the earlier stages ended with `prior` (reference §5.4 c). */
function runsAfter(when: string, prior: CiStatus): boolean {
  switch (when) {
    case 'on_success':
    case 'delayed':
      return prior === 'success';
    case 'on_failure':
      return prior === 'failed';
    case 'always':
      return prior === 'success' || prior === 'failed';
    default:
      // `manual` waits in `skipped` until someone plays it.
      return false;
  }
}

/**
 * GitLab 8.12's `ProcessPipelineService`, with 12.2's `needs`: opens the stages of a pipeline in
 * order. For each stage that still has `created` builds, in ascending order, the latest builds of
 * the earlier stages decide: while any of them is unfinished the stage waits; once they are done,
 * each created build becomes `pending` when its `when` allows it and `skipped` otherwise. A stage
 * that ends up all skipped lets the next one open in the same pass. A build with `needs` is
 * judged the same way against the builds it needs instead of the earlier stages (pipelines/dag.ts).
 * External statuses take no part.
 *
 * Call it inside the transaction that finished a build (or created the pipeline), after the
 * pipeline row is locked, so that the next stage opens atomically with the end of the previous one.
 * Returns true when a build was enqueued.
 */
export async function processPipeline(trx: Db, pipelineId: number): Promise<boolean> {
  const latest: ProcessedBuild[] = await trx
    .selectFrom('ci_builds')
    .select(['id', 'name', 'status', 'allow_failure', 'stage_idx', 'when', 'options'])
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('ci_builds')
        .select((inner) => inner.fn.max('id').as('id'))
        .where('pipeline_id', '=', pipelineId)
        .where('type', '=', 'Build')
        .groupBy('name'),
    )
    .execute();
  if (!latest.some((build) => build.status === 'created')) return false;
  const { toPending, toSkipped, toScheduled } = decide(latest);
  const time = now();
  await scheduleDelayed(trx, toScheduled, time);
  if (toPending.length > 0) {
    await trx
      .updateTable('ci_builds')
      .set({ status: 'pending', queued_at: time, updated_at: time })
      .where('id', 'in', toPending)
      .where('status', '=', 'created')
      .execute();
  }
  if (toSkipped.length > 0) {
    await trx
      .updateTable('ci_builds')
      .set({ status: 'skipped', updated_at: time })
      .where('id', 'in', toSkipped)
      .where('status', '=', 'created')
      .execute();
  }
  return toPending.length > 0;
}

/**
 * The builds to enqueue and to skip, decided in memory: a skip can settle what other builds wait
 * for (a later stage, a build that needs the skipped one), so passes repeat until one skips nothing.
 */
function decide(latest: ProcessedBuild[]): { toPending: number[]; toSkipped: number[]; toScheduled: ProcessedBuild[] } {
  const needs = new Map(latest.map((build) => [build.id, neededNames(build.options)]));
  const toPending: number[] = [];
  const toSkipped: number[] = [];
  const toScheduled: ProcessedBuild[] = [];
  const settle = (build: ProcessedBuild, prior: CiStatus): boolean => {
    const runs = runsAfter(build.when, prior);
    if (runs && build.when === 'delayed') {
      // A delayed job's turn starts its wait: `scheduled` until `start_in` has passed (builds/scheduled-builds.ts).
      build.status = 'scheduled';
      toScheduled.push(build);
      return false;
    }
    build.status = runs ? 'pending' : 'skipped';
    (runs ? toPending : toSkipped).push(build.id);
    return !runs;
  };
  let skippedSome = true;
  while (skippedSome) {
    skippedSome = false;
    for (const build of latest) {
      const needed = needs.get(build.id);
      if (build.status !== 'created' || !needed) continue;
      const prior = needsOutcome(needed, latest);
      if (prior !== undefined && COMPLETED.includes(prior)) skippedSome = settle(build, prior) || skippedSome;
    }
    const waiting = latest.filter((build) => build.status === 'created' && !needs.get(build.id));
    const stages = [...new Set(waiting.map((build) => build.stage_idx))].sort((a, b) => a - b);
    for (const stage of stages) {
      const earlier = latest.filter((build) => build.stage_idx < stage);
      // No earlier stage counts as success. So do earlier stages that were all skipped (only manual
      // jobs): 8.12 read them as `skipped`, not finished, and left the pipeline pending for ever (§5.4).
      const combined = combinedStatus(earlier);
      const priorStatus: CiStatus = earlier.length === 0 || combined === 'skipped' ? 'success' : combined;
      if (!COMPLETED.includes(priorStatus)) break;
      let enqueued = false;
      for (const build of waiting.filter((b) => b.stage_idx === stage)) {
        if (settle(build, priorStatus)) skippedSome = true;
        else enqueued = true;
      }
      // A stage with builds now pending keeps the later ones waiting.
      if (enqueued) break;
    }
  }
  return { toPending, toSkipped, toScheduled };
}

/**
 * Delayed builds whose turn came wait in `scheduled` until `start_in` from now (GitLab 11.4's
 * `schedule` event); one update per distinct wait, as a pipeline has few.
 */
async function scheduleDelayed(trx: Db, builds: ProcessedBuild[], time: string): Promise<void> {
  const byWait = new Map<number, number[]>();
  for (const build of builds) {
    const seconds = parseDuration(parseOptions(build.options).start_in) ?? 0;
    byWait.set(seconds, [...(byWait.get(seconds) ?? []), build.id]);
  }
  for (const [seconds, ids] of byWait) {
    await trx
      .updateTable('ci_builds')
      .set({ status: 'scheduled', scheduled_at: new Date(Date.parse(time) + seconds * 1000).toISOString(), updated_at: time })
      .where('id', 'in', ids)
      .where('status', '=', 'created')
      .execute();
  }
}
