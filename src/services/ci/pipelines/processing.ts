import type { Db } from '../../../db/index';
import { now } from '../../../lib/time';
import { combinedStatus, type CiStatus } from './status';

const COMPLETED: readonly string[] = ['success', 'failed', 'canceled'];

/** Which `when` values run after the earlier stages ended with `prior` (reference §5.4 c). */
function runsAfter(when: string, prior: CiStatus): boolean {
  switch (when) {
    case 'on_success':
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
 * GitLab 8.12's `ProcessPipelineService`: opens the stages of a pipeline in order. For each stage
 * that still has `created` builds, in ascending order, the latest builds of the earlier stages
 * decide: while any of them is unfinished the stage waits; once they are done, each created build
 * becomes `pending` when its `when` allows it and `skipped` otherwise. A stage that ends up all
 * skipped lets the next one open in the same pass. External statuses take no part.
 *
 * Call it inside the transaction that finished a build (or created the pipeline), after the
 * pipeline row is locked, so that the next stage opens atomically with the end of the previous one.
 * Returns true when a build was enqueued.
 */
export async function processPipeline(trx: Db, pipelineId: number): Promise<boolean> {
  const latest = await trx
    .selectFrom('ci_builds')
    .select(['id', 'status', 'allow_failure', 'stage_idx', 'when'])
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('ci_builds')
        .select((inner) => inner.fn.max('id').as('id'))
        .where('pipeline_id', '=', pipelineId)
        .where('type', '=', 'Build')
        .groupBy('name'),
    )
    .execute();
  const waiting = latest.filter((build) => build.status === 'created');
  if (waiting.length === 0) return false;
  const stages = [...new Set(waiting.map((build) => build.stage_idx))].sort((a, b) => a - b);
  let enqueued = false;
  for (const stage of stages) {
    const earlier = latest.filter((build) => build.stage_idx < stage);
    // No earlier stage counts as success. So do earlier stages that were all skipped (only manual
    // jobs): 8.12 read them as `skipped`, not finished, and left the pipeline pending for ever (§5.4).
    const combined = combinedStatus(earlier);
    const priorStatus: CiStatus = earlier.length === 0 || combined === 'skipped' ? 'success' : combined;
    if (!COMPLETED.includes(priorStatus)) break;
    const builds = waiting.filter((build) => build.stage_idx === stage);
    const toPending = builds.filter((build) => runsAfter(build.when, priorStatus));
    const toSkipped = builds.filter((build) => !runsAfter(build.when, priorStatus));
    const time = now();
    if (toPending.length > 0) {
      await trx
        .updateTable('ci_builds')
        .set({ status: 'pending', queued_at: time, updated_at: time })
        .where(
          'id',
          'in',
          toPending.map((build) => build.id),
        )
        .where('status', '=', 'created')
        .execute();
      enqueued = true;
    }
    if (toSkipped.length > 0) {
      await trx
        .updateTable('ci_builds')
        .set({ status: 'skipped', updated_at: time })
        .where(
          'id',
          'in',
          toSkipped.map((build) => build.id),
        )
        .where('status', '=', 'created')
        .execute();
    }
    for (const build of toPending) build.status = 'pending';
    for (const build of toSkipped) build.status = 'skipped';
    // A stage with builds now pending keeps the later ones waiting.
    if (toPending.length > 0) break;
  }
  return enqueued;
}
