import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { assertAccess, expectedStatus, type Visibility } from '../../support/access-matrix';
import { HookListener } from '../../support/hook-listener';
import type { ApiClient } from '../../support/client';

/* Issues written through the v3 API: creation, changes, deletion and moves, and what they announce. */

let app: TestApp;
let people: People<Role>;
let world: ProjectWorld<Role>;

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  world = await createProjectWorld(app, { people });
});
after(() => app.close());

const create = (client: ApiClient, projectId: number, body: Record<string, unknown>) => client.post(`/projects/${projectId}/issues`, body);

describe('POST /projects/:id/issues', () => {
  test('creates an issue with labels made on first use, as 8.12 answered', async () => {
    const response = await create(world.owner.client, world.id, { title: 'First', labels: 'label, label2' });
    assert.equal(response.status, 201);
    const issue = response.body;
    assert.equal(issue.title, 'First');
    assert.equal(issue.description, null);
    assert.deepEqual(issue.labels, ['label', 'label2']);
    assert.equal(issue.confidential, false);
    assert.equal(issue.state, 'opened');
    assert.equal(issue.author.id, world.owner.user.id);
    assert.equal(issue.assignee, null);
    assert.equal(issue.milestone, null);
    // The author takes part in the issue, so 8.12's `subscribed?` is true with no subscription row.
    assert.equal(issue.subscribed, true);
    assert.equal(issue.user_notes_count, 0);
    assert.equal(issue.upvotes, 0);
    assert.match(issue.web_url, new RegExp(`/${world.path}/issues/${issue.iid}$`));
  });

  test('title is required and at most 255 characters', async () => {
    const missing = await create(world.owner.client, world.id, { description: 'x' });
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { message: '400 (Bad request) "title" not given' });
    const long = await create(world.owner.client, world.id, { title: 'a'.repeat(256) });
    assert.equal(long.status, 400);
    assert.deepEqual(long.body.message.title, ['is too long (maximum is 255 characters)']);
  });

  test('special label names are kept, a blank one is refused', async () => {
    const kept = await create(world.owner.client, world.id, { title: 'Labels', labels: 'label:foo, label-bar,label?bar,label&bar,?,&' });
    assert.deepEqual(kept.body.labels, ['&', '?', 'label&bar', 'label-bar', 'label:foo', 'label?bar']);
    const blank = await create(world.owner.client, world.id, { title: 'Blank', labels: 'a,,b' });
    assert.equal(blank.status, 400);
    // 8.12's Label validates presence and then the format, which a blank title fails too.
    assert.deepEqual(blank.body, { message: { labels: { '': { title: ["can't be blank", 'is invalid'] } } } });
  });

  test('confidential is read as 8.12 read booleans; due_date must be a date', async () => {
    assert.equal((await create(world.owner.client, world.id, { title: 'c', confidential: 'y' })).body.confidential, true);
    assert.equal((await create(world.owner.client, world.id, { title: 'c', confidential: 'foo' })).body.confidential, false);
    assert.equal((await create(world.owner.client, world.id, { title: 'd', due_date: '2016-09-30' })).body.due_date, '2016-09-30');
    assert.equal((await create(world.owner.client, world.id, { title: 'd', due_date: '2016-02-30' })).status, 400);
  });

  test('created_at is honoured for owners and administrators only', async () => {
    const time = '2016-01-02T03:04:05.000Z';
    assert.equal((await create(world.owner.client, world.id, { title: 't', created_at: time })).body.created_at, time);
    assert.equal((await create(app.root, world.id, { title: 't', created_at: time })).body.created_at, time);
    assert.notEqual((await create(world.master.client, world.id, { title: 't', created_at: time })).body.created_at, time);
  });

  test('a guest silently loses assignee, milestone and labels; a reporter keeps them', async () => {
    const asGuest = await create(world.guest.client, world.id, { title: 'g', assignee_id: world.owner.user.id, labels: 'guestlabel' });
    assert.equal(asGuest.status, 201);
    assert.equal(asGuest.body.assignee, null);
    assert.deepEqual(asGuest.body.labels, []);
    const asReporter = await create(world.reporter.client, world.id, {
      title: 'r',
      assignee_id: world.owner.user.id,
      labels: 'reporterlabel',
      milestone_id: 999999,
    });
    assert.equal(asReporter.body.assignee.id, world.owner.user.id);
    assert.deepEqual(asReporter.body.labels, ['reporterlabel']);
    assert.equal(asReporter.body.milestone, null);
  });

  test('ten creations at once get the iids after the last, each once', async () => {
    const fresh = await createProjectWorld(app, { people, roles: [] });
    const created = await Promise.all(
      Array.from({ length: 10 }, (_, n) => create(fresh.owner.client, fresh.id, { title: `parallel ${n}`, labels: 'racing' })),
    );
    assert.deepEqual(
      created.map((response) => response.status),
      Array(10).fill(201),
    );
    assert.deepEqual(
      created.map((response) => response.body.iid).sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    );
    assert.ok(created.every((response) => response.body.labels[0] === 'racing'));
    const project = await fresh.owner.client.get(`/projects/${fresh.id}`);
    assert.equal(project.body.open_issues_count, 10);
  });
});

describe('PUT and DELETE /projects/:id/issues/:issue_id', () => {
  test('changes fields, labels, state and confidentiality', async () => {
    const issue = (await create(world.owner.client, world.id, { title: 'To change', labels: 'one' })).body;
    const path = `/projects/${world.id}/issues/${issue.id}`;
    const renamed = await world.owner.client.put(path, { title: 'Changed', description: '' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.title, 'Changed');
    assert.deepEqual(renamed.body.labels, ['one']);
    assert.deepEqual((await world.owner.client.put(path, { labels: 'foo,bar' })).body.labels, ['bar', 'foo']);
    assert.deepEqual((await world.owner.client.put(path, { labels: '' })).body.labels, []);
    const closed = await world.owner.client.put(path, { labels: 'label2', state_event: 'close' });
    assert.equal(closed.body.state, 'closed');
    assert.deepEqual(closed.body.labels, ['label2']);
    assert.equal((await world.owner.client.put(path, { state_event: 'reopen' })).body.state, 'reopened');
    assert.equal((await world.owner.client.put(path, { confidential: true })).body.confidential, true);
    assert.equal((await world.owner.client.put(path, { confidential: 'foo' })).body.confidential, true);
    assert.equal((await world.owner.client.put(path, { title: 'a'.repeat(256) })).status, 400);
    const time = '2016-05-06T07:08:09.000Z';
    assert.equal((await world.owner.client.put(path, { updated_at: time, title: 'timed' })).body.updated_at, time);
    assert.equal((await world.owner.client.put(`/projects/${world.id}/issues/999999`, { title: 'x' })).status, 404);
  });

  test('update rights: reporters and up, the author and the assignee', async () => {
    const issue = (await create(world.guest.client, world.id, { title: 'By a guest' })).body;
    const path = `/projects/${world.id}/issues/${issue.id}`;
    await assertAccess(
      world.clients,
      (client) => client.put(path, { title: 'edit' }),
      (caller) => (caller === 'guest' ? 200 : expectedStatus('private', caller, { minimum: 'reporter' })),
    );
  });

  test('deletion: owners only, and 403 for an unknown id too', async () => {
    const issue = (await create(world.owner.client, world.id, { title: 'Doomed' })).body;
    for (const client of [world.developer.client, world.master.client, world.stranger.client]) {
      assert.equal((await client.delete(`/projects/${world.id}/issues/${issue.id}`)).status, client === world.stranger.client ? 404 : 403);
    }
    const deleted = await world.owner.client.delete(`/projects/${world.id}/issues/${issue.id}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.state, 'opened');
    assert.equal((await world.owner.client.get(`/projects/${world.id}/issues/${issue.id}`)).status, 404);
    assert.equal((await world.owner.client.delete(`/projects/${world.id}/issues/${issue.id}`)).status, 403);
  });
});

describe('access per role', () => {
  for (const visibility of ['private', 'public'] as Visibility[]) {
    test(`read and create on a ${visibility} project`, async () => {
      const project = await createProjectWorld(app, { people, visibility: visibility === 'public' ? 20 : 0 });
      const issue = (await create(project.owner.client, project.id, { title: 'seen' })).body;
      await assertAccess(
        project.clients,
        (client) => client.get(`/projects/${project.id}/issues`),
        (caller) => expectedStatus(visibility, caller),
      );
      await assertAccess(
        project.clients,
        (client) => client.get(`/projects/${project.id}/issues/${issue.id}`),
        (caller) => expectedStatus(visibility, caller),
      );
      await assertAccess(
        project.clients,
        (client) => create(client, project.id, { title: 'new' }),
        (caller) => expectedStatus(visibility, caller, { success: 201 }),
      );
      await assertAccess(
        project.clients,
        (client) => client.delete(`/projects/${project.id}/issues/${issue.id}`),
        (caller) => (caller === 'admin' ? 403 : expectedStatus(visibility, caller, { minimum: 'owner' })),
      );
    });
  }

  test('confidential issues: reporters and up, the author, the assignee and administrators', async () => {
    const project = await createProjectWorld(app, { people, visibility: 20 });
    const issue = (
      await create(project.owner.client, project.id, { title: 'secret', confidential: true, assignee_id: project.guest.user.id })
    ).body;
    const byGuest = (await create(project.developer.client, project.id, { title: 'secret 2', confidential: true })).body;
    const single = (client: ApiClient) => client.get(`/projects/${project.id}/issues/${issue.id}`);
    await assertAccess(project.clients, single, (caller) => (caller === 'anonymous' ? 401 : caller === 'non-member' ? 404 : 200));
    const listed = async (client: ApiClient) => (await client.get(`/projects/${project.id}/issues`)).body.map((i: any) => i.id).sort();
    assert.deepEqual(await listed(project.stranger.client), []);
    assert.deepEqual(await listed(project.guest.client), [issue.id]);
    assert.deepEqual(await listed(project.reporter.client), [issue.id, byGuest.id].sort());
    // 8.12's answer to a change of a confidential issue one may not see: 403, though reading it is 404.
    assert.equal((await project.stranger.client.put(`/projects/${project.id}/issues/${issue.id}`, { title: 'x' })).status, 403);
  });
});

describe('move', () => {
  test('copies the issue into the target project and closes the original', async () => {
    const source = await createProjectWorld(app, { people, roles: ['reporter', 'stranger'] });
    const target = await createProjectWorld(app, { people, roles: ['reporter'] });
    await create(target.owner.client, target.id, { title: 'taken iid' });
    await target.owner.client.post(`/projects/${target.id}/labels`, { name: 'shared', color: '#FF0000' });
    const issue = (await create(source.owner.client, source.id, { title: 'Moving', labels: 'shared,only-here' })).body;
    const path = `/projects/${source.id}/issues/${issue.id}/move`;
    assert.deepEqual((await source.owner.client.post(path, { to_project_id: source.id })).body, {
      message: 'Cannot move issue to project it originates from!',
    });
    assert.deepEqual((await source.stranger.client.post(path, { to_project_id: target.id })).status, 404);
    const stranger = await createProjectWorld(app, { roles: [] });
    assert.deepEqual((await source.owner.client.post(path, { to_project_id: stranger.id })).status, 404);
    assert.deepEqual((await source.owner.client.post(path, { to_project_id: 999999 })).status, 404);
    assert.deepEqual((await source.owner.client.post(path, {})).body, { message: '400 (Bad request) "to_project_id" not given' });
    const moved = await source.owner.client.post(path, { to_project_id: target.id });
    assert.equal(moved.status, 201);
    assert.equal(moved.body.project_id, target.id);
    assert.equal(moved.body.iid, 2);
    assert.equal(moved.body.title, 'Moving');
    assert.equal(moved.body.author.id, source.owner.user.id);
    const original = await source.owner.client.get(`/projects/${source.id}/issues/${issue.id}`);
    assert.equal(original.body.state, 'closed');
    assert.deepEqual((await source.owner.client.post(path, { to_project_id: target.id })).body, {
      message: 'Cannot move issue due to insufficient permissions!',
    });
  });

  test('needs reporter rights on both projects', async () => {
    const source = await createProjectWorld(app, { people, roles: ['reporter'] });
    const elsewhere = await createProjectWorld(app, { roles: [], visibility: 20 });
    const issue = (await create(source.owner.client, source.id, { title: 'Stays' })).body;
    const refused = await source.owner.client.post(`/projects/${source.id}/issues/${issue.id}/move`, { to_project_id: elsewhere.id });
    assert.deepEqual(refused.body, { message: 'Cannot move issue due to insufficient permissions!' });
    assert.equal((await app.root.post(`/projects/${source.id}/issues/${issue.id}/move`, { to_project_id: elsewhere.id })).status, 201);
  });
});

describe('events and hooks', () => {
  test('open, close and reopen are in the project events and reach an Issue Hook', async () => {
    const project = await createProjectWorld(app, { people, roles: ['reporter'] });
    const listener = await HookListener.start();
    try {
      await project.owner.client.post(`/projects/${project.id}/hooks`, { url: listener.url, issues_events: true, push_events: false });
      const issue = (await create(project.owner.client, project.id, { title: 'Hooked', assignee_id: project.reporter.user.id })).body;
      const path = `/projects/${project.id}/issues/${issue.id}`;
      await project.owner.client.put(path, { state_event: 'close' });
      await project.owner.client.put(path, { state_event: 'reopen' });
      await project.owner.client.put(path, { title: 'Hooked again' });
      const hooks = await listener.waitForCount(4);
      assert.deepEqual(hooks.map((hook) => hook.body.object_attributes.action).sort(), ['close', 'open', 'reopen', 'update']);
      const opened = hooks.find((hook) => hook.body.object_attributes.action === 'open')!;
      assert.equal(opened.headers['x-gitlab-event'], 'Issue Hook');
      assert.equal(opened.body.object_kind, 'issue');
      assert.equal(opened.body.user.username, project.owner.user.username);
      assert.equal(opened.body.assignee.username, project.reporter.user.username);
      assert.equal(opened.body.object_attributes.iid, issue.iid);
      assert.match(opened.body.object_attributes.url, /\/issues\/1$/);
      assert.equal(opened.body.repository.name, project.project.name);
      const events = (await project.owner.client.get(`/projects/${project.id}/events`)).body.filter(
        (event: any) => event.target_type === 'Issue',
      );
      assert.deepEqual(
        events.map((event: any) => event.action_name),
        ['opened', 'closed', 'opened'],
      );
      assert.equal(events[0].target_title, 'Hooked');
      assert.equal(events[0].target_id, issue.id);
    } finally {
      await listener.close();
    }
  });
});

describe('project deletion', () => {
  test('removes its issues and their label links', async () => {
    const project = await createProjectWorld(app, { people, roles: [] });
    await create(project.owner.client, project.id, { title: 'gone', labels: 'with-label' });
    assert.equal((await project.owner.client.delete(`/projects/${project.id}`)).status, 200);
    const db = app.ctx.db;
    assert.equal((await db.selectFrom('issues').select('id').where('project_id', '=', project.id).execute()).length, 0);
    const links = await db
      .selectFrom('label_links')
      .select('id')
      .where('target_type', '=', 'Issue')
      .where('target_id', 'not in', db.selectFrom('issues').select('id'))
      .execute();
    assert.equal(links.length, 0);
  });
});
