import type { Db } from '../../../db/index';
import { notify } from '../../notify';
import type { ServiceContext } from '../../context';
import { queuePipelineMergeRequestWork } from '../../merge-requests/pipeline-events';

/*
 * Build and pipeline hooks are queued inside the transaction of the change, as a `ci.hook` job that
 * builds the payload later (it reads git, which a transaction may not): the hook goes out if and
 * only if the change commits. Nothing is queued for a project without such hooks, so the common
 * case (no hooks) costs one indexed look-up.
 */

async function hasHooks(trx: Db, projectId: number, flag: 'build_events' | 'pipeline_events'): Promise<boolean> {
  const hook = await trx
    .selectFrom('hooks')
    .select('id')
    .where('project_id', '=', projectId)
    .where(flag, '=', 1)
    .limit(1)
    .executeTakeFirst();
  return hook !== undefined;
}

/** A build started or finished (GitLab 8.12 fires build hooks on those transitions). */
export async function queueBuildHook(
  ctx: ServiceContext,
  trx: Db,
  build: { id: number; project_id: number; status: string },
): Promise<void> {
  if (await hasHooks(trx, build.project_id, 'build_events'))
    await ctx.jobs.enqueue('ci.hook', { kind: 'build', buildId: build.id, status: build.status }, trx);
}

/**
 * A pipeline changed status. Every change of a pipeline's status passes here, so the merge requests
 * of its branch hear of it here too (automatic merges, `build_failed` todos).
 */
export async function queuePipelineHook(
  ctx: ServiceContext,
  trx: Db,
  pipeline: { id: number; project_id: number; status: string },
): Promise<void> {
  if (await hasHooks(trx, pipeline.project_id, 'pipeline_events'))
    await ctx.jobs.enqueue('ci.hook', { kind: 'pipeline', pipelineId: pipeline.id, status: pipeline.status }, trx);
  await queuePipelineMergeRequestWork(ctx, trx, pipeline);
  if (pipeline.status === 'failed') await notify(ctx, trx, { kind: 'pipeline.failed', pipelineId: pipeline.id });
}
