import type { Selectable } from 'kysely';
import type { Db } from '../../../db/index';
import type { DeploymentsTable } from '../../../db/schema';
import type { ServiceContext } from '../../context';
import type { Project } from '../../projects/types';
import type { User, UsersService } from '../../users/users';
import type { BuildRow } from '../builds/transitions';
import type { BuildsService } from '../builds/builds';
import { recordNotFound } from '../../../errors';
import { nextInternalId } from '../../../db/internal-ids';
import { now } from '../../../lib/time';
import { buildsOf, type BuildDetails } from '../builds/records';
import { buildToken, triggerVariables } from '../runners/payload';
import { buildVariables, type BuildVariable } from '../builds/variables';
import { expandVariables } from '../builds/expand-variables';
import { findOrCreateEnvironment, type EnvironmentRow } from './environments';

export type DeploymentRow = Selectable<DeploymentsTable>;

/** A deployment and what its answer shows: its environment, who deployed and the build that did. */
export interface DeploymentDetails {
  deployment: DeploymentRow;
  environment: EnvironmentRow;
  user: User | undefined;
  deployable: BuildDetails | undefined;
}

/**
 * GitLab 8.12's `CreateDeploymentService`, run in the transaction that makes a build `success`: a
 * build of a job with an `environment` deploys to the environment its name expands to (with the
 * build's variables), made on first use with the expanded `environment:url`. A name that expands
 * to an invalid environment deploys nothing, silently, as 8.12 did.
 */
export async function recordDeployment(ctx: ServiceContext, trx: Db, build: BuildRow): Promise<void> {
  if (build.type !== 'Build' || build.status !== 'success' || !build.environment || !build.ref) return;
  const { sha, variables } = await variablesOf(ctx, trx, build);
  const url = environmentUrl(build.options);
  const environment = await findOrCreateEnvironment(
    trx,
    build.project_id,
    expandVariables(build.environment, variables),
    url === undefined ? null : expandVariables(url, variables),
  );
  if (!environment) return;
  const time = now();
  await trx
    .insertInto('deployments')
    .values({
      iid: await nextInternalId(trx, build.project_id, 'deployments'),
      project_id: build.project_id,
      environment_id: environment.id,
      ref: build.ref,
      tag: build.tag,
      sha,
      user_id: build.user_id,
      deployable_id: build.id,
      created_at: time,
      updated_at: time,
    })
    .execute();
}

/** `environment:url` from the job's options, when the job gave one. */
function environmentUrl(options: string): string | undefined {
  try {
    const url = (JSON.parse(options || '{}') as { environment?: { url?: unknown } } | null)?.environment?.url;
    return typeof url === 'string' ? url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The build's variables as its runner was handed them (GitLab's `build.variables`), read through
 * the transaction: the same sources as the payload's (build-payload.ts), without its compiled
 * queries, which run outside any transaction.
 */
async function variablesOf(ctx: ServiceContext, trx: Db, build: BuildRow): Promise<{ sha: string; variables: BuildVariable[] }> {
  const pipeline = await trx.selectFrom('ci_pipelines').select(['id', 'sha', 'before_sha', 'tag']).where('id', '=', build.pipeline_id).executeTakeFirstOrThrow();
  const project = await trx
    .selectFrom('projects')
    .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
    .select(['projects.id', 'projects.path', 'namespaces.path as namespacePath'])
    .where('projects.id', '=', build.project_id)
    .executeTakeFirstOrThrow();
  const runner = build.runner_id === null ? undefined : await trx.selectFrom('ci_runners').select(['id', 'description', 'tag_list']).where('id', '=', build.runner_id).executeTakeFirst();
  const user = build.user_id === null ? undefined : await trx.selectFrom('users').select(['id', 'email']).where('id', '=', build.user_id).executeTakeFirst();
  const secrets = await trx.selectFrom('ci_variables').select(['key', 'value']).where('project_id', '=', build.project_id).orderBy('id').execute();
  const triggerRequest =
    build.trigger_request_id === null ? undefined : await trx.selectFrom('ci_trigger_requests').select('variables').where('id', '=', build.trigger_request_id).executeTakeFirst();
  const variables = buildVariables({
    build,
    token: buildToken(ctx, build),
    pipeline: { id: pipeline.id, sha: pipeline.sha, before_sha: pipeline.before_sha, tag: Boolean(pipeline.tag) },
    project: { id: project.id, path: project.path, namespacePath: project.namespacePath, webUrl: `${ctx.config.externalUrl}/${project.namespacePath}/${project.path}` },
    runner: runner && { id: runner.id, description: runner.description, tags: JSON.parse(runner.tag_list) as string[] },
    user,
    secrets: secrets.map((secret) => ({ key: secret.key, value: ctx.secrets.unseal(secret.value) })),
    trigger: triggerRequest && triggerVariables(triggerRequest.variables),
  });
  return { sha: pipeline.sha, variables };
}

/** Reading a project's deployments. */
export class DeploymentsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly builds: BuildsService,
    private readonly users: UsersService,
  ) {}

  /** Oldest first (8.12 gave no order: the database's, which is insertion order). */
  async list(project: Project, page: { offset: number; limit: number }): Promise<{ deployments: DeploymentDetails[]; total: number }> {
    const query = this.ctx.db.selectFrom('deployments').where('project_id', '=', project.id);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { deployments: await this.details(project, rows), total: Number(count.total) };
  }

  /** One deployment of the project by its id, or 8.12's `404 Not found`. */
  async find(project: Project, id: number): Promise<DeploymentDetails> {
    const row = await this.ctx.db.selectFrom('deployments').selectAll().where('id', '=', id).where('project_id', '=', project.id).executeTakeFirst();
    if (!row) throw recordNotFound();
    return (await this.details(project, [row]))[0];
  }

  /** Environments, users and builds (with their commits, users and runners) of a page, one batch each. */
  private async details(project: Project, rows: DeploymentRow[]): Promise<DeploymentDetails[]> {
    if (rows.length === 0) return [];
    const environmentIds = [...new Set(rows.map((row) => row.environment_id))];
    const buildIds = rows.flatMap((row) => (row.deployable_id === null ? [] : [row.deployable_id]));
    const [environments, users, builds] = await Promise.all([
      this.ctx.db.selectFrom('environments').selectAll().where('id', 'in', environmentIds).execute(),
      this.users.findMany(rows.flatMap((row) => (row.user_id === null ? [] : [row.user_id]))),
      buildIds.length ? buildsOf(this.ctx.db, project.id).where('ci_builds.id', 'in', buildIds).execute() : [],
    ]);
    const environmentById = new Map(environments.map((environment) => [environment.id, environment]));
    const buildById = new Map((await this.builds.details(project, builds)).map((details) => [details.build.id, details]));
    // A deployment whose environment was removed since the page was read went with it.
    return rows.flatMap((deployment) => {
      const environment = environmentById.get(deployment.environment_id);
      if (!environment) return [];
      const user = deployment.user_id === null ? undefined : users.get(deployment.user_id);
      const deployable = deployment.deployable_id === null ? undefined : buildById.get(deployment.deployable_id);
      return [{ deployment, environment, user, deployable }];
    });
  }
}
