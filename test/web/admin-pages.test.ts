import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { registeredRunner } from '../support/ci-world';
import { WebClient } from '../support/web';

/**
 * The administration pages (GitLab 8.12's `/admin` basics) are for administrators only: to anyone
 * else, signed in or not, each is a 404 like a page that does not exist, and so is every form.
 */
type Account = Awaited<ReturnType<TestApp['createUser']>>;
let app: TestApp;
let admin: WebClient;
let user: WebClient;
let someone: Account;

const PAGES = ['/admin', '/admin/users', '/admin/projects', '/admin/runners'];

before(async () => {
  app = await startApp();
  admin = new WebClient(app.url);
  assert.equal((await admin.signIn('root', 'rootpassword')).status, 303);
  someone = await app.createUser({ name: 'Someone <i>' });
  user = new WebClient(app.url);
  assert.equal((await user.signIn(someone.user.username, someone.password)).status, 303);
  await someone.client.post('/projects', { name: 'hidden-admin-view', visibility_level: 0 });
  await registeredRunner(app, { description: 'shared <runner>' });
});
after(() => app?.close());

describe('who may see /admin', () => {
  test('every admin page is a 404 to anonymous visitors and to signed-in users who are not administrators', async () => {
    for (const client of [new WebClient(app.url), user]) {
      const missing = await client.get('/admin/nothing-here');
      assert.equal(missing.status, 404);
      for (const path of PAGES) {
        const page = await client.get(path);
        assert.equal(page.status, 404, path);
        assert.equal(page.text.replace(/value="[^"]+"/g, ''), missing.text.replace(/value="[^"]+"/g, ''), path);
      }
    }
  });

  test('every admin form is a 404 to a user who is not an administrator, even with a valid CSRF token', async () => {
    const token = WebClient.csrfToken((await user.get('/profile')).text);
    const before = (await app.services.settings.get()).runners_registration_token;
    assert.equal((await user.post(`/admin/users/${someone.user.id}/block`, { authenticity_token: token })).status, 404);
    assert.equal((await user.post('/admin/application_settings/reset_runners_token', { authenticity_token: token })).status, 404);
    assert.equal((await app.services.settings.get()).runners_registration_token, before);
  });

  test('administrators see every page', async () => {
    for (const path of PAGES) assert.equal((await admin.get(path)).status, 200, path);
  });
});

describe('GET /admin', () => {
  test('counts users, projects and runners', async () => {
    const page = await admin.get('/admin');
    assert.match(page.text, /<a href="\/admin\/users">Users<\/a>: 2/);
    assert.match(page.text, /<a href="\/admin\/projects">Projects<\/a>: 1/);
    assert.match(page.text, /<a href="\/admin\/runners">Runners<\/a>: 1/);
  });
});

describe('/admin/users', () => {
  test('lists every user, escaped, and blocks and unblocks one', async () => {
    const page = await admin.get('/admin/users');
    assert.match(page.text, /Someone &lt;i&gt;/);
    assert.ok(page.text.includes(someone.user.email));
    const blocked = await admin.post(`/admin/users/${someone.user.id}/block`, { authenticity_token: WebClient.csrfToken(page.text) });
    assert.equal(blocked.status, 303);
    assert.equal((await someone.client.get('/user')).status, 401);
    // A blocked user's session is nobody's.
    assert.equal((await user.get('/profile')).status, 303);
    const after = await admin.get('/admin/users');
    assert.match(after.text, /<button type="submit">Unblock user\d+<\/button>/);
    const unblocked = await admin.post(`/admin/users/${someone.user.id}/unblock`, { authenticity_token: WebClient.csrfToken(after.text) });
    assert.equal(unblocked.status, 303);
    assert.equal((await someone.client.get('/user')).status, 200);
  });

  test('a block without the CSRF token is refused and changes nothing', async () => {
    assert.equal((await admin.post(`/admin/users/${someone.user.id}/block`, {})).status, 403);
    assert.equal((await someone.client.get('/user')).status, 200);
  });

  test('an administrator cannot block themselves', async () => {
    const page = await admin.get('/admin/users');
    const root = (await app.root.get('/user')).body;
    assert.equal((await admin.post(`/admin/users/${root.id}/block`, { authenticity_token: WebClient.csrfToken(page.text) })).status, 400);
    assert.equal((await app.root.get('/user')).status, 200);
  });
});

describe('/admin/projects', () => {
  test('lists private projects too', async () => {
    assert.match((await admin.get('/admin/projects')).text, /hidden-admin-view/);
  });
});

describe('/admin/runners', () => {
  test('shows the runners and the registration token, and resets the token', async () => {
    const page = await admin.get('/admin/runners');
    const token = (await app.services.settings.get()).runners_registration_token;
    assert.ok(page.text.includes(`value="${token}"`));
    assert.match(page.text, /shared &lt;runner&gt;/);
    const reset = await admin.post('/admin/application_settings/reset_runners_token', {
      authenticity_token: WebClient.csrfToken(page.text),
    });
    assert.equal(reset.status, 303);
    const fresh = (await app.services.settings.get()).runners_registration_token;
    assert.notEqual(fresh, token);
    assert.ok((await admin.get('/admin/runners')).text.includes(`value="${fresh}"`));
  });
});
