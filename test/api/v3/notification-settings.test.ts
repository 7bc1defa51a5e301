import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createProject } from '../../support/create';
import type { ApiClient } from '../../support/client';

let app: TestApp;
let alice: { user: any; client: ApiClient };
let bob: { user: any; client: ApiClient };
let project: any;
let privateProject: any;
let group: any;

before(async () => {
  app = await startApp();
  alice = await app.createUser();
  bob = await app.createUser();
  project = await createProject(alice.client, { name: 'noticed', visibility_level: 0 });
  privateProject = project;
  const created = await alice.client.post('/groups', { name: 'noticers', path: 'noticers' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  group = created.body;
});
after(() => app.close());

describe('GET /notification_settings', () => {
  test('is participating, to the primary address, until changed', async () => {
    const response = await alice.client.get('/notification_settings');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { level: 'participating', notification_email: alice.user.email });
  });

  test('needs a signed-in user', async () => {
    assert.equal((await app.anonymous.get('/notification_settings')).status, 401);
  });
});

describe('PUT /notification_settings', () => {
  test('round-trips the level', async () => {
    const put = await alice.client.put('/notification_settings', { level: 'watch' });
    assert.equal(put.status, 200);
    assert.equal(put.body.level, 'watch');
    assert.equal((await alice.client.get('/notification_settings')).body.level, 'watch');
  });

  test('a custom level shows and keeps its events', async () => {
    const put = await alice.client.put('/notification_settings', { level: 'custom', new_note: true, close_issue: true });
    assert.equal(put.status, 200);
    assert.equal(put.body.events.new_note, true);
    assert.equal(put.body.events.close_issue, true);
    assert.equal(put.body.events.new_issue, false);
    const again = await alice.client.put('/notification_settings', { new_note: false });
    assert.equal(again.body.events.new_note, false);
    assert.equal(again.body.events.close_issue, true);
  });

  test('an unknown level is 400 and changes nothing', async () => {
    await alice.client.put('/notification_settings', { level: 'mention' });
    const response = await alice.client.put('/notification_settings', { level: 'loud' });
    assert.equal(response.status, 400);
    assert.match(response.body.message, /level/);
    assert.equal((await alice.client.get('/notification_settings')).body.level, 'mention');
  });

  test('global is no level for the global setting (400)', async () => {
    assert.equal((await alice.client.put('/notification_settings', { level: 'global' })).status, 400);
  });

  test('notification_email must be one of the user’s addresses (400 otherwise)', async () => {
    const other = await alice.client.put('/notification_settings', { notification_email: 'someone@else.example' });
    assert.equal(other.status, 400);
    const added = await alice.client.post('/user/emails', { email: 'alice.work@example.com' });
    assert.equal(added.status, 201);
    const put = await alice.client.put('/notification_settings', { notification_email: 'alice.work@example.com' });
    assert.equal(put.status, 200);
    assert.equal(put.body.notification_email, 'alice.work@example.com');
  });

  test('each user has their own', async () => {
    assert.equal((await bob.client.get('/notification_settings')).body.level, 'participating');
  });
});

describe('GET and PUT /projects/:id/notification_settings', () => {
  test('is global until chosen, then round-trips', async () => {
    assert.deepEqual((await alice.client.get(`/projects/${project.id}/notification_settings`)).body, { level: 'global' });
    const put = await alice.client.put(`/projects/${project.id}/notification_settings`, { level: 'disabled' });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, { level: 'disabled' });
    assert.deepEqual((await alice.client.get(`/projects/${project.id}/notification_settings`)).body, { level: 'disabled' });
  });

  test('an unknown level is 400', async () => {
    assert.equal((await alice.client.put(`/projects/${project.id}/notification_settings`, { level: 'sometimes' })).status, 400);
  });

  test('a private project the caller may not read is 404', async () => {
    assert.equal((await bob.client.get(`/projects/${privateProject.id}/notification_settings`)).status, 404);
    assert.equal((await bob.client.put(`/projects/${privateProject.id}/notification_settings`, { level: 'watch' })).status, 404);
  });
});

describe('GET and PUT /groups/:id/notification_settings', () => {
  test('round-trips, custom events included', async () => {
    const put = await alice.client.put(`/groups/${group.id}/notification_settings`, { level: 'custom', merge_merge_request: true });
    assert.equal(put.status, 200);
    assert.equal(put.body.level, 'custom');
    assert.equal(put.body.events.merge_merge_request, true);
    const got = await alice.client.get(`/groups/${group.path}/notification_settings`);
    assert.deepEqual(got.body, put.body);
  });

  test('an unknown level is 400', async () => {
    assert.equal((await alice.client.put(`/groups/${group.id}/notification_settings`, { level: 'never' })).status, 400);
  });
});

describe('API v4', () => {
  test('has the same shapes', async () => {
    const v4 = bob.client.v4();
    const put = await v4.put('/notification_settings', { level: 'watch' });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, { level: 'watch', notification_email: bob.user.email });
    assert.deepEqual((await bob.client.get('/notification_settings')).body, put.body);
    assert.equal((await alice.client.v4().put(`/groups/${group.id}/notification_settings`, { level: 'loud' })).status, 400);
    assert.equal((await v4.get(`/groups/${group.id}/notification_settings`)).status, 404, 'a group the caller may not read');
  });
});
