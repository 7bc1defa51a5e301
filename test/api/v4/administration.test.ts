import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createRootProject } from '../../support/repo';
import { publicKeys } from '../../fixtures/ssh-keys';

let app: TestApp;
let root: ApiClient;
let alice: ApiClient;

before(async () => {
  app = await startApp();
  root = app.root.v4();
  alice = (await app.createUser({ username: 'alice', email: 'alice@example.com' })).client.v4();
});
after(async () => app?.close());

describe('/application/settings', () => {
  test('names visibility levels, takes names, and is for administrators only', async () => {
    const read = await root.get('/application/settings');
    assert.equal(read.status, 200);
    assert.equal(read.body.default_project_visibility, 'private');
    assert.deepEqual(read.body.restricted_visibility_levels, []);
    const changed = await root.put('/application/settings', {
      default_project_visibility: 'internal',
      restricted_visibility_levels: ['public'],
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.default_project_visibility, 'internal');
    assert.deepEqual(changed.body.restricted_visibility_levels, ['public']);
    // v3 keeps its levels over the same settings.
    assert.equal((await app.root.get('/application/settings')).body.default_project_visibility, 10);
    assert.equal((await root.put('/application/settings', { default_project_visibility: 'secret' })).status, 400);
    assert.equal((await alice.get('/application/settings')).status, 403);
    assert.equal((await app.anonymous.v4().get('/application/settings')).status, 401);
    // Back to the defaults: the later tests make private projects.
    const reset = await root.put('/application/settings', { default_project_visibility: 'private', restricted_visibility_levels: [] });
    assert.deepEqual([reset.body.default_project_visibility, reset.body.restricted_visibility_levels], ['private', []]);
  });
});

describe('/broadcast_messages', () => {
  test('creates, lists with page headers, and deletes with 204', async () => {
    const created = await root.post('/broadcast_messages', { message: 'maintenance tonight' });
    assert.equal(created.status, 201);
    const listed = await root.get('/broadcast_messages');
    assert.deepEqual(
      listed.body.map((m: any) => m.message),
      ['maintenance tonight'],
    );
    assert.equal(listed.headers.get('x-total'), '1');
    assert.equal((await root.delete(`/broadcast_messages/${created.body.id}`)).status, 204);
    assert.equal((await root.get(`/broadcast_messages/${created.body.id}`)).status, 404);
    assert.equal((await alice.get('/broadcast_messages')).status, 403);
  });
});

describe('/hooks (system hooks)', () => {
  test('creates one hook with its flags, tests it, deletes it with 204', async () => {
    const created = await root.post('/hooks', { url: 'http://127.0.0.1:9/hook', tag_push_events: true, enable_ssl_verification: false });
    assert.equal(created.status, 201);
    assert.equal(created.body.url, 'http://127.0.0.1:9/hook');
    assert.equal(created.body.tag_push_events, true);
    assert.equal(created.body.push_events, true);
    assert.equal(created.body.enable_ssl_verification, false);
    assert.deepEqual(
      (await root.get('/hooks')).body.map((h: any) => h.id),
      [created.body.id],
    );
    const tested = await root.get(`/hooks/${created.body.id}`);
    assert.equal(tested.status, 200);
    assert.equal(tested.body.event_name, 'project_create');
    assert.equal((await root.delete(`/hooks/${created.body.id}`)).status, 204);
    assert.deepEqual((await root.delete(`/hooks/${created.body.id}`)).body, { message: '404 Hook Not Found' });
    assert.equal((await root.post('/hooks', { url: 'not a url' })).status, 400);
    assert.equal((await alice.get('/hooks')).status, 403);
  });
});

describe('/templates', () => {
  test('serves licenses, gitignores, .gitlab-ci.yml and (empty) Dockerfiles to anyone; the v3 paths are gone', async () => {
    const anonymous = app.anonymous.v4();
    const licenses = await anonymous.get('/templates/licenses', { per_page: 2 });
    assert.equal(licenses.status, 200);
    assert.equal(licenses.body.length, 2);
    assert.ok(Number(licenses.headers.get('x-total')) > 2);
    const mit = await anonymous.get('/templates/licenses/mit', { fullname: 'Jane Doe' });
    assert.match(mit.body.content, /Jane Doe/);
    const gitignores = await anonymous.get('/templates/gitignores', { per_page: 100 });
    assert.ok(gitignores.body.some((t: any) => t.key === 'Node' && t.name === 'Node'));
    assert.match((await anonymous.get('/templates/gitignores/Node')).body.content, /node_modules/);
    assert.ok((await anonymous.get('/templates/gitlab_ci_ymls')).body.length > 0);
    assert.deepEqual((await anonymous.get('/templates/dockerfiles')).body, []);
    assert.equal((await anonymous.get('/templates/gitignores/NoSuch')).status, 404);
    assert.equal((await anonymous.get('/gitignores')).status, 404);
  });
});

describe('/namespaces', () => {
  test("lists the caller's namespaces with v4 fields, and finds one by id or path", async () => {
    const listed = await alice.get('/namespaces');
    assert.deepEqual(
      listed.body.map((n: any) => [n.path, n.kind, n.full_path, n.parent_id]),
      [['alice', 'user', 'alice', null]],
    );
    assert.equal(listed.headers.get('x-total'), '1');
    assert.equal((await alice.get(`/namespaces/${listed.body[0].id}`)).body.path, 'alice');
    assert.equal((await alice.get('/namespaces/alice')).body.id, listed.body[0].id);
    assert.equal((await alice.get('/namespaces/root')).status, 404);
    assert.equal((await root.get('/namespaces/alice')).status, 200);
  });
});

describe('deploy keys', () => {
  test("a project's keys: create, list, get, enable elsewhere, remove with 204; no /disable", async () => {
    const first = await createRootProject(app, 'first');
    const second = await createRootProject(app, 'second');
    const created = await root.post(`/projects/${first.id}/deploy_keys`, { title: 'deployer', key: publicKeys['ed25519-2'].key });
    assert.equal(created.status, 201);
    assert.equal(created.body.can_push, false);
    assert.deepEqual(
      (await root.get(`/projects/${first.id}/deploy_keys`)).body.map((k: any) => k.id),
      [created.body.id],
    );
    assert.equal((await root.get(`/projects/${first.id}/deploy_keys/${created.body.id}`)).body.title, 'deployer');
    const enabled = await root.post(`/projects/${second.id}/deploy_keys/${created.body.id}/enable`);
    assert.equal(enabled.status, 201);
    assert.deepEqual(
      (await root.get('/deploy_keys')).body.map((k: any) => k.id),
      [created.body.id],
    );
    assert.equal((await root.delete(`/projects/${second.id}/deploy_keys/${created.body.id}/disable`)).status, 404);
    assert.equal((await root.delete(`/projects/${second.id}/deploy_keys/${created.body.id}`)).status, 204);
    assert.deepEqual((await root.get(`/projects/${second.id}/deploy_keys`)).body, []);
    const pushing = await root.post(`/projects/${first.id}/deploy_keys`, {
      title: 'pusher',
      key: publicKeys['ed25519-3'].key,
      can_push: true,
    });
    assert.equal(pushing.status, 400);
    assert.equal((await alice.get(`/projects/${first.id}/deploy_keys`)).status, 404);
  });
});
