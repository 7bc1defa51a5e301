import type { Insertable } from 'kysely';
import type { Db } from '../../../db/index';
import type { CiBuildsTable } from '../../../db/schema';
import type { ServiceContext } from '../../context';
import { now } from '../../../lib/time';
import { newBuildToken } from './tokens';
import { chunksOf } from '../../../db/chunks';
import { afterBuildChange } from './transitions';
import type { BuildRow } from '../types';

/**
 * GitLab 8.12's `Ci::Build.retry`, for one build or several of one pipeline (a pipeline's retry):
 * each gets a NEW row copying what the job is (name, stage, commands, options, trigger request …), created directly
 * `pending` (queued at once, whatever the other stages do) with a new token and the retrying user;
 * the old row stays as it was and is no longer the latest of its name. Then every skipped build of
 * a later stage goes back to `created` (the `process` event), so those stages run again once the
 * retried builds finish; and the pipeline follows. Call it inside a transaction, after locking the
 * pipeline (`lockPipeline`) and reading its status into `pipelineStatusBefore`.
 * Returns the new builds in the order of `builds`.
 */
export async function retryBuilds(
  ctx: ServiceContext,
  trx: Db,
  builds: BuildRow[],
  userId: number | null,
  pipelineStatusBefore: string | undefined,
): Promise<BuildRow[]> {
  if (builds.length === 0) return [];
  const time = now();
  const rows: Insertable<CiBuildsTable>[] = builds.map((build) => {
    return {
      project_id: build.project_id,
      pipeline_id: build.pipeline_id,
      type: 'Build',
      name: build.name,
      stage: build.stage,
      stage_idx: build.stage_idx,
      ref: build.ref,
      tag: build.tag,
      status: 'pending',
      allow_failure: build.allow_failure,
      when: build.when,
      user_id: userId,
      // A retried build of a triggered pipeline keeps its trigger's variables (8.12 copied `trigger_request`).
      trigger_request_id: build.trigger_request_id,
      ...newBuildToken(ctx.secrets),
      commands: build.commands,
      tag_list: build.tag_list,
      environment: build.environment,
      options: build.options,
      yaml_variables: build.yaml_variables,
      queued_at: time,
      created_at: time,
      updated_at: time,
    };
  });
  const created: BuildRow[] = [];
  for (const chunk of chunksOf(rows)) created.push(...(await trx.insertInto('ci_builds').values(chunk).returningAll().execute()));
  created.sort((a, b) => a.id - b.id);

  // Builds of one pipeline: one statement moves every skipped build after the earliest retried stage.
  const pipelineId = builds[0].pipeline_id;
  const earliestStage = Math.min(...builds.map((build) => build.stage_idx));
  await trx
    .updateTable('ci_builds')
    .set({ status: 'created', updated_at: time })
    .where('pipeline_id', '=', pipelineId)
    .where('type', '=', 'Build')
    .where('status', '=', 'skipped')
    .where('stage_idx', '>', earliestStage)
    .execute();
  // What follows a change of the pipeline's builds, once: the new builds are pending, so no stage
  // opens; the pipeline's status is recomputed and its hook queued when it changed.
  await afterBuildChange(ctx, trx, created[0], pipelineStatusBefore);
  return created;
}
