import { Readable } from 'node:stream';
import type { TestApp } from './app';
import { artifactsKey, traceKey } from '../../src/services/ci/builds/files';
import { digestToken } from '../../src/lib/secrets';

/*
 * Pipelines and builds written straight into the database, as GitLab's factories do, for tests of
 * the consumer API before pipelines come from pushes and runners; traces and artifacts are put
 * straight into the app's file store, as the runner API will.
 */

const now = () => new Date().toISOString();

export interface SeedBuild {
  name: string;
  status: string;
  stage?: string;
  stage_idx?: number;
  when?: string;
  allow_failure?: boolean;
  /** Default `ls -a` (GitLab's factory); '' makes a build that cannot be retried. */
  commands?: string;
  user_id?: number | null;
  runner_id?: number | null;
  started_at?: string | null;
  finished_at?: string | null;
  type?: 'Build' | 'GenericCommitStatus';
  token?: string;
}

export interface SeedPipeline {
  sha: string;
  ref?: string;
  status?: string;
  user_id?: number | null;
  tag?: boolean;
  builds?: SeedBuild[];
}

/** A pipeline and its builds, in the order given (so ids rise in that order). */
export async function seedPipeline(app: TestApp, projectId: number, pipeline: SeedPipeline): Promise<{ id: number; builds: number[] }> {
  const db = app.ctx.db;
  const time = now();
  const ref = pipeline.ref ?? 'master';
  const row = await db
    .insertInto('ci_pipelines')
    .values({
      project_id: projectId,
      sha: pipeline.sha,
      before_sha: pipeline.sha,
      ref,
      tag: pipeline.tag ? 1 : 0,
      status: pipeline.status ?? 'pending',
      user_id: pipeline.user_id ?? null,
      created_at: time,
      updated_at: time,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const builds: number[] = [];
  for (const build of pipeline.builds ?? []) builds.push(await seedBuild(app, projectId, row.id, ref, build));
  return { id: row.id, builds };
}

export async function seedBuild(app: TestApp, projectId: number, pipelineId: number, ref: string, build: SeedBuild): Promise<number> {
  const time = now();
  const finished = ['success', 'failed', 'canceled'].includes(build.status);
  const row = await app.ctx.db
    .insertInto('ci_builds')
    .values({
      project_id: projectId,
      pipeline_id: pipelineId,
      type: build.type ?? 'Build',
      name: build.name,
      stage: build.stage ?? 'test',
      stage_idx: build.stage_idx ?? 0,
      ref,
      tag: 0,
      status: build.status,
      allow_failure: build.allow_failure ? 1 : 0,
      when: build.when ?? 'on_success',
      user_id: build.user_id ?? null,
      runner_id: build.runner_id ?? null,
      token_digest: build.token ? digestToken(build.token) : null,
      commands: build.commands ?? 'ls -a',
      options: '{}',
      yaml_variables: '[]',
      started_at: build.started_at ?? (finished || build.status === 'running' ? time : null),
      finished_at: build.finished_at ?? (finished ? time : null),
      created_at: time,
      updated_at: time,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Writes a build's trace into the store, as the runner API stores it. */
export async function putTrace(app: TestApp, projectId: number, buildId: number, text: string): Promise<void> {
  await app.ctx.files.put(traceKey({ project_id: projectId, id: buildId }), Readable.from([Buffer.from(text)]));
}

/** Stores artifacts for a build: the file in the store, its name, size and expiry on the row. */
export async function putArtifacts(
  app: TestApp,
  projectId: number,
  buildId: number,
  options: { content?: Buffer; fileName?: string; expireAt?: string | null } = {},
): Promise<Buffer> {
  const content = options.content ?? Buffer.from(`PK\x05\x06${'\0'.repeat(18)}`, 'binary');
  const size = await app.ctx.files.put(artifactsKey({ project_id: projectId, id: buildId }), Readable.from([content]));
  await app.ctx.db
    .updateTable('ci_builds')
    .set({
      artifacts_file: options.fileName ?? 'ci_build_artifacts.zip',
      artifacts_size: size,
      artifacts_expire_at: options.expireAt ?? null,
    })
    .where('id', '=', buildId)
    .execute();
  return content;
}

/** A build's row as stored. */
export function buildRow(app: TestApp, buildId: number) {
  return app.ctx.db.selectFrom('ci_builds').selectAll().where('id', '=', buildId).executeTakeFirstOrThrow();
}

export function pipelineRow(app: TestApp, pipelineId: number) {
  return app.ctx.db.selectFrom('ci_pipelines').selectAll().where('id', '=', pipelineId).executeTakeFirstOrThrow();
}

/** A runner row, for builds that show the runner that ran them. */
export async function seedRunner(app: TestApp, values: { description?: string; is_shared?: boolean; name?: string } = {}): Promise<number> {
  const time = now();
  const row = await app.ctx.db
    .insertInto('ci_runners')
    .values({
      token_digest: digestToken(`runner-${Math.random()}`),
      token_sealed: 'sealed',
      description: values.description ?? 'a runner',
      active: 1,
      is_shared: values.is_shared ? 1 : 0,
      run_untagged: 1,
      locked: 0,
      tag_list: '[]',
      name: values.name ?? 'gitlab-ci-multi-runner',
      created_at: time,
      updated_at: time,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
