import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { WebClient } from '../support/web';

/** GitLab 8.12's `/users/sign_in` and `/users/sign_out`, a session cookie, CSRF tokens, throttling. */
let app: TestApp;
let user: { username: string; email: string; id: number };
let password: string;

before(async () => {
  app = await startApp();
  const created = await app.createUser();
  user = created.user;
  password = created.password;
});
after(() => app.close());

describe('GET /users/sign_in', () => {
  test('a form with "Username or email", "Password", "Sign in" and a CSRF token', async () => {
    const page = await new WebClient(app.url).get('/users/sign_in');
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(page.text, /<label for="login">Username or email<\/label>/);
    assert.match(page.text, /<label for="password">Password<\/label>/);
    assert.match(page.text, /<button type="submit" class="primary">Sign in<\/button>/);
    assert.ok(WebClient.csrfToken(page.text).length > 20);
    assert.match(page.text, /<main id="content">/);
  });
});

describe('POST /users/sign_in', () => {
  test('without a CSRF token: 403, and no session', async () => {
    const web = new WebClient(app.url);
    await web.get('/users/sign_in');
    const response = await web.post('/users/sign_in', { login: user.username, password });
    assert.equal(response.status, 403);
    assert.ok(!web.cookies.has('_forge_session'));
  });

  test('with a token of another browser: 403', async () => {
    const other = new WebClient(app.url);
    const token = WebClient.csrfToken((await other.get('/users/sign_in')).text);
    const web = new WebClient(app.url);
    await web.get('/users/sign_in');
    assert.equal((await web.post('/users/sign_in', { login: user.username, password, authenticity_token: token })).status, 403);
  });

  test('by username: a session cookie, HttpOnly, SameSite=Lax, not Secure over http; then signed in', async () => {
    const web = new WebClient(app.url);
    const response = await web.signIn(user.username, password);
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/');
    const cookie = response.setCookies.find((line) => line.startsWith('_forge_session='));
    assert.ok(cookie);
    assert.match(cookie, /; HttpOnly/);
    assert.match(cookie, /; SameSite=Lax/);
    assert.doesNotMatch(cookie, /; Secure/);
    const home = await web.get('/');
    assert.match(home.text, /<h1>Your projects<\/h1>/);
    assert.match(home.text, new RegExp(`href="/u/${user.username}"`));
    assert.match(home.text, /<button type="submit">Sign out<\/button>/);
  });

  test('by e-mail, and back to the page asked for', async () => {
    const web = new WebClient(app.url);
    const form = await web.get('/users/sign_in?redirect_to=/explore/projects');
    assert.match(form.text, /name="redirect_to" value="\/explore\/projects"/);
    const response = await web.post('/users/sign_in', {
      login: user.email,
      password,
      redirect_to: '/explore/projects',
      authenticity_token: WebClient.csrfToken(form.text),
    });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get('location'), '/explore/projects');
  });

  test('never sends a signed-in user to another site', async () => {
    for (const elsewhere of ['//evil.example/', 'https://evil.example/', '/\\evil.example']) {
      const web = new WebClient(app.url);
      const form = await web.get('/users/sign_in');
      const response = await web.post('/users/sign_in', {
        login: user.username,
        password,
        redirect_to: elsewhere,
        authenticity_token: WebClient.csrfToken(form.text),
      });
      assert.equal(response.status, 303);
      assert.equal(response.headers.get('location'), '/', elsewhere);
    }
  });

  test('a wrong password: 401, the form again with the login kept, no session', async () => {
    const web = new WebClient(app.url);
    const response = await web.signIn(user.username, 'wrong-password');
    assert.equal(response.status, 401);
    assert.match(response.text, /Invalid login or password\./);
    assert.match(response.text, new RegExp(`value="${user.username}"`));
    assert.ok(!web.cookies.has('_forge_session'));
  });

  test("a blocked user cannot sign in, and a blocked user's session ends", async () => {
    const blocked = await app.createUser();
    const web = new WebClient(app.url);
    assert.equal((await web.signIn(blocked.user.username, blocked.password)).status, 303);
    assert.equal((await app.root.put(`/users/${blocked.user.id}/block`)).status, 200);
    assert.match((await web.get('/')).text, /<h1>Public projects<\/h1>/);
    assert.equal((await new WebClient(app.url).signIn(blocked.user.username, blocked.password)).status, 401);
  });

  test('a changed password ends the sessions made with the old one', async () => {
    const changing = await app.createUser();
    const web = new WebClient(app.url);
    await web.signIn(changing.user.username, changing.password);
    assert.match((await web.get('/')).text, /<h1>Your projects<\/h1>/);
    assert.equal((await app.root.put(`/users/${changing.user.id}`, { password: 'another-password-1' })).status, 200);
    assert.match((await web.get('/')).text, /<h1>Public projects<\/h1>/);
  });

  test('a forged session cookie is nobody', async () => {
    const web = new WebClient(app.url);
    web.cookies.set('_forge_session', 'AAAA.BBBB.CCCC');
    const page = await web.get('/');
    assert.equal(page.status, 200);
    assert.match(page.text, /<h1>Public projects<\/h1>/);
  });

  test('throttled after 5 failures for one login from one address: even the right password is refused', async () => {
    const target = await app.createUser();
    const web = new WebClient(app.url);
    for (let attempt = 0; attempt < 5; attempt++) assert.equal((await web.signIn(target.user.username, 'nope')).status, 401);
    const refused = await web.signIn(target.user.username, target.password);
    assert.equal(refused.status, 429);
    assert.match(refused.text, /Too many failed attempts/);
    assert.ok(!web.cookies.has('_forge_session'));
    // Another login from the same address is not held back.
    assert.equal((await web.signIn(user.username, password)).status, 303);
  });
});

describe('sign out', () => {
  test('POST /users/sign_out without a token: 403, still signed in', async () => {
    const web = new WebClient(app.url);
    await web.signIn(user.username, password);
    assert.equal((await web.post('/users/sign_out', {})).status, 403);
    assert.match((await web.get('/')).text, /<h1>Your projects<\/h1>/);
  });

  test("POST /users/sign_out with the page's token: the session cookie is cleared", async () => {
    const web = new WebClient(app.url);
    await web.signIn(user.username, password);
    const token = WebClient.csrfToken((await web.get('/')).text);
    const response = await web.post('/users/sign_out', { authenticity_token: token });
    assert.equal(response.status, 303);
    assert.ok(response.setCookies.some((line) => /^_forge_session=;/.test(line)));
    assert.match((await web.get('/')).text, /<h1>Public projects<\/h1>/);
  });

  test('DELETE /users/sign_out with the token in X-CSRF-Token', async () => {
    const web = new WebClient(app.url);
    await web.signIn(user.username, password);
    const token = WebClient.csrfToken((await web.get('/')).text);
    assert.equal((await web.request('DELETE', '/users/sign_out', undefined, { 'x-csrf-token': 'wrong' })).status, 403);
    assert.equal((await web.request('DELETE', '/users/sign_out', undefined, { 'x-csrf-token': token })).status, 303);
    assert.match((await web.get('/')).text, /<h1>Public projects<\/h1>/);
  });

  test('a token from before signing in is no longer valid after', async () => {
    const web = new WebClient(app.url);
    const before = WebClient.csrfToken((await web.get('/users/sign_in')).text);
    await web.post('/users/sign_in', { login: user.username, password, authenticity_token: before });
    assert.equal((await web.post('/users/sign_out', { authenticity_token: before })).status, 403);
  });
});

describe('cookies over https', () => {
  test('Secure when EXTERNAL_URL is https', async () => {
    const secure = await startApp({ EXTERNAL_URL: 'https://forge.example.com' });
    try {
      const created = await secure.createUser();
      const response = await new WebClient(secure.url).signIn(created.user.username, created.password);
      assert.equal(response.status, 303);
      const cookies = response.setCookies;
      assert.ok(cookies.length >= 2);
      for (const line of cookies) assert.match(line, /; Secure/, line);
    } finally {
      await secure.close();
    }
  });
});
