import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createIssue, createSnippet } from '../../support/create';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { assertRouteAccess, expectedStatus, VISIBILITY_LEVELS, type AccessProject, type Visibility } from '../../support/access-matrix';
import { HookListener } from '../../support/hook-listener';
import type { ApiClient } from '../../support/client';

/* Notes on issues and snippets (GitLab 8.12's notes.rb), with their events and Note Hooks. */

let app: TestApp;
let people: People<Role>;
let world: ProjectWorld<Role>;

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  world = await createProjectWorld(app, { people, visibility: VISIBILITY_LEVELS.private });
});
after(() => app.close());

async function comment(client: ApiClient, path: string, body: string) {
  const response = await client.post(`${path}/notes`, { body });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

describe('issue notes', () => {
  test('create, list, read, change and remove, as 8.12 answered', async () => {
    const issue = await createIssue(world.owner.client, world.id);
    const path = `/projects/${world.id}/issues/${issue.id}`;
    const created = await world.reporter.client.post(`${path}/notes`, { body: 'hi!' });
    assert.equal(created.status, 201);
    const note = created.body;
    assert.deepEqual(Object.keys(note), [
      'id',
      'body',
      'attachment',
      'author',
      'created_at',
      'updated_at',
      'system',
      'noteable_id',
      'noteable_type',
      'upvote?',
      'downvote?',
      'upvote',
      'downvote',
    ]);
    assert.equal(note.body, 'hi!');
    assert.equal(note.author.username, world.reporter.user.username);
    assert.equal(note.system, false);
    assert.equal(note.noteable_id, issue.id);
    assert.equal(note.noteable_type, 'Issue');
    // 8.12's entity spelled them `upvote?` and `downvote?`; its documentation, and clients after it, `upvote` and `downvote`.
    assert.deepEqual([note['upvote?'], note['downvote?'], note.upvote, note.downvote], [false, false, false, false]);

    await comment(world.developer.client, path, 'second');
    const list = await world.guest.client.get(`${path}/notes`);
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.body.map((n: any) => n.body),
      ['hi!', 'second'],
    );
    assert.equal(list.headers.get('x-total'), '2');
    assert.ok(list.headers.get('link'));
    const paged = await world.guest.client.get(`${path}/notes?per_page=1&page=2`);
    assert.deepEqual(
      paged.body.map((n: any) => n.body),
      ['second'],
    );

    const one = await world.guest.client.get(`${path}/notes/${note.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.body, 'hi!');

    const changed = await world.reporter.client.put(`${path}/notes/${note.id}`, { body: 'Hello!' });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.body, 'Hello!');
    assert.equal((await world.reporter.client.get(`${path}/notes/${note.id}`)).body.body, 'Hello!');

    const removed = await world.reporter.client.delete(`${path}/notes/${note.id}`);
    assert.equal(removed.status, 200);
    assert.equal(removed.body.id, note.id);
    assert.equal(removed.body.body, 'Hello!');
    const again = await world.reporter.client.delete(`${path}/notes/${note.id}`);
    assert.equal(again.status, 404);
    assert.deepEqual(again.body, { message: '404 Not found' });
  });

  test('the messages of missing things and bad input', async () => {
    const issue = await createIssue(world.owner.client, world.id);
    const path = `/projects/${world.id}/issues/${issue.id}`;
    const client = world.owner.client;
    assert.deepEqual((await client.get(`/projects/${world.id}/issues/999999/notes`)).body, { message: '404 Not found' });
    assert.deepEqual((await client.get(`${path}/notes/999999`)).body, { message: '404 Not found' });
    assert.deepEqual((await client.put(`${path}/notes/999999`, { body: 'x' })).body, { message: '404 Not found' });
    assert.deepEqual((await client.delete(`${path}/notes/999999`)).body, { message: '404 Not found' });
    const missing = await client.post(`${path}/notes`, {});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body, { message: '400 (Bad request) "body" not given' });
    const blank = await client.post(`${path}/notes`, { body: ' ' });
    assert.equal(blank.status, 400);
    // 8.12's `required_attributes!` counted a blank value as not given.
    assert.deepEqual(blank.body, { message: '400 (Bad request) "body" not given' });
    const note = await comment(client, path, 'to change');
    assert.deepEqual((await client.put(`${path}/notes/${note.id}`, {})).body, { message: '400 (Bad request) "body" not given' });
    assert.deepEqual((await client.put(`${path}/notes/${note.id}`, { body: '' })).body, { message: '400 (Bad request) "body" not given' });
    const badTime = await client.post(`${path}/notes`, { body: 'x', created_at: 'yesterday' });
    assert.equal(badTime.status, 400);
    assert.deepEqual(badTime.body, { message: '400 (Bad request) "created_at" is invalid' });
  });

  test('an issue of another project is not found, and nothing is created', async () => {
    const other = await createProjectWorld(app, { people, roles: [] });
    const foreign = await createIssue(other.owner.client, other.id);
    const response = await world.owner.client.post(`/projects/${world.id}/issues/${foreign.id}/notes`, { body: 'hi' });
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Note {:invalid_project=>["Note and noteable project mismatch"]} Not Found' });
    assert.equal((await other.owner.client.get(`/projects/${other.id}/issues/${foreign.id}/notes`)).body.length, 0);
    assert.deepEqual((await world.owner.client.get(`/projects/${world.id}/issues/${foreign.id}/notes`)).body, { message: '404 Not found' });
  });

  test('created_at is kept for administrators and the owner of a personal project only', async () => {
    const issue = await createIssue(world.owner.client, world.id);
    const path = `/projects/${world.id}/issues/${issue.id}`;
    const time = '2016-01-02T03:04:05.000Z';
    assert.equal((await world.owner.client.post(`${path}/notes`, { body: 'old', created_at: time })).body.created_at, time);
    assert.equal((await app.root.post(`${path}/notes`, { body: 'old', created_at: time })).body.created_at, time);
    assert.notEqual((await world.master.client.post(`${path}/notes`, { body: 'now', created_at: time })).body.created_at, time);
  });

  test('notes of a confidential issue are hidden with it', async () => {
    const issue = await createIssue(world.owner.client, world.id, { confidential: true });
    const path = `/projects/${world.id}/issues/${issue.id}`;
    const note = await comment(world.reporter.client, path, 'secret');
    const list = await world.guest.client.get(`${path}/notes`);
    assert.equal(list.status, 404);
    assert.deepEqual(list.body, { message: '404 Notes Not Found' });
    const one = await world.guest.client.get(`${path}/notes/${note.id}`);
    assert.equal(one.status, 404);
    assert.deepEqual(one.body, { message: '404 Note Not Found' });
    assert.equal((await world.guest.client.post(`${path}/notes`, { body: 'x' })).status, 404);
    assert.equal((await world.guest.client.delete(`${path}/notes/${note.id}`)).status, 404);
    assert.equal((await world.reporter.client.get(`${path}/notes`)).body.length, 1);
    // Its author sees it, as 8.12's `Issue#visible_to_user`.
    const own = await createIssue(world.guest.client, world.id, { confidential: true });
    assert.equal((await world.guest.client.post(`/projects/${world.id}/issues/${own.id}/notes`, { body: 'mine' })).status, 201);
  });

  test('a body of one emoji only is an award, answered as the award emoji', async () => {
    const issue = await createIssue(world.owner.client, world.id);
    const path = `/projects/${world.id}/issues/${issue.id}`;
    const response = await world.developer.client.post(`${path}/notes`, { body: ':thumbsup:' });
    assert.equal(response.status, 201);
    assert.deepEqual(Object.keys(response.body), ['id', 'name', 'user', 'created_at', 'updated_at', 'awardable_id', 'awardable_type']);
    assert.equal(response.body.name, 'thumbsup');
    assert.equal(response.body.awardable_id, issue.id);
    assert.equal(response.body.awardable_type, 'Issue');
    assert.equal(response.body.user.username, world.developer.user.username);
    assert.equal((await world.developer.client.get(`${path}/notes`)).body.length, 0);
    assert.equal((await world.developer.client.get(path)).body.upvotes, 1);
    const twice = await world.developer.client.post(`${path}/notes`, { body: ':thumbsup:' });
    assert.equal(twice.status, 404);
    assert.deepEqual(twice.body, { message: '404 Note {:name=>["has already been taken"]} Not Found' });
  });

  test("an emoji-only vote on one's own issue is a note (8.12: the author may not vote), an alias is stored by its name", async () => {
    const issue = await createIssue(world.owner.client, world.id);
    const path = `/projects/${world.id}/issues/${issue.id}`;
    const own = await world.owner.client.post(`${path}/notes`, { body: ':thumbsup:' });
    assert.equal(own.status, 201);
    assert.equal(own.body.body, ':thumbsup:');
    const alias = await world.developer.client.post(`${path}/notes`, { body: ':+1:' });
    assert.equal(alias.status, 201);
    assert.equal(alias.body.name, 'thumbsup');
    const issueNow = (await world.owner.client.get(path)).body;
    assert.equal(issueNow.upvotes, 1);
    assert.equal(issueNow.user_notes_count, 1);
  });

  test('user_notes_count counts the comments, not the system notes', async () => {
    const issue = await createIssue(world.owner.client, world.id);
    const path = `/projects/${world.id}/issues/${issue.id}`;
    await comment(world.owner.client, path, 'one');
    await comment(world.owner.client, path, 'two');
    assert.equal((await world.owner.client.put(path, { state_event: 'close' })).status, 200);
    const notes = (await world.owner.client.get(`${path}/notes`)).body;
    assert.deepEqual(
      notes.map((n: any) => n.system),
      [false, false, true],
    );
    assert.equal((await world.owner.client.get(path)).body.user_notes_count, 2);
  });
});

describe('snippet notes', () => {
  test('create, list, read, change and remove', async () => {
    const snippet = await createSnippet(world.owner.client, world.id);
    const path = `/projects/${world.id}/snippets/${snippet.id}`;
    const note = await comment(world.guest.client, path, 'nice');
    assert.equal(note.noteable_type, 'Snippet');
    assert.equal(note.noteable_id, snippet.id);
    assert.deepEqual(
      (await world.guest.client.get(`${path}/notes`)).body.map((n: any) => n.body),
      ['nice'],
    );
    assert.equal((await world.guest.client.get(`${path}/notes/${note.id}`)).body.body, 'nice');
    assert.equal((await world.guest.client.put(`${path}/notes/${note.id}`, { body: 'nicer' })).body.body, 'nicer');
    assert.equal((await world.guest.client.delete(`${path}/notes/${note.id}`)).status, 200);
    assert.deepEqual((await world.guest.client.get(`/projects/${world.id}/snippets/999999/notes`)).body, { message: '404 Not found' });
    // An issue's note is not a note of a snippet with the same id.
    assert.equal((await world.guest.client.get(`${path}/notes/${note.id}`)).status, 404);
  });

  test("a private snippet's notes are hidden from those who do not see it", async () => {
    const open = await createProjectWorld(app, { people, roles: ['stranger'], visibility: VISIBILITY_LEVELS.public });
    const snippet = await createSnippet(open.owner.client, open.id, { visibility_level: 0 });
    const path = `/projects/${open.id}/snippets/${snippet.id}`;
    const note = await comment(open.owner.client, path, 'private');
    assert.deepEqual((await open.stranger.client.get(`${path}/notes`)).body, { message: '404 Notes Not Found' });
    assert.deepEqual((await open.stranger.client.get(`${path}/notes/${note.id}`)).body, { message: '404 Note Not Found' });
    assert.equal((await open.stranger.client.post(`${path}/notes`, { body: 'x' })).status, 404);
  });
});

describe('who may', () => {
  const projects: Partial<Record<Visibility, AccessProject & { issueId: number; owner: ApiClient }>> = {};

  before(async () => {
    for (const visibility of ['private', 'public'] as const) {
      const project = await createProjectWorld(app, { people, visibility: VISIBILITY_LEVELS[visibility] });
      const issue = await createIssue(project.owner.client, project.id);
      projects[visibility] = { id: project.id, clients: project.clients, issueId: issue.id, owner: project.owner.client };
    }
  });

  const notesOf = (projectId: number) => {
    const project = Object.values(projects).find((candidate) => candidate!.id === projectId)!;
    return { project, path: `/projects/${projectId}/issues/${project.issueId}/notes` };
  };

  test('reading: whoever reads the issue', async () => {
    await assertRouteAccess(
      projects,
      (client, id) => client.get(notesOf(id).path),
      (visibility, caller) => expectedStatus(visibility, caller),
    );
    await assertRouteAccess(
      projects,
      async (client, id) => {
        const { project, path } = notesOf(id);
        const note = await comment(project.owner, path.replace(/\/notes$/, ''), 'read me');
        return client.get(`${path}/${note.id}`);
      },
      (visibility, caller) => expectedStatus(visibility, caller),
    );
  });

  test('commenting: whoever reads the issue, signed in', async () => {
    await assertRouteAccess(
      projects,
      (client, id) => client.post(notesOf(id).path, { body: 'hello' }),
      (visibility, caller) => expectedStatus(visibility, caller, { success: 201 }),
    );
  });

  test("changing and removing another's note: masters and administrators", async () => {
    for (const method of ['put', 'delete'] as const) {
      await assertRouteAccess(
        projects,
        async (client, id) => {
          const { project, path } = notesOf(id);
          const note = await comment(project.owner, path.replace(/\/notes$/, ''), 'the owner wrote this');
          return method === 'put' ? client.put(`${path}/${note.id}`, { body: 'changed' }) : client.delete(`${path}/${note.id}`);
        },
        (visibility, caller) => expectedStatus(visibility, caller, { minimum: 'master' }),
      );
    }
  });
});

describe('events and hooks', () => {
  test('a comment is a `commented on` event and reaches a Note Hook; a system note neither', async () => {
    const project = await createProjectWorld(app, { people, roles: [] });
    const listener = await HookListener.start();
    try {
      await project.owner.client.post(`/projects/${project.id}/hooks`, { url: listener.url, note_events: true, push_events: false });
      const issue = await createIssue(project.owner.client, project.id, { title: 'Hooked' });
      const path = `/projects/${project.id}/issues/${issue.id}`;
      await project.owner.client.put(path, { state_event: 'close' });
      const note = await comment(project.owner.client, path, 'a comment');
      const snippet = await createSnippet(project.owner.client, project.id);
      const snippetNote = await comment(project.owner.client, `/projects/${project.id}/snippets/${snippet.id}`, 'on a snippet');

      const hooks = await listener.waitForCount(2);
      const onIssue = hooks.find((hook) => hook.body.object_attributes.id === note.id)!;
      assert.equal(onIssue.headers['x-gitlab-event'], 'Note Hook');
      assert.equal(onIssue.body.object_kind, 'note');
      assert.equal(onIssue.body.user.username, project.owner.user.username);
      assert.equal(onIssue.body.object_attributes.note, 'a comment');
      assert.equal(onIssue.body.object_attributes.noteable_type, 'Issue');
      assert.equal(onIssue.body.object_attributes.noteable_id, issue.id);
      assert.equal(onIssue.body.object_attributes.system, false);
      assert.match(onIssue.body.object_attributes.url, new RegExp(`/${project.path}/issues/${issue.iid}#note_${note.id}$`));
      assert.equal(onIssue.body.issue.id, issue.id);
      assert.equal(onIssue.body.issue.title, 'Hooked');
      assert.equal(onIssue.body.issue.state, 'closed');
      assert.equal(onIssue.body.issue.url, undefined);
      const onSnippet = hooks.find((hook) => hook.body.object_attributes.id === snippetNote.id)!;
      assert.equal(onSnippet.body.object_attributes.noteable_type, 'Snippet');
      assert.equal(onSnippet.body.snippet.id, snippet.id);
      assert.equal(onSnippet.body.snippet.file_name, 'a.rb');
      assert.match(onSnippet.body.object_attributes.url, new RegExp(`/snippets/${snippet.id}#note_${snippetNote.id}$`));
      assert.equal(onSnippet.body.issue, undefined);

      const events = (await project.owner.client.get(`/projects/${project.id}/events`)).body.filter(
        (event: any) => event.action_name === 'commented on',
      );
      assert.deepEqual(
        events.map((event: any) => event.target_id),
        [snippetNote.id, note.id],
      );
      assert.equal(events[1].target_type, 'Note');
      assert.equal(events[1].note.body, 'a comment');
      assert.equal(events[1].note.noteable_type, 'Issue');
      // Two hooks only: the status note fired none.
      assert.equal(listener.received.length, 2);
    } finally {
      await listener.close();
    }
  });
});

describe('project deletion', () => {
  test('leaves no issue or snippet note behind', async () => {
    const project = await createProjectWorld(app, { people, roles: [] });
    const issue = await createIssue(project.owner.client, project.id);
    await comment(project.owner.client, `/projects/${project.id}/issues/${issue.id}`, 'on the issue');
    await project.owner.client.put(`/projects/${project.id}/issues/${issue.id}`, { state_event: 'close' });
    const snippet = await createSnippet(project.owner.client, project.id);
    await comment(project.owner.client, `/projects/${project.id}/snippets/${snippet.id}`, 'on the snippet');
    const db = app.ctx.db;
    assert.equal((await db.selectFrom('notes').select('id').where('project_id', '=', project.id).execute()).length, 3);
    assert.equal((await project.owner.client.delete(`/projects/${project.id}`)).status, 200);
    assert.equal((await db.selectFrom('notes').select('id').where('project_id', '=', project.id).execute()).length, 0);
  });
});
