import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createProject } from '../../support/create';

describe('API v4: todos', () => {
  let app: TestApp;
  let root: ApiClient;
  let developer: ApiClient;
  let developerId: number;
  let project: { id: number };

  before(async () => {
    app = await startApp();
    root = app.root.v4();
    project = await createProject(app.root, { name: 'busy' });
    const member = await app.createUser();
    developer = member.client.v4();
    developerId = member.user.id;
    assert.equal((await app.root.post(`/projects/${project.id}/members`, { user_id: developerId, access_level: 30 })).status, 201);
  });
  after(async () => app?.close());

  describe('GET /todos', () => {
    test('lists the caller pending todos with the v4 target and project, filtered by type and state', async () => {
      const issue = (await root.post(`/projects/${project.id}/issues`, { title: 'yours', assignee_id: developerId })).body;
      const list = await developer.get('/todos');
      assert.equal(list.status, 200);
      const todo = list.body.find((each: { target: { id: number } }) => each.target.id === issue.id);
      assert.ok(todo, JSON.stringify(list.body));
      assert.equal(todo.action_name, 'assigned');
      assert.equal(todo.target_type, 'Issue');
      assert.equal(todo.target.iid, issue.iid);
      assert.equal('subscribed' in todo.target, false);
      assert.equal(todo.project.path_with_namespace, 'root/busy');
      assert.equal(todo.state, 'pending');
      assert.ok(list.headers.get('x-total'));
      assert.deepEqual((await developer.get('/todos', { type: 'MergeRequest' })).body, []);
      assert.deepEqual((await developer.get('/todos', { state: 'done' })).body, []);
      assert.equal((await app.anonymous.v4().get('/todos')).status, 401);
    });
  });

  describe('POST /todos/:id/mark_as_done and POST /todos/mark_as_done', () => {
    test('marks one done (201, the todo), then all (204)', async () => {
      const first = (await root.post(`/projects/${project.id}/issues`, { title: 'one', assignee_id: developerId })).body;
      await root.post(`/projects/${project.id}/issues`, { title: 'two', assignee_id: developerId });
      const pending = (await developer.get('/todos')).body;
      const todo = pending.find((each: { target: { id: number } }) => each.target.id === first.id);
      const done = await developer.post(`/todos/${todo.id}/mark_as_done`);
      assert.equal(done.status, 201);
      assert.equal(done.body.state, 'done');
      assert.equal((await root.post(`/todos/${todo.id}/mark_as_done`)).status, 404, 'another user todo is not found');
      const all = await developer.post('/todos/mark_as_done');
      assert.equal(all.status, 204);
      assert.deepEqual((await developer.get('/todos')).body, []);
      assert.ok((await developer.get('/todos', { state: 'done' })).body.length >= 2);
    });
  });
});
