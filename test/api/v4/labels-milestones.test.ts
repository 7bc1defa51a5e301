import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createProject } from '../../support/create';
import { seedCommit } from '../../support/repo';

describe('API v4: labels and milestones', () => {
  let app: TestApp;
  let root: ApiClient;
  let reporter: ApiClient;
  let project: { id: number };

  before(async () => {
    app = await startApp();
    root = app.root.v4();
    project = await createProject(app.root, { name: 'planned', visibility_level: 20 });
    const member = await app.createUser();
    reporter = member.client.v4();
    assert.equal((await app.root.post(`/projects/${project.id}/members`, { user_id: member.user.id, access_level: 20 })).status, 201);
  });
  after(async () => app?.close());

  describe('/projects/:id/labels', () => {
    test('create, list (with ids and counts, paginated), read by id or name, update and delete by id or name', async () => {
      const created = await root.post(`/projects/${project.id}/labels`, { name: 'bug', color: '#FF0000', description: 'broken' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(typeof created.body.id, 'number');
      await root.post(`/projects/${project.id}/issues`, { title: 'buggy', labels: 'bug' });
      const list = await root.get(`/projects/${project.id}/labels`);
      assert.equal(list.status, 200);
      const bug = list.body.find((label: { name: string }) => label.name === 'bug');
      assert.equal(bug.open_issues_count, 1);
      assert.equal(list.headers.get('x-total'), String(list.body.length));
      assert.equal((await root.get(`/projects/${project.id}/labels/${created.body.id}`)).body.name, 'bug');
      assert.equal((await root.get(`/projects/${project.id}/labels/bug`)).body.id, created.body.id);
      assert.equal((await app.anonymous.v4().get(`/projects/${project.id}/labels`)).status, 200);

      const byName = await root.put(`/projects/${project.id}/labels`, { name: 'bug', new_name: 'defect' });
      assert.equal(byName.status, 200);
      assert.equal(byName.body.name, 'defect');
      const byId = await root.put(`/projects/${project.id}/labels`, { label_id: created.body.id, color: '#00FF00' });
      assert.equal(byId.body.color, '#00FF00');
      const inPath = await root.put(`/projects/${project.id}/labels/defect`, { description: 'a defect' });
      assert.equal(inPath.body.description, 'a defect');
      assert.equal((await root.put(`/projects/${project.id}/labels`, { color: '#000000' })).status, 400);

      assert.equal((await root.delete(`/projects/${project.id}/labels`, { name: 'defect' })).status, 204);
      assert.equal((await root.get(`/projects/${project.id}/labels/defect`)).status, 404);
      const other = (await root.post(`/projects/${project.id}/labels`, { name: 'other', color: '#0000FF' })).body;
      assert.equal((await root.delete(`/projects/${project.id}/labels/${other.id}`)).status, 204);
      assert.equal((await root.delete(`/projects/${project.id}/labels/${other.id}`)).status, 404);
    });

    test('a duplicate is 409; a reporter manages labels, a stranger may not (403)', async () => {
      assert.equal((await reporter.post(`/projects/${project.id}/labels`, { name: 'dup', color: '#111111' })).status, 201);
      assert.equal((await root.post(`/projects/${project.id}/labels`, { name: 'dup', color: '#111111' })).status, 409);
      const stranger = await app.createUser();
      assert.equal((await stranger.client.v4().post(`/projects/${project.id}/labels`, { name: 'x', color: '#111111' })).status, 403);
    });

    test('subscribe and unsubscribe a label (201, then 304)', async () => {
      await root.post(`/projects/${project.id}/labels`, { name: 'watched', color: '#222222' });
      const on = await reporter.post(`/projects/${project.id}/labels/watched/subscribe`);
      assert.equal(on.status, 201);
      assert.equal(on.body.subscribed, true);
      assert.equal((await reporter.post(`/projects/${project.id}/labels/watched/subscribe`)).status, 304);
      assert.equal((await reporter.post(`/projects/${project.id}/labels/watched/unsubscribe`)).body.subscribed, false);
    });
  });

  describe('/projects/:id/milestones', () => {
    test('create, list by iids[], state and search, read, update and close', async () => {
      const first = await root.post(`/projects/${project.id}/milestones`, {
        title: 'Release 1',
        description: 'the first',
        due_date: '2030-05-01',
      });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const second = (await root.post(`/projects/${project.id}/milestones`, { title: 'Release 2' })).body;
      const byIids = await root.get(`/projects/${project.id}/milestones`, { iids: [second.iid] });
      assert.deepEqual(
        byIids.body.map((m: { id: number }) => m.id),
        [second.id],
      );
      const searched = await root.get(`/projects/${project.id}/milestones`, { search: 'first' });
      assert.deepEqual(
        searched.body.map((m: { id: number }) => m.id),
        [first.body.id],
      );
      const closed = await root.put(`/projects/${project.id}/milestones/${second.id}`, { state_event: 'close' });
      assert.equal(closed.body.state, 'closed');
      const active = await root.get(`/projects/${project.id}/milestones`, { state: 'active' });
      assert.ok(active.body.every((m: { state: string }) => m.state === 'active'));
      assert.equal((await root.get(`/projects/${project.id}/milestones/${first.body.id}`)).body.due_date, '2030-05-01');
      assert.equal((await reporter.post(`/projects/${project.id}/milestones`, { title: 'nope' })).status, 403);
      assert.equal((await root.post(`/projects/${project.id}/milestones`, {})).status, 400);
    });

    test('a milestone issues and merge requests', async () => {
      const milestone = (await root.post(`/projects/${project.id}/milestones`, { title: 'Sprint' })).body;
      const issue = (await root.post(`/projects/${project.id}/issues`, { title: 'in sprint', milestone_id: milestone.id })).body;
      await root.post(`/projects/${project.id}/issues`, { title: 'not in sprint' });
      const issues = await root.get(`/projects/${project.id}/milestones/${milestone.id}/issues`);
      assert.deepEqual(
        issues.body.map((each: { id: number }) => each.id),
        [issue.id],
      );
      await seedCommit(app, project.id, { files: { 'README.md': 'hi\n' } });
      await seedCommit(app, project.id, { branch: 'sprint', startRef: 'refs/heads/master', files: { 's.txt': 's\n' } });
      const mr = await root.post(`/projects/${project.id}/merge_requests`, {
        source_branch: 'sprint',
        target_branch: 'master',
        title: 'Sprint work',
        milestone_id: milestone.id,
      });
      assert.equal(mr.status, 201, JSON.stringify(mr.body));
      const mrs = await root.get(`/projects/${project.id}/milestones/${milestone.id}/merge_requests`);
      assert.deepEqual(
        mrs.body.map((each: { id: number }) => each.id),
        [mr.body.id],
      );
      assert.equal((await root.get(`/projects/${project.id}/milestones/99999/issues`)).status, 404);
    });
  });
});
