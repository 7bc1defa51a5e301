import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld, type ProjectWorld, type Role } from '../../support/project-world';
import type { ApiClient } from '../../support/client';

const CI_YML = 'unit:\n  script: make test\n';

let app: TestApp;
let world: ProjectWorld<Role>;
let master: ApiClient;
let owner: ApiClient;
let developer: ApiClient;

before(async () => {
  app = await startApp();
  world = await createProjectWorld(app, { name: 'triggered', visibility: 0, commits: [{ files: { '.gitlab-ci.yml': CI_YML } }] });
  master = world.master.client.v4();
  owner = world.owner.client.v4();
  developer = world.developer.client.v4();
});
after(() => app.close());

const triggers = (suffix = '') => `/projects/${world.id}/triggers${suffix}`;
const variables = (suffix = '') => `/projects/${world.id}/variables${suffix}`;

describe('/projects/:id/triggers', () => {
  test('a master creates a trigger with a description (201) and owns it', async () => {
    const response = await master.post(triggers(), { description: 'nightly' });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(Object.keys(response.body), ['id', 'token', 'description', 'created_at', 'updated_at', 'last_used', 'owner']);
    assert.equal(response.body.description, 'nightly');
    assert.match(response.body.token, /^[0-9a-f]{30}$/);
    assert.equal(response.body.owner.username, world.master.user.username);
    assert.equal(response.body.last_used, null);
  });

  test('needs a description (400) and a master (403 to a developer)', async () => {
    const missing = await master.post(triggers(), {});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { error: 'description is missing' });
    assert.equal((await developer.post(triggers(), { description: 'x' })).status, 403);
    assert.equal((await developer.get(triggers())).status, 403);
  });

  test("lists, reads, changes and removes triggers by id; another master sees the token's first characters only", async () => {
    const created = (await master.post(triggers(), { description: 'to change' })).body;
    const list = await owner.get(triggers());
    assert.equal(list.status, 200);
    assert.ok(list.headers.get('x-total'));
    const seen = list.body.find((trigger: any) => trigger.id === created.id);
    assert.equal(seen.token, created.token.slice(0, 4));
    assert.equal((await master.get(triggers(`/${created.id}`))).body.token, created.token);
    const changed = await master.put(triggers(`/${created.id}`), { description: 'changed' });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.description, 'changed');
    const removed = await master.delete(triggers(`/${created.id}`));
    assert.equal(removed.status, 200);
    assert.equal((await master.get(triggers(`/${created.id}`))).status, 404);
    assert.equal((await master.delete(triggers(`/${created.id}`))).status, 404);
    assert.equal((await master.get(triggers('/abc'))).status, 404);
  });
});

describe('a trigger whose owner is removed', () => {
  test('stays, without an owner', async () => {
    const leaving = await app.createUser();
    await app.root.post(`/projects/${world.id}/members`, { user_id: leaving.user.id, access_level: 40 });
    const created = (await leaving.client.v4().post(triggers(), { description: 'orphan' })).body;
    assert.equal(created.owner.id, leaving.user.id);
    const removed = await app.root.delete(`/users/${leaving.user.id}`);
    assert.equal(removed.status, 200, removed.text);
    const seen = await owner.get(triggers(`/${created.id}`));
    assert.equal(seen.status, 200);
    assert.equal(seen.body.owner, null);
    // Without an owner, the project's masters see the whole token again, as GitLab showed legacy triggers.
    assert.equal(seen.body.token, created.token);
  });
});

describe('POST /projects/:id/trigger/pipeline', () => {
  test('runs a pipeline with the token alone (201), its variables reaching the trigger request', async () => {
    const trigger = (await master.post(triggers(), { description: 'ci' })).body;
    const response = await app.anonymous.v4().post(`/projects/${world.id}/trigger/pipeline`, {
      token: trigger.token,
      ref: 'master',
      variables: { DEPLOY: 'yes' },
    });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.ref, 'master');
    assert.equal(response.body.sha, world.shas[0]);
    assert.equal(response.body.status, 'pending');
    assert.equal(response.body.user, null);
    const request = await app.ctx.db
      .selectFrom('ci_trigger_requests')
      .selectAll()
      .where('pipeline_id', '=', response.body.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(request.variables!), { DEPLOY: 'yes' });
    assert.notEqual((await master.get(triggers(`/${trigger.id}`))).body.last_used, null);
  });

  test('answers 404 for a token that is no trigger, 400 for a ref with nothing to run or missing parameters', async () => {
    const trigger = (await master.post(triggers(), { description: 'ci' })).body;
    const bad = await app.anonymous.v4().post(`/projects/${world.id}/trigger/pipeline`, { token: 'nope', ref: 'master' });
    assert.equal(bad.status, 404);
    const nowhere = await app.anonymous.v4().post(`/projects/${world.id}/trigger/pipeline`, { token: trigger.token, ref: 'nowhere' });
    assert.equal(nowhere.status, 400);
    const noRef = await app.anonymous.v4().post(`/projects/${world.id}/trigger/pipeline`, { token: trigger.token });
    assert.equal(noRef.status, 400);
    assert.deepEqual(noRef.body, { error: 'ref is missing' });
  });
});

describe('/projects/:id/variables', () => {
  test('a master creates, reads, lists, changes and removes variables, `protected` and `masked` kept', async () => {
    const created = await master.post(variables(), { key: 'SECRET', value: 's3cr3t', protected: false });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body, { key: 'SECRET', value: 's3cr3t', protected: false, masked: false });
    assert.deepEqual((await master.get(variables('/SECRET'))).body, { key: 'SECRET', value: 's3cr3t', protected: false, masked: false });
    const list = await master.get(variables());
    assert.equal(list.status, 200);
    assert.equal(list.headers.get('x-total'), '1');
    const changed = await master.put(variables('/SECRET'), { value: 'other', protected: true });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.value, 'other');
    assert.equal(changed.body.protected, true);
    assert.equal((await master.delete(variables('/SECRET'))).status, 200);
    assert.equal((await master.get(variables('/SECRET'))).status, 404);
  });

  test('refuses a duplicate or invalid key (400), a missing value (400), and non-masters (403)', async () => {
    assert.equal((await master.post(variables(), { key: 'TWICE', value: '1' })).status, 201);
    assert.equal((await master.post(variables(), { key: 'TWICE', value: '2' })).status, 400);
    assert.equal((await master.post(variables(), { key: 'bad key', value: '2' })).status, 400);
    assert.deepEqual((await master.post(variables(), { key: 'NOVALUE' })).body, { error: 'value is missing' });
    assert.equal((await developer.get(variables())).status, 403);
    assert.equal((await app.anonymous.v4().get(variables())).status, 401);
  });
});
