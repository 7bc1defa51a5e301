import type { Db } from '../../../db/index';
import type { ServiceContext } from '../../context';
import { nextInternalId } from '../../../db/internal-ids';
import { now } from '../../../lib/time';
import { buildToken } from '../builds/tokens';
import { buildVariables, triggerVariables, type BuildVariable } from '../builds/variables';
import { isProtectedRef, variablesForRef } from '../builds/protected-ref';
import { expandVariables } from '../builds/expand-variables';
import { findOrCreateEnvironment } from './environments';
import type { BuildRow } from '../types';

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
  // A deployment starts a stopped environment again (GitLab 9's `environment.start`).
  if (environment.state !== 'available') {
    await trx.updateTable('environments').set({ state: 'available', updated_at: time }).where('id', '=', environment.id).execute();
  }
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
 * the transaction: the same sources as the payload's (runners/payload.ts), without its compiled
 * queries, which run outside any transaction.
 */
async function variablesOf(ctx: ServiceContext, trx: Db, build: BuildRow): Promise<{ sha: string; variables: BuildVariable[] }> {
  const pipeline = await trx
    .selectFrom('ci_pipelines')
    .select(['id', 'sha', 'before_sha', 'tag'])
    .where('id', '=', build.pipeline_id)
    .executeTakeFirstOrThrow();
  const project = await trx
    .selectFrom('projects')
    .innerJoin('namespaces', 'namespaces.id', 'projects.namespace_id')
    .select(['projects.id', 'projects.path', 'namespaces.path as namespacePath'])
    .where('projects.id', '=', build.project_id)
    .executeTakeFirstOrThrow();
  const runner =
    build.runner_id === null
      ? undefined
      : await trx.selectFrom('ci_runners').select(['id', 'description', 'tag_list']).where('id', '=', build.runner_id).executeTakeFirst();
  const user =
    build.user_id === null
      ? undefined
      : await trx.selectFrom('users').select(['id', 'email']).where('id', '=', build.user_id).executeTakeFirst();
  const secrets = await trx
    .selectFrom('ci_variables')
    .select(['key', 'value', 'protected'])
    .where('project_id', '=', build.project_id)
    .orderBy('id')
    .execute();
  const triggerRequest =
    build.trigger_request_id === null
      ? undefined
      : await trx.selectFrom('ci_trigger_requests').select('variables').where('id', '=', build.trigger_request_id).executeTakeFirst();
  const variables = buildVariables({
    build,
    token: buildToken(ctx, build),
    pipeline: { id: pipeline.id, sha: pipeline.sha, before_sha: pipeline.before_sha, tag: Boolean(pipeline.tag) },
    project: {
      id: project.id,
      path: project.path,
      namespacePath: project.namespacePath,
      webUrl: `${ctx.config.externalUrl}/${project.namespacePath}/${project.path}`,
    },
    runner: runner && { id: runner.id, description: runner.description, tags: JSON.parse(runner.tag_list) as string[] },
    user,
    secrets: variablesForRef(secrets, await isProtectedRef(trx, build.project_id, build.ref, build.tag === 1)).map((secret) => ({
      key: secret.key,
      value: ctx.secrets.unseal(secret.value),
    })),
    trigger: triggerRequest && triggerVariables(triggerRequest.variables),
  });
  return { sha: pipeline.sha, variables };
}
