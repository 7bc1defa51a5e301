import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import { createGroupRow, grantGroupRole } from '../../support/roles';
import type { ApiClient } from '../../support/client';

/* Todos: made and done by issue changes as GitLab 8.12's TodoService did, and the todos API. */

let app: TestApp;
let people: People<Role>;
let world: ProjectWorld<Role>;

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  world = await createProjectWorld(app, { people });
});
after(() => app.close());

const newIssue = async (client: ApiClient, body: Record<string, unknown>, projectId = world.id) => {
  const response = await client.post(`/projects/${projectId}/issues`, body);
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
};
const todosOf = async (client: ApiClient, query: Record<string, unknown> = {}) => {
  const response = await client.get('/todos', { per_page: 100, ...query });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  return response.body as any[];
};
const on = (todos: any[], issue: { id: number }) => todos.filter((todo) => todo.target.id === issue.id);

describe('todos made by issues', () => {
  test('a new issue: assigned for its assignee, mentioned for readers it mentions, each once', async () => {
    const { developer, reporter, guest, stranger, owner } = people;
    const description = `Hi @${reporter.user.username.toUpperCase()}, @${stranger.user.username}, @nobody_here and \`@${guest.user.username}\`. Also @${developer.user.username}.`;
    const issue = await newIssue(owner.client, { title: 'Assigned', description, assignee_id: developer.user.id });

    const developerTodos = on(await todosOf(developer.client), issue);
    // The assignee mentioned too keeps one todo: 8.12 made none for a user with one pending on the target.
    assert.equal(developerTodos.length, 1);
    const todo = developerTodos[0];
    assert.equal(todo.action_name, 'assigned');
    assert.equal(todo.target_type, 'Issue');
    assert.equal(todo.state, 'pending');
    assert.equal(todo.body, 'Assigned');
    assert.equal(todo.author.username, owner.user.username);
    assert.equal(todo.project.id, world.id);
    assert.equal(todo.project.path_with_namespace, world.path);
    assert.equal(todo.target.id, issue.id);
    assert.equal(todo.target.iid, issue.iid);
    assert.equal(todo.target.assignee.id, developer.user.id);
    assert.equal(todo.target_url, issue.web_url);
    assert.match(todo.created_at, /Z$/);

    const reporterTodos = on(await todosOf(reporter.client), issue);
    assert.deepEqual(
      reporterTodos.map((t) => t.action_name),
      ['mentioned'],
    );
    // A code span is no mention; a stranger cannot read a private project's issue.
    assert.equal(on(await todosOf(guest.client), issue).length, 0);
    assert.equal(on(await todosOf(stranger.client), issue).length, 0);
  });

  test('assigning and mentioning yourself make todos, as 8.12 did', async () => {
    const { master } = people;
    const issue = await newIssue(master.client, {
      title: 'Mine',
      description: `note to self @${master.user.username}`,
      assignee_id: master.user.id,
    });
    assert.deepEqual(
      on(await todosOf(master.client), issue).map((t) => t.action_name),
      ['assigned'],
    );
    const mentioned = await newIssue(master.client, { title: 'Self mention', description: `@${master.user.username}` });
    assert.deepEqual(
      on(await todosOf(master.client), mentioned).map((t) => t.action_name),
      ['mentioned'],
    );
  });

  test('a confidential issue makes no todo for a mentioned user who may not see it', async () => {
    const { owner, guest, reporter } = people;
    const issue = await newIssue(owner.client, {
      title: 'Secret',
      confidential: true,
      description: `@${guest.user.username} @${reporter.user.username}`,
    });
    assert.equal(on(await todosOf(guest.client), issue).length, 0);
    assert.equal(on(await todosOf(reporter.client), issue).length, 1);
  });

  test('@all reaches every member when a member writes it, nobody otherwise', async () => {
    const open = await createProjectWorld(app, { people, visibility: 20, roles: ['developer', 'stranger'] as Role[] });
    const fromMember = await newIssue(people.owner.client, { title: 'All hands', description: 'cc @all' }, open.id);
    assert.equal(on(await todosOf(people.developer.client), fromMember).length, 1);
    assert.equal(on(await todosOf(people.owner.client), fromMember).length, 1);
    assert.equal(on(await todosOf(people.stranger.client), fromMember).length, 0);
    const fromStranger = await newIssue(people.stranger.client, { title: 'Outsider', description: '@all look' }, open.id);
    assert.equal(on(await todosOf(people.developer.client), fromStranger).length, 0);
  });

  test('@group reaches its members who may read the issue', async () => {
    const groupId = await createGroupRow(app, 'todo-team', people.owner.user.id, 0);
    await grantGroupRole(app, groupId, people.guest.user.id, 30);
    await grantGroupRole(app, groupId, people.stranger.user.id, 30);
    const issue = await newIssue(people.owner.client, { title: 'Team', description: 'ping @todo-team' });
    assert.equal(on(await todosOf(people.guest.client), issue).length, 1);
    // A group member outside the private project cannot read the issue.
    assert.equal(on(await todosOf(people.stranger.client), issue).length, 0);
  });

  test('@group of a private group the author cannot read reaches nobody (policy readsGroupItself)', async () => {
    // The stranger owns the group; its member, the guest, reads the issue but is not told of it.
    const groupId = await createGroupRow(app, 'hidden-team', people.stranger.user.id, 0);
    await grantGroupRole(app, groupId, people.guest.user.id, 30);
    const issue = await newIssue(people.owner.client, { title: 'Hidden team', description: 'ping @hidden-team' });
    assert.equal(on(await todosOf(people.guest.client), issue).length, 0);
    // An administrator reads every group: the same mention reaches its member.
    const byAdmin = await newIssue(app.root, { title: 'Hidden team by root', description: 'ping @hidden-team' });
    assert.equal(on(await todosOf(people.guest.client), byAdmin).length, 1);
  });

  test("an edit: newly mentioned users get todos, the editor's are done, a new assignee gets one", async () => {
    const { owner, developer, reporter, master } = people;
    const issue = await newIssue(owner.client, {
      title: 'Edited',
      description: `@${reporter.user.username}`,
      assignee_id: developer.user.id,
    });
    await owner.client.post(`/projects/${world.id}/issues/${issue.id}/todo`);
    assert.equal(on(await todosOf(owner.client), issue).length, 1);

    await reporter.client.get('/todos').then(async (response) => {
      const reporterTodo = on(response.body, issue)[0];
      assert.equal((await reporter.client.delete(`/todos/${reporterTodo.id}`)).status, 200);
    });
    const edited = await owner.client.put(`/projects/${world.id}/issues/${issue.id}`, {
      description: `@${reporter.user.username} and now @${master.user.username}`,
      assignee_id: reporter.user.id,
    });
    assert.equal(edited.status, 200);
    // The editor's own pending todos on the issue are done.
    assert.equal(on(await todosOf(owner.client), issue).length, 0);
    assert.equal(on(await todosOf(owner.client, { state: 'done' }), issue).length, 1);
    assert.deepEqual(
      on(await todosOf(master.client), issue).map((t) => t.action_name),
      ['mentioned'],
    );
    // The reporter was mentioned before: the edit brings back no mention, the assignment makes one.
    assert.deepEqual(
      on(await todosOf(reporter.client), issue).map((t) => t.action_name),
      ['assigned'],
    );
    // 8.12's reassigned_issue left the old assignee's todo pending.
    assert.deepEqual(
      on(await todosOf(developer.client), issue).map((t) => t.action_name),
      ['assigned'],
    );
  });

  test("closing an issue marks the closer's pending todos on it done, not others'", async () => {
    const { owner, developer, reporter } = people;
    const issue = await newIssue(owner.client, {
      title: 'To close',
      description: `@${reporter.user.username}`,
      assignee_id: developer.user.id,
    });
    const closed = await developer.client.put(`/projects/${world.id}/issues/${issue.id}`, { state_event: 'close' });
    assert.equal(closed.status, 200);
    assert.equal(on(await todosOf(developer.client), issue).length, 0);
    assert.deepEqual(
      on(await todosOf(developer.client, { state: 'done' }), issue).map((t) => t.action_name),
      ['assigned'],
    );
    assert.equal(on(await todosOf(reporter.client), issue).length, 1);
    // A reopening alone leaves the reopener's todos pending, as 8.12's ReopenService.
    assert.equal((await reporter.client.put(`/projects/${world.id}/issues/${issue.id}`, { state_event: 'reopen' })).status, 200);
    assert.equal(on(await todosOf(reporter.client), issue).length, 1);
  });

  test('deleting an issue removes its todos', async () => {
    const issue = await newIssue(people.owner.client, { title: 'Gone', assignee_id: people.developer.user.id });
    assert.equal(on(await todosOf(people.developer.client), issue).length, 1);
    assert.equal((await people.owner.client.delete(`/projects/${world.id}/issues/${issue.id}`)).status, 200);
    const left = await app.ctx.db.selectFrom('todos').select('id').where('target_id', '=', issue.id).execute();
    assert.equal(left.length, 0);
  });

  test('a note mentioning users makes todos pointing at the note', async () => {
    const { owner, developer, master } = people;
    const issue = await newIssue(owner.client, { title: 'Discussed' });
    const created = await developer.client.post(`/projects/${world.id}/issues/${issue.id}/notes`, {
      body: `@${master.user.username} please look`,
    });
    assert.equal(created.status, 201);
    const note = created.body;
    const [todo] = on(await todosOf(master.client), issue);
    assert.equal(todo.action_name, 'mentioned');
    assert.equal(todo.body, `@${master.user.username} please look`);
    assert.equal(todo.target_url, `${issue.web_url}#note_${note.id}`);
    assert.equal(todo.author.id, developer.user.id);
  });
});

describe('POST /projects/:id/issues/:issue_id/todo', () => {
  test('marks an issue as a todo of the caller; 304 when one is pending; 404 for unknown issues', async () => {
    const { reporter, stranger } = people;
    const issue = await newIssue(people.owner.client, { title: 'Mark me' });
    const marked = await reporter.client.post(`/projects/${world.id}/issues/${issue.id}/todo`);
    assert.equal(marked.status, 201);
    assert.equal(marked.body.action_name, 'marked');
    assert.equal(marked.body.state, 'pending');
    assert.equal(marked.body.target_type, 'Issue');
    assert.equal(marked.body.author.id, reporter.user.id);
    assert.equal(marked.body.target.id, issue.id);
    const again = await reporter.client.post(`/projects/${world.id}/issues/${issue.id}/todo`);
    assert.equal(again.status, 304);
    assert.equal(again.text, '');

    const unknown = await reporter.client.post(`/projects/${world.id}/issues/999999/todo`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: '404 Not found' });
    assert.equal((await app.anonymous.post(`/projects/${world.id}/issues/${issue.id}/todo`)).status, 401);
    assert.equal((await stranger.client.post(`/projects/${world.id}/issues/${issue.id}/todo`)).status, 404);
  });

  test('a confidential issue hidden from the caller is not found', async () => {
    const issue = await newIssue(people.owner.client, { title: 'Hidden', confidential: true });
    const response = await people.guest.client.post(`/projects/${world.id}/issues/${issue.id}/todo`);
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { message: '404 Not Found' });
  });
});

describe('GET /todos', () => {
  let client: ApiClient;
  let other: ProjectWorld<Role>;
  before(async () => {
    // A fresh user with todos from two authors on two projects.
    const person = await app.createUser();
    client = person.client;
    other = await createProjectWorld(app, { people, roles: ['master'] as Role[] });
    await app.ctx.db
      .insertInto('members')
      .values({
        source_type: 'Project',
        source_id: world.id,
        user_id: person.user.id,
        access_level: 30,
        notification_level: 3,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    await app.ctx.db
      .insertInto('members')
      .values({
        source_type: 'Project',
        source_id: other.id,
        user_id: person.user.id,
        access_level: 30,
        notification_level: 3,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    await newIssue(people.owner.client, { title: 'One', assignee_id: person.user.id });
    await newIssue(people.master.client, { title: 'Two', description: `@${person.user.username}` });
    await newIssue(people.owner.client, { title: 'Three', assignee_id: person.user.id }, other.id);
    const done = await newIssue(people.owner.client, { title: 'Done', assignee_id: person.user.id });
    const todo = on(await todosOf(client), done)[0];
    await client.delete(`/todos/${todo.id}`);
  });

  test("answers the caller's pending todos, newest first, paginated", async () => {
    const todos = await todosOf(client);
    assert.deepEqual(
      todos.map((t) => t.body),
      ['Three', 'Two', 'One'],
    );
    const page = await client.get('/todos', { per_page: 2, page: 2 });
    assert.equal(page.headers.get('x-total'), '3');
    assert.deepEqual(
      page.body.map((t: any) => t.body),
      ['One'],
    );
    assert.equal((await app.anonymous.get('/todos')).status, 401);
  });

  test('filters by action, action_id, author, project, state and type', async () => {
    const bodies = async (query: Record<string, unknown>) => (await todosOf(client, query)).map((t) => t.body);
    assert.deepEqual(await bodies({ action: 'mentioned' }), ['Two']);
    assert.deepEqual(await bodies({ action_id: 1 }), ['Three', 'One']);
    assert.deepEqual(await bodies({ action: 'assigned', action_id: 2 }), []);
    assert.deepEqual(await bodies({ action: 'unknown' }), ['Three', 'Two', 'One']);
    assert.deepEqual(await bodies({ author_id: people.master.user.id }), ['Two']);
    assert.deepEqual(await bodies({ author_id: 'abc' }), []);
    assert.deepEqual(await bodies({ project_id: other.id }), ['Three']);
    assert.deepEqual(await bodies({ state: 'done' }), ['Done']);
    assert.deepEqual(await bodies({ type: 'MergeRequest' }), []);
    assert.deepEqual(await bodies({ type: 'Issue' }), ['Three', 'Two', 'One']);
  });

  test('todos on issues the caller can no longer see are not shown', async () => {
    const person = await app.createUser();
    const { id: projectId } = await createProjectWorld(app, { people, roles: ['master'] as Role[] });
    await app.ctx.db
      .insertInto('members')
      .values({
        source_type: 'Project',
        source_id: projectId,
        user_id: person.user.id,
        access_level: 30,
        notification_level: 3,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    const issue = await newIssue(people.owner.client, { title: 'Left behind', assignee_id: person.user.id }, projectId);
    assert.equal(on(await todosOf(person.client), issue).length, 1);
    await app.ctx.db.deleteFrom('members').where('user_id', '=', person.user.id).execute();
    assert.equal(on(await todosOf(person.client), issue).length, 0);
  });
});

describe('DELETE /todos/:id and DELETE /todos', () => {
  test("one todo is marked done and answered; another user's is not found", async () => {
    const issue = await newIssue(people.owner.client, { title: 'Finish', assignee_id: people.developer.user.id });
    const [todo] = on(await todosOf(people.developer.client), issue);
    const notMine = await people.reporter.client.delete(`/todos/${todo.id}`);
    assert.equal(notMine.status, 404);
    assert.deepEqual(notMine.body, { message: '404 Not found' });
    assert.equal((await app.anonymous.delete(`/todos/${todo.id}`)).status, 401);
    const done = await people.developer.client.delete(`/todos/${todo.id}`);
    assert.equal(done.status, 200);
    assert.equal(done.body.id, todo.id);
    assert.equal(done.body.state, 'done');
    assert.equal(done.body.target.id, issue.id);
    assert.equal((await people.developer.client.delete('/todos/999999')).status, 404);
  });

  test('every pending todo of the caller is marked done; the answer is their number, a bare integer', async () => {
    const person = await app.createUser();
    await app.ctx.db
      .insertInto('members')
      .values({
        source_type: 'Project',
        source_id: world.id,
        user_id: person.user.id,
        access_level: 30,
        notification_level: 3,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    for (const title of ['a', 'b', 'c']) await newIssue(people.owner.client, { title, assignee_id: person.user.id });
    const response = await person.client.delete('/todos');
    assert.equal(response.status, 200);
    assert.equal(response.text, '3');
    assert.equal((await todosOf(person.client)).length, 0);
    assert.equal((await todosOf(person.client, { state: 'done' })).length, 3);
    assert.equal((await person.client.delete('/todos')).text, '0');
    assert.equal((await app.anonymous.delete('/todos')).status, 401);
  });
});

describe("a project's deletion", () => {
  test('removes its todos', async () => {
    const doomed = await createProjectWorld(app, { people, roles: ['developer'] as Role[] });
    await newIssue(people.owner.client, { title: 'Doomed', assignee_id: people.developer.user.id }, doomed.id);
    const count = async () => (await app.ctx.db.selectFrom('todos').select('id').where('project_id', '=', doomed.id).execute()).length;
    assert.equal(await count(), 1);
    assert.equal((await people.owner.client.delete(`/projects/${doomed.id}`)).status, 200);
    assert.equal(await count(), 0);
  });
});
