import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { startApp, type TestApp } from '../../support/app';
import { createRootProject } from '../../support/repo';
import { RunnerClient, RUNNER_USER_AGENT, runnerBaseUrl } from '../../support/runner-client';
import { projectRunnersToken, registrationToken, runnerRow } from '../../support/ci-world';
import { forgeArgs, ROOT } from '../../support/node-entry';

let app: TestApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

const form = (path: string, method: string, fields: Record<string, string>) =>
  fetch(`${app.url}/ci/api/v1/${path}`, {
    method,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': RUNNER_USER_AGENT },
    body: new URLSearchParams(fields).toString(),
  });

describe('the runner base URL', () => {
  test('trailing slash removed, /ci appended unless already there, then /api/v1/', () => {
    assert.equal(runnerBaseUrl('http://forge.example/'), 'http://forge.example/ci/api/v1/');
    assert.equal(runnerBaseUrl('http://forge.example/ci'), 'http://forge.example/ci/api/v1/');
    assert.equal(runnerBaseUrl('http://forge.example/ci/'), 'http://forge.example/ci/api/v1/');
  });
});

describe('POST /ci/api/v1/runners/register', () => {
  test('with the registration token: 201 {id, token}, a shared runner that runs untagged builds, Content-Type exactly application/json', async () => {
    const runner = new RunnerClient(app.url);
    const response = await runner.register(await registrationToken(app), { description: 'server.hostname' });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.deepEqual(Object.keys(response.body), ['id', 'token']);
    assert.match(response.body.token, /^[0-9a-f]{30}$/);
    const row = (await runnerRow(app, response.body.token))!;
    assert.equal(row.id, response.body.id);
    assert.equal(row.is_shared, 1);
    assert.equal(row.run_untagged, 1);
    assert.equal(row.locked, 0);
    assert.equal(row.active, 1);
    assert.equal(row.description, 'server.hostname');
    assert.equal(row.contacted_at, null);
    assert.notEqual(row.token_digest, response.body.token);
  });

  test('tag_list "tag1, tag2" gives tags ["tag1","tag2"]; an array works too', async () => {
    const runner = new RunnerClient(app.url);
    await runner.register(await registrationToken(app), { tagList: 'tag1, tag2' });
    assert.deepEqual(JSON.parse((await runnerRow(app, runner.token!))!.tag_list), ['tag1', 'tag2']);
    const response = await new RunnerClient(app.url).json('POST', 'runners/register.json', {
      token: await registrationToken(app),
      tag_list: [' a ', 'b,c'],
    });
    assert.equal(response.status, 201);
    assert.deepEqual(JSON.parse((await runnerRow(app, response.body.token))!.tag_list), ['a', 'b', 'c']);
  });

  test('run_untagged=false with tags: 201 and run_untagged false; without tags: 404', async () => {
    const token = await registrationToken(app);
    const tagged = await form('runners/register', 'POST', { token, run_untagged: 'false', 'tag_list[]': 'tag' });
    assert.equal(tagged.status, 201);
    assert.equal((await runnerRow(app, ((await tagged.json()) as any).token))!.run_untagged, 0);
    const untagged = await new RunnerClient(app.url).register(token, { runUntagged: false });
    assert.equal(untagged.status, 404);
    assert.deepEqual(untagged.body, { message: '404 Not Found' });
  });

  test("with a project's runners token: 201, a specific runner, and the project has 1 runner", async () => {
    const p = await createRootProject(app, 'specific');
    const runner = new RunnerClient(app.url);
    assert.equal((await runner.register(await projectRunnersToken(app, p.id))).status, 201);
    const row = (await runnerRow(app, runner.token!))!;
    assert.equal(row.is_shared, 0);
    const links = await app.ctx.db.selectFrom('ci_runner_projects').selectAll().where('project_id', '=', p.id).execute();
    assert.deepEqual(
      links.map((link) => link.runner_id),
      [row.id],
    );
  });

  test('an invalid token: 403', async () => {
    const response = await new RunnerClient(app.url).register('invalid');
    assert.equal(response.status, 403);
    assert.deepEqual(response.body, { message: '403 Forbidden' });
  });

  test('no token, or a blank one: 400 "token" not given', async () => {
    for (const body of [{}, { token: '' }, { token: '  ' }, { token: 42 }]) {
      const response = await new RunnerClient(app.url).json('POST', 'runners/register.json', body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(response.body, { message: '400 (Bad request) "token" not given' });
    }
  });

  test('info[<field>] is stored, as a JSON object or as form keys', async () => {
    const runner = new RunnerClient(app.url);
    await runner.register(await registrationToken(app));
    const row = (await runnerRow(app, runner.token!))!;
    assert.deepEqual(
      [row.name, row.version, row.revision, row.platform, row.architecture],
      ['gitlab-ci-multi-runner', '1.6.0', 'c1ecf97f', 'linux', 'amd64'],
    );
    const response = await form('runners/register', 'POST', {
      token: await registrationToken(app),
      'info[platform]': 'darwin',
      'info[architecture]': 'architecture_value',
    });
    const formRow = (await runnerRow(app, ((await response.json()) as any).token))!;
    assert.equal(formRow.platform, 'darwin');
    assert.equal(formRow.architecture, 'architecture_value');
  });

  test('garbage never answers 500', async () => {
    const bodies = ['{', '[]', '"x"', 'null', '{"token": {"a": 1}}', '{"token": "x", "info": [1]}', '{"token": "x", "tag_list": {"a": 1}}'];
    for (const body of bodies) {
      const response = await fetch(`${app.url}/ci/api/v1/runners/register.json`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      assert.ok(response.status < 500, body);
    }
    const registration = await registrationToken(app);
    const odd = await new RunnerClient(app.url).json('POST', 'runners/register.json', {
      token: registration,
      tag_list: { a: 1 },
      info: 'x',
      run_untagged: 'maybe',
      description: 5,
    });
    assert.equal(odd.status, 201);
  });
});

describe('DELETE /ci/api/v1/runners/delete', () => {
  test('with the runner token: 200, and the runner and its project links are gone', async () => {
    const p = await createRootProject(app, 'deleted');
    const runner = new RunnerClient(app.url);
    await runner.register(await projectRunnersToken(app, p.id));
    const id = (await runnerRow(app, runner.token!))!.id;
    const response = await runner.unregister();
    assert.equal(response.status, 200);
    assert.equal(response.body.id, id);
    assert.equal(await runnerRow(app, runner.token!), undefined);
    assert.equal((await app.ctx.db.selectFrom('ci_runner_projects').selectAll().where('runner_id', '=', id).execute()).length, 0);
    assert.equal((await runner.verify()).status, 403);
  });

  test('an unknown token: 403; no token: 400', async () => {
    assert.equal((await new RunnerClient(app.url, 'unknown').unregister()).status, 403);
    const missing = await new RunnerClient(app.url).json('DELETE', 'runners/delete', {});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { message: '400 (Bad request) "token" not given' });
    const query = await fetch(`${app.url}/ci/api/v1/runners/delete?token=unknown`, { method: 'DELETE' });
    assert.equal(query.status, 403);
  });
});

describe('forge admin runners-token', () => {
  // The command opens the database of DATA_DIR; the test app's PostgreSQL database is its own.
  test("prints the shared runners' registration token", { skip: Boolean(process.env.TEST_DATABASE_URL) }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [...forgeArgs(), 'admin', 'runners-token'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: app.dataDir, DATABASE_URL: '' },
    });
    assert.equal(stdout.trim(), await registrationToken(app));
  });
});
