import type { TestApp } from './app';
import { digestToken, randomToken } from '../../src/lib/secrets';
import { RunnerClient } from './runner-client';

/*
 * CI rows written straight into the database, for runner API tests that need a build in a given
 * state (the push → pipeline path is tested with real pushes; see the end-to-end tests).
 */

export interface SeedBuild {
  name?: string;
  stage?: string;
  stage_idx?: number;
  status?: string;
  tag_list?: string[];
  options?: Record<string, unknown>;
  yaml_variables?: Array<{ key: string; value: string; public: boolean }>;
  commands?: string;
  when?: string;
  user_id?: number | null;
  runner_id?: number | null;
}

export interface SeededBuild {
  id: number;
  token: string;
}

export async function seedPipeline(
  app: TestApp,
  projectId: number,
  options: { sha?: string; ref?: string; tag?: boolean; before_sha?: string | null; user_id?: number | null; builds: SeedBuild[] },
): Promise<{ pipelineId: number; builds: SeededBuild[] }> {
  const { db, secrets } = app.ctx;
  const time = new Date().toISOString();
  const pipeline = await db
    .insertInto('ci_pipelines')
    .values({
      project_id: projectId,
      ref: options.ref ?? 'master',
      sha: options.sha ?? 'a'.repeat(40),
      before_sha: options.before_sha ?? null,
      tag: options.tag ? 1 : 0,
      status: 'pending',
      user_id: options.user_id ?? null,
      created_at: time,
      updated_at: time,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const builds: SeededBuild[] = [];
  for (const build of options.builds) {
    const token = randomToken(20);
    const row = await db
      .insertInto('ci_builds')
      .values({
        project_id: projectId,
        pipeline_id: pipeline.id,
        type: 'Build',
        name: build.name ?? 'test',
        stage: build.stage ?? 'test',
        stage_idx: build.stage_idx ?? 0,
        ref: options.ref ?? 'master',
        tag: options.tag ? 1 : 0,
        status: build.status ?? 'pending',
        allow_failure: 0,
        when: build.when ?? 'on_success',
        user_id: build.user_id ?? options.user_id ?? null,
        runner_id: build.runner_id ?? null,
        token_digest: digestToken(token),
        token_sealed: secrets.seal(token),
        commands: build.commands ?? 'ls -a',
        tag_list: JSON.stringify(build.tag_list ?? []),
        options: JSON.stringify(build.options ?? { image: 'ruby:2.1', services: ['postgres'] }),
        yaml_variables: JSON.stringify(build.yaml_variables ?? [{ key: 'DB_NAME', value: 'postgres', public: true }]),
        created_at: time,
        updated_at: time,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    builds.push({ id: row.id, token });
  }
  return { pipelineId: pipeline.id, builds };
}

/** The shared runners' registration token. */
export async function registrationToken(app: TestApp): Promise<string> {
  return (await app.services.settings.get()).runners_registration_token;
}

/** A project's runners token (registers specific runners; also a build credential). */
export async function projectRunnersToken(app: TestApp, projectId: number): Promise<string> {
  const row = await app.ctx.db.selectFrom('projects').select('runners_token_sealed').where('id', '=', projectId).executeTakeFirstOrThrow();
  return app.ctx.secrets.unseal(row.runners_token_sealed);
}

/** A registered runner: shared by default, specific to `projectId` when given. */
export async function registeredRunner(
  app: TestApp,
  opts: { projectId?: number; tagList?: string; runUntagged?: boolean; description?: string } = {},
): Promise<RunnerClient> {
  const runner = new RunnerClient(app.url);
  const token = opts.projectId === undefined ? await registrationToken(app) : await projectRunnersToken(app, opts.projectId);
  const response = await runner.register(token, opts);
  if (response.status !== 201) throw new Error(`runner registration failed: ${response.status} ${response.text}`);
  return runner;
}

export async function buildRow(app: TestApp, id: number) {
  return app.ctx.db.selectFrom('ci_builds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

export async function runnerRow(app: TestApp, token: string) {
  return app.services.runnerRegistration.findByToken(token);
}

/** Cancels every pending build, so a shared runner's test sees only the builds it seeds. */
export async function clearQueue(app: TestApp): Promise<void> {
  await app.ctx.db.updateTable('ci_builds').set({ status: 'canceled' }).where('status', 'in', ['pending', 'running']).execute();
}
