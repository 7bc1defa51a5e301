import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { RunnerV4Client } from '../../support/runner-v4-client';
import { RunnerProcess } from '../../support/runner-process';
import { pushedProject } from './world';

/*
 * `POST /api/v4/user/runners` (GitLab 15.10 and later, `doc/api/users.md`): a signed-in user makes
 * a runner and gets its authentication token (`glrt-…`), which `gitlab-runner register --token`
 * checks with `POST /runners/verify` and then uses as the runner's token.
 */

let app: TestApp;

before(async () => {
  app = await startApp({ RUNNER_POLL_TIMEOUT_MS: '300' });
});
after(async () => {
  await app.close();
});

describe('POST /user/runners', () => {
  test('an administrator makes an instance runner: 201 with its id and a glrt- token that does not expire', async () => {
    const created = await app.root.v4().post('/user/runners', {
      runner_type: 'instance_type',
      description: 'made by root',
      tag_list: ['docker', 'linux'],
      run_untagged: false,
      maximum_timeout: 3600,
    });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.token, /^glrt-[0-9a-f]{20,}$/);
    assert.equal(created.body.token_expires_at, null);
    const shown = await app.root.v4().get(`/runners/${created.body.id}`);
    assert.equal(shown.body.description, 'made by root');
    assert.equal(shown.body.is_shared, true);
    assert.deepEqual([...shown.body.tag_list].sort(), ['docker', 'linux']);
    assert.equal(shown.body.run_untagged, false);
  });

  test('the glrt- token verifies and asks for jobs like a registered runner token', async () => {
    const project = await pushedProject(app, 'token-runner');
    const created = await app.root.v4().post('/user/runners', { runner_type: 'project_type', project_id: project.id });
    assert.equal(created.status, 201, created.text);
    const runner = new RunnerV4Client(app.url, created.body.token);
    const verified = await runner.verify();
    assert.equal(verified.status, 200);
    assert.deepEqual(verified.body, { id: created.body.id, token: created.body.token, token_expires_at: null });
    const linked = await app.root.v4().get(`/projects/${project.id}/runners`);
    assert.ok(linked.body.some((r: { id: number }) => r.id === created.body.id));
    assert.equal((await runner.requestJob()).outcome, 'nothing');
  });

  test('a user who is not an administrator may not make an instance runner: 403', async () => {
    const { client } = await app.createUser();
    const refused = await client.v4().post('/user/runners', { runner_type: 'instance_type' });
    assert.equal(refused.status, 403);
  });

  test('a project runner needs master on the project: a developer gets 403, a stranger to a private project 404', async () => {
    const project = await pushedProject(app, 'guarded');
    const developer = await app.createUser();
    const stranger = await app.createUser();
    const added = await app.root.post(`/projects/${project.id}/members`, { user_id: developer.user.id, access_level: 30 });
    assert.equal(added.status, 201, added.text);
    const asDeveloper = await developer.client.v4().post('/user/runners', { runner_type: 'project_type', project_id: project.id });
    assert.equal(asDeveloper.status, 403);
    const asStranger = await stranger.client.v4().post('/user/runners', { runner_type: 'project_type', project_id: project.id });
    assert.equal(asStranger.status, 404);
    assert.equal((await app.ctx.db.selectFrom('ci_runner_projects').select('id').where('project_id', '=', project.id).execute()).length, 0);
  });

  test('bad input is a 400: no runner_type, an unknown one, a project runner without project_id, a group runner', async () => {
    const post = (body: Record<string, unknown>) => app.root.v4().post('/user/runners', body);
    const before = (await app.ctx.db.selectFrom('ci_runners').select('id').execute()).length;
    const missing = await post({ description: 'x' });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'runner_type is missing' });
    assert.equal((await post({ runner_type: 'shared' })).status, 400);
    assert.equal((await post({ runner_type: 'project_type' })).status, 400);
    assert.equal((await post({ runner_type: 'group_type', group_id: 1 })).status, 400);
    assert.equal((await post({ runner_type: 'instance_type', run_untagged: false })).status, 400);
    assert.equal((await app.ctx.db.selectFrom('ci_runners').select('id').execute()).length, before);
  });

  test('anonymous: 401', async () => {
    assert.equal((await app.anonymous.v4().post('/user/runners', { runner_type: 'instance_type' })).status, 401);
  });
});

describe('forge runner register --token glrt-…', () => {
  test('verifies the token (never POST /runners) and keeps it', async () => {
    const created = await app.root.v4().post('/user/runners', { runner_type: 'instance_type', description: 'by token' });
    const count = async () => (await app.ctx.db.selectFrom('ci_runners').select('id').execute()).length;
    const runners = await count();
    const runner = RunnerProcess.start(app, { token: created.body.token });
    try {
      await runner.waitForOutput(/waiting for builds/);
      assert.match(runner.output, new RegExp(`verified runner #${created.body.id}`));
      assert.equal(await count(), runners);
    } finally {
      await runner.close();
    }
  });
});
