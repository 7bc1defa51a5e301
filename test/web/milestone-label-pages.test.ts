import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import type { Person } from '../support/project-world';
import { createWebWorld, type WebWorld } from '../support/web-world';

/** The milestone and label pages: progress and counts of what the caller may read; privacy as the API's. */
let app: TestApp;
let owner: Person;
let open: any;
let secret: any;
let path: string;
let release: any;
let later: any;
let web: WebWorld<'guest' | 'stranger'>['web'];

before(async () => {
  app = await startApp();
  ({
    owner,
    project: open,
    base: path,
    web,
  } = await createWebWorld(app, { roles: ['guest', 'stranger'], name: 'planner', visibility: 20 }));
  secret = (await owner.client.post('/projects', { name: 'hidden-planner', visibility_level: 0 })).body;
  release = (await owner.client.post(`/projects/${open.id}/milestones`, { title: 'Release <1>', description: 'Ship **it**, see #1' })).body;
  later = (await owner.client.post(`/projects/${open.id}/milestones`, { title: 'Later' })).body;
  await owner.client.put(`/projects/${open.id}/milestones/${later.id}`, { state_event: 'close' });
  await owner.client.post(`/projects/${secret.id}/milestones`, { title: 'Secret milestone' });
  await owner.client.post(`/projects/${open.id}/labels`, { name: 'bug', color: '#ff0000', description: 'Something is <broken>' });
  await owner.client.post(`/projects/${open.id}/labels`, { name: 'feature', color: '#00ff00' });
  const issue = (title: string, extra: Record<string, unknown> = {}) =>
    owner.client.post(`/projects/${open.id}/issues`, { title, milestone_id: release.id, labels: 'bug', ...extra }).then((r) => r.body);
  await issue('Open issue one');
  const closed = await issue('Closed issue two');
  await owner.client.put(`/projects/${open.id}/issues/${closed.id}`, { state_event: 'close' });
  await issue('Confidential issue three', { confidential: true });
});
after(() => app?.close());

describe('GET /:namespace/:project/milestones', () => {
  test('open milestones by default, each with its progress counted over the issues the caller may read', async () => {
    const anonymous = await web.anonymous.get(`${path}/milestones`);
    assert.equal(anonymous.status, 200);
    assert.match(anonymous.text, /Release &lt;1&gt;/);
    assert.doesNotMatch(anonymous.text, /Later/);
    assert.match(anonymous.text, /1 of 2 issues closed · 50% complete/);
    assert.match((await web.owner.get(`${path}/milestones`)).text, /1 of 3 issues closed · 33% complete/);
  });

  test('the closed and all tabs', async () => {
    const closed = (await web.anonymous.get(`${path}/milestones?state=closed`)).text;
    assert.match(closed, /Later/);
    assert.doesNotMatch(closed, /Release &lt;1&gt;/);
    const all = (await web.anonymous.get(`${path}/milestones?state=all`)).text;
    assert.match(all, /Later/);
    assert.match(all, /Release &lt;1&gt;/);
  });

  test('a private project: 404 to anonymous visitors and non-members', async () => {
    const secretPath = new URL(secret.web_url).pathname;
    for (const client of [web.anonymous, web.stranger]) {
      const page = await client.get(`${secretPath}/milestones`);
      assert.equal(page.status, 404);
      assert.doesNotMatch(page.text, /Secret milestone/);
    }
    assert.match((await web.owner.get(`${secretPath}/milestones`)).text, /Secret milestone/);
  });

  test('the issue list links to the milestones and labels', async () => {
    const page = (await web.anonymous.get(`${path}/issues`)).text;
    assert.match(page, new RegExp(`href="${path}/milestones"`));
    assert.match(page, new RegExp(`href="${path}/labels"`));
  });
});

describe('GET /:namespace/:project/milestones/:iid', () => {
  test('its description rendered with references, its progress and issues; a confidential issue only to who may read it', async () => {
    const anonymous = await web.anonymous.get(`${path}/milestones/${release.iid}`);
    assert.equal(anonymous.status, 200);
    assert.match(anonymous.text, /Ship <strong>it<\/strong>/);
    assert.match(anonymous.text, new RegExp(`<a href="${path}/issues/1"[^>]*class="gfm gfm-issue"`));
    assert.match(anonymous.text, /Open issue one/);
    assert.match(anonymous.text, /Closed issue two/);
    assert.doesNotMatch(anonymous.text, /Confidential issue three/);
    assert.doesNotMatch((await web.stranger.get(`${path}/milestones/${release.iid}`)).text, /Confidential issue three/);
    assert.match((await web.owner.get(`${path}/milestones/${release.iid}`)).text, /Confidential issue three/);
  });

  test('lists its merge requests', async () => {
    await owner.client.post(`/projects/${open.id}/repository/files`, {
      file_path: 'README.md',
      branch_name: 'master',
      content: 'hi',
      commit_message: 'init',
    });
    await owner.client.post(`/projects/${open.id}/repository/branches`, { branch_name: 'topic', ref: 'master' });
    const created = await owner.client.post(`/projects/${open.id}/merge_requests`, {
      source_branch: 'topic',
      target_branch: 'master',
      title: 'Milestone MR',
      milestone_id: release.id,
    });
    assert.equal(created.status, 201);
    const page = (await web.anonymous.get(`${path}/milestones/${release.iid}`)).text;
    assert.match(page, new RegExp(`<a href="${path}/merge_requests/${created.body.iid}">Milestone MR</a>`));
  });

  test('a %milestone reference of an issue links to a page that opens', async () => {
    await owner.client.post(`/projects/${open.id}/issues`, { title: 'Refers', description: 'For %Later' });
    const issue = (await web.anonymous.get(`${path}/issues?search=Refers`)).text;
    const iid = /issues\/(\d+)">Refers/.exec(issue)![1];
    const shown = (await web.anonymous.get(`${path}/issues/${iid}`)).text;
    const href = /<a href="([^"]+)"[^>]*class="gfm gfm-milestone"/.exec(shown)![1];
    assert.equal(href, `${path}/milestones/${later.iid}`);
    assert.equal((await web.anonymous.get(href)).status, 200);
  });

  test('an unknown milestone, or one of a project the caller may not read, is 404', async () => {
    assert.equal((await web.owner.get(`${path}/milestones/999`)).status, 404);
    assert.equal((await web.owner.get(`${path}/milestones/abc`)).status, 404);
    const secretPath = new URL(secret.web_url).pathname;
    assert.equal((await web.stranger.get(`${secretPath}/milestones/1`)).status, 404);
    assert.equal((await web.owner.get(`${secretPath}/milestones/1`)).status, 200);
  });
});

describe('GET /:namespace/:project/labels', () => {
  test('each label with its colour, description and the open issues the caller may see, linking to the filtered list', async () => {
    const anonymous = await web.anonymous.get(`${path}/labels`);
    assert.equal(anonymous.status, 200);
    assert.match(anonymous.text, /<code class="muted">#ff0000<\/code>/);
    assert.match(anonymous.text, /src="data:image\/svg\+xml,[^"]*%23ff0000/);
    assert.match(anonymous.text, /Something is &lt;broken&gt;/);
    assert.match(anonymous.text, new RegExp(`href="${path.replace(/[.]/g, '\\.')}/issues\\?label_name\\[\\]=bug"`));
    assert.match(anonymous.text, />1 open issues</);
    assert.match((await web.owner.get(`${path}/labels`)).text, />2 open issues</);
  });

  test('the filtered issue list it links to shows the label’s issues', async () => {
    const page = await web.owner.get(`${path}/issues?label_name[]=bug`);
    assert.equal(page.status, 200);
    assert.match(page.text, /Open issue one/);
    assert.doesNotMatch(page.text, /Refers/);
  });

  test('a private project: 404 to anonymous visitors and non-members', async () => {
    const secretPath = new URL(secret.web_url).pathname;
    assert.equal((await web.anonymous.get(`${secretPath}/labels`)).status, 404);
    assert.equal((await web.stranger.get(`${secretPath}/labels`)).status, 404);
    assert.equal((await web.owner.get(`${secretPath}/labels`)).status, 200);
  });
});
