import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { WebClient } from '../support/web';
import { HookListener } from '../support/hook-listener';

/**
 * The last administration gaps of issue 27: a user removed from `/admin/users/:username` (as
 * `DELETE /users/:id`, with its system hook and its refusals), and a system hook edited on
 * `/admin/hooks/:id/edit` (the API has no call for it). Effects are read through the API; every
 * page and form is a 404 to whoever is not an administrator.
 */
let app: TestApp;
let admin: WebClient;
let user: WebClient;
let someone: Awaited<ReturnType<TestApp['createUser']>>;
const api = () => app.root.v4();
const token = async (client: WebClient, path: string) => WebClient.csrfToken((await client.get(path)).text);

before(async () => {
  app = await startApp();
  admin = new WebClient(app.url);
  assert.equal((await admin.signIn('root', 'rootpassword')).status, 303);
  someone = await app.createUser();
  user = new WebClient(app.url);
  assert.equal((await user.signIn(someone.user.username, someone.password)).status, 303);
});
after(() => app?.close());

describe('removing a user from /admin/users/:username', () => {
  test('a mistyped confirmation keeps the user; the right one removes them and their projects, and the system hook hears it', async () => {
    const listener = await HookListener.start();
    try {
      const leaving = await app.createUser();
      const project = (await leaving.client.v4().post('/projects', { name: 'left-behind' })).body;
      assert.equal((await api().post('/hooks', { url: listener.url })).status, 201);
      const path = `/admin/users/${leaving.user.username}`;
      const page = await admin.get(path);
      assert.match(page.text, /Remove user/);
      const csrf = WebClient.csrfToken(page.text);
      const mistyped = await admin.post(path, { authenticity_token: csrf, _method: 'delete', confirm_username: 'someone-else' });
      assert.equal(mistyped.status, 400);
      assert.match(mistyped.text, /id="field-confirm_username-error"/);
      assert.equal((await api().get(`/users/${leaving.user.id}`)).status, 200);

      const removed = await admin.post(path, { authenticity_token: csrf, _method: 'delete', confirm_username: leaving.user.username });
      assert.equal(removed.status, 303);
      assert.equal(removed.headers.get('location'), '/admin/users');
      assert.match((await admin.get('/admin/users')).text, /User was successfully removed/);
      assert.equal((await api().get(`/users/${leaving.user.id}`)).status, 404);
      assert.equal((await api().get(`/projects/${project.id}`)).status, 404);
      assert.equal((await admin.get(path)).status, 404);
      const event = await listener.waitFor((hook) => hook.body?.event_name === 'user_destroy');
      assert.equal(event.body.username, leaving.user.username);
    } finally {
      for (const hook of (await api().get('/hooks')).body) await api().delete(`/hooks/${hook.id}`);
      await listener.close();
    }
  });

  test('the only owner of a group is refused with the API’s message, and stays', async () => {
    const owner = await app.createUser();
    assert.equal((await owner.client.v4().post('/groups', { name: 'Lonely', path: 'lonely-owner-group' })).status, 201);
    const path = `/admin/users/${owner.user.username}`;
    const refused = await admin.post(path, {
      authenticity_token: await token(admin, path),
      _method: 'delete',
      confirm_username: owner.user.username,
    });
    assert.equal(refused.status, 400);
    const answer = await api().delete(`/users/${owner.user.id}`);
    assert.equal(answer.status, 409);
    assert.ok(refused.text.includes(answer.body.message), 'the page says what the API says');
    assert.equal((await api().get(`/users/${owner.user.id}`)).status, 200);
  });

  test('an administrator is offered no removal of themselves, and is refused one', async () => {
    const page = await admin.get('/admin/users/root');
    assert.doesNotMatch(page.text, /Remove user/);
    const refused = await admin.post('/admin/users/root', {
      authenticity_token: WebClient.csrfToken(page.text),
      _method: 'delete',
      confirm_username: 'root',
    });
    assert.equal(refused.status, 400);
    assert.match(refused.text, /You cannot remove your own account/);
    assert.equal((await api().get('/user')).body.username, 'root');
  });

  test('is a 404 to a user who is not an administrator, and removes nobody', async () => {
    const target = await app.createUser();
    const refused = await user.post(`/admin/users/${target.user.username}`, {
      authenticity_token: await token(user, '/profile'),
      _method: 'delete',
      confirm_username: target.user.username,
    });
    assert.equal(refused.status, 404);
    assert.equal((await api().get(`/users/${target.user.id}`)).status, 200);
  });
});

describe('editing a system hook on /admin/hooks/:id/edit', () => {
  test('changes its URL, token and events; a test delivery then reaches the new URL with the new token', async () => {
    const before = await HookListener.start();
    const after = await HookListener.start();
    try {
      const hook = (await api().post('/hooks', { url: before.url, token: 'old' })).body;
      const edit = await admin.get(`/admin/hooks/${hook.id}/edit`);
      assert.equal(edit.status, 200);
      assert.match(edit.text, new RegExp(`value="${before.url}"`));
      const csrf = WebClient.csrfToken(edit.text);
      const bad = await admin.post(`/admin/hooks/${hook.id}`, {
        authenticity_token: csrf,
        _method: 'patch',
        url: 'not a url',
        token: 'new',
      });
      assert.equal(bad.status, 400);
      assert.match(bad.text, /id="field-url-error"/);
      assert.match(bad.text, /value="not a url"/);
      assert.equal((await api().get('/hooks')).body.find((found: any) => found.id === hook.id).url, before.url);

      const saved = await admin.post(`/admin/hooks/${hook.id}`, {
        authenticity_token: csrf,
        _method: 'patch',
        url: after.url,
        token: 'new-secret',
        push_events: '0',
        tag_push_events: '1',
        merge_requests_events: '0',
        enable_ssl_verification: '0',
      });
      assert.equal(saved.status, 303);
      assert.equal(saved.headers.get('location'), `/admin/hooks/${hook.id}`);
      const changed = (await api().get('/hooks')).body.find((found: any) => found.id === hook.id);
      assert.equal(changed.url, after.url);
      assert.equal(changed.push_events, false);
      assert.equal(changed.tag_push_events, true);
      assert.equal(changed.enable_ssl_verification, false);

      assert.equal((await admin.post(`/admin/hooks/${hook.id}/test`, { authenticity_token: csrf })).status, 200);
      const delivery = await after.waitFor((received) => received.body?.name === 'Ruby');
      assert.equal(delivery.headers['x-gitlab-token'], 'new-secret');
      assert.equal(before.received.length, 0);
      await api().delete(`/hooks/${hook.id}`);
      assert.equal((await admin.get(`/admin/hooks/${hook.id}/edit`)).status, 404);
      assert.equal((await admin.post(`/admin/hooks/${hook.id}`, { authenticity_token: csrf, url: after.url })).status, 404);
    } finally {
      await before.close();
      await after.close();
    }
  });

  test('the form and its page are a 404 to a user who is not an administrator, and change nothing', async () => {
    const hook = (await api().post('/hooks', { url: 'http://127.0.0.1:9/kept' })).body;
    try {
      assert.equal((await user.get(`/admin/hooks/${hook.id}/edit`)).status, 404);
      assert.equal((await new WebClient(app.url).get(`/admin/hooks/${hook.id}/edit`)).status, 404);
      const refused = await user.post(`/admin/hooks/${hook.id}`, {
        authenticity_token: await token(user, '/profile'),
        _method: 'patch',
        url: 'http://127.0.0.1:9/changed',
      });
      assert.equal(refused.status, 404);
      assert.equal((await api().get('/hooks')).body.find((found: any) => found.id === hook.id).url, 'http://127.0.0.1:9/kept');
    } finally {
      await api().delete(`/hooks/${hook.id}`);
    }
  });
});
