import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createProject } from '../../support/create';

/** A public project of root's, a reporter and a stranger (signed in, no membership). */
describe('API v4: issues by iid', () => {
  let app: TestApp;
  let root: ApiClient;
  let reporter: ApiClient;
  let stranger: ApiClient;
  let strangerId: number;
  let project: { id: number };

  before(async () => {
    app = await startApp();
    root = app.root.v4();
    project = await createProject(app.root, { name: 'tracker', visibility_level: 20 });
    const reporterUser = await app.createUser();
    const strangerUser = await app.createUser();
    reporter = reporterUser.client.v4();
    stranger = strangerUser.client.v4();
    strangerId = strangerUser.user.id;
    const added = await app.root.post(`/projects/${project.id}/members`, { user_id: reporterUser.user.id, access_level: 20 });
    assert.equal(added.status, 201);
  });
  after(async () => app?.close());

  const create = async (fields: Record<string, unknown>) => {
    const response = await root.post(`/projects/${project.id}/issues`, fields);
    assert.equal(response.status, 201, JSON.stringify(response.body));
    return response.body;
  };

  describe('POST /projects/:id/issues', () => {
    test('creates an issue with labels as a list, numbered by iid, with the v4 fields', async () => {
      const issue = await create({ title: 'first', labels: ['bug', 'ui'], assignee_ids: [1], due_date: '2030-01-02' });
      assert.equal(typeof issue.iid, 'number');
      assert.deepEqual(issue.labels, ['bug', 'ui']);
      assert.equal(issue.assignees.length, 1);
      assert.equal(issue.assignee.username, 'root');
      assert.equal(issue.subscribed, true);
      assert.equal(issue.due_date, '2030-01-02');
      assert.deepEqual(issue.time_stats, {
        time_estimate: 0,
        total_time_spent: 0,
        human_time_estimate: null,
        human_total_time_spent: null,
      });
      assert.match(issue.web_url, new RegExp(`/issues/${issue.iid}$`));
      assert.equal(issue.author.web_url.endsWith('/root'), true, 'v4 user pages have no /u/');
    });
  });

  describe('GET /projects/:id/issues/:issue_iid', () => {
    test('finds the issue by its iid, not its id', async () => {
      const issue = await create({ title: 'by iid' });
      const found = await root.get(`/projects/${project.id}/issues/${issue.iid}`);
      assert.equal(found.status, 200);
      assert.equal(found.body.id, issue.id);
      assert.equal(found.headers.get('content-type'), 'application/json');
      assert.equal((await root.get(`/projects/${project.id}/issues/999999`)).status, 404);
    });

    test('anonymous callers read the issues of a public project', async () => {
      const issue = await create({ title: 'public' });
      const found = await app.anonymous.v4().get(`/projects/${project.id}/issues/${issue.iid}`);
      assert.equal(found.status, 200);
      assert.equal(found.body.subscribed, false);
      const list = await app.anonymous.v4().get(`/projects/${project.id}/issues`);
      assert.equal(list.status, 200);
      assert.ok(list.body.length > 0);
    });

    test('a confidential issue is 404 to a non-member and to anonymous callers, visible to a reporter', async () => {
      const secret = await create({ title: 'secret', confidential: true });
      assert.equal((await stranger.get(`/projects/${project.id}/issues/${secret.iid}`)).status, 404);
      assert.equal((await app.anonymous.v4().get(`/projects/${project.id}/issues/${secret.iid}`)).status, 404);
      assert.equal((await stranger.post(`/projects/${project.id}/issues/${secret.iid}/notes`, { body: 'hi' })).status, 404);
      assert.equal((await stranger.post(`/projects/${project.id}/issues/${secret.iid}/subscribe`)).status, 404);
      assert.equal((await reporter.get(`/projects/${project.id}/issues/${secret.iid}`)).status, 200);
      const listed = await stranger.get(`/projects/${project.id}/issues`, { iids: [secret.iid] });
      assert.deepEqual(listed.body, []);
    });
  });

  describe('GET /projects/:id/issues', () => {
    test('labels means every one of the labels; the list carries no subscribed, and sends the page headers', async () => {
      const both = await create({ title: 'both', labels: 'red,blue' });
      const red = await create({ title: 'red only', labels: 'red' });
      const response = await root.get(`/projects/${project.id}/issues`, { labels: 'red,blue' });
      assert.equal(response.status, 200);
      const iids = response.body.map((issue: { iid: number }) => issue.iid);
      assert.ok(iids.includes(both.iid));
      assert.ok(!iids.includes(red.iid));
      assert.equal('subscribed' in response.body[0], false);
      assert.ok(response.headers.get('x-total'));
      assert.equal(response.headers.get('x-page'), '1');
    });

    test('iids[], state, search, milestone and order', async () => {
      const milestone = await root.post(`/projects/${project.id}/milestones`, { title: 'v1' });
      assert.equal(milestone.status, 201);
      const a = await create({ title: 'alpha needle', milestone_id: milestone.body.id });
      const b = await create({ title: 'beta' });
      const byIids = await root.get(`/projects/${project.id}/issues`, { iids: [a.iid, b.iid], sort: 'asc' });
      assert.deepEqual(
        byIids.body.map((issue: { iid: number }) => issue.iid),
        [a.iid, b.iid],
      );
      const searched = await root.get(`/projects/${project.id}/issues`, { search: 'needle' });
      assert.deepEqual(
        searched.body.map((issue: { iid: number }) => issue.iid),
        [a.iid],
      );
      const inMilestone = await root.get(`/projects/${project.id}/issues`, { milestone: 'v1' });
      assert.deepEqual(
        inMilestone.body.map((issue: { iid: number }) => issue.iid),
        [a.iid],
      );
      const closed = await root.put(`/projects/${project.id}/issues/${b.iid}`, { state_event: 'close' });
      assert.equal(closed.body.state, 'closed');
      const opened = await root.get(`/projects/${project.id}/issues`, { state: 'opened', iids: [a.iid, b.iid] });
      assert.deepEqual(
        opened.body.map((issue: { iid: number }) => issue.iid),
        [a.iid],
      );
    });
  });

  describe('GET /issues', () => {
    test('is the caller own issues unless scope says otherwise', async () => {
      const mine = await reporter.post(`/projects/${project.id}/issues`, { title: 'reported by me' });
      assert.equal(mine.status, 201);
      const own = await reporter.get('/issues');
      assert.ok(own.body.every((issue: { author: { id: number } }) => issue.author.id === mine.body.author.id));
      assert.ok(own.body.some((issue: { id: number }) => issue.id === mine.body.id));
      const all = await reporter.get('/issues', { scope: 'all', per_page: 100 });
      assert.ok(all.body.length > own.body.length);
      assert.equal((await app.anonymous.v4().get('/issues')).status, 401);
    });

    test('assigned_to_me', async () => {
      const assigned = await create({ title: 'for the stranger', assignee_id: strangerId });
      const list = await stranger.get('/issues', { scope: 'assigned_to_me' });
      assert.deepEqual(
        list.body.map((issue: { id: number }) => issue.id),
        [assigned.id],
      );
    });
  });

  describe('PUT and DELETE /projects/:id/issues/:issue_iid', () => {
    test('updates by iid: state_event, labels and milestone', async () => {
      const issue = await create({ title: 'to change', labels: 'x' });
      const updated = await root.put(`/projects/${project.id}/issues/${issue.iid}`, { title: 'changed', labels: '', state_event: 'close' });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.title, 'changed');
      assert.equal(updated.body.state, 'closed');
      assert.deepEqual(updated.body.labels, []);
      const reopened = await root.put(`/projects/${project.id}/issues/${issue.iid}`, { state_event: 'reopen' });
      assert.equal(reopened.body.state, 'reopened');
    });

    test('a stranger may not change an issue of someone else (403); deleting answers 204 and then 404', async () => {
      const issue = await create({ title: 'to delete' });
      assert.equal((await stranger.put(`/projects/${project.id}/issues/${issue.iid}`, { title: 'mine now' })).status, 403);
      assert.equal((await reporter.delete(`/projects/${project.id}/issues/${issue.iid}`)).status, 403);
      const removed = await root.delete(`/projects/${project.id}/issues/${issue.iid}`);
      assert.equal(removed.status, 204);
      assert.equal((await root.get(`/projects/${project.id}/issues/${issue.iid}`)).status, 404);
      assert.equal((await root.delete(`/projects/${project.id}/issues/${issue.iid}`)).status, 404);
    });

    test('anonymous writes are 401', async () => {
      assert.equal((await app.anonymous.v4().post(`/projects/${project.id}/issues`, { title: 'x' })).status, 401);
    });
  });

  describe('POST …/subscribe, …/unsubscribe, …/todo', () => {
    test('subscribe answers 201 with the issue, 304 when already subscribed; unsubscribe likewise', async () => {
      const issue = (await stranger.post(`/projects/${project.id}/issues`, { title: 'watch me' })).body;
      const other = await reporter.post(`/projects/${project.id}/issues/${issue.iid}/subscribe`);
      assert.equal(other.status, 201);
      assert.equal(other.body.subscribed, true);
      assert.equal((await reporter.post(`/projects/${project.id}/issues/${issue.iid}/subscribe`)).status, 304);
      const off = await reporter.post(`/projects/${project.id}/issues/${issue.iid}/unsubscribe`);
      assert.equal(off.status, 201);
      assert.equal(off.body.subscribed, false);
      assert.equal((await reporter.post(`/projects/${project.id}/issues/${issue.iid}/unsubscribe`)).status, 304);
    });

    test('todo marks the issue for the caller: 201, then 304', async () => {
      const issue = await create({ title: 'remember' });
      const todo = await reporter.post(`/projects/${project.id}/issues/${issue.iid}/todo`);
      assert.equal(todo.status, 201);
      assert.equal(todo.body.target.iid, issue.iid);
      assert.equal(todo.body.action_name, 'marked');
      assert.equal(todo.body.project.id, project.id);
      assert.equal((await reporter.post(`/projects/${project.id}/issues/${issue.iid}/todo`)).status, 304);
    });
  });

  describe('POST …/move', () => {
    test('moves the issue by iid into another project', async () => {
      const target = await createProject(app.root, { name: 'elsewhere' });
      const issue = await create({ title: 'moving' });
      const moved = await root.post(`/projects/${project.id}/issues/${issue.iid}/move`, { to_project_id: target.id });
      assert.equal(moved.status, 201, JSON.stringify(moved.body));
      assert.equal(moved.body.project_id, target.id);
      assert.equal((await root.get(`/projects/${project.id}/issues/${issue.iid}`)).body.state, 'closed');
    });
  });

  describe('GET /groups/:id/issues', () => {
    test('lists the issues of the group projects', async () => {
      const group = await app.root.post('/groups', { name: 'team', path: 'team' });
      assert.equal(group.status, 201);
      const inGroup = await createProject(app.root, { name: 'grouped', namespace_id: group.body.id });
      const issue = (await root.post(`/projects/${inGroup.id}/issues`, { title: 'group issue', labels: 'a,b' })).body;
      const list = await root.get(`/groups/${group.body.id}/issues`, { labels: 'a,b' });
      assert.equal(list.status, 200);
      assert.deepEqual(
        list.body.map((each: { id: number }) => each.id),
        [issue.id],
      );
    });
  });

  describe('bad input', () => {
    test('answers 400 or 404, never 500', async () => {
      const many = Array.from({ length: 101 }, (_, index) => index + 1);
      assert.equal((await root.get(`/projects/${project.id}/issues`, { iids: many })).status, 400);
      assert.equal((await root.get(`/projects/${project.id}/issues`, { labels: many.join(',') })).status, 400);
      assert.equal((await root.get(`/projects/${project.id}/merge_requests`, { iids: many })).status, 400);
      assert.equal((await root.get(`/projects/${project.id}/issues`, { iids: ['x'] })).status, 200);
      assert.equal((await root.post(`/projects/${project.id}/issues`, {})).status, 400);
      assert.equal((await root.post(`/projects/${project.id}/issues`, { title: 't', assignee_ids: ['nobody'] })).status, 400);
      assert.equal((await root.post(`/projects/${project.id}/issues`, { title: 't', due_date: '2030-02-30' })).status, 400);
      assert.equal((await root.post(`/projects/${project.id}/issues`, { title: 't', labels: ['a,b', ''] })).status, 201);
      assert.equal((await root.get(`/projects/${project.id}/issues/99999999999`)).status, 404);
      assert.equal((await root.get(`/projects/${project.id}/issues/abc`)).status, 404);
      assert.equal(
        (await root.post(`/projects/${project.id}/snippets`, { title: 's', file_name: 'a', code: 'x', visibility: 'secret' })).status,
        400,
      );
    });
  });
});
