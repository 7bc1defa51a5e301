import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Updateable } from 'kysely';
import { startApp, type TestApp } from '../support/app';
import { eventually } from '../support/eventually';
import { HookListener, type ReceivedHook } from '../support/hook-listener';
import { seedCommit } from '../support/repo';
import { cloneUrl, git, workTree } from '../support/git';
import { RunnerClient, type RunningBuild } from '../support/runner-client';
import type { ApiClient } from '../support/client';
import type { CiBuildsTable } from '../../src/db/schema';
import { inTransaction } from '../../src/db/transaction';
import { transitionBuild } from '../../src/services/ci/builds/transitions';
import type { StatusEvent } from '../../src/services/ci/pipelines/status';
import { digestToken } from '../../src/lib/secrets';
import { now } from '../../src/lib/time';

/*
 * Builds are moved the way the runner API and the builds API move them (`transitionBuild`), over
 * pipelines and builds written straight into the database, and the hooks are heard by a real
 * listener through the real job queue.
 */

let app: TestApp;
let listener: HookListener;
let pat: { user: any; client: ApiClient; token: string };
let runnerId: number;

before(async () => {
  app = await startApp({ EXTERNAL_URL: 'http://forge.example.com' });
  listener = await HookListener.start();
  pat = await app.createUser({ name: 'Pat Pusher', username: 'pat', email: 'pat@example.com', projects_limit: 100 });
  const runner = await app.ctx.db
    .insertInto('ci_runners')
    .values({
      token_digest: digestToken('runner-token'),
      token_sealed: app.ctx.secrets.seal('runner-token'),
      description: 'shared runner',
      active: 1,
      is_shared: 1,
      run_untagged: 1,
      locked: 0,
      tag_list: '[]',
      created_at: now(),
      updated_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  runnerId = runner.id;
});
after(async () => {
  await app.close();
  await listener.close();
});

const ZERO = '0'.repeat(40);
const ctx = () => app.ctx;
const hookTime = (iso: string | null) => (iso === null ? null : iso.replace('T', ' ').replace(/\.\d{3}Z$/, ' UTC'));

/** A project of Pat's with one commit, and a hook at the listener (`?project=<name>`) with the given flags. */
async function project(name: string, flags: Record<string, boolean> = { build_events: true, pipeline_events: true }) {
  const created = await pat.client.post('/projects', { name, description: 'CI all the way' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const hook = await pat.client.post(`/projects/${created.body.id}/hooks`, {
    url: `${listener.url}?project=${name}`,
    push_events: false,
    ...flags,
  });
  assert.equal(hook.status, 201, JSON.stringify(hook.body));
  const before = await seedCommit(app, created.body.id, { files: { 'README.md': '# ci\n' }, message: 'Start\n' });
  const sha = await seedCommit(app, created.body.id, {
    files: { '.gitlab-ci.yml': 'compile:\n  script: make\n' },
    message: 'Add CI\n\nWith a body\n',
    time: new Date('2016-09-20T10:00:00Z'),
    author: { name: 'Ada Lovelace', email: 'ada@example.com' },
  });
  return { id: created.body.id as number, name, before, sha };
}

interface BuildSeed {
  name: string;
  stage: string;
  stage_idx: number;
  status: string;
  allow_failure?: boolean;
  when?: string;
  type?: string;
  started_at?: string | null;
  finished_at?: string | null;
}

/** A pipeline of Pat's on master and its builds, written as pipeline creation would; the build ids in the order given. */
async function pipeline(
  p: { id: number; sha: string; before: string },
  status: string,
  builds: BuildSeed[],
  times: { started_at?: string } = {},
) {
  const db = ctx().db;
  const { id } = await db
    .insertInto('ci_pipelines')
    .values({
      project_id: p.id,
      ref: 'master',
      sha: p.sha,
      before_sha: p.before,
      tag: 0,
      status,
      user_id: pat.user.id,
      started_at: times.started_at ?? null,
      created_at: now(),
      updated_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (const build of builds) {
    const row = await db
      .insertInto('ci_builds')
      .values({
        project_id: p.id,
        pipeline_id: id,
        type: build.type ?? 'Build',
        name: build.name,
        stage: build.stage,
        stage_idx: build.stage_idx,
        ref: 'master',
        tag: 0,
        status: build.status,
        allow_failure: build.allow_failure ? 1 : 0,
        when: build.when ?? 'on_success',
        user_id: pat.user.id,
        commands: 'make',
        options: '{}',
        yaml_variables: '[]',
        started_at: build.started_at ?? null,
        finished_at: build.finished_at ?? null,
        created_at: now(),
        updated_at: now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return { id, builds: ids };
}

/** Moves a build by `event` as the runner or builds API would, in its own transaction. */
async function move(buildId: number, event: StatusEvent, changes: Updateable<CiBuildsTable> = {}) {
  const moved = await inTransaction(ctx().db, async (trx) => {
    const build = await trx.selectFrom('ci_builds').selectAll().where('id', '=', buildId).executeTakeFirstOrThrow();
    return transitionBuild(ctx(), trx, build, event, changes);
  });
  assert.ok(moved, `build ${buildId} could not ${event}`);
  return moved;
}

const buildRow = (id: number) => ctx().db.selectFrom('ci_builds').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const pipelineRow = (id: number) => ctx().db.selectFrom('ci_pipelines').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

const heard = (name: string, event: string) => (hook: ReceivedHook) =>
  hook.url === `/hook?project=${name}` && hook.headers['x-gitlab-event'] === event;
const buildHook = (name: string, buildId: number, status: string) => (hook: ReceivedHook) =>
  heard(name, 'Build Hook')(hook) && hook.body.build_id === buildId && hook.body.build_status === status;
const pipelineHook = (name: string, pipelineId: number, status: string) => (hook: ReceivedHook) =>
  heard(name, 'Pipeline Hook')(hook) && hook.body.object_attributes.id === pipelineId && hook.body.object_attributes.status === status;

/** Waits until no `ci.hook` or `hook.deliver` job is left, so that nothing more can arrive. */
async function settled() {
  await eventually(
    async () => (await ctx().db.selectFrom('jobs').select('id').where('kind', 'in', ['ci.hook', 'hook.deliver']).execute()).length === 0,
    {
      message: 'the hook jobs to end',
    },
  );
}

describe('Build Hook', () => {
  test('a build that starts and finishes is announced with GitLab 8.12’s build payload and its status at each change', async () => {
    const p = await project('build-hooks');
    const { id: pipelineId, builds } = await pipeline(p, 'pending', [{ name: 'compile', stage: 'build', stage_idx: 0, status: 'pending' }]);
    const [compile] = builds;

    await move(compile, 'run', { runner_id: runnerId });
    const running = await listener.waitFor(buildHook(p.name, compile, 'running'));
    assert.equal(running.method, 'POST');
    assert.equal(running.headers['content-type'], 'application/json');
    let build = await buildRow(compile);
    let pipe = await pipelineRow(pipelineId);
    assert.equal(typeof running.body.build_duration, 'number');
    assert.ok(running.body.build_duration >= 0);
    const web = `http://forge.example.com/pat/${p.name}`;
    const expected = {
      object_kind: 'build',
      ref: 'master',
      tag: false,
      before_sha: p.before,
      sha: p.sha,
      build_id: compile,
      build_name: 'compile',
      build_stage: 'build',
      build_status: 'running',
      build_started_at: hookTime(build.started_at),
      build_finished_at: null,
      build_duration: running.body.build_duration,
      build_allow_failure: false,
      project_id: p.id,
      project_name: `Pat Pusher / ${p.name}`,
      user: { id: pat.user.id, name: 'Pat Pusher', email: 'pat@example.com' },
      commit: {
        id: pipelineId,
        sha: p.sha,
        message: 'Add CI\n\nWith a body\n',
        author_name: 'Ada Lovelace',
        author_email: 'ada@example.com',
        status: 'running',
        duration: pipe.duration,
        started_at: hookTime(pipe.started_at),
        finished_at: null,
      },
      repository: {
        name: p.name,
        url: `git@forge.example.com:pat/${p.name}.git`,
        description: 'CI all the way',
        homepage: web,
        git_http_url: `${web}.git`,
        git_ssh_url: `git@forge.example.com:pat/${p.name}.git`,
        visibility_level: 0,
      },
    };
    assert.deepEqual(running.body, expected);
    assert.deepEqual(Object.keys(running.body), Object.keys(expected));
    assert.match(String(running.body.build_started_at), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);

    await move(compile, 'success');
    const success = await listener.waitFor(buildHook(p.name, compile, 'success'));
    build = await buildRow(compile);
    pipe = await pipelineRow(pipelineId);
    assert.equal(pipe.status, 'success');
    assert.deepEqual(success.body, {
      ...expected,
      build_status: 'success',
      build_finished_at: hookTime(build.finished_at),
      // Seconds between start and finish, with their fraction, as Ruby subtracts two times.
      build_duration: (Date.parse(build.finished_at!) - Date.parse(build.started_at!)) / 1000,
      commit: { ...expected.commit, status: 'success', duration: pipe.duration, finished_at: hookTime(pipe.finished_at) },
    });
  });

  test('a failed build allowed to fail says so, and a pipeline without before_sha shows the zero sha', async () => {
    const p = await project('allowed-failure');
    const { id: pipelineId, builds } = await pipeline(p, 'pending', [
      { name: 'lint', stage: 'test', stage_idx: 0, status: 'pending', allow_failure: true },
    ]);
    await ctx().db.updateTable('ci_pipelines').set({ before_sha: null }).where('id', '=', pipelineId).execute();
    await move(builds[0], 'drop');
    const failed = await listener.waitFor(buildHook(p.name, builds[0], 'failed'));
    assert.equal(failed.body.build_allow_failure, true);
    assert.equal(failed.body.before_sha, ZERO);
    // Never started: no start, no duration.
    assert.equal(failed.body.build_started_at, null);
    assert.equal(failed.body.build_duration, null);
    assert.equal(failed.body.commit.status, 'success');
  });

  test('pending, created and skipped builds are not announced; only starts and ends are', async () => {
    const p = await project('only-starts-and-ends');
    const { builds } = await pipeline(p, 'pending', [
      { name: 'compile', stage: 'build', stage_idx: 0, status: 'pending' },
      { name: 'rspec', stage: 'test', stage_idx: 1, status: 'created' },
      { name: 'deploy', stage: 'deploy', stage_idx: 2, status: 'created', when: 'on_failure' },
    ]);
    const [compile, rspec, deploy] = builds;
    await move(compile, 'run');
    await move(compile, 'success');
    // rspec was enqueued by then (pending: not announced); deploy is skipped once rspec succeeds.
    await move(rspec, 'run');
    await move(rspec, 'success');
    await listener.waitFor(buildHook(p.name, rspec, 'success'));
    await settled();
    const statuses = listener.received
      .filter(heard(p.name, 'Build Hook'))
      .map((hook) => `${hook.body.build_name}:${hook.body.build_status}`);
    assert.deepEqual(statuses.sort(), ['compile:running', 'compile:success', 'rspec:running', 'rspec:success']);
    assert.equal((await buildRow(deploy)).status, 'skipped');
  });

  test('a build gone before its hook was built is heard of no more', async () => {
    const p = await project('gone-build');
    const { id: pipelineId, builds } = await pipeline(p, 'pending', [{ name: 'compile', stage: 'build', stage_idx: 0, status: 'pending' }]);
    await inTransaction(ctx().db, async (trx) => {
      const build = await trx.selectFrom('ci_builds').selectAll().where('id', '=', builds[0]).executeTakeFirstOrThrow();
      assert.ok(await transitionBuild(ctx(), trx, build, 'run'));
      await trx.deleteFrom('ci_builds').where('id', '=', builds[0]).execute();
    });
    // The pipeline is still there: its hook goes out, the build's does not.
    await listener.waitFor(pipelineHook(p.name, pipelineId, 'running'));
    await settled();
    assert.equal(listener.received.filter(heard(p.name, 'Build Hook')).length, 0);
  });
});

describe('Pipeline Hook', () => {
  test('a pipeline is announced on each change of its status (not on a change that leaves it as it was), with GitLab 8.12’s pipeline payload', async () => {
    const p = await project('pipeline-hooks');
    const { id: pipelineId, builds } = await pipeline(p, 'pending', [
      { name: 'compile', stage: 'build', stage_idx: 0, status: 'pending' },
      { name: 'rspec', stage: 'test', stage_idx: 1, status: 'created' },
      { name: 'lint', stage: 'test', stage_idx: 1, status: 'created', allow_failure: true },
      { name: 'production', stage: 'deploy', stage_idx: 2, status: 'created', when: 'manual' },
    ]);
    const [compile, rspec, lint, production] = builds;
    await ctx()
      .db.updateTable('ci_builds')
      .set({ artifacts_file: 'artifacts.zip', artifacts_size: 1234 })
      .where('id', '=', compile)
      .execute();

    await move(compile, 'run', { runner_id: runnerId });
    const running = await listener.waitFor(pipelineHook(p.name, pipelineId, 'running'));
    assert.equal(running.headers['content-type'], 'application/json');
    assert.equal(running.body.object_attributes.finished_at, null);

    await move(compile, 'success');
    await move(rspec, 'run', { runner_id: runnerId });
    await move(lint, 'run');
    await move(rspec, 'success');
    await move(lint, 'drop');
    const success = await listener.waitFor(pipelineHook(p.name, pipelineId, 'success'));
    await settled();
    const announced = listener.received.filter(heard(p.name, 'Pipeline Hook')).map((hook) => hook.body.object_attributes.status);
    assert.deepEqual(announced, ['running', 'success']);

    const pipe = await pipelineRow(pipelineId);
    const rows = await Promise.all(builds.map(buildRow));
    const web = `http://forge.example.com/pat/${p.name}`;
    const patAttributes = { name: 'Pat Pusher', username: 'pat', avatar_url: success.body.user.avatar_url };
    assert.match(patAttributes.avatar_url, /^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{32}\?s=80&d=identicon$/);
    const runner = { id: runnerId, description: 'shared runner', active: true, is_shared: true };
    const expected = {
      object_kind: 'pipeline',
      object_attributes: {
        id: pipelineId,
        ref: 'master',
        tag: false,
        sha: p.sha,
        before_sha: p.before,
        status: 'success',
        stages: ['build', 'test', 'deploy'],
        created_at: hookTime(pipe.created_at),
        finished_at: hookTime(pipe.finished_at),
        duration: pipe.duration,
      },
      user: patAttributes,
      project: {
        name: p.name,
        description: 'CI all the way',
        web_url: web,
        avatar_url: null,
        git_ssh_url: `git@forge.example.com:pat/${p.name}.git`,
        git_http_url: `${web}.git`,
        namespace: 'pat',
        visibility_level: 0,
        path_with_namespace: `pat/${p.name}`,
        default_branch: null,
      },
      commit: {
        id: p.sha,
        message: 'Add CI\n\nWith a body\n',
        timestamp: '2016-09-20T10:00:00+00:00',
        url: `${web}/commit/${p.sha}`,
        author: { name: 'Ada Lovelace', email: 'ada@example.com' },
      },
      builds: rows.map((row) => ({
        id: row.id,
        stage: row.stage,
        name: row.name,
        status: row.status,
        created_at: hookTime(row.created_at),
        started_at: hookTime(row.started_at),
        finished_at: hookTime(row.finished_at),
        when: row.when,
        manual: row.id === production,
        user: patAttributes,
        runner: row.id === compile || row.id === rspec ? runner : null,
        artifacts_file: row.id === compile ? { filename: 'artifacts.zip', size: 1234 } : { filename: null, size: null },
      })),
    };
    assert.deepEqual(success.body, expected);
    assert.deepEqual(Object.keys(success.body), Object.keys(expected));
    assert.deepEqual(Object.keys(success.body.object_attributes), Object.keys(expected.object_attributes));
    assert.deepEqual(
      rows.map((row) => row.status),
      ['success', 'success', 'failed', 'skipped'],
    );
  });

  test('the duration is the time during which at least one of the latest builds ran, in whole seconds', async () => {
    const p = await project('pipeline-duration');
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
    const { id: pipelineId, builds } = await pipeline(
      p,
      'running',
      [
        // Overlapping: 100 s ago to 50 s ago, 50 seconds.
        { name: 'a', stage: 'test', stage_idx: 0, status: 'success', started_at: ago(100), finished_at: ago(70) },
        { name: 'b', stage: 'test', stage_idx: 0, status: 'success', started_at: ago(80), finished_at: ago(50) },
        // Retried: only the retry (the next row of the same name) counts.
        { name: 'c', stage: 'test', stage_idx: 0, status: 'failed', started_at: ago(1000), finished_at: ago(900) },
        { name: 'c', stage: 'test', stage_idx: 0, status: 'running', started_at: ago(20) },
        // External statuses have no run time.
        {
          name: 'ci/external',
          stage: 'external',
          stage_idx: 1_000_000,
          status: 'success',
          type: 'GenericCommitStatus',
          started_at: ago(500),
          finished_at: ago(400),
        },
      ],
      { started_at: ago(100) },
    );
    await move(builds[3], 'success');
    const pipe = await pipelineRow(pipelineId);
    assert.equal(pipe.status, 'success');
    // 50 s, then the retry's 20 s until now: 70 unless the machine took a whole second in between.
    assert.ok(pipe.duration === 70 || pipe.duration === 71, `duration ${pipe.duration}`);
    const hook = await listener.waitFor(pipelineHook(p.name, pipelineId, 'success'));
    assert.equal(hook.body.object_attributes.duration, pipe.duration);
  });

  test('a running pipeline’s duration keeps up with its builds, though its status does not change', async () => {
    const p = await project('running-duration');
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000).toISOString();
    const { id: pipelineId, builds } = await pipeline(
      p,
      'running',
      [
        { name: 'a', stage: 'test', stage_idx: 0, status: 'running', started_at: ago(30) },
        { name: 'b', stage: 'test', stage_idx: 0, status: 'pending' },
      ],
      { started_at: ago(30) },
    );
    await move(builds[1], 'run');
    const pipe = await pipelineRow(pipelineId);
    assert.equal(pipe.status, 'running');
    assert.ok(pipe.duration === 30 || pipe.duration === 31, `duration ${pipe.duration}`);
  });

  test('cancelling a build and retrying it through the API announce it canceled, the pipeline canceled, then pending again with both builds', async () => {
    const p = await project('cancel-retry');
    const { id: pipelineId, builds } = await pipeline(p, 'pending', [{ name: 'compile', stage: 'build', stage_idx: 0, status: 'pending' }]);
    await move(builds[0], 'run');
    await listener.waitFor(pipelineHook(p.name, pipelineId, 'running'));
    const canceled = await pat.client.post(`/projects/${p.id}/builds/${builds[0]}/cancel`);
    assert.equal(canceled.status, 201, JSON.stringify(canceled.body));
    await listener.waitFor(buildHook(p.name, builds[0], 'canceled'));
    await listener.waitFor(pipelineHook(p.name, pipelineId, 'canceled'));
    const retried = await pat.client.post(`/projects/${p.id}/builds/${builds[0]}/retry`);
    assert.equal(retried.status, 201, JSON.stringify(retried.body));
    await settled();
    const announced = listener.received.filter(heard(p.name, 'Pipeline Hook'));
    assert.deepEqual(
      announced.map((hook) => hook.body.object_attributes.status),
      ['running', 'canceled', 'pending'],
    );
    // A retry is a new build, queued at once: pending is not announced, and the pipeline lists both.
    assert.deepEqual(
      announced[2].body.builds.map((build: any) => `${build.id === builds[0] ? 'old' : 'retry'}:${build.status}`),
      ['old:canceled', 'retry:pending'],
    );
    assert.deepEqual(
      listener.received.filter(heard(p.name, 'Build Hook')).map((hook) => hook.body.build_status),
      ['running', 'canceled'],
    );
  });

  test('a status posted from outside moves the pipeline too, and its hook lists no builds', async () => {
    const p = await project('external-status');
    const posted = await pat.client.post(`/projects/${p.id}/statuses/${p.sha}`, { state: 'running', ref: 'master', name: 'ci/jenkins' });
    assert.equal(posted.status, 201, JSON.stringify(posted.body));
    const hook = await listener.waitFor((h) => heard(p.name, 'Pipeline Hook')(h) && h.body.object_attributes.sha === p.sha);
    assert.equal(hook.body.object_attributes.status, 'running');
    assert.deepEqual(hook.body.object_attributes.stages, ['external']);
    assert.deepEqual(hook.body.builds, []);
    await settled();
    assert.equal(listener.received.filter(heard(p.name, 'Build Hook')).length, 0);
  });
});

describe('a pushed .gitlab-ci.yml', () => {
  test('its pipeline is announced as it is created, runs and succeeds, and its builds as they start and end', async () => {
    const created = await pat.client.post('/projects', { name: 'pushed-ci' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const hook = await pat.client.post(`/projects/${created.body.id}/hooks`, {
      url: `${listener.url}?project=pushed-ci`,
      push_events: false,
      build_events: true,
      pipeline_events: true,
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const yaml = 'stages: [build, test]\ncompile:\n  stage: build\n  script: make\nrspec:\n  stage: test\n  script: make spec\n';
    const dir = await workTree('master', { '.gitlab-ci.yml': yaml });
    const pushed = await git(['push', cloneUrl(app.url, created.body.path_with_namespace, 'pat', pat.token), 'master'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
    const sha = (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();

    const pending = await listener.waitFor((h) => heard('pushed-ci', 'Pipeline Hook')(h) && h.body.object_attributes.status === 'pending');
    const pipelineId: number = pending.body.object_attributes.id;
    assert.equal(pending.body.object_attributes.sha, sha);
    assert.equal(pending.body.object_attributes.before_sha, ZERO);
    assert.deepEqual(pending.body.object_attributes.stages, ['build', 'test']);
    assert.equal(pending.body.object_attributes.duration, null);
    assert.deepEqual(
      pending.body.builds.map((b: any) => `${b.name}:${b.status}`),
      ['compile:pending', 'rspec:created'],
    );
    assert.equal(pending.body.user.username, 'pat');
    assert.equal(pending.body.commit.id, sha);
    assert.equal(pending.body.commit.message, 'initial commit\n');

    const [compile, rspec] = pending.body.builds.map((b: any) => b.id as number);
    await move(compile, 'run', { runner_id: runnerId });
    await move(compile, 'success');
    await move(rspec, 'run', { runner_id: runnerId });
    await move(rspec, 'success');
    const success = await listener.waitFor(pipelineHook('pushed-ci', pipelineId, 'success'));
    assert.deepEqual(
      success.body.builds.map((b: any) => `${b.name}:${b.status}`),
      ['compile:success', 'rspec:success'],
    );
    assert.equal(typeof success.body.object_attributes.duration, 'number');
    await settled();
    const pipelineStatuses = listener.received.filter(heard('pushed-ci', 'Pipeline Hook')).map((h) => h.body.object_attributes.status);
    assert.deepEqual(pipelineStatuses, ['pending', 'running', 'success']);
    const buildHooks = listener.received.filter(heard('pushed-ci', 'Build Hook'));
    assert.deepEqual(buildHooks.map((h) => `${h.body.build_name}:${h.body.build_status}`).sort(), [
      'compile:running',
      'compile:success',
      'rspec:running',
      'rspec:success',
    ]);
    for (const h of buildHooks) {
      assert.equal(h.body.commit.id, pipelineId);
      assert.equal(h.body.commit.message, 'initial commit\n');
      assert.equal(h.body.before_sha, ZERO);
    }
  });
});

describe('a build run by a runner', () => {
  test('a runner taking a build and reporting success through the runner API announces the build running and succeeded, and the pipeline names the runner', async () => {
    const created = await pat.client.post('/projects', { name: 'runner-run' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const hook = await pat.client.post(`/projects/${created.body.id}/hooks`, {
      url: `${listener.url}?project=runner-run`,
      push_events: false,
      build_events: true,
      pipeline_events: true,
    });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    const dir = await workTree('master', { '.gitlab-ci.yml': 'rspec:\n  script: make spec\n' });
    const pushed = await git(['push', cloneUrl(app.url, created.body.path_with_namespace, 'pat', pat.token), 'master'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
    const pending = await listener.waitFor((h) => heard('runner-run', 'Pipeline Hook')(h) && h.body.object_attributes.status === 'pending');
    const pipelineId: number = pending.body.object_attributes.id;

    const runner = new RunnerClient(app.url);
    const registered = await runner.register((await app.services.settings.get()).runners_registration_token, { description: 'bench box' });
    assert.equal(registered.status, 201);
    // Other tests' projects may have pending builds too: ask until this project's comes.
    let build: RunningBuild | undefined;
    for (let tries = 0; tries < 20 && !build; tries++) {
      const request = await runner.requestBuild();
      assert.equal(request.outcome, 'build', JSON.stringify(request.response.body));
      if (request.outcome === 'build' && request.build.payload.project_id === created.body.id) build = request.build;
    }
    assert.ok(build, 'the runner never got the pushed build');
    const running = await listener.waitFor(buildHook('runner-run', build.id, 'running'));
    assert.equal(running.body.build_name, 'rspec');
    assert.equal((await runner.appendTrace(build, 'Running rspec\n')).status, 202);
    assert.equal((await runner.finish(build, 'success')).status, 200);
    const succeeded = await listener.waitFor(buildHook('runner-run', build.id, 'success'));
    assert.equal(typeof succeeded.body.build_duration, 'number');
    const pipelineDone = await listener.waitFor(pipelineHook('runner-run', pipelineId, 'success'));
    assert.deepEqual(pipelineDone.body.builds[0].runner, {
      id: registered.body.id,
      description: 'bench box',
      active: true,
      is_shared: true,
    });
  });
});

describe('projects without CI hooks', () => {
  /** The `ci.hook` jobs a build's start queues, seen inside its transaction (before any worker can take them). */
  async function ciJobsOnStart(p: { id: number; sha: string; before: string }) {
    const { id: pipelineId, builds } = await pipeline(p, 'pending', [{ name: 'compile', stage: 'build', stage_idx: 0, status: 'pending' }]);
    return inTransaction(ctx().db, async (trx) => {
      const build = await trx.selectFrom('ci_builds').selectAll().where('id', '=', builds[0]).executeTakeFirstOrThrow();
      assert.ok(await transitionBuild(ctx(), trx, build, 'run'));
      const jobs = await trx.selectFrom('jobs').select('payload').where('kind', '=', 'ci.hook').execute();
      return jobs.map((job) => JSON.parse(job.payload)).filter((job) => job.buildId === builds[0] || job.pipelineId === pipelineId);
    });
  }

  test('a project whose hooks want neither build nor pipeline events gets no ci.hook job', async () => {
    const p = await project('push-only', { push_events: true, build_events: false, pipeline_events: false });
    assert.deepEqual(await ciJobsOnStart(p), []);
  });

  test('a project with a build hook only gets build jobs, one with a pipeline hook only gets pipeline jobs', async () => {
    const builds = await project('build-only', { build_events: true, pipeline_events: false });
    assert.deepEqual(
      (await ciJobsOnStart(builds)).map((job) => job.kind),
      ['build'],
    );
    const pipelines = await project('pipeline-only', { build_events: false, pipeline_events: true });
    assert.deepEqual(
      (await ciJobsOnStart(pipelines)).map((job) => job.kind),
      ['pipeline'],
    );
  });
});
