import type { Db } from '../../db/index';
import type { ServiceContext } from '../context';
import type { ProjectsService } from '../projects/projects';
import type { UsersService } from '../users/users';
import { ApiError } from '../../errors';
import { inTransaction } from '../../db/transaction';
import type { MergingService } from './merging';
import { latestVersions } from './versions';
import { OPEN_STATES, type MergeRequestTodos } from './types';

/** Pipeline statuses that matter to merge requests: a success merges, a failure makes todos, a run again clears them. */
const HEARD = ['success', 'failed', 'pending', 'running'];

/**
 * Called inside the transaction of every change of a pipeline's status: when an open merge request
 * comes from the pipeline's project and branch, queues the background work that follows. The common
 * case (no such merge request) costs one indexed look-up.
 */
export async function queuePipelineMergeRequestWork(
  ctx: ServiceContext,
  trx: Db,
  pipeline: { id: number; project_id: number; status: string },
): Promise<void> {
  if (!HEARD.includes(pipeline.status)) return;
  const found = await trx
    .selectFrom('merge_requests')
    .innerJoin('ci_pipelines', (join) =>
      join
        .onRef('ci_pipelines.project_id', '=', 'merge_requests.source_project_id')
        .onRef('ci_pipelines.ref', '=', 'merge_requests.source_branch'),
    )
    .select('merge_requests.id')
    .where('ci_pipelines.id', '=', pipeline.id)
    .where('merge_requests.state', 'in', [...OPEN_STATES])
    .limit(1)
    .executeTakeFirst();
  if (found) await ctx.jobs.enqueue('merge_requests.pipeline', { pipelineId: pipeline.id, status: pipeline.status }, trx);
}

export interface PipelineEventDeps {
  ctx: ServiceContext;
  projects: ProjectsService;
  users: UsersService;
  merging: MergingService;
  /** Todos hang off merge requests: handed in by the composition root. */
  todos: MergeRequestTodos;
}

/**
 * The background half: the open merge requests whose head this pipeline ran for (source project,
 * branch and head sha) get 8.12's `build_failed` todos on failure, have them done when it runs
 * again or succeeds, and on success are merged when they wait for it, as the user who asked.
 */
export async function handlePipelineStatus(deps: PipelineEventDeps, job: { pipelineId: number; status: string }): Promise<void> {
  const { ctx } = deps;
  const pipeline = await ctx.db.selectFrom('ci_pipelines').selectAll().where('id', '=', job.pipelineId).executeTakeFirst();
  if (!pipeline || pipeline.ref === null) return;
  const rows = await ctx.db
    .selectFrom('merge_requests')
    .selectAll()
    .where('source_project_id', '=', pipeline.project_id)
    .where('source_branch', '=', pipeline.ref)
    .where('state', 'in', [...OPEN_STATES])
    .execute();
  const versions = await latestVersions(
    ctx.db,
    rows.map((row) => row.id),
  );
  const heads = rows.filter((row) => versions.get(row.id)?.head_commit_sha === pipeline.sha);
  if (heads.length === 0) return;
  // The job's status is the one the change set; the pipeline may have moved on since, and the newer change queued its own job.
  if (job.status === 'failed') await inTransaction(ctx.db, (trx) => deps.todos.buildFailed(trx, heads));
  else await inTransaction(ctx.db, (trx) => deps.todos.buildFailedDone(trx, heads));
  if (job.status !== 'success' || pipeline.status !== 'success') return;
  for (const mergeRequest of heads.filter((row) => row.merge_when_build_succeeds === 1 && row.merge_user_id !== null)) {
    const [project, user] = await Promise.all([
      deps.projects.find(mergeRequest.target_project_id),
      deps.users.findById(mergeRequest.merge_user_id!),
    ]);
    if (!project || !user) continue;
    const standing = await deps.projects.standing(project, user);
    try {
      await deps.merging.accept(project, standing, user, mergeRequest.id, {
        mergeCommitMessage: mergeRequest.merge_commit_message ?? undefined,
        shouldRemoveSourceBranch: mergeRequest.should_remove_source_branch === 1,
        sha: pipeline.sha,
      });
    } catch (error) {
      // Refused (conflicts, rights lost, a newer push): the request stays open with why, as 8.12's `merge_error`.
      if (!(error instanceof ApiError)) throw error;
      await ctx.db.updateTable('merge_requests').set({ merge_error: error.message }).where('id', '=', mergeRequest.id).execute();
    }
  }
}
