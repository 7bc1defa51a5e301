import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { publicKeys } from '../../fixtures/ssh-keys';

let app: TestApp;
let root: ApiClient;
let alice: { user: any; client: ApiClient };

before(async () => {
  app = await startApp();
  root = app.root.v4();
  const made = await app.createUser({ username: 'alice', email: 'alice@example.com', name: 'Alice' });
  alice = { user: made.user, client: made.client.v4() };
});
after(async () => app?.close());

describe('GET /user', () => {
  test('answers the caller, with the v4 web_url /username', async () => {
    const response = await alice.client.get('/user');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.body.username, 'alice');
    assert.equal(response.body.web_url, `${app.url.replace('127.0.0.1', 'localhost')}/alice`);
    assert.equal(response.body.email, 'alice@example.com');
  });

  test('anonymous is 401', async () => {
    assert.equal((await app.anonymous.v4().get('/user')).status, 401);
  });
});

describe('GET /users', () => {
  test('is paginated with GitLab headers', async () => {
    await app.createUser({ username: 'paged1', email: 'paged1@example.com' });
    const response = await root.get('/users', { per_page: 1, page: 2 });
    assert.equal(response.status, 200);
    assert.equal(response.body.length, 1);
    assert.equal(response.headers.get('x-page'), '2');
    assert.equal(response.headers.get('x-per-page'), '1');
    assert.ok(Number(response.headers.get('x-total')) >= 3);
    assert.match(response.headers.get('link') ?? '', /rel="next"/);
  });

  test('filters by username, search, blocked and external', async () => {
    const external = await app.createUser({ username: 'outsider', email: 'outsider@example.com', external: true });
    const blocked = await app.createUser({ username: 'blockme', email: 'blockme@example.com' });
    assert.equal((await root.post(`/users/${blocked.user.id}/block`)).status, 201);

    assert.deepEqual(
      (await root.get('/users', { username: 'ALICE' })).body.map((u: any) => u.username),
      ['alice'],
    );
    assert.deepEqual(
      (await root.get('/users', { search: 'outsid' })).body.map((u: any) => u.username),
      ['outsider'],
    );
    assert.deepEqual(
      (await root.get('/users', { blocked: true })).body.map((u: any) => u.id),
      [blocked.user.id],
    );
    assert.deepEqual(
      (await root.get('/users', { external: true })).body.map((u: any) => u.id),
      [external.user.id],
    );
    assert.ok(!(await root.get('/users', { active: true })).body.some((u: any) => u.id === blocked.user.id));
  });

  test('non-administrators see the basic shape', async () => {
    const response = await alice.client.get('/users', { username: 'alice' });
    assert.deepEqual(Object.keys(response.body[0]).sort(), ['avatar_url', 'id', 'name', 'state', 'username', 'web_url']);
  });
});

describe('users by id', () => {
  test('an unknown user is 404 User Not Found', async () => {
    const response = await root.get('/users/99999');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 User Not Found' });
  });

  test('creates (201), updates and deletes (204) a user; only administrators create', async () => {
    const body = { email: 'carol@example.com', password: 'password123', name: 'Carol', username: 'carol', skip_confirmation: true };
    assert.equal((await alice.client.post('/users', body)).status, 403);
    const created = await root.post('/users', body);
    assert.equal(created.status, 201);
    assert.equal(created.body.username, 'carol');
    assert.notEqual(created.body.confirmed_at, null);
    assert.equal((await root.post('/users', body)).status, 409);

    const updated = await root.put(`/users/${created.body.id}`, { bio: 'hello' });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.bio, 'hello');
    assert.equal((await root.put('/users/99999', { bio: 'x' })).status, 404);

    const deleted = await root.delete(`/users/${created.body.id}`);
    assert.equal(deleted.status, 204);
    assert.equal((await root.get(`/users/${created.body.id}`)).status, 404);
    assert.equal((await root.delete(`/users/${created.body.id}`)).status, 404);
  });

  test('missing parameters are 400', async () => {
    const response = await root.post('/users', { email: 'x@example.com' });
    assert.equal(response.status, 400);
  });
});

describe('POST /users/:id/block and /unblock', () => {
  test('answer 201 true, and a blocked user cannot call the API', async () => {
    const bob = await app.createUser({ username: 'bob', email: 'bob@example.com' });
    const blocked = await root.post(`/users/${bob.user.id}/block`);
    assert.equal(blocked.status, 201);
    assert.equal(blocked.body, true);
    assert.equal((await bob.client.v4().get('/user')).status, 401);
    const unblocked = await root.post(`/users/${bob.user.id}/unblock`);
    assert.equal(unblocked.status, 201);
    assert.equal((await bob.client.v4().get('/user')).status, 200);
  });

  test('v3 PUT is not a v4 route, and an unknown user is 404', async () => {
    assert.equal((await root.put(`/users/${alice.user.id}/block`)).status, 405);
    assert.equal((await root.post('/users/99999/block')).status, 404);
    assert.equal((await alice.client.post(`/users/${alice.user.id}/block`)).status, 403);
  });
});

describe('SSH keys', () => {
  test('a user adds, lists, reads and deletes (204) their keys', async () => {
    const created = await alice.client.post('/user/keys', { title: 'laptop', key: publicKeys['rsa-1'].key });
    assert.equal(created.status, 201);
    const list = await alice.client.get('/user/keys');
    assert.deepEqual(
      list.body.map((k: any) => k.title),
      ['laptop'],
    );
    assert.equal(list.headers.get('x-total'), '1');
    assert.equal((await alice.client.get(`/user/keys/${created.body.id}`)).body.title, 'laptop');
    // Anyone may read a user's public keys.
    assert.equal((await app.anonymous.v4().get(`/users/${alice.user.id}/keys`)).body.length, 1);
    const admin = await root.get(`/keys/${created.body.id}`);
    assert.equal(admin.body.user.username, 'alice');
    assert.equal((await alice.client.delete(`/user/keys/${created.body.id}`)).status, 204);
    const again = await alice.client.delete(`/user/keys/${created.body.id}`);
    assert.deepEqual([again.status, again.body], [404, { message: '404 Key Not Found' }]);
  });

  test("an administrator manages another user's keys", async () => {
    const created = await root.post(`/users/${alice.user.id}/keys`, { title: 'server', key: publicKeys['ed25519-1'].key });
    assert.equal(created.status, 201);
    assert.equal((await alice.client.post(`/users/${alice.user.id}/keys`, { title: 'x', key: publicKeys['ed25519-1'].key })).status, 403);
    assert.equal((await root.post('/users/99999/keys', { title: 'x', key: publicKeys['ed25519-1'].key })).status, 404);
    assert.equal((await root.delete(`/users/${alice.user.id}/keys/${created.body.id}`)).status, 204);
    assert.equal((await root.get(`/keys/${created.body.id}`)).status, 404);
  });
});

describe('e-mails', () => {
  test("a user adds, lists and deletes (204) their e-mails; administrators another's", async () => {
    const created = await alice.client.post('/user/emails', { email: 'alice.second@example.com' });
    assert.equal(created.status, 201);
    assert.deepEqual(
      (await alice.client.get('/user/emails')).body.map((e: any) => e.email),
      ['alice.second@example.com'],
    );
    assert.equal((await alice.client.get(`/user/emails/${created.body.id}`)).body.email, 'alice.second@example.com');
    assert.equal((await alice.client.delete(`/user/emails/${created.body.id}`)).status, 204);
    assert.equal((await alice.client.delete(`/user/emails/${created.body.id}`)).status, 404);

    const byAdmin = await root.post(`/users/${alice.user.id}/emails`, { email: 'alice.third@example.com' });
    assert.equal(byAdmin.status, 201);
    assert.equal((await root.get(`/users/${alice.user.id}/emails`)).body.length, 1);
    assert.equal((await alice.client.get(`/users/${alice.user.id}/emails`)).status, 403);
    assert.equal((await root.delete(`/users/${alice.user.id}/emails/${byAdmin.body.id}`)).status, 204);
  });
});
