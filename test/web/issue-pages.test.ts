import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import type { Person } from '../support/project-world';
import { createWebWorld, submit, type WebWorld } from '../support/web-world';

/** The issue pages: lists, the form, an issue with its discussion; writes through the API's services; privacy as the API's. */
let app: TestApp;
let owner: Person;
let open: any;
let secret: any;
let path: string;
let web: WebWorld<'guest' | 'stranger'>['web'];

before(async () => {
  app = await startApp();
  ({
    owner,
    project: open,
    base: path,
    web,
  } = await createWebWorld(app, { roles: ['guest', 'stranger'], name: 'tracker', visibility: 20 }));
  secret = (await owner.client.post('/projects', { name: 'hidden-tracker', visibility_level: 0 })).body;
  await owner.client.post(`/projects/${open.id}/labels`, { name: 'bug', color: '#ff0000' });
  await owner.client.post(`/projects/${open.id}/issues`, { title: 'First <b>issue</b>', description: 'Some **text**', labels: 'bug' });
  await owner.client.post(`/projects/${open.id}/issues`, { title: 'Secret confidential thing', confidential: true });
  await owner.client.post(`/projects/${secret.id}/issues`, { title: 'Private project issue' });
});
after(() => app?.close());

describe('GET /:namespace/:project/issues', () => {
  test('lists open issues, titles escaped, with their labels; confidential ones only to who may read them', async () => {
    const page = await web.anonymous.get(`${path}/issues`);
    assert.equal(page.status, 200);
    assert.match(page.text, /First &lt;b&gt;issue&lt;\/b&gt;/);
    assert.match(page.text, /<span class="label">bug<\/span>/);
    assert.doesNotMatch(page.text, /Secret confidential thing/);
    assert.match((await web.owner.get(`${path}/issues`)).text, /Secret confidential thing/);
  });

  test('filters by label and search; the closed tab shows closed issues', async () => {
    assert.doesNotMatch((await web.owner.get(`${path}/issues?label_name=bug`)).text, /Secret confidential/);
    assert.match((await web.owner.get(`${path}/issues?search=Secret`)).text, /Secret confidential/);
    assert.doesNotMatch((await web.owner.get(`${path}/issues?search=Secret`)).text, /First &lt;b&gt;/);
    assert.match((await web.owner.get(`${path}/issues?state=closed`)).text, /No issues to show/);
  });

  test('a private project: 404 to anonymous visitors and non-members, as for a missing project', async () => {
    const secretPath = new URL(secret.web_url).pathname;
    const missing = await web.stranger.get(`/${owner.user.username}/nothing-here/issues`);
    assert.equal(missing.status, 404);
    for (const client of [web.anonymous, web.stranger]) {
      const page = await client.get(`${secretPath}/issues`);
      assert.equal(page.status, 404);
      assert.doesNotMatch(page.text, /Private project issue/);
    }
    assert.match((await web.owner.get(`${secretPath}/issues`)).text, /Private project issue/);
  });
});

describe('GET and POST /:namespace/:project/issues/new', () => {
  test('anonymous visitors are sent to sign in first', async () => {
    const page = await web.anonymous.get(`${path}/issues/new`);
    assert.equal(page.status, 303);
    assert.match(page.headers.get('location') ?? '', /^\/users\/sign_in\?redirect_to=/);
  });

  test('a blank title is refused beside the field, keeping what was typed', async () => {
    const answer = await submit(web.owner, `${path}/issues/new`, `${path}/issues`, { title: ' ', description: 'kept <text>' });
    assert.equal(answer.status, 400);
    assert.match(answer.text, /id="title_error"[^>]*>Title can&#39;t be blank/);
    assert.match(answer.text, /kept &lt;text&gt;<\/textarea>/);
  });

  test('creates the issue through the API service: the API sees it with its label', async () => {
    const answer = await submit(web.owner, `${path}/issues/new`, `${path}/issues`, {
      title: 'Made on the web',
      description: 'Body',
      labels: 'bug',
    });
    assert.equal(answer.status, 303);
    const iid = Number(answer.headers.get('location')!.split('/').pop());
    const issue = await owner.client.v4().get(`/projects/${open.id}/issues/${iid}`);
    assert.equal(issue.body.title, 'Made on the web');
    assert.deepEqual(issue.body.labels, ['bug']);
  });

  test('without a CSRF token the form is refused', async () => {
    assert.equal((await web.owner.post(`${path}/issues`, { title: 'No token' })).status, 403);
  });
});

describe('GET /:namespace/:project/issues/:iid', () => {
  test('shows the rendered description, labels, and a comment form', async () => {
    const page = await web.owner.get(`${path}/issues/1`);
    assert.equal(page.status, 200);
    assert.match(page.text, /<strong>text<\/strong>/);
    assert.match(page.text, /class="label"[^>]*>bug<\/a>/);
    assert.match(page.text, /name="note"/);
  });

  test('a confidential issue is 404 to who may not read it, as a missing one', async () => {
    for (const client of [web.anonymous, web.stranger, web.guest]) assert.equal((await client.get(`${path}/issues/2`)).status, 404);
    assert.equal((await web.anonymous.get(`${path}/issues/999`)).status, 404);
    assert.equal((await web.owner.get(`${path}/issues/2`)).status, 200);
  });

  test('a comment, close and reopen leave the same records as the API: the note, system notes, the state', async () => {
    const commented = await submit(web.owner, `${path}/issues/1`, `${path}/issues/1/notes`, { note: 'A web comment' });
    assert.equal(commented.status, 303);
    const closed = await submit(web.owner, `${path}/issues/1`, `${path}/issues/1/close`, {});
    assert.equal(closed.status, 303);
    assert.equal((await owner.client.v4().get(`/projects/${open.id}/issues/1`)).body.state, 'closed');
    const page = await web.owner.get(`${path}/issues/1`);
    assert.match(page.text, /Reopen issue/);
    assert.ok(page.text.indexOf('A web comment') < page.text.indexOf('Status changed to closed'));
    await submit(web.owner, `${path}/issues/1`, `${path}/issues/1/reopen`, {});
    assert.equal((await owner.client.v4().get(`/projects/${open.id}/issues/1`)).body.state, 'reopened');
    const notes = await owner.client.v4().get(`/projects/${open.id}/issues/1/notes`);
    assert.ok(notes.body.some((note: any) => note.body === 'A web comment' && note.author.id === owner.user.id));
  });

  test('a slash command in a comment runs as through the API', async () => {
    await submit(web.owner, `${path}/issues/1`, `${path}/issues/1/notes`, { note: '/close' });
    assert.equal((await owner.client.v4().get(`/projects/${open.id}/issues/1`)).body.state, 'closed');
  });

  test('a guest may not close an issue', async () => {
    const answer = await submit(web.guest, `${path}/issues/1`, `${path}/issues/1/reopen`, {});
    assert.notEqual(answer.status, 303);
    assert.equal((await owner.client.v4().get(`/projects/${open.id}/issues/1`)).body.state, 'closed');
  });
});
