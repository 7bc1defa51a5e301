import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { ApiClient } from '../../support/client';

let app: TestApp;
let alice: { user: any; token: string; password: string };

/** POSTs to the OAuth2 provider as a client does: an urlencoded form. */
function tokenRequest(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return new ApiClient(app.url).raw('POST', `${app.url}/oauth/token`, {
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });
}

const withBearer = (token: string, prefix = '/api/v4') => ({
  get: (path: string) => new ApiClient(app.url).raw('GET', `${app.url}${prefix}${path}`, { headers: { authorization: `Bearer ${token}` } }),
  post: (path: string, body: Record<string, unknown>) =>
    new ApiClient(app.url).raw('POST', `${app.url}${prefix}${path}`, {
      body: JSON.stringify(body),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    }),
});

before(async () => {
  app = await startApp();
  const made = await app.createUser({ username: 'alice', email: 'alice@example.com' });
  alice = { user: made.user, token: made.token, password: made.password };
});
after(async () => app?.close());

describe('POST /oauth/token, the password grant', () => {
  test('answers a bearer token for a login and password, usable on v4 and v3', async () => {
    const response = await tokenRequest({ grant_type: 'password', username: 'alice', password: alice.password });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(response.body).sort(), [
      'access_token',
      'created_at',
      'expires_in',
      'refresh_token',
      'scope',
      'token_type',
    ]);
    assert.equal(response.body.token_type, 'bearer');
    assert.equal(response.body.scope, 'api');
    assert.equal((await withBearer(response.body.access_token).get('/user')).body.username, 'alice');
    assert.equal((await withBearer(response.body.access_token, '/api/v3').get('/user')).body.username, 'alice');
  });

  test('also takes JSON and an e-mail as login', async () => {
    const response = await new ApiClient(app.url).post(`${app.url}/oauth/token`, {
      grant_type: 'password',
      username: 'alice@example.com',
      password: alice.password,
    });
    assert.equal(response.status, 200);
  });

  test('a wrong password is invalid_grant; an unknown grant type and a missing password are refused', async () => {
    const wrong = await tokenRequest({ grant_type: 'password', username: 'alice', password: 'nope' });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.error, 'invalid_grant');
    const unknown = await tokenRequest({ grant_type: 'client_credentials' });
    assert.deepEqual([unknown.status, unknown.body.error], [400, 'unsupported_grant_type']);
    const missing = await tokenRequest({ grant_type: 'password', username: 'alice' });
    assert.deepEqual([missing.status, missing.body.error], [400, 'invalid_request']);
  });

  test('a narrower scope is enforced', async () => {
    const response = await tokenRequest({ grant_type: 'password', username: 'alice', password: alice.password, scope: 'read_user' });
    assert.equal(response.body.scope, 'read_user');
    const client = withBearer(response.body.access_token);
    assert.equal((await client.get('/user')).status, 200);
    const refused = await client.post('/user/emails', { email: 'a2@example.com' });
    assert.deepEqual([refused.status, refused.body.error], [403, 'insufficient_scope']);
    const unknown = await tokenRequest({ grant_type: 'password', username: 'alice', password: alice.password, scope: 'admin' });
    assert.deepEqual([unknown.status, unknown.body.error], [400, 'invalid_scope']);
  });
});

describe('POST /oauth/token, the refresh grant', () => {
  test('gives a new pair once; the old access token is revoked', async () => {
    const first = (await tokenRequest({ grant_type: 'password', username: 'alice', password: alice.password })).body;
    const refreshed = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    assert.equal(refreshed.status, 200);
    assert.notEqual(refreshed.body.access_token, first.access_token);
    assert.equal((await withBearer(refreshed.body.access_token).get('/user')).status, 200);
    const old = await withBearer(first.access_token).get('/user');
    assert.deepEqual([old.status, old.body.error], [401, 'invalid_token']);
    const again = await tokenRequest({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    assert.deepEqual([again.status, again.body.error], [400, 'invalid_grant']);
  });
});

describe('applications and the authorization-code grant', () => {
  let application: { id: number; application_id: string; secret: string };
  const redirectUri = 'https://client.example.com/callback';

  before(async () => {
    const response = await app.root.v4().post('/applications', { name: 'client', redirect_uri: redirectUri, scopes: 'api read_user' });
    assert.equal(response.status, 201, JSON.stringify(response.body));
    application = response.body;
  });

  test('only administrators register applications; the secret is shown once', async () => {
    assert.equal(
      (await app.as(alice.token).v4().post('/applications', { name: 'x', redirect_uri: redirectUri, scopes: 'api' })).status,
      403,
    );
    assert.equal(typeof application.secret, 'string');
    const listed = await app.root.v4().get('/applications');
    assert.deepEqual(
      listed.body.map((a: any) => [a.application_id, a.callback_url, a.secret]),
      [[application.application_id, redirectUri, undefined]],
    );
    const invalid = await app.root.v4().post('/applications', { name: 'x', redirect_uri: 'not a uri', scopes: 'api' });
    assert.equal(invalid.status, 400);
  });

  test('a signed-in caller authorizes, and the client exchanges the code once', async () => {
    const authorize = new URL(`${app.url}/oauth/authorize`);
    authorize.search = new URLSearchParams({
      client_id: application.application_id,
      redirect_uri: redirectUri,
      response_type: 'code',
      state: 'xyz',
      private_token: alice.token,
    }).toString();
    const redirect = await fetch(authorize, { redirect: 'manual' });
    assert.equal(redirect.status, 302);
    const location = new URL(redirect.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, redirectUri);
    assert.equal(location.searchParams.get('state'), 'xyz');
    const code = location.searchParams.get('code')!;

    const wrongSecret = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: application.application_id,
      client_secret: 'wrong',
    });
    assert.deepEqual([wrongSecret.status, wrongSecret.body.error], [401, 'invalid_client']);

    const basic = Buffer.from(`${application.application_id}:${application.secret}`).toString('base64');
    const exchanged = await tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri },
      { authorization: `Basic ${basic}` },
    );
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
    assert.equal((await withBearer(exchanged.body.access_token).get('/user')).body.username, 'alice');

    const info = await withBearer(exchanged.body.access_token, '').get('/oauth/token/info');
    assert.equal(info.status, 200);
    assert.deepEqual([info.body.resource_owner_id, info.body.application.uid], [alice.user.id, application.application_id]);

    const reused = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: application.application_id,
      client_secret: application.secret,
    });
    assert.deepEqual([reused.status, reused.body.error], [400, 'invalid_grant']);
  });

  test('a caller without API credentials is sent to the consent page; a token caller needs the registered redirect URI', async () => {
    const query = { client_id: application.application_id, redirect_uri: redirectUri, response_type: 'code' };
    const anonymous = await fetch(`${app.url}/oauth/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });
    assert.equal(anonymous.status, 302);
    assert.equal(anonymous.headers.get('location'), `/oauth/authorize/confirm?${new URLSearchParams(query)}`);
    const elsewhere = await fetch(
      `${app.url}/oauth/authorize?${new URLSearchParams({ ...query, redirect_uri: 'https://evil.example.com/', private_token: alice.token })}`,
      { redirect: 'manual' },
    );
    assert.equal(elsewhere.status, 400);
    assert.equal((await elsewhere.json()).error, 'invalid_redirect_uri');
  });

  test('revoking a token and deleting the application end its tokens', async () => {
    const password = await tokenRequest({
      grant_type: 'password',
      username: 'alice',
      password: alice.password,
      client_id: application.application_id,
      client_secret: application.secret,
    });
    assert.equal(password.status, 200);
    const second = await tokenRequest({
      grant_type: 'password',
      username: 'alice',
      password: alice.password,
      client_id: application.application_id,
      client_secret: application.secret,
    });
    const revoke = await new ApiClient(app.url).post(`${app.url}/oauth/revoke`, { token: second.body.access_token });
    assert.equal(revoke.status, 200);
    assert.equal((await withBearer(second.body.access_token).get('/user')).status, 401);

    assert.equal((await app.root.v4().delete(`/applications/${application.id}`)).status, 204);
    assert.equal((await withBearer(password.body.access_token).get('/user')).status, 401);
    assert.equal((await app.root.v4().delete(`/applications/${application.id}`)).status, 404);
  });
});

describe('the OpenAPI document', () => {
  test("v4's names the OAuth2 provider and the token routes; v3's does not", async () => {
    const v4 = (await app.anonymous.get('/api/v4/openapi.json')).body;
    for (const path of ['/oauth/token', '/oauth/authorize', '/api/v4/applications', '/api/v4/personal_access_tokens'])
      assert.ok(v4.paths[path], path);
    const v3 = (await app.anonymous.get('/api/v3/openapi.json')).body;
    assert.ok(!Object.keys(v3.paths).some((path) => path.startsWith('/oauth')));
  });
});
