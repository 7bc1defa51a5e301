import type { Db } from '../../../db/index';
import type { ServiceContext } from '../../context';
import type { Project } from '../../projects/types';
import type { CiJob } from '../yaml/types';
import { readCommits, resolveCommitId } from '../../../git/commits';
import { refValues } from '../../../git/refs';
import { blobInfoAtPath } from '../../../git/blob-read';
import { ZERO_OID } from '../../../git/ref-names';
import { LIMITS } from '../../../lib/limits';
import { chunksOf } from '../../../db/chunks';
import { now } from '../../../lib/time';
import { newBuildToken } from '../builds/tokens';
import { repositoryPath } from '../../../git/paths';
import { CI_CONFIG_TOO_LARGE, composeCiConfig, jobsForRef } from '../yaml/index';
import { processPipeline } from './processing';
import { announcePendingBuilds } from '../queue-signal';
import { updatePipelineStatus } from './status';
import { queuePipelineHook } from '../hooks/enqueue';
import { jobOptions } from './job-options';
import { includeReader } from './include-reader';
import { applyRules, FILTERED_BY_WORKFLOW } from './rules-apply';
import { ruleFacts } from './rule-facts';
import { cancelRedundantPipelines } from './interruptible';

export const CI_CONFIG_FILE = '.gitlab-ci.yml';

/** GitLab 8.12's skip markers, brackets included, in any case. */
const SKIP_CI = /\[(ci skip|skip ci)\]/i;

/** What a ref change asks of CI, decided from git before any transaction. */
export interface PipelinePlan {
  projectId: number;
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string;
  userId: number | null;
  committedAt: string | null;
  /** `created` (with jobs), `failed` (with the YAML error) or `skipped` (`[ci skip]`). */
  status: 'created' | 'failed' | 'skipped';
  yamlErrors: string | null;
  jobs: CiJob[];
  /** The trigger request that asked for the pipeline: set by the trigger's transaction, given to every build. */
  triggerRequestId: number | null;
  /** How the pipeline came (GitLab 10's `source`): stored, shown by the API, given to jobs as `CI_PIPELINE_SOURCE`. */
  source: PipelineSourceName;
}

/** GitLab's pipeline sources Forge makes pipelines from. */
export type PipelineSourceName = 'push' | 'trigger' | 'api';

export interface PushedRef {
  /** `refs/heads/…` or `refs/tags/…`. */
  ref: string;
  oldId: string;
  /** The commit to build: a branch's new head, a tag's commit; null when there is none (a deletion). */
  checkoutSha: string | null;
}

/** What asks for a pipeline, once its ref is resolved to a commit. */
interface PipelineSource {
  /** The ref's name, without `refs/heads/` or `refs/tags/`. */
  ref: string;
  tag: boolean;
  sha: string;
  beforeSha: string;
  userId: number | null;
  /** A trigger's pipeline ignores `[ci skip]` (8.12's `ignore_skip_ci`) and runs `only: [triggers]` jobs. */
  trigger: boolean;
  /** `[ci skip]` ignored without being a trigger (a pipeline a user asks for). */
  ignoreSkipCi?: boolean;
  /** GitLab's `CI_PIPELINE_SOURCE`, which rules read. */
  source: PipelineSourceName;
}

/**
 * GitLab 8.12's `CreatePipelineService` for a pushed branch or tag (reference §5.2): nothing for a
 * deletion. Reads git only, so it runs before the push's transaction.
 *
 * Departure: 8.12 set `before_sha` to the new commit itself for pushes (its `checkout_sha ||
 * before` quirk, §5.2); here it is the ref's previous commit (40 zeros for a new ref), which is
 * what `CI_BUILD_BEFORE_SHA` promises.
 */
export async function planPushPipeline(
  ctx: ServiceContext,
  project: Project,
  userId: number,
  pushed: PushedRef,
): Promise<PipelinePlan | undefined> {
  if (!pushed.checkoutSha) return undefined;
  return planPipeline(ctx, project, {
    ref: pushed.ref.replace(/^refs\/(heads|tags)\//, ''),
    tag: pushed.ref.startsWith('refs/tags/'),
    sha: pushed.checkoutSha,
    beforeSha: pushed.oldId || ZERO_OID,
    userId,
    trigger: false,
    source: 'push',
  });
}

/** Why no pipeline could be made for a ref: GitLab 9's words for a pipeline asked for through the API. */
export type PipelineRefusal =
  | 'Pipeline is disabled'
  | 'Reference not found'
  | 'Commit not found'
  | 'Missing .gitlab-ci.yml file'
  | 'No stages / jobs for this pipeline.'
  | typeof FILTERED_BY_WORKFLOW;

/**
 * GitLab 8.12's `CreatePipelineService` for a trigger: no user, `before_sha` of 40 zeros, the ref a
 * branch or tag name (`refs/heads/…` and `refs/tags/…` spelled out too); nothing when neither
 * exists ("Reference not found"). A tag wins over a branch of the same name, for the commit as for
 * `tag`, as 8.12 resolved the name with git's own rules.
 */
export async function planTriggerPipeline(ctx: ServiceContext, project: Project, ref: string): Promise<PipelinePlan | undefined> {
  const judged = await judgeRefPipeline(ctx, project, ref, { userId: null, trigger: true, source: 'trigger' });
  return typeof judged === 'string' ? undefined : judged;
}

/**
 * A pipeline a user asks for on a ref (GitLab 9's `POST /projects/:id/pipeline`): resolved as a
 * trigger's ref, made by the user, `[ci skip]` ignored as GitLab's `ignore_skip_ci` did; a
 * `.gitlab-ci.yml` that does not parse is refused rather than saved (`save_on_errors: false`).
 * Answers the plan, or why there is none (the YAML error itself for a broken file).
 */
export async function planRefPipeline(
  ctx: ServiceContext,
  project: Project,
  ref: string,
  userId: number,
): Promise<PipelinePlan | PipelineRefusal | { yamlError: string }> {
  const judged = await judgeRefPipeline(ctx, project, ref, { userId, trigger: false, ignoreSkipCi: true, source: 'api' });
  if (typeof judged !== 'string' && judged.status === 'failed') return { yamlError: judged.yamlErrors ?? 'Invalid configuration format' };
  return judged;
}

async function judgeRefPipeline(
  ctx: ServiceContext,
  project: Project,
  ref: string,
  by: { userId: number | null; trigger: boolean; ignoreSkipCi?: boolean; source: PipelineSource['source'] },
): Promise<PipelinePlan | PipelineRefusal> {
  const name = ref.replace(/^refs\/(heads|tags)\//, '');
  const repoPath = repositoryPath(ctx.config.dataDir, project.id);
  const refs = await refValues(repoPath, [`refs/heads/${name}`, `refs/tags/${name}`]);
  const target = refs.get(`refs/tags/${name}`) ?? refs.get(`refs/heads/${name}`);
  if (!target) return 'Reference not found';
  const sha = await resolveCommitId(ctx.git, repoPath, target);
  if (!sha) return 'Commit not found';
  return judgePipeline(ctx, project, {
    ref: name,
    tag: refs.has(`refs/tags/${name}`),
    sha,
    beforeSha: ZERO_OID,
    userId: by.userId,
    trigger: by.trigger,
    ignoreSkipCi: by.ignoreSkipCi,
    source: by.source,
  });
}

async function planPipeline(ctx: ServiceContext, project: Project, source: PipelineSource): Promise<PipelinePlan | undefined> {
  const judged = await judgePipeline(ctx, project, source);
  return typeof judged === 'string' ? undefined : judged;
}

/**
 * The checks of 8.12's `CreatePipelineService` after the ref (§5.2): nothing for a project with
 * builds disabled, a commit without `.gitlab-ci.yml`, or a ref no job runs on; a failed pipeline
 * carrying the message for a file that does not parse; a skipped one for `[ci skip]`.
 */
async function judgePipeline(ctx: ServiceContext, project: Project, source: PipelineSource): Promise<PipelinePlan | PipelineRefusal> {
  if (project.builds_enabled !== 1) return 'Pipeline is disabled';
  const repoPath = repositoryPath(ctx.config.dataDir, project.id);
  const [commit] = await readCommits(ctx.git, repoPath, [source.sha]);
  if (!commit) return 'Commit not found';
  const file = await blobInfoAtPath(ctx.git, repoPath, source.sha, CI_CONFIG_FILE);
  if (!file) return 'Missing .gitlab-ci.yml file';
  const base = {
    projectId: project.id,
    ref: source.ref,
    tag: source.tag,
    sha: source.sha,
    beforeSha: source.beforeSha,
    userId: source.userId,
    committedAt: new Date(commit.committer.time * 1000).toISOString(),
    yamlErrors: null,
    jobs: [],
    triggerRequestId: null,
    source: source.source,
  };
  const error = (message: string): PipelinePlan => ({ ...base, status: 'failed', yamlErrors: message });
  if (file.size > LIMITS.ciConfigBytes) return error(CI_CONFIG_TOO_LARGE);
  const blob = await ctx.git.objects.read(repoPath, file.id);
  const parsed = await composeCiConfig(blob?.content.toString('utf8') ?? '', includeReader(ctx, source.userId), {
    projectId: project.id,
    sha: source.sha,
  });
  // An invalid file fails the pipeline even with `[ci skip]` (8.12 validates first).
  if (!parsed.ok) return error(parsed.error);
  if (!source.trigger && !source.ignoreSkipCi && SKIP_CI.test(commit.message)) return { ...base, status: 'skipped' };
  const projectPath = `${project.namespace.path}/${project.path}`;
  const byRef = jobsForRef(parsed.config.jobs, { ref: source.ref, tag: source.tag, trigger: source.trigger, projectPath });
  const usesRules = parsed.config.workflowRules !== null || byRef.some((j) => j.rules !== null);
  const facts = usesRules ? await ruleFacts(ctx, project, { ...source, message: commit.message }, parsed.config) : undefined;
  const jobs = facts ? applyRules(parsed.config, byRef, facts) : byRef;
  if (!jobs) return FILTERED_BY_WORKFLOW;
  if (jobs.length === 0) return 'No stages / jobs for this pipeline.';
  return { ...base, status: 'created', jobs };
}

/**
 * Saves planned pipelines with one build per job, then opens each pipeline's first stage, in the
 * caller's transaction: a pipeline never exists without its builds, nor builds without a stage
 * opened.
 */
export async function insertPipelines(ctx: ServiceContext, trx: Db, plans: PipelinePlan[]): Promise<number[]> {
  const ids: number[] = [];
  for (const plan of plans) {
    const time = now();
    const finished = plan.status === 'failed' || plan.status === 'skipped';
    const pipeline = await trx
      .insertInto('ci_pipelines')
      .values({
        project_id: plan.projectId,
        ref: plan.ref,
        sha: plan.sha,
        before_sha: plan.beforeSha,
        tag: plan.tag ? 1 : 0,
        status: plan.status,
        yaml_errors: plan.yamlErrors,
        user_id: plan.userId,
        committed_at: plan.committedAt,
        source: plan.source,
        finished_at: plan.status === 'failed' ? time : null,
        created_at: time,
        updated_at: time,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(pipeline.id);
    if (finished) {
      await queuePipelineHook(ctx, trx, { id: pipeline.id, project_id: plan.projectId, status: plan.status });
      continue;
    }
    const rows = plan.jobs.map((job) => {
      return {
        project_id: plan.projectId,
        pipeline_id: pipeline.id,
        type: 'Build',
        name: job.name,
        stage: job.stage,
        stage_idx: job.stageIdx,
        ref: plan.ref,
        tag: plan.tag ? (1 as const) : (0 as const),
        status: 'created',
        allow_failure: job.allowFailure ? (1 as const) : (0 as const),
        when: job.when,
        user_id: plan.userId,
        trigger_request_id: plan.triggerRequestId,
        ...newBuildToken(ctx.secrets),
        commands: job.commands,
        options: JSON.stringify(jobOptions(job)),
        yaml_variables: JSON.stringify(job.variables.map(({ key, value }) => ({ key, value, public: true }))),
        tag_list: JSON.stringify(job.tags),
        environment: job.environment?.name ?? null,
        created_at: time,
        updated_at: time,
      };
    });
    // Builds are created in stage order, file order within a stage (§5.3), so ids follow it.
    for (const chunk of chunksOf(rows)) await trx.insertInto('ci_builds').values(chunk).execute();
    if (await processPipeline(trx, pipeline.id)) announcePendingBuilds(ctx, trx);
    await cancelRedundantPipelines(ctx, trx, { id: pipeline.id, projectId: plan.projectId, ref: plan.ref, tag: plan.tag });
    const status = await updatePipelineStatus(ctx, trx, pipeline.id);
    if (status && status !== 'created') await queuePipelineHook(ctx, trx, { id: pipeline.id, project_id: plan.projectId, status });
  }
  return ids;
}
