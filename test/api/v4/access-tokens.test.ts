import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startApp, type TestApp } from '../../support/app';
import { ApiClient } from '../../support/client';
import { createRootProject } from '../../support/repo';
import { cloneUrl, commit, git, tempDir } from '../../support/git';

let app: TestApp;
let root: ApiClient;
let alice: { user: any; client: ApiClient };

/** A token made by root for `userId` with these scopes (and expiry). */
async function makeToken(userId: number, scopes: string[], extra: Record<string, unknown> = {}): Promise<{ id: number; token: string }> {
  const response = await root.post(`/users/${userId}/personal_access_tokens`, { name: `t-${scopes.join('-')}`, scopes, ...extra });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

const bearer = (token: string, prefix = '/api/v4') => ({
  get: (path: string) => new ApiClient(app.url).raw('GET', `${prefix}${path}`, { headers: { authorization: `Bearer ${token}` } }),
});

before(async () => {
  app = await startApp();
  root = app.root.v4();
  const made = await app.createUser({ username: 'alice', email: 'alice@example.com' });
  alice = { user: made.user, client: made.client.v4() };
});
after(async () => app?.close());

describe('POST /users/:user_id/personal_access_tokens', () => {
  test('an administrator creates a token, shown once, with its scopes and expiry', async () => {
    const response = await root.post(`/users/${alice.user.id}/personal_access_tokens`, {
      name: 'ci',
      scopes: ['api', 'read_user'],
      expires_at: '2999-01-01',
    });
    assert.equal(response.status, 201);
    assert.equal(typeof response.body.token, 'string');
    assert.deepEqual(
      { ...response.body, token: undefined, id: undefined, created_at: undefined },
      {
        id: undefined,
        name: 'ci',
        revoked: false,
        created_at: undefined,
        scopes: ['api', 'read_user'],
        user_id: alice.user.id,
        last_used_at: null,
        active: true,
        expires_at: '2999-01-01',
        token: undefined,
      },
    );
    const listed = await root.get(`/users/${alice.user.id}/personal_access_tokens`);
    assert.ok(
      listed.body.every((token: any) => token.token === undefined),
      'the token is never shown again',
    );
  });

  test('other users may not create one (403), unknown scopes and users are refused', async () => {
    assert.equal((await alice.client.post(`/users/${alice.user.id}/personal_access_tokens`, { name: 'x', scopes: ['api'] })).status, 403);
    const badScope = await root.post(`/users/${alice.user.id}/personal_access_tokens`, { name: 'x', scopes: ['everything'] });
    assert.equal(badScope.status, 400);
    assert.deepEqual(badScope.body, { message: { scopes: ['everything is not a valid scope'] } });
    assert.equal((await root.post(`/users/${alice.user.id}/personal_access_tokens`, { name: 'x' })).status, 400);
    assert.equal((await root.post('/users/99999/personal_access_tokens', { name: 'x', scopes: ['api'] })).status, 404);
    assert.equal(
      (await root.post(`/users/${alice.user.id}/personal_access_tokens`, { name: 'x', scopes: ['api'], expires_at: 'soon' })).status,
      400,
    );
  });
});

describe('a personal access token is a credential', () => {
  test('as PRIVATE-TOKEN and as Authorization: Bearer, on v3 and v4', async () => {
    const { token } = await makeToken(alice.user.id, ['api']);
    assert.equal((await app.as(token).v4().get('/user')).body.username, 'alice');
    assert.equal((await app.as(token).get('/user')).body.username, 'alice');
    assert.equal((await bearer(token).get('/user')).body.username, 'alice');
    assert.equal((await bearer(token, '/api/v3').get('/user')).body.username, 'alice');
    // The private token keeps working beside it.
    assert.equal((await alice.client.get('/user')).status, 200);
  });

  test('records when it was last used', async () => {
    const { id, token } = await makeToken(alice.user.id, ['api']);
    await app.as(token).v4().get('/user');
    const listed = await root.get('/personal_access_tokens', { user_id: alice.user.id });
    assert.notEqual(listed.body.find((t: any) => t.id === id).last_used_at, null);
  });

  test('an unknown bearer token is 401', async () => {
    assert.equal((await bearer('not-a-token').get('/user')).status, 401);
  });
});

describe('scopes', () => {
  test('read_api reads but does not write (403 insufficient_scope)', async () => {
    const { token } = await makeToken(alice.user.id, ['read_api']);
    const client = app.as(token).v4();
    assert.equal((await client.get('/user')).status, 200);
    assert.equal((await client.get('/namespaces')).status, 200);
    const refused = await client.post('/user/emails', { email: 'nope@example.com' });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'insufficient_scope');
    assert.equal(refused.body.error_description, 'The request requires higher privileges than provided by the access token.');
  });

  test('read_user reads /user and /users only', async () => {
    const { token } = await makeToken(alice.user.id, ['read_user']);
    assert.equal((await bearer(token).get('/user')).status, 200);
    assert.equal((await bearer(token).get(`/users/${alice.user.id}`)).status, 200);
    assert.equal((await bearer(token).get('/user/keys')).status, 200);
    const refused = await bearer(token).get('/namespaces');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'insufficient_scope');
    assert.equal((await app.as(token).v4().post('/user/keys', { title: 'x', key: 'y' })).status, 403);
  });

  test('read_repository alone opens no API route', async () => {
    const { token } = await makeToken(alice.user.id, ['read_repository']);
    assert.equal((await bearer(token).get('/user')).status, 403);
  });

  test('sudo needs the sudo scope with a token, not with the private token', async () => {
    const plain = await makeToken(1, ['api']);
    const refused = await app.as(plain.token).v4().get('/user', { sudo: 'alice' });
    assert.equal(refused.status, 403);
    assert.deepEqual([refused.body.error, refused.body.scope], ['insufficient_scope', 'sudo']);
    const withSudo = await makeToken(1, ['api', 'sudo']);
    assert.equal((await app.as(withSudo.token).v4().get('/user', { sudo: 'alice' })).body.username, 'alice');
    assert.equal((await root.get('/user', { sudo: 'alice' })).body.username, 'alice');
    // A user's token with sudo does not make them an administrator.
    const aliceSudo = await makeToken(alice.user.id, ['api', 'sudo']);
    assert.equal((await app.as(aliceSudo.token).v4().get('/user', { sudo: 'root' })).status, 403);
  });
});

describe('revoked and expired tokens', () => {
  test('a revoked token is 401 invalid_token, on v3 and v4', async () => {
    const { id, token } = await makeToken(alice.user.id, ['api']);
    assert.equal((await alice.client.delete(`/personal_access_tokens/${id}`)).status, 204);
    for (const response of [await app.as(token).v4().get('/user'), await bearer(token, '/api/v3').get('/user')]) {
      assert.equal(response.status, 401);
      assert.equal(response.body.error, 'invalid_token');
    }
    const listed = await alice.client.get('/personal_access_tokens');
    assert.deepEqual(
      listed.body.filter((t: any) => t.id === id).map((t: any) => [t.revoked, t.active]),
      [[true, false]],
    );
  });

  test('an expired token is 401', async () => {
    const { token } = await makeToken(alice.user.id, ['api'], { expires_at: '2001-01-01' });
    const response = await bearer(token).get('/user');
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, { error: 'invalid_token', error_description: 'Token has expired.' });
  });
});

describe('listing and revoking', () => {
  test("a user lists their own tokens only; administrators anyone's", async () => {
    const bob = await app.createUser({ username: 'bob', email: 'bob@example.com' });
    const bobs = await makeToken(bob.user.id, ['api']);
    const own = await bob.client.v4().get('/personal_access_tokens');
    assert.deepEqual(
      own.body.map((t: any) => t.id),
      [bobs.id],
    );
    assert.equal(own.headers.get('x-total'), '1');
    assert.equal((await bob.client.v4().get('/personal_access_tokens', { user_id: alice.user.id })).status, 403);
    assert.equal((await bob.client.v4().get(`/users/${alice.user.id}/personal_access_tokens`)).status, 403);
    assert.ok((await root.get('/personal_access_tokens')).body.length > 1);
    assert.deepEqual(
      (await root.get('/personal_access_tokens', { user_id: bob.user.id })).body.map((t: any) => t.id),
      [bobs.id],
    );
    // Another's token is not found; the owner and administrators revoke it.
    assert.equal((await alice.client.delete(`/personal_access_tokens/${bobs.id}`)).status, 404);
    assert.equal((await root.delete(`/personal_access_tokens/${bobs.id}`)).status, 204);
  });

  test("a user's tokens go with the user", async () => {
    const carol = await app.createUser({ username: 'carol', email: 'carol@example.com' });
    const { id } = await makeToken(carol.user.id, ['api']);
    assert.equal((await root.delete(`/users/${carol.user.id}`)).status, 204);
    assert.equal((await root.get(`/personal_access_tokens/${id}`)).status, 404);
  });
});

describe('git over HTTP with a personal access token', () => {
  test('read_repository clones but does not push; write_repository pushes; a revoked token is refused', async () => {
    const project = await createRootProject(app, 'tokened');
    const reader = await makeToken(1, ['read_repository']);
    const dir = path.join(tempDir(), 'clone');
    const cloned = await git(['clone', '-q', cloneUrl(app.url, 'root/tokened', 'root', reader.token), dir]);
    assert.equal(cloned.code, 0, cloned.stderr);

    await commit(dir, { 'new.txt': 'x\n' }, 'a change');
    const refused = await git(['push', '-q', 'origin', 'HEAD:master'], dir);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /403/);

    const writer = await makeToken(1, ['write_repository']);
    const pushed = await git(['push', '-q', cloneUrl(app.url, 'root/tokened', 'anything', writer.token), 'HEAD:master'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
    const branch = await app.root.get(`/projects/${project.id}/repository/branches/master`);
    assert.equal(branch.body.commit.id, (await git(['rev-parse', 'HEAD'], dir)).stdout.trim());

    const apiOnly = await makeToken(1, ['read_api']);
    const noGit = await git(['clone', '-q', cloneUrl(app.url, 'root/tokened', 'root', apiOnly.token), path.join(tempDir(), 'no')]);
    assert.notEqual(noGit.code, 0);

    await root.delete(`/personal_access_tokens/${reader.id}`);
    const revoked = await git(['clone', '-q', cloneUrl(app.url, 'root/tokened', 'root', reader.token), path.join(tempDir(), 'again')]);
    assert.notEqual(revoked.code, 0);
    assert.match(revoked.stderr, /Authentication failed|401/);
  });
});
