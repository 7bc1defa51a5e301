import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { createGroupRow, grantGroupRole } from '../../support/roles';

/* The issue lists: the caller's, a project's, a group's and a milestone's, with 8.12's filters and defaults. */

let app: TestApp;
let people: People<Role>;
let world: ProjectWorld<Role>;
const ids: Record<string, number> = {};

const titles = (response: { body: any[] }) => response.body.map((issue) => issue.title);

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  world = await createProjectWorld(app, { people, visibility: 20 });
  const client = world.owner.client;
  for (const [title, body] of [
    ['first', { labels: 'label' }],
    ['second', {}],
    ['third', { confidential: true }],
  ] as const) {
    ids[title] = (await client.post(`/projects/${world.id}/issues`, { title, ...body })).body.id;
  }
  await client.put(`/projects/${world.id}/issues/${ids.second}`, { state_event: 'close' });
});
after(() => app.close());

describe('GET /issues', () => {
  test('the caller’s own issues, newest first, filtered by state and labels (any)', async () => {
    const client = world.owner.client;
    assert.deepEqual(titles(await client.get('/issues')), ['third', 'second', 'first']);
    assert.deepEqual(titles(await client.get('/issues', { state: 'closed' })), ['second']);
    assert.deepEqual(titles(await client.get('/issues', { state: 'opened' })), ['third', 'first']);
    assert.deepEqual(titles(await client.get('/issues', { labels: 'label,foo,bar' })), ['first']);
    assert.deepEqual(titles(await client.get('/issues', { labels: 'foo,bar' })), []);
    assert.deepEqual(titles(await client.get('/issues', { labels: 'label', state: 'closed' })), []);
    assert.deepEqual(titles(await client.get('/issues', { sort: 'asc' })), ['first', 'second', 'third']);
    assert.deepEqual(titles(await client.get('/issues', { order_by: 'updated_at' }))[0], 'second');
    const paged = await client.get('/issues', { per_page: 1 });
    assert.equal(paged.headers.get('x-total'), '3');
    assert.equal(paged.body.length, 1);
    assert.deepEqual(titles(await world.reporter.client.get('/issues')), []);
    assert.equal((await app.anonymous.get('/issues')).status, 401);
  });
});

describe('GET /projects/:id/issues', () => {
  test('every state by default; iid and milestone filters; confidential issues hidden from non-members', async () => {
    assert.deepEqual(titles(await world.owner.client.get(`/projects/${world.id}/issues`)), ['third', 'second', 'first']);
    assert.deepEqual(titles(await world.stranger.client.get(`/projects/${world.id}/issues`)), ['second', 'first']);
    assert.deepEqual(titles(await world.guest.client.get(`/projects/${world.id}/issues`)), ['second', 'first']);
    const first = (await world.owner.client.get(`/projects/${world.id}/issues/${ids.first}`)).body;
    assert.deepEqual(titles(await world.owner.client.get(`/projects/${world.id}/issues`, { iid: first.iid })), ['first']);
    assert.deepEqual(titles(await world.owner.client.get(`/projects/${world.id}/issues`, { iid: 'abc' })), []);
    assert.deepEqual(titles(await world.owner.client.get(`/projects/${world.id}/issues`, { milestone: 'none such' })), []);
  });

  test('a project whose issues are off answers 403 to its members', async () => {
    const project = await createProjectWorld(app, { people, roles: ['guest'] });
    await project.owner.client.put(`/projects/${project.id}`, { issues_enabled: false });
    assert.equal((await project.guest.client.get(`/projects/${project.id}/issues`)).status, 403);
    const shown = await project.owner.client.get(`/projects/${project.id}`);
    assert.equal(shown.body.open_issues_count, undefined);
  });

  test('open_issues_count counts opened and reopened issues', async () => {
    assert.equal((await world.owner.client.get(`/projects/${world.id}`)).body.open_issues_count, 2);
    const listed = (await world.owner.client.get('/projects')).body.find((project: any) => project.id === world.id);
    assert.equal(listed.open_issues_count, 2);
  });
});

describe('GET /groups/:id/issues', () => {
  test('opened issues by default; labels must all match; confidential ones for members', async () => {
    const groupId = await createGroupRow(app, 'issuegroup', people.owner.user.id);
    await grantGroupRole(app, groupId, people.reporter.user.id, 20);
    const created = await people.owner.client.post('/projects', { name: 'grouped', namespace_id: groupId, visibility_level: 20 });
    const projectId = created.body.id;
    const client = people.owner.client;
    await client.post(`/projects/${projectId}/issues`, { title: 'g-open', labels: 'group_lbl,other' });
    await client.post(`/projects/${projectId}/issues`, { title: 'g-secret', confidential: true });
    const closed = (await client.post(`/projects/${projectId}/issues`, { title: 'g-closed' })).body;
    await client.put(`/projects/${projectId}/issues/${closed.id}`, { state_event: 'close' });
    assert.deepEqual(titles(await people.stranger.client.get(`/groups/${groupId}/issues`)), ['g-open']);
    assert.deepEqual(titles(await people.reporter.client.get(`/groups/${groupId}/issues`)), ['g-secret', 'g-open']);
    assert.deepEqual(titles(await app.root.get(`/groups/${groupId}/issues`)), ['g-secret', 'g-open']);
    assert.deepEqual(titles(await client.get(`/groups/${groupId}/issues`, { labels: 'group_lbl,other' })), ['g-open']);
    assert.deepEqual(titles(await client.get(`/groups/${groupId}/issues`, { labels: 'group_lbl,foo' })), []);
    assert.deepEqual(titles(await client.get(`/groups/${groupId}/issues`, { state: 'closed' })), ['g-closed']);
    assert.deepEqual(titles(await client.get(`/groups/${groupId}/issues`, { state: 'all', sort: 'asc' })), [
      'g-open',
      'g-secret',
      'g-closed',
    ]);
    assert.equal((await client.get('/groups/999999/issues')).status, 404);
  });
});

describe('GET /projects/:id/milestones/:milestone_id/issues', () => {
  test('a milestone of another project is not found', async () => {
    assert.equal((await world.owner.client.get(`/projects/${world.id}/milestones/999999/issues`)).status, 404);
  });
});
