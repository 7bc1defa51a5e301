import type { ServiceContext } from '../../context';
import type { BuildRow, RunnerRow } from '../types';
import { buildToken } from '../builds/tokens';
import { buildVariables, triggerVariables, ZERO_SHA, type BuildVariable } from '../builds/variables';
import { preparedQuery } from '../../../db/prepared';
import { isProtectedRef, variablesForRef } from '../builds/protected-ref';
import { jobTimeout } from '../builds/job-timeout';
import { parseOptions } from '../builds/stored-options';

/** A build's archive, while it has one. */
export interface JobArtifactsFile {
  filename: string;
  size: number | null;
}

/** A build of an earlier stage, with its own token (its artifacts are fetched with it). */
export interface JobDependency {
  build: BuildRow;
  token: string;
  artifacts: JobArtifactsFile | undefined;
}

/**
 * Everything a runner needs to run a build, whatever the protocol: each runner API door presents
 * it in its own shape (`api/ci/entities/build.ts` for v1, `api/runner-v4/entities/job.ts` for v4).
 */
export interface RunnerJob {
  build: BuildRow;
  token: string;
  project: { id: number; name: string; path: string; fullPath: string; webUrl: string; allowGitFetch: boolean };
  pipeline: { id: number; sha: string; beforeSha: string; tag: boolean };
  /** The clone URL with `gitlab-ci-token:<token>@`. */
  repoUrl: string;
  artifacts: (JobArtifactsFile & { expireAt: string | null }) | undefined;
  /** The job's options exactly as stored at creation (an object; anything else is `{}`). */
  options: Record<string, unknown>;
  /** Seconds: the job's `timeout`, else the project's build timeout; capped by the runner's `maximum_timeout`. */
  timeout: number;
  variables: BuildVariable[];
  /** The latest build of each name in the earlier stages, in any status (for a job with `needs`, those it needs with `artifacts`). */
  dependencies: JobDependency[];
}

/** A build has artifacts while its file is recorded and not expired (GitLab's `artifacts?`). */
export function hasArtifacts(build: Pick<BuildRow, 'artifacts_file' | 'artifacts_expire_at'>, time = Date.now()): boolean {
  return build.artifacts_file !== null && (build.artifacts_expire_at === null || Date.parse(build.artifacts_expire_at) > time);
}

/**
 * The payload of a build for its runner: the build with its project, pipeline, user, secret
 * variables and the builds of earlier stages, read in a few queries (one per kind, none per build);
 * those run for every build handed out are built and compiled once (src/db/prepared.ts).
 */
export class BuildPayloads {
  private readonly project;
  private readonly pipeline;
  private readonly user;
  private readonly secrets;
  private readonly triggerRequest;

  constructor(private readonly ctx: ServiceContext) {
    const db = ctx.db;
    this.project = preparedQuery(db, (id: number) =>
      db
        .selectFrom('projects')
        .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
        .select([
          'projects.id',
          'projects.name',
          'projects.path',
          'namespaces.path as namespacePath',
          'projects.build_timeout',
          'projects.build_allow_git_fetch',
        ])
        .where('projects.id', '=', id),
    );
    this.pipeline = preparedQuery(db, (id: number) =>
      db.selectFrom('ci_pipelines').select(['id', 'sha', 'before_sha', 'tag', 'source']).where('id', '=', id),
    );
    this.user = preparedQuery(db, (id: number) => db.selectFrom('users').select(['id', 'email', 'username', 'name']).where('id', '=', id));
    this.secrets = preparedQuery(db, (projectId: number) =>
      db.selectFrom('ci_variables').select(['key', 'value', 'protected']).where('project_id', '=', projectId).orderBy('id'),
    );
    this.triggerRequest = preparedQuery(db, (id: number) => db.selectFrom('ci_trigger_requests').select('variables').where('id', '=', id));
  }

  /** `jobNames`: the variables add GitLab 9's names (`CI_JOB_*`, `CI_COMMIT_*`) beside 8.12's. */
  async of(build: BuildRow, runner: RunnerRow | undefined, flavour: { jobNames?: boolean } = {}): Promise<RunnerJob> {
    const { ctx } = this;
    const [[project], [pipeline], users, secrets, triggerRequests, dependencies, refProtected] = await Promise.all([
      this.project(build.project_id),
      this.pipeline(build.pipeline_id),
      build.user_id === null ? [] : this.user(build.user_id),
      this.secrets(build.project_id),
      build.trigger_request_id === null ? [] : this.triggerRequest(build.trigger_request_id),
      earlierStages(ctx, build),
      isProtectedRef(ctx.db, build.project_id, build.ref, build.tag === 1),
    ]);
    if (!project || !pipeline) throw new Error(`build ${build.id} has lost its project or pipeline`);
    const user = users[0];
    const token = buildToken(ctx, build);
    const fullPath = `${project.namespacePath}/${project.path}`;
    const webUrl = `${ctx.config.externalUrl}/${fullPath}`;
    const sha = pipeline.sha;
    const artifactsOf = (row: BuildRow): JobArtifactsFile | undefined =>
      hasArtifacts(row) ? { filename: row.artifacts_file!, size: row.artifacts_size } : undefined;
    const artifacts = artifactsOf(build);
    const options = parseOptions(build.options);
    return {
      build,
      token,
      project: {
        id: project.id,
        name: project.name,
        path: project.path,
        fullPath,
        webUrl,
        allowGitFetch: Boolean(project.build_allow_git_fetch),
      },
      pipeline: { id: pipeline.id, sha, beforeSha: pipeline.before_sha ?? ZERO_SHA, tag: Boolean(pipeline.tag) },
      repoUrl: withCredentials(`${webUrl}.git`, token),
      artifacts: artifacts && { ...artifacts, expireAt: build.artifacts_expire_at },
      options,
      timeout: jobTimeout(options, project.build_timeout, runner?.maximum_timeout ?? null),
      variables: buildVariables({
        build,
        token,
        pipeline: {
          id: pipeline.id,
          sha,
          before_sha: pipeline.before_sha,
          tag: Boolean(pipeline.tag),
          source: pipeline.source,
          refProtected,
        },
        project: { id: project.id, path: project.path, namespacePath: project.namespacePath, webUrl },
        runner: runner && { id: runner.id, description: runner.description, tags: JSON.parse(runner.tag_list) as string[] },
        user,
        secrets: variablesForRef(secrets, refProtected).map((secret) => ({ key: secret.key, value: ctx.secrets.unseal(secret.value) })),
        trigger: triggerRequests[0] && triggerVariables(triggerRequests[0].variables),
        jobNames: flavour.jobNames,
        server: { url: ctx.config.externalUrl, repositoryUrl: withCredentials(`${webUrl}.git`, token) },
      }),
      dependencies: withNeededArtifacts(dependencies, options).map((row) => ({
        build: row,
        token: buildToken(ctx, row),
        artifacts: artifactsOf(row),
      })),
    };
  }
}

/** The latest build of each name in the earlier stages of the build's pipeline, in any status. */
async function earlierStages(ctx: ServiceContext, build: BuildRow): Promise<BuildRow[]> {
  // The first stage depends on nothing: no query for the builds most often handed out.
  if (build.stage_idx === 0) return [];
  return ctx.db
    .selectFrom('ci_builds')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('ci_builds')
        .select((inner) => inner.fn.max('id').as('id'))
        .where('pipeline_id', '=', build.pipeline_id)
        .where('stage_idx', '<', build.stage_idx)
        .where('type', '=', 'Build')
        .groupBy('name'),
    )
    .orderBy('stage_idx')
    .orderBy('id')
    .execute();
}

/** A job with `needs` takes the artifacts of what it needs with `artifacts: true` only, whatever the stages hold. */
function withNeededArtifacts(earlier: BuildRow[], options: Record<string, unknown>): BuildRow[] {
  if (!Array.isArray(options.needs)) return earlier;
  const wanted = new Set(
    options.needs.filter((need: { artifacts?: unknown }) => need?.artifacts !== false).map((need: { name?: unknown }) => need?.name),
  );
  return earlier.filter((row) => wanted.has(row.name));
}

/** The clone URL with `gitlab-ci-token:<token>@` after the scheme, as the runner clones with it. */
function withCredentials(url: string, token: string): string {
  return url.replace(/^(https?:\/\/)/, `$1gitlab-ci-token:${token}@`);
}
