import type { Updateable } from 'kysely';
import type { Db } from '../../../db/index';
import type { CiBuildsTable } from '../../../db/schema';
import type { ServiceContext } from '../../context';
import { now } from '../../../lib/time';
import { fire, lockPipeline, updatePipelineStatus, type StatusEvent } from '../pipelines/status';
import { processPipeline } from '../pipelines/processing';
import { queueBuildHook, queuePipelineHook } from '../hooks/enqueue';
import { recordDeployment } from '../environments/record-deployment';
import type { BuildRow } from '../types';
import { announcePendingBuilds } from '../queue-signal';

const FINISHED: readonly string[] = ['success', 'failed', 'canceled'];

/**
 * Moves one build (or external status) by `event`, with `changes` written in the same update, and
 * lets the pipeline follow in the same transaction: a finished build opens the next stage
 * (`processPipeline`), the pipeline's status is recomputed, and build and pipeline hooks are
 * queued. The update only applies while the build still has the status it was read with, so two
 * racing changes cannot both apply. Returns the updated build, or undefined when the event does
 * not apply (or another change got there first).
 */
export async function transitionBuild(
  ctx: ServiceContext,
  trx: Db,
  build: BuildRow,
  event: StatusEvent,
  changes: Updateable<CiBuildsTable> = {},
): Promise<BuildRow | undefined> {
  // The pipeline row first: every change to a pipeline's builds takes this lock in the same order.
  const pipeline = await lockPipeline(ctx, trx, build.pipeline_id);
  const time = now();
  const next = fire(build, event, time);
  if (!next) return undefined;
  const updated = await trx
    .updateTable('ci_builds')
    .set({
      ...changes,
      status: next.status,
      queued_at: next.queued_at,
      started_at: next.started_at,
      finished_at: next.finished_at,
      updated_at: time,
    })
    .where('id', '=', build.id)
    .where('status', '=', build.status)
    .returningAll()
    .executeTakeFirst();
  if (!updated) return undefined;
  await afterBuildChange(ctx, trx, updated, pipeline?.status);
  return updated;
}

/**
 * What follows a runner's claim of a pending build. A running build makes its pipeline `running`
 * whatever else it holds (rule 6 of the status, §5.5), so this is one conditional update and no
 * pipeline lock: with many runners polling, claims in one pipeline would otherwise queue on its
 * row (PostgreSQL: 80 builds a second with 50 runners). Only the claim that moves the pipeline
 * announces it; the duration is recomputed at its next event.
 */
export async function afterClaim(ctx: ServiceContext, trx: Db, build: BuildRow): Promise<void> {
  const time = now();
  const moved = await trx
    .updateTable('ci_pipelines')
    .set((eb) => ({ status: 'running', started_at: eb.fn.coalesce('started_at', eb.val(time)), finished_at: null, updated_at: time }))
    .where('id', '=', build.pipeline_id)
    .where('status', '<>', 'running')
    .executeTakeFirst();
  if (Number(moved.numUpdatedRows) > 0)
    await queuePipelineHook(ctx, trx, { id: build.pipeline_id, project_id: build.project_id, status: 'running' });
  await queueBuildHook(ctx, trx, build);
}

/**
 * What follows any change of a build's status inside its transaction (for changes made without
 * `transitionBuild`, such as a runner's claim): a success's deployment, the next stage, the
 * pipeline status, the hooks. `pipelineStatusBefore` is the pipeline's status read (and locked)
 * before the change.
 */
export async function afterBuildChange(
  ctx: ServiceContext,
  trx: Db,
  build: BuildRow,
  pipelineStatusBefore: string | undefined,
): Promise<void> {
  const isBuild = build.type === 'Build';
  if (isBuild && build.status === 'success') await recordDeployment(ctx, trx, build);
  if (isBuild && build.status === 'pending') announcePendingBuilds(ctx, trx);
  if (isBuild && FINISHED.includes(build.status) && (await processPipeline(trx, build.pipeline_id))) announcePendingBuilds(ctx, trx);
  const status = await updatePipelineStatus(ctx, trx, build.pipeline_id);
  if (isBuild && (build.status === 'running' || FINISHED.includes(build.status))) await queueBuildHook(ctx, trx, build);
  if (status !== undefined && status !== pipelineStatusBefore)
    await queuePipelineHook(ctx, trx, { id: build.pipeline_id, project_id: build.project_id, status });
}
