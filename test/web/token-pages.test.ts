import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { ApiClient } from '../support/client';
import { WebClient } from '../support/web';

/**
 * `/profile/personal_access_tokens`: a user makes a token for today's clients in the browser, sees
 * it once, uses it on the API, and revokes it; checked through `/api/v4`.
 */
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let app: TestApp;
let alice: Account;
let bob: Account;

async function signedIn(account: Account): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(account.user.username, account.password)).status, 303);
  return client;
}

const withToken = (token: string) => new ApiClient(app.url).raw('GET', `${app.url}/api/v4/user`, { headers: { 'private-token': token } });

before(async () => {
  app = await startApp();
  alice = await app.createUser({ username: 'alice' });
  bob = await app.createUser({ username: 'bob' });
});
after(() => app?.close());

describe('/profile/personal_access_tokens', () => {
  test('sends an anonymous visitor to sign in', async () => {
    const response = await new WebClient(app.url).get('/profile/personal_access_tokens');
    assert.equal(response.status, 303);
    assert.match(response.headers.get('location')!, /^\/users\/sign_in\?redirect_to=/);
  });

  test('makes a token shown once, with its scopes and expiry, that the API accepts', async () => {
    const web = await signedIn(alice);
    const page = await web.get('/profile/personal_access_tokens');
    assert.equal(page.status, 200);
    assert.doesNotMatch(page.text, /value="sudo"/);
    const created = await web.post('/profile/personal_access_tokens', {
      name: 'laptop <glab>',
      expires_at: '2999-01-01',
      scopes: 'read_user',
      authenticity_token: WebClient.csrfToken(page.text),
    });
    assert.equal(created.status, 201);
    const token = created.text.match(/id="created-token" type="text" readonly value="([^"]+)"/)![1];
    assert.equal((await withToken(token)).body.username, 'alice');
    const again = await web.get('/profile/personal_access_tokens');
    assert.ok(!again.text.includes(token));
    assert.match(again.text, /laptop &lt;glab&gt;/);
    const api = await new ApiClient(app.url).raw('GET', `${app.url}/api/v4/personal_access_tokens`, {
      headers: { 'private-token': alice.token },
    });
    const record = api.body.find((t: any) => t.name === 'laptop <glab>');
    assert.deepEqual([record.scopes, record.expires_at, record.active], [['read_user'], '2999-01-01', true]);
    // read_user only: a write is refused for want of scope.
    const write = await new ApiClient(app.url).raw('POST', `${app.url}/api/v4/projects`, {
      headers: { 'private-token': token, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'x' }),
    });
    assert.equal(write.status, 403);
  });

  test('refuses a form without a name or scope, or with a bad date, beside the fields, keeping what was typed', async () => {
    const web = await signedIn(alice);
    const page = await web.get('/profile/personal_access_tokens');
    const refused = await web.post('/profile/personal_access_tokens', {
      name: '',
      expires_at: 'tomorrow',
      authenticity_token: WebClient.csrfToken(page.text),
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /Name can(&#39;|')t be blank/);
    assert.match(refused.text, /Scopes can(&#39;|')t be blank/);
    assert.match(refused.text, /Expires at is invalid/);
    assert.match(refused.text, /value="tomorrow"/);
    const sudo = await web.post('/profile/personal_access_tokens', {
      name: 'root me',
      scopes: 'sudo',
      authenticity_token: WebClient.csrfToken(page.text),
    });
    assert.equal(sudo.status, 400);
    assert.match(sudo.text, /administrators only/);
  });

  test('revokes a token of one’s own; another user’s is 404', async () => {
    const web = await signedIn(alice);
    const page = await web.get('/profile/personal_access_tokens');
    const created = await web.post('/profile/personal_access_tokens', {
      name: 'ci',
      scopes: 'api',
      authenticity_token: WebClient.csrfToken(page.text),
    });
    const token = created.text.match(/id="created-token" type="text" readonly value="([^"]+)"/)![1];
    const listed = await web.get('/profile/personal_access_tokens');
    const action = [
      ...listed.text.matchAll(/action="(\/profile\/personal_access_tokens\/\d+\/revoke)"[\s\S]*?aria-label="Revoke ([^"]+)"/g),
    ].find((match) => match[2] === 'ci')![1];
    const bobWeb = await signedIn(bob);
    const bobPage = await bobWeb.get('/profile/personal_access_tokens');
    assert.equal((await bobWeb.post(action, { authenticity_token: WebClient.csrfToken(bobPage.text) })).status, 404);
    assert.equal((await withToken(token)).status, 200);
    assert.equal((await web.post(action, { authenticity_token: WebClient.csrfToken(listed.text) })).status, 303);
    assert.equal((await withToken(token)).status, 401);
    assert.equal((await web.post(action, { authenticity_token: WebClient.csrfToken(listed.text) })).status, 404);
    assert.doesNotMatch((await web.get('/profile/personal_access_tokens')).text, /aria-label="Revoke ci"/);
  });
});
