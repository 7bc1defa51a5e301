import type { ServiceContext } from '../../context';
import type { BuildRow, RunnerRow } from '../types';
import { buildToken } from '../builds/tokens';
import { buildVariables, triggerVariables, ZERO_SHA, type BuildVariable } from '../builds/variables';
import { preparedQuery } from '../../../db/prepared';

/** A build as runners see it in `depends_on_builds` (GitLab's short build shape). */
export interface BuildSummary {
  id: number;
  ref: string | null;
  tag: boolean;
  sha: string;
  status: string;
  name: string;
  token: string;
  stage: string | null;
  project_id: number;
  project_name: string;
  artifacts_file?: { filename: string; size: number | null };
}

/** Everything a runner needs to run a build: GitLab 8.12's `Entities::BuildDetails` (reference §2.3.2). */
export interface BuildPayload extends BuildSummary {
  commands: string;
  repo_url: string;
  before_sha: string;
  allow_git_fetch: boolean;
  artifacts_expire_at?: string | null;
  options: Record<string, unknown>;
  timeout: number;
  variables: BuildVariable[];
  depends_on_builds: BuildSummary[];
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
      db.selectFrom('ci_pipelines').select(['id', 'sha', 'before_sha', 'tag']).where('id', '=', id),
    );
    this.user = preparedQuery(db, (id: number) => db.selectFrom('users').select(['id', 'email']).where('id', '=', id));
    this.secrets = preparedQuery(db, (projectId: number) =>
      db.selectFrom('ci_variables').select(['key', 'value']).where('project_id', '=', projectId).orderBy('id'),
    );
    this.triggerRequest = preparedQuery(db, (id: number) => db.selectFrom('ci_trigger_requests').select('variables').where('id', '=', id));
  }

  async of(build: BuildRow, runner: RunnerRow | undefined): Promise<BuildPayload> {
    const { ctx } = this;
    const [[project], [pipeline], users, secrets, triggerRequests, dependencies] = await Promise.all([
      this.project(build.project_id),
      this.pipeline(build.pipeline_id),
      build.user_id === null ? [] : this.user(build.user_id),
      this.secrets(build.project_id),
      build.trigger_request_id === null ? [] : this.triggerRequest(build.trigger_request_id),
      earlierStages(ctx, build),
    ]);
    if (!project || !pipeline) throw new Error(`build ${build.id} has lost its project or pipeline`);
    const user = users[0];
    const token = buildToken(ctx, build);
    const fullPath = `${project.namespacePath}/${project.path}`;
    const webUrl = `${ctx.config.externalUrl}/${fullPath}`;
    const sha = pipeline.sha;
    const summary = (row: BuildRow, rowToken: string): BuildSummary => ({
      id: row.id,
      ref: row.ref,
      tag: Boolean(row.tag),
      sha,
      status: row.status,
      name: row.name,
      token: rowToken,
      stage: row.stage,
      project_id: row.project_id,
      project_name: project.name,
      ...(hasArtifacts(row) ? { artifacts_file: { filename: row.artifacts_file!, size: row.artifacts_size } } : {}),
    });
    return {
      ...summary(build, token),
      commands: build.commands,
      repo_url: withCredentials(`${webUrl}.git`, token),
      before_sha: pipeline.before_sha ?? ZERO_SHA,
      allow_git_fetch: Boolean(project.build_allow_git_fetch),
      ...(hasArtifacts(build) ? { artifacts_expire_at: build.artifacts_expire_at } : {}),
      options: parseOptions(build.options),
      timeout: project.build_timeout,
      variables: buildVariables({
        build,
        token,
        pipeline: { id: pipeline.id, sha, before_sha: pipeline.before_sha, tag: Boolean(pipeline.tag) },
        project: { id: project.id, path: project.path, namespacePath: project.namespacePath, webUrl },
        runner: runner && { id: runner.id, description: runner.description, tags: JSON.parse(runner.tag_list) as string[] },
        user,
        secrets: secrets.map((secret) => ({ key: secret.key, value: ctx.secrets.unseal(secret.value) })),
        trigger: triggerRequests[0] && triggerVariables(triggerRequests[0].variables),
      }),
      depends_on_builds: dependencies.map((row) => summary(row, buildToken(ctx, row))),
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

/** The clone URL with `gitlab-ci-token:<token>@` after the scheme, as the runner clones with it. */
function withCredentials(url: string, token: string): string {
  return url.replace(/^(https?:\/\/)/, `$1gitlab-ci-token:${token}@`);
}

/** The options stored at creation; the runner cannot decode anything but an object, so nothing else is passed on. */
function parseOptions(stored: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(stored || '{}');
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
