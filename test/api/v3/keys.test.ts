import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { HookListener } from '../../support/hook-listener';
import { publicKeys } from '../../fixtures/ssh-keys';

let app: TestApp;
let alice: { user: any; client: ApiClient };
let bob: { user: any; client: ApiClient };
let systemHook: HookListener;

before(async () => {
  app = await startApp();
  alice = await app.createUser();
  bob = await app.createUser();
  systemHook = await HookListener.start();
  const time = new Date().toISOString();
  // A system hook, registered in the database directly: this suite is about keys, not hooks.
  await app.ctx.db
    .insertInto('hooks')
    .values({
      project_id: null,
      url: systemHook.url,
      token: null,
      push_events: 0,
      tag_push_events: 0,
      issues_events: 0,
      merge_requests_events: 0,
      note_events: 0,
      build_events: 0,
      pipeline_events: 0,
      wiki_page_events: 0,
      enable_ssl_verification: 0,
      created_at: time,
      updated_at: time,
    })
    .execute();
});
after(async () => {
  await app.close();
  await systemHook.close();
});

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const seconds = (iso: string) => iso.replace(/\.\d{3}Z$/, 'Z');

/** Fingerprints are unique across the server: every test takes keys nobody has used yet. */
const unusedKeys = Object.entries(publicKeys)
  .filter(([name]) => name.startsWith('ed25519-'))
  .map(([, fixture]) => fixture);
function freshKey() {
  const fixture = unusedKeys.shift();
  if (!fixture) throw new Error('out of key fixtures: add more to test/fixtures/ssh-keys.ts');
  return fixture;
}

/** Adds a fresh key as the client's user; answers the created key and the fixture it came from. */
async function addKey(client: ApiClient, title = 'key') {
  const fixture = freshKey();
  const response = await client.post('/user/keys', { title, key: fixture.key });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return { key: response.body, fixture };
}

describe('GET /user/keys', () => {
  test('lists the SSH keys of the caller only', async () => {
    const { client } = await app.createUser();
    const { key } = await addKey(client, 'mine');
    await addKey(bob.client, 'not mine');
    const response = await client.get('/user/keys');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [key]);
    assert.deepEqual(Object.keys(key).sort(), ['created_at', 'id', 'key', 'title']);
  });

  test('anonymous callers get 401', async () => {
    const response = await app.anonymous.get('/user/keys');
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { message: '401 Unauthorized' });
  });
});

describe('GET /user/keys/:id', () => {
  test("shows one of the caller's keys", async () => {
    const { key, fixture } = await addKey(alice.client, 'laptop');
    const response = await alice.client.get(`/user/keys/${key.id}`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { id: key.id, title: 'laptop', key: fixture.key, created_at: key.created_at });
  });

  test('an unknown id answers 404 Not found', async () => {
    for (const id of ['999999', 'abc', '99999999999999999999']) {
      const response = await alice.client.get(`/user/keys/${id}`);
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { message: '404 Not found' });
    }
  });

  test("another user's key answers 404 Not found, even for an administrator", async () => {
    const { key } = await addKey(bob.client);
    for (const client of [alice.client, app.root]) {
      const response = await client.get(`/user/keys/${key.id}`);
      assert.equal(response.status, 404);
      assert.deepEqual(response.body, { message: '404 Not found' });
    }
  });

  test('anonymous callers get 401', async () => {
    const response = await app.anonymous.get('/user/keys/1');
    assert.equal(response.status, 401);
  });
});

describe('POST /user/keys', () => {
  test('adds RSA, ECDSA and Ed25519 keys: 201 with the key', async () => {
    const { client } = await app.createUser();
    const fixtures = [
      ['rsa', publicKeys['rsa-1']],
      ['ecdsa p-256', publicKeys['ecdsa-1']],
      ['ecdsa p-384', publicKeys['ecdsa-2']],
      ['ed25519', freshKey()],
    ] as const;
    for (const [title, fixture] of fixtures) {
      const response = await client.post('/user/keys', { title, key: fixture.key });
      assert.equal(response.status, 201, title);
      assert.deepEqual(Object.keys(response.body).sort(), ['created_at', 'id', 'key', 'title']);
      assert.equal(response.body.title, title);
      assert.equal(response.body.key, fixture.key);
      assert.match(response.body.created_at, TIMESTAMP);
    }
    const list = await client.get('/user/keys');
    assert.deepEqual(
      list.body.map((key: any) => key.title),
      fixtures.map(([title]) => title),
    );
  });

  test('stores the MD5 fingerprint as ssh-keygen shows it', async () => {
    const { key, fixture } = await addKey(alice.client);
    const row = await app.ctx.db.selectFrom('keys').select('fingerprint').where('id', '=', key.id).executeTakeFirstOrThrow();
    assert.equal(row.fingerprint, fixture.fingerprint);
  });

  test('stores the key text trimmed, also when sent as a form', async () => {
    const fixture = freshKey();
    const response = await alice.client.form('POST', '/user/keys', { title: 'padded', key: `  ${fixture.key}\n\n` });
    assert.equal(response.status, 201);
    assert.equal(response.body.key, fixture.key);
  });

  test('a missing or blank title answers 400 "title" not given, checked before the key', async () => {
    const { key } = freshKey();
    for (const body of [{ key }, { title: '  ', key }, {}]) {
      const response = await alice.client.post('/user/keys', body);
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: '400 (Bad request) "title" not given' });
    }
  });

  test('a missing key answers 400 "key" not given', async () => {
    const response = await alice.client.post('/user/keys', { title: 'no key' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: '400 (Bad request) "key" not given' });
  });

  test('text that is no public key answers 400: key is invalid, fingerprint cannot be generated', async () => {
    const response = await alice.client.post('/user/keys', { title: 'bad', key: 'not a key' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: { key: ['is invalid'], fingerprint: ['cannot be generated'] } });
  });

  test('a well-formed prefix with broken key material answers 400: fingerprint cannot be generated', async () => {
    const response = await alice.client.post('/user/keys', { title: 'bad', key: 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ broken' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: { fingerprint: ['cannot be generated'] } });
  });

  test('a key over several lines answers 400: is invalid, should be a single line', async () => {
    const response = await alice.client.post('/user/keys', { title: 'two lines', key: `${freshKey().key}\nssh-ed25519 more` });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: { key: ['is invalid', 'should be a single line'] } });
  });

  test('a key already stored, by anyone and with any comment, answers 400: fingerprint has already been taken', async () => {
    const { fixture } = await addKey(bob.client);
    const [type, material] = fixture.key.split(' ');
    for (const [client, key] of [
      [bob.client, fixture.key],
      [alice.client, `${type} ${material} another-comment`],
    ] as const) {
      const response = await client.post('/user/keys', { title: 'again', key });
      assert.equal(response.status, 400);
      assert.deepEqual(response.body, { message: { fingerprint: ['has already been taken'] } });
    }
  });

  test("a title over 255 characters and a key over 5000 answer 400 with each field's message", async () => {
    const response = await alice.client.post('/user/keys', { title: 'x'.repeat(256), key: `ssh-rsa ${'A'.repeat(5000)}` });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, {
      message: {
        title: ['is too long (maximum is 255 characters)'],
        key: ['is too long (maximum is 5000 characters)'],
        fingerprint: ['cannot be generated'],
      },
    });
  });

  test('anonymous callers get 401', async () => {
    const response = await app.anonymous.post('/user/keys', { title: 'anonymous', key: publicKeys['ed25519-1'].key });
    assert.equal(response.status, 401);
  });
});

describe('DELETE /user/keys/:id', () => {
  test("deletes one of the caller's keys: 200 with the deleted record, and the key may be added again", async () => {
    const { client } = await app.createUser();
    const { key, fixture } = await addKey(client, 'short-lived');
    const response = await client.delete(`/user/keys/${key.id}`);
    assert.equal(response.status, 200);
    assert.equal(response.body.id, key.id);
    assert.equal(response.body.title, 'short-lived');
    assert.equal(response.body.fingerprint, fixture.fingerprint);
    assert.deepEqual((await client.get('/user/keys')).body, []);
    assert.equal((await client.post('/user/keys', { title: 'back', key: fixture.key })).status, 201);
  });

  test('an unknown or already deleted key still answers 200', async () => {
    for (const id of ['999999', 'abc']) {
      const response = await alice.client.delete(`/user/keys/${id}`);
      assert.equal(response.status, 200, id);
      assert.equal(response.body, null);
    }
  });

  test("another user's key is left alone, with 200", async () => {
    const { key } = await addKey(bob.client);
    const response = await alice.client.delete(`/user/keys/${key.id}`);
    assert.equal(response.status, 200);
    assert.equal((await bob.client.get(`/user/keys/${key.id}`)).status, 200);
  });

  test('anonymous callers get 401', async () => {
    const response = await app.anonymous.delete('/user/keys/1');
    assert.equal(response.status, 401);
  });
});

describe('GET /users/:uid/keys', () => {
  test("an administrator lists a user's keys", async () => {
    const { user, client } = await app.createUser();
    const { key } = await addKey(client, 'desktop');
    const response = await app.root.get(`/users/${user.id}/keys`);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, [key]);
  });

  test('an unknown user answers 404 User Not Found', async () => {
    for (const id of ['999999', '99999999999999999999']) {
      const response = await app.root.get(`/users/${id}/keys`);
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { message: '404 User Not Found' });
    }
  });

  test('a user id that is not a number matches no route: 404', async () => {
    const response = await app.root.get('/users/ASDF/keys');
    assert.equal(response.status, 404);
  });

  test('administrator only: normal users get 403, anonymous callers 401', async () => {
    const forbidden = await alice.client.get(`/users/${alice.user.id}/keys`);
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.body, { message: '403 Forbidden' });
    assert.equal((await app.anonymous.get(`/users/${alice.user.id}/keys`)).status, 401);
  });
});

describe('POST /users/:id/keys', () => {
  test('an administrator adds a key to a user: 201 with the key', async () => {
    const { user, client } = await app.createUser();
    const fixture = freshKey();
    const response = await app.root.post(`/users/${user.id}/keys`, { title: 'given', key: fixture.key });
    assert.equal(response.status, 201);
    assert.equal(response.body.title, 'given');
    assert.equal(response.body.key, fixture.key);
    assert.deepEqual((await client.get('/user/keys')).body, [response.body]);
  });

  test('missing parameters answer 400 naming the first, title then key', async () => {
    const onlyTitle = await app.root.post(`/users/${alice.user.id}/keys`, { title: 'only a title' });
    assert.equal(onlyTitle.status, 400);
    assert.deepEqual(onlyTitle.body, { message: '400 (Bad request) "key" not given' });
    const onlyKey = await app.root.post(`/users/${alice.user.id}/keys`, { key: publicKeys['ed25519-1'].key });
    assert.equal(onlyKey.status, 400);
    assert.deepEqual(onlyKey.body, { message: '400 (Bad request) "title" not given' });
  });

  test('missing parameters are checked before the user: an unknown user without parameters answers 400', async () => {
    const response = await app.root.post('/users/999999/keys', {});
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: '400 (Bad request) "title" not given' });
  });

  test('an unknown user answers 404 Not found', async () => {
    const response = await app.root.post('/users/999999/keys', { title: 'lost', key: freshKey().key });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Not found' });
  });

  test('an invalid key answers 400 with the per-field messages', async () => {
    const response = await app.root.post(`/users/${alice.user.id}/keys`, { title: 'bad', key: 'not a key' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: { key: ['is invalid'], fingerprint: ['cannot be generated'] } });
  });

  test('administrator only: normal users get 403, anonymous callers 401', async () => {
    const forbidden = await alice.client.post(`/users/${alice.user.id}/keys`, { title: 'self', key: freshKey().key });
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.body, { message: '403 Forbidden' });
    assert.equal((await app.anonymous.post(`/users/${alice.user.id}/keys`, {})).status, 401);
  });
});

describe('DELETE /users/:uid/keys/:id', () => {
  test("an administrator deletes a user's key: 200 with the deleted record", async () => {
    const { user, client } = await app.createUser();
    const { key } = await addKey(client, 'to go');
    const response = await app.root.delete(`/users/${user.id}/keys/${key.id}`);
    assert.equal(response.status, 200);
    assert.equal(response.body.id, key.id);
    assert.equal(response.body.title, 'to go');
    assert.equal(response.body.user_id, user.id);
    assert.deepEqual((await client.get('/user/keys')).body, []);
  });

  test('an unknown user answers 404 User Not Found', async () => {
    const { key } = await addKey(alice.client);
    const response = await app.root.delete(`/users/999999/keys/${key.id}`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 User Not Found' });
  });

  test("an unknown key, or another user's key, answers 404 Key Not Found", async () => {
    const { key } = await addKey(bob.client);
    for (const id of ['999999', String(key.id)]) {
      const response = await app.root.delete(`/users/${alice.user.id}/keys/${id}`);
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { message: '404 Key Not Found' });
    }
    assert.equal((await bob.client.get(`/user/keys/${key.id}`)).status, 200);
  });

  test('administrator only: normal users get 403, anonymous callers 401', async () => {
    const { key } = await addKey(alice.client);
    const forbidden = await alice.client.delete(`/users/${alice.user.id}/keys/${key.id}`);
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.body, { message: '403 Forbidden' });
    assert.equal((await app.anonymous.delete(`/users/${alice.user.id}/keys/${key.id}`)).status, 401);
    assert.equal((await alice.client.get(`/user/keys/${key.id}`)).status, 200);
  });
});

describe('GET /keys/:id', () => {
  test('an administrator sees any key with its user in the full shape', async () => {
    const { key } = await addKey(alice.client, 'whose');
    const response = await app.root.get(`/keys/${key.id}`);
    assert.equal(response.status, 200);
    const { user, ...shown } = response.body;
    assert.deepEqual(shown, key);
    assert.equal(user.id, alice.user.id);
    assert.equal(user.username, alice.user.username);
    assert.equal(user.email, alice.user.email);
    assert.deepEqual(user.identities, []);
    assert.equal(typeof user.can_create_project, 'boolean');
  });

  test('an unknown key answers 404 Not found', async () => {
    for (const id of ['999999', 'abc']) {
      const response = await app.root.get(`/keys/${id}`);
      assert.equal(response.status, 404, id);
      assert.deepEqual(response.body, { message: '404 Not found' });
    }
  });

  test('administrator only: normal users get 403, anonymous callers 401', async () => {
    const { key } = await addKey(alice.client);
    const forbidden = await alice.client.get(`/keys/${key.id}`);
    assert.equal(forbidden.status, 403);
    assert.deepEqual(forbidden.body, { message: '403 Forbidden' });
    assert.equal((await app.anonymous.get(`/keys/${key.id}`)).status, 401);
  });
});

describe('system events', () => {
  const eventFor = async (name: string, id: number) =>
    (await systemHook.waitFor(({ body }) => body.event_name === name && body.id === id)).body;

  test('adding a key sends key_create with the key, its id, its user and its times', { timeout: 30_000 }, async () => {
    const { key, fixture } = await addKey(alice.client);
    const row = await app.ctx.db.selectFrom('keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
    assert.deepEqual(await eventFor('key_create', key.id), {
      event_name: 'key_create',
      created_at: seconds(row.created_at),
      updated_at: seconds(row.updated_at),
      username: alice.user.username,
      key: fixture.key,
      id: key.id,
    });
  });

  test('an administrator adding a key sends key_create with the owner', { timeout: 30_000 }, async () => {
    const response = await app.root.post(`/users/${bob.user.id}/keys`, { title: 'given', key: freshKey().key });
    const event = await eventFor('key_create', response.body.id);
    assert.equal(event.username, bob.user.username);
  });

  test('deleting a key, by its owner or by an administrator, sends key_destroy', { timeout: 30_000 }, async () => {
    const own = await addKey(alice.client);
    const other = await addKey(alice.client);
    await alice.client.delete(`/user/keys/${own.key.id}`);
    await app.root.delete(`/users/${alice.user.id}/keys/${other.key.id}`);
    for (const { key, fixture } of [own, other]) {
      const event = await eventFor('key_destroy', key.id);
      assert.equal(event.username, alice.user.username);
      assert.equal(event.key, fixture.key);
      assert.match(event.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    }
  });

  test('a refused key sends nothing', async () => {
    const refused = 'ssh-ed25519 AAAAnot-a-key refused';
    assert.equal((await alice.client.post('/user/keys', { title: 'bad', key: refused })).status, 400);
    // A delivery job stays in its table until the hook has received the event: look in both, in that order.
    const queued = await app.ctx.db.selectFrom('jobs').select('id').where('payload', 'like', '%AAAAnot-a-key%').execute();
    assert.deepEqual(queued, []);
    assert.equal(
      systemHook.received.some(({ body }) => body.key === refused),
      false,
    );
  });
});
