import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { RunnerV4Client } from '../../support/runner-v4-client';
import { registrationToken, runnerRow } from '../../support/ci-world';

let app: TestApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

describe('POST /api/v4/runners', () => {
  test('a registration token registers a runner: 201 {id, token}, with its tags, lock, access level and maximum timeout', async () => {
    const runner = new RunnerV4Client(app.url);
    const response = await runner.register(await registrationToken(app), {
      description: 'docker on box 1',
      tagList: 'docker, linux',
      locked: true,
      accessLevel: 'ref_protected',
      maximumTimeout: 3600,
    });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body).sort(), ['id', 'token']);
    const row = (await runnerRow(app, response.body.token))!;
    assert.equal(row.id, response.body.id);
    assert.equal(row.description, 'docker on box 1');
    assert.deepEqual(JSON.parse(row.tag_list), ['docker', 'linux']);
    assert.equal(row.locked, 1);
    assert.equal(row.is_shared, 1);
    assert.equal(row.access_level, 'ref_protected');
    assert.equal(row.maximum_timeout, 3600);
    assert.equal(row.version, '16.11.0');
  });

  test('an unknown registration token: 403', async () => {
    const response = await new RunnerV4Client(app.url).register('not-a-registration-token');
    assert.equal(response.status, 403);
  });

  test('no token: 400 token is missing', async () => {
    const response = await new RunnerV4Client(app.url).json('POST', 'runners', { description: 'x' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { error: 'token is missing' });
  });

  test('run_untagged false without tags, or a maximum timeout under ten minutes: 400', async () => {
    const token = await registrationToken(app);
    const untagged = await new RunnerV4Client(app.url).register(token, { runUntagged: false });
    assert.equal(untagged.status, 400);
    const short = await new RunnerV4Client(app.url).register(token, { maximumTimeout: 60 });
    assert.equal(short.status, 400);
  });
});

describe('POST /api/v4/runners/verify and DELETE /api/v4/runners', () => {
  test('verify answers 200 for a registered runner, 403 once it is removed; removal answers 204, then 403', async () => {
    const runner = new RunnerV4Client(app.url);
    await runner.register(await registrationToken(app));
    const alive = await runner.verify();
    assert.equal(alive.status, 200);
    assert.equal(alive.body.token, runner.token);
    assert.equal((await runner.unregister()).status, 204);
    assert.equal(await runnerRow(app, runner.token!), undefined);
    assert.equal((await runner.verify()).status, 403);
    assert.equal((await runner.unregister()).status, 403);
  });
});

describe('the consumer API beside them', () => {
  test('GET /api/v4/runners and GET /api/v4/runners/:id still answer the administrator', async () => {
    const runner = new RunnerV4Client(app.url);
    const registered = await runner.register(await registrationToken(app), { description: 'listed' });
    const all = await app.root.v4().get('/runners/all');
    assert.equal(all.status, 200);
    assert.ok(all.body.some((item: any) => item.id === registered.body.id));
    const one = await app.root.v4().get(`/runners/${registered.body.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.description, 'listed');
  });
});
