import type { CiHookJob } from '../../../jobs/kinds';
import type { ServiceContext } from '../../context';
import type { Commit } from '../../../git/objects';
import type { Project } from '../../projects/types';
import type { User } from '../../users/users';
import { resolveCommit } from '../../../git/commits';
import { now } from '../../../lib/time';
import { findProject } from '../../projects/queries';
import { repositoryPath } from '../../../git/paths';
import { emitProjectEvents } from '../../hooks/project-events';
import { buildHookData, pipelineHookData } from './data';

/**
 * Builds the payload of one `ci.hook` job and queues its deliveries to the project's hooks that
 * want it. Runs outside any transaction, since it reads git. A build, pipeline or project gone
 * since the change is heard of no more.
 */
export async function runCiHook(ctx: ServiceContext, job: CiHookJob): Promise<void> {
  if (job.kind === 'build') await buildHook(ctx, job.buildId, job.status);
  else await pipelineHook(ctx, job.pipelineId, job.status);
}

async function buildHook(ctx: ServiceContext, buildId: number, status: string): Promise<void> {
  const build = await ctx.db.selectFrom('ci_builds').selectAll().where('id', '=', buildId).executeTakeFirst();
  if (!build) return;
  const [pipeline, project] = await Promise.all([
    ctx.db.selectFrom('ci_pipelines').selectAll().where('id', '=', build.pipeline_id).executeTakeFirst(),
    findProject(ctx.db, build.project_id),
  ]);
  if (!pipeline || !project) return;
  const owner = project.namespace.kind === 'user' ? project.namespace.owner_id : null;
  const [users, commit] = await Promise.all([usersById(ctx, [build.user_id, owner]), readCommit(ctx, project, pipeline.sha)]);
  const namespaceHumanName = (owner !== null ? users.get(owner)?.name : undefined) ?? project.namespace.name;
  const data = buildHookData({
    build,
    status,
    pipeline,
    project,
    namespaceHumanName,
    user: build.user_id === null ? undefined : users.get(build.user_id),
    commit,
    urls: ctx.config,
    now: now(),
  });
  await emitProjectEvents(ctx, ctx.db, project.id, 'build_events', 'Build Hook', [data]);
}

async function pipelineHook(ctx: ServiceContext, pipelineId: number, status: string): Promise<void> {
  const pipeline = await ctx.db.selectFrom('ci_pipelines').selectAll().where('id', '=', pipelineId).executeTakeFirst();
  if (!pipeline) return;
  const [project, builds, stages] = await Promise.all([
    findProject(ctx.db, pipeline.project_id),
    ctx.db.selectFrom('ci_builds').selectAll().where('pipeline_id', '=', pipelineId).where('type', '=', 'Build').orderBy('id').execute(),
    // GitLab's `CommitStatus.stages`: by name, in the order of each name's highest stage index.
    ctx.db
      .selectFrom('ci_builds')
      .select('stage')
      .where('pipeline_id', '=', pipelineId)
      .groupBy('stage')
      .orderBy((eb) => eb.fn.max('stage_idx'))
      .orderBy('stage')
      .execute(),
  ]);
  if (!project) return;
  const runnerIds = [...new Set(builds.flatMap((build) => (build.runner_id === null ? [] : [build.runner_id])))];
  const [users, runners, commit] = await Promise.all([
    usersById(ctx, [pipeline.user_id, ...builds.map((build) => build.user_id)]),
    runnerIds.length === 0 ? [] : ctx.db.selectFrom('ci_runners').selectAll().where('id', 'in', runnerIds).execute(),
    readCommit(ctx, project, pipeline.sha),
  ]);
  const data = pipelineHookData({
    pipeline,
    status,
    stages: stages.map((row) => row.stage),
    project,
    user: pipeline.user_id === null ? undefined : users.get(pipeline.user_id),
    commit,
    builds,
    users,
    runners: new Map(runners.map((runner) => [runner.id, runner])),
    urls: ctx.config,
  });
  await emitProjectEvents(ctx, ctx.db, project.id, 'pipeline_events', 'Pipeline Hook', [data]);
}

async function usersById(ctx: ServiceContext, ids: Array<number | null>): Promise<Map<number, User>> {
  const unique = [...new Set(ids.filter((id): id is number => id !== null))];
  if (unique.length === 0) return new Map();
  const rows = await ctx.db.selectFrom('users').selectAll().where('id', 'in', unique).execute();
  return new Map(rows.map((user) => [user.id, user]));
}

/** The pipeline's commit; like GitLab's `Ci::Pipeline#commit`, nothing (not a failure) when the repository cannot show it. */
async function readCommit(ctx: ServiceContext, project: Project, sha: string): Promise<Commit | undefined> {
  try {
    return await resolveCommit(ctx.git, repositoryPath(ctx.config.dataDir, project.id), sha);
  } catch (error) {
    ctx.log.warn({ err: error, projectId: project.id, sha }, 'ci hook: commit unreadable');
    return undefined;
  }
}
