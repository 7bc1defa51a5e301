import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { createWebWorld, signedIn, submit, type WebWorld } from '../support/web-world';
import { WebClient } from '../support/web';

/**
 * Access requests to a project from its pages (issue 27, GitLab 8.12): a reader who is not a member
 * asks from the project's home and may withdraw; a master grants or denies on the members page; the
 * project's settings turn requests off. Each effect is read back through the API.
 */
let app: TestApp;
let world: WebWorld<'master' | 'developer' | 'stranger'>;
const api = (path: string) => app.root.v4().get(path);

before(async () => {
  app = await startApp();
  world = await createWebWorld(app, { roles: ['master', 'developer', 'stranger'], visibility: 20 });
});
after(() => app?.close());

describe('asking to join a project', () => {
  test('a reader asks from the home page, sees the request pending, and a master grants it at a role', async () => {
    const { base, web, id } = world;
    const asker = await app.createUser();
    const client = await signedIn(app, asker);
    const home = await client.get(base);
    assert.match(home.text, new RegExp(`action="${base}/project_members/request_access"`));
    const asked = await client.post(`${base}/project_members/request_access`, { authenticity_token: WebClient.csrfToken(home.text) });
    assert.equal(asked.status, 303);
    const requests = (await api(`/projects/${id}/access_requests`)).body;
    assert.ok(requests.some((request: any) => request.id === asker.user.id));
    assert.match((await client.get(base)).text, /Withdraw access request/);

    const members = await web.master.get(`${base}/project_members`);
    assert.match(members.text, /Users requesting access/);
    assert.match(members.text, new RegExp(`@${asker.user.username}`));
    const granted = await web.master.post(`${base}/project_members/${asker.user.id}/approve_access_request`, {
      authenticity_token: WebClient.csrfToken(members.text),
      access_level: '20',
    });
    assert.equal(granted.status, 303);
    assert.equal((await api(`/projects/${id}/members/${asker.user.id}`)).body.access_level, 20);
    assert.equal((await api(`/projects/${id}/access_requests`)).body.length, 0);
    assert.match((await client.get(base)).text, /Leave project/);
    const left = await submit(client, base, `${base}/project_members/leave`, { _method: 'delete' });
    assert.equal(left.status, 303);
    assert.equal((await api(`/projects/${id}/members/${asker.user.id}`)).status, 404);
  });

  test('a master denies one request; a requester withdraws their own', async () => {
    const { base, web, id } = world;
    const denied = await app.createUser();
    const withdrawn = await app.createUser();
    for (const account of [denied, withdrawn])
      assert.equal((await account.client.v4().post(`/projects/${id}/access_requests`)).status, 201);
    const denial = await submit(web.master, `${base}/project_members`, `${base}/project_members/${denied.user.id}`, { _method: 'delete' });
    assert.equal(denial.status, 303);
    const client = await signedIn(app, withdrawn);
    const withdrawal = await submit(client, base, `${base}/project_members/leave`, { _method: 'delete' });
    assert.equal(withdrawal.status, 303);
    assert.deepEqual((await api(`/projects/${id}/access_requests`)).body, []);
    assert.equal((await api(`/projects/${id}/members/${denied.user.id}`)).status, 404);
    assert.match((await client.get(base)).text, /Request access/);
  });

  test('granting or denying is a 404 to a developer and a stranger, and changes nothing', async () => {
    const { base, web, id } = world;
    const asker = await app.createUser();
    assert.equal((await asker.client.v4().post(`/projects/${id}/access_requests`)).status, 201);
    for (const client of [web.developer, web.stranger]) {
      assert.equal((await client.get(`${base}/project_members`)).status, 404);
      const csrf = WebClient.csrfToken((await client.get(base)).text);
      const approve = await client.post(`${base}/project_members/${asker.user.id}/approve_access_request`, { authenticity_token: csrf });
      assert.equal(approve.status, 404);
      const deny = await client.post(`${base}/project_members/${asker.user.id}`, { authenticity_token: csrf, _method: 'delete' });
      assert.equal(deny.status, 404);
    }
    const requests = (await api(`/projects/${id}/access_requests`)).body;
    assert.ok(requests.some((request: any) => request.id === asker.user.id));
    // A member is offered no request button, nor is an anonymous visitor.
    assert.doesNotMatch((await web.developer.get(base)).text, /Request access/);
    assert.doesNotMatch((await web.anonymous.get(base)).text, /Request access/);
  });

  test('the settings switch turns requests off: no button, and a request is refused as the API refuses it', async () => {
    const { base, web, id } = world;
    const saved = await submit(web.master, `${base}/edit`, `${base}/edit`, {
      _method: 'patch',
      section: 'general',
      description: '',
      issues_enabled: '1',
      merge_requests_enabled: '1',
      builds_enabled: '1',
      snippets_enabled: '1',
    });
    assert.equal(saved.status, 303);
    assert.equal((await api(`/projects/${id}`)).body.request_access_enabled, false);
    const page = await web.stranger.get(base);
    assert.doesNotMatch(page.text, /Request access/);
    const refused = await web.stranger.post(`${base}/project_members/request_access`, {
      authenticity_token: WebClient.csrfToken(page.text),
    });
    assert.equal(refused.status, 403);
    assert.equal((await world.stranger.client.v4().post(`/projects/${id}/access_requests`)).status, 403);
    const back = await submit(web.master, `${base}/edit`, `${base}/edit`, {
      _method: 'patch',
      section: 'general',
      description: '',
      issues_enabled: '1',
      merge_requests_enabled: '1',
      builds_enabled: '1',
      snippets_enabled: '1',
      request_access_enabled: '1',
    });
    assert.equal(back.status, 303);
    assert.equal((await api(`/projects/${id}`)).body.request_access_enabled, true);
    assert.match((await web.master.get(`${base}/edit`)).text, /name="request_access_enabled" value="1" checked/);
  });
});
