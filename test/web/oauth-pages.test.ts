import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { ApiClient } from '../support/client';
import { WebClient } from '../support/web';

/**
 * The web side of GitLab's OAuth2 provider: the consent page a client's browser is sent to by
 * `GET /oauth/authorize`, and `/profile/applications` where users register their own clients and
 * revoke the ones they authorized. Checked through `/oauth/token` and the API.
 */
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let app: TestApp;
let alice: Account;
let bob: Account;
let application: { application_id: string; secret: string; id: number };
const redirectUri = 'https://client.example.com/callback';

async function signedIn(account: Account): Promise<WebClient> {
  const client = new WebClient(app.url);
  assert.equal((await client.signIn(account.user.username, account.password)).status, 303);
  return client;
}

function exchange(code: string, client = application) {
  return new ApiClient(app.url).raw('POST', `${app.url}/oauth/token`, {
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: client.application_id,
      client_secret: client.secret,
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

const bearerUser = (token: string) =>
  new ApiClient(app.url).raw('GET', `${app.url}/api/v4/user`, { headers: { authorization: `Bearer ${token}` } });

/** Follows `GET /oauth/authorize` in a browser-like client to the consent page; its answer. */
async function consent(web: WebClient, query: Record<string, string>) {
  const first = await web.get(`/oauth/authorize?${new URLSearchParams(query)}`);
  assert.equal(first.status, 302);
  return web.get(first.headers.get('location')!);
}

/** Answers the consent page's form. */
function answer(web: WebClient, page: string, decision: 'approve' | 'deny') {
  const fields = Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)].map(([, name, value]) => [
      name,
      value.replaceAll('&amp;', '&'),
    ]),
  );
  return web.post('/oauth/authorize/confirm', { ...fields, decision });
}

const query = () => ({
  client_id: application.application_id,
  redirect_uri: redirectUri,
  response_type: 'code',
  state: 'st&te',
  scope: 'read_user',
});

before(async () => {
  app = await startApp();
  alice = await app.createUser({ username: 'alice', name: 'Alice Liddell' });
  bob = await app.createUser({ username: 'bob' });
  const created = await app.root
    .v4()
    .post('/applications', { name: 'Editor <plug-in>', redirect_uri: redirectUri, scopes: 'api read_user' });
  assert.equal(created.status, 201);
  application = created.body;
});
after(() => app?.close());

describe('the consent page', () => {
  test('an anonymous browser signs in first and comes back to the question', async () => {
    const web = new WebClient(app.url);
    const page = await consent(web, query());
    assert.equal(page.status, 303);
    const back = page.headers.get('location')!;
    assert.match(back, /^\/users\/sign_in\?redirect_to=/);
    const form = await web.get(back);
    const signIn = await web.post('/users/sign_in', {
      login: 'alice',
      password: alice.password,
      redirect_to: decodeURIComponent(back.split('redirect_to=')[1]),
      authenticity_token: WebClient.csrfToken(form.text),
    });
    assert.equal(signIn.status, 303);
    assert.match(signIn.headers.get('location')!, /^\/oauth\/authorize\/confirm\?/);
    const asked = await web.get(signIn.headers.get('location')!);
    assert.equal(asked.status, 200);
    assert.match(asked.text, /Authorize Editor &lt;plug-in&gt; to use your account\?/);
    assert.match(asked.text, /<strong>read_user<\/strong>/);
    assert.doesNotMatch(asked.text, /<strong>api<\/strong>/);
  });

  test('approving sends the browser back with a code the client exchanges once for a token of the user', async () => {
    const web = await signedIn(alice);
    const page = await consent(web, query());
    const approved = await answer(web, page.text, 'approve');
    assert.equal(approved.status, 302);
    const location = new URL(approved.headers.get('location')!);
    assert.equal(`${location.origin}${location.pathname}`, redirectUri);
    assert.equal(location.searchParams.get('state'), 'st&te');
    const token = await exchange(location.searchParams.get('code')!);
    assert.equal(token.status, 200, JSON.stringify(token.body));
    assert.equal(token.body.scope, 'read_user');
    assert.equal((await bearerUser(token.body.access_token)).body.username, 'alice');
    assert.equal((await exchange(location.searchParams.get('code')!)).status, 400);
  });

  test('denying sends the browser back with access_denied and no code', async () => {
    const web = await signedIn(alice);
    const page = await consent(web, query());
    const denied = await answer(web, page.text, 'deny');
    assert.equal(denied.status, 302);
    const location = new URL(denied.headers.get('location')!);
    assert.equal(location.searchParams.get('error'), 'access_denied');
    assert.equal(location.searchParams.get('state'), 'st&te');
    assert.equal(location.searchParams.get('code'), null);
  });

  test('an unknown client, another redirect URI or a scope the client lacks is an error page, never a redirect', async () => {
    const web = await signedIn(alice);
    for (const [change, message] of [
      [{ client_id: 'nope' }, /Client authentication failed/],
      [{ redirect_uri: 'https://evil.example.com/' }, /redirect uri/],
      [{ scope: 'sudo' }, /scope is invalid/],
      [{ response_type: 'token' }, /response type/],
    ] as const) {
      const page = await consent(web, { ...query(), ...change });
      assert.equal(page.status, 400, JSON.stringify(change));
      assert.equal(page.headers.get('location'), null);
      assert.match(page.text, message);
      const posted = await web.post('/oauth/authorize/confirm', {
        ...query(),
        ...change,
        decision: 'approve',
        authenticity_token: WebClient.csrfToken((await web.get('/profile/applications')).text),
      });
      assert.equal(posted.status, 400);
      assert.equal(posted.headers.get('location'), null);
    }
  });

  test('the answer needs the form’s CSRF token and a signed-in user', async () => {
    const web = await signedIn(alice);
    assert.equal((await web.post('/oauth/authorize/confirm', { ...query(), decision: 'approve' })).status, 403);
    const anonymous = new WebClient(app.url);
    const form = await anonymous.get('/users/sign_in');
    const posted = await anonymous.post('/oauth/authorize/confirm', {
      ...query(),
      decision: 'approve',
      authenticity_token: WebClient.csrfToken(form.text),
    });
    assert.equal(posted.status, 404);
    assert.equal(posted.headers.get('location'), null);
  });
});

describe('/profile/applications', () => {
  test('a user registers an application, sees its secret once, and others can use it to ask', async () => {
    const web = await signedIn(bob);
    const page = await web.get('/profile/applications');
    const invalid = await web.post('/profile/applications', {
      name: 'My tool',
      redirect_uri: 'not a uri',
      scopes: 'api',
      authenticity_token: WebClient.csrfToken(page.text),
    });
    assert.equal(invalid.status, 400);
    assert.match(invalid.text, /Redirect URI must be an absolute URI/);
    assert.match(invalid.text, /value="My tool"/);

    const created = await web.post('/profile/applications', {
      name: 'My tool',
      redirect_uri: redirectUri,
      scopes: 'read_user',
      confidential: '1',
      authenticity_token: WebClient.csrfToken(page.text),
    });
    assert.equal(created.status, 201);
    const uid = created.text.match(/Application ID<\/dt><dd><code>([0-9a-f]+)<\/code>/)![1];
    const secret = created.text.match(/Secret<\/dt><dd><code>([0-9a-f]+)<\/code>/)![1];
    const again = await web.get('/profile/applications');
    assert.ok(again.text.includes(uid));
    assert.ok(!again.text.includes(secret));

    const aliceWeb = await signedIn(alice);
    const asked = await consent(aliceWeb, { client_id: uid, redirect_uri: redirectUri, response_type: 'code' });
    assert.match(asked.text, /registered by <strong>[^<]*\(@bob\)<\/strong>/);
    const approved = await answer(aliceWeb, asked.text, 'approve');
    const code = new URL(approved.headers.get('location')!).searchParams.get('code')!;
    const token = await exchange(code, { application_id: uid, secret, id: 0 });
    assert.equal(token.status, 200);
    assert.equal((await bearerUser(token.body.access_token)).body.username, 'alice');

    // Alice cannot destroy Bob's application; Bob can, and its tokens end with it.
    const alicePage = await aliceWeb.get('/profile/applications');
    const id = again.text.match(/action="\/profile\/applications\/(\d+)\/delete"/)![1];
    assert.equal(
      (await aliceWeb.post(`/profile/applications/${id}/delete`, { authenticity_token: WebClient.csrfToken(alicePage.text) })).status,
      404,
    );
    assert.equal(
      (await web.post(`/profile/applications/${id}/delete`, { authenticity_token: WebClient.csrfToken(again.text) })).status,
      303,
    );
    assert.equal((await bearerUser(token.body.access_token)).status, 401);
  });

  test('an authorized application is listed and revoked, and its tokens stop working', async () => {
    const web = await signedIn(alice);
    const page = await consent(web, query());
    const approved = await answer(web, page.text, 'approve');
    const token = await exchange(new URL(approved.headers.get('location')!).searchParams.get('code')!);
    assert.equal((await bearerUser(token.body.access_token)).status, 200);
    const listed = await web.get('/profile/applications');
    assert.match(listed.text, /Authorized applications \(1\)/);
    const revoke = listed.text.match(/action="(\/profile\/applications\/authorized\/\d+\/revoke)"/)![1];
    assert.equal((await web.post(revoke, { authenticity_token: WebClient.csrfToken(listed.text) })).status, 303);
    assert.equal((await bearerUser(token.body.access_token)).status, 401);
    assert.match((await web.get('/profile/applications')).text, /Authorized applications \(0\)/);
    // Bob has nothing of Alice's to revoke.
    const bobWeb = await signedIn(bob);
    const bobPage = await bobWeb.get('/profile/applications');
    assert.equal((await bobWeb.post(revoke, { authenticity_token: WebClient.csrfToken(bobPage.text) })).status, 404);
  });
});
