import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createRootProject, seedCommit } from '../../support/repo';
import { seedPipeline } from '../../support/ci';

describe('API v4: merge requests by iid', () => {
  let app: TestApp;
  let root: ApiClient;
  let project: { id: number; head: string };
  let branches = 0;

  before(async () => {
    app = await startApp();
    root = app.root.v4();
    project = await createRootProject(app, 'mergeable');
  });
  after(async () => app?.close());

  /** A new branch off master with one commit, and a merge request of it; answers the merge request and the branch head. */
  async function openMergeRequest(fields: Record<string, unknown> = {}) {
    const branch = `feature-${++branches}`;
    const head = await seedCommit(app, project.id, {
      branch,
      startRef: 'refs/heads/master',
      files: { [`${branch}.txt`]: `${branch}\n` },
      message: `Add ${branch}\n`,
    });
    const created = await root.post(`/projects/${project.id}/merge_requests`, {
      source_branch: branch,
      target_branch: 'master',
      title: `Merge ${branch}`,
      ...fields,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return { mr: created.body, head, branch };
  }

  describe('POST and GET /projects/:id/merge_requests(/:merge_request_iid)', () => {
    test('creates a merge request and finds it by iid, with the v4 fields', async () => {
      const { mr, head } = await openMergeRequest({ labels: ['review'] });
      assert.equal(mr.merge_when_pipeline_succeeds, false);
      assert.equal('merge_when_build_succeeds' in mr, false);
      assert.deepEqual(mr.labels, ['review']);
      assert.match(mr.web_url, new RegExp(`/merge_requests/${mr.iid}$`));
      const found = await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`);
      assert.equal(found.status, 200);
      assert.equal(found.body.id, mr.id);
      assert.equal(found.body.sha, head);
      assert.equal(typeof found.body.merge_status, 'string');
      assert.equal((await root.get(`/projects/${project.id}/merge_requests/99999`)).status, 404);
    });

    test('lists with v4 filters: iids[], source_branch, labels, state; no subscribed in lists; page headers', async () => {
      const first = await openMergeRequest({ labels: 'one,two' });
      const second = await openMergeRequest({ labels: 'one' });
      const byIids = await root.get(`/projects/${project.id}/merge_requests`, { iids: [first.mr.iid, second.mr.iid], sort: 'asc' });
      assert.deepEqual(
        byIids.body.map((mr: { iid: number }) => mr.iid),
        [first.mr.iid, second.mr.iid],
      );
      assert.equal('subscribed' in byIids.body[0], false);
      assert.equal(byIids.headers.get('x-total'), '2');
      const byBranch = await root.get(`/projects/${project.id}/merge_requests`, { source_branch: second.branch });
      assert.deepEqual(
        byBranch.body.map((mr: { iid: number }) => mr.iid),
        [second.mr.iid],
      );
      const byLabels = await root.get(`/projects/${project.id}/merge_requests`, { labels: 'one,two' });
      assert.deepEqual(
        byLabels.body.map((mr: { iid: number }) => mr.iid),
        [first.mr.iid],
      );
      const merged = await root.get(`/projects/${project.id}/merge_requests`, { state: 'merged', iids: [first.mr.iid] });
      assert.deepEqual(merged.body, []);
    });

    test('GET /merge_requests is the caller own unless scope=all', async () => {
      const { mr } = await openMergeRequest();
      const own = await root.get('/merge_requests', { per_page: 100 });
      assert.equal(own.status, 200);
      assert.ok(own.body.some((each: { id: number }) => each.id === mr.id));
      const other = await app.createUser();
      assert.deepEqual((await other.client.v4().get('/merge_requests')).body, []);
      assert.equal((await other.client.v4().get('/merge_requests', { scope: 'all' })).body.length, 0, 'a private project shows nothing');
    });

    test('a private project merge requests are 404 to a stranger and anonymous', async () => {
      const { mr } = await openMergeRequest();
      const stranger = await app.createUser();
      assert.equal((await stranger.client.v4().get(`/projects/${project.id}/merge_requests/${mr.iid}`)).status, 404);
      assert.equal((await app.anonymous.v4().get(`/projects/${project.id}/merge_requests/${mr.iid}`)).status, 404);
    });
  });

  describe('PUT and DELETE /projects/:id/merge_requests/:merge_request_iid', () => {
    test('updates by iid and closes with state_event; deletion answers 204', async () => {
      const { mr } = await openMergeRequest();
      const updated = await root.put(`/projects/${project.id}/merge_requests/${mr.iid}`, { title: 'Renamed', state_event: 'close' });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.title, 'Renamed');
      assert.equal(updated.body.state, 'closed');
      assert.equal((await root.delete(`/projects/${project.id}/merge_requests/${mr.iid}`)).status, 204);
      assert.equal((await root.get(`/projects/${project.id}/merge_requests/${mr.iid}`)).status, 404);
    });
  });

  describe('commits, changes, versions', () => {
    test('answer the merge request contents by iid', async () => {
      const { mr, head, branch } = await openMergeRequest();
      const commits = await root.get(`/projects/${project.id}/merge_requests/${mr.iid}/commits`);
      assert.equal(commits.status, 200);
      assert.deepEqual(
        commits.body.map((each: { id: string }) => each.id),
        [head],
      );
      assert.equal(commits.body[0].committer_name, 'Ada Tester');
      const changes = await root.get(`/projects/${project.id}/merge_requests/${mr.iid}/changes`);
      assert.equal(changes.status, 200);
      assert.deepEqual(
        changes.body.changes.map((change: { new_path: string }) => change.new_path),
        [`${branch}.txt`],
      );
      const versions = await root.get(`/projects/${project.id}/merge_requests/${mr.iid}/versions`);
      assert.equal(versions.status, 200);
      assert.equal(versions.body[0].head_commit_sha, head);
      const version = await root.get(`/projects/${project.id}/merge_requests/${mr.iid}/versions/${versions.body[0].id}`);
      assert.equal(version.status, 200);
      assert.equal(version.body.diffs.length, 1);
    });
  });

  describe('PUT …/merge', () => {
    test('merges by iid; a second merge is 405', async () => {
      const { mr } = await openMergeRequest();
      const merged = await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { merge_commit_message: 'Merged!' });
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      assert.equal(merged.body.state, 'merged');
      assert.equal((await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`)).status, 405);
    });

    test('a sha that is not the head is 409; a reporter who may not merge is 401', async () => {
      const { mr } = await openMergeRequest();
      const wrong = await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { sha: '0'.repeat(40) });
      assert.equal(wrong.status, 409);
      const reporter = await app.createUser();
      await app.root.post(`/projects/${project.id}/members`, { user_id: reporter.user.id, access_level: 20 });
      assert.equal((await reporter.client.v4().put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`)).status, 401);
    });

    test('merge_when_pipeline_succeeds waits for a running pipeline, and can be cancelled', async () => {
      const { mr, head, branch } = await openMergeRequest();
      await seedPipeline(app, project.id, { sha: head, ref: branch, status: 'running' });
      const waiting = await root.put(`/projects/${project.id}/merge_requests/${mr.iid}/merge`, { merge_when_pipeline_succeeds: true });
      assert.equal(waiting.status, 200, JSON.stringify(waiting.body));
      assert.equal(waiting.body.merge_when_pipeline_succeeds, true);
      assert.equal(waiting.body.state, 'opened');
      const cancelled = await root.post(`/projects/${project.id}/merge_requests/${mr.iid}/cancel_merge_when_pipeline_succeeds`);
      assert.equal(cancelled.status, 201);
      assert.equal(cancelled.body.merge_when_pipeline_succeeds, false);
    });
  });

  describe('closes_issues, subscribe, todo', () => {
    test('closes_issues lists the issues the description closes, by their v4 shape', async () => {
      const issue = await root.post(`/projects/${project.id}/issues`, { title: 'to close' });
      const { mr } = await openMergeRequest({ description: `Closes #${issue.body.iid}` });
      const closes = await root.get(`/projects/${project.id}/merge_requests/${mr.iid}/closes_issues`);
      assert.equal(closes.status, 200);
      assert.deepEqual(
        closes.body.map((each: { iid: number }) => each.iid),
        [issue.body.iid],
      );
    });

    test('subscribe 201 then 304; unsubscribe 201 then 304; todo 201 then 304', async () => {
      const { mr } = await openMergeRequest();
      const base = `/projects/${project.id}/merge_requests/${mr.iid}`;
      // The author is subscribed as a participant already.
      assert.equal((await root.post(`${base}/subscribe`)).status, 304);
      const off = await root.post(`${base}/unsubscribe`);
      assert.equal(off.status, 201);
      assert.equal(off.body.subscribed, false);
      assert.equal((await root.post(`${base}/unsubscribe`)).status, 304);
      assert.equal((await root.post(`${base}/subscribe`)).status, 201);
      const todo = await root.post(`${base}/todo`);
      assert.equal(todo.status, 201);
      assert.equal(todo.body.target_type, 'MergeRequest');
      assert.equal(todo.body.target.iid, mr.iid);
      assert.equal((await root.post(`${base}/todo`)).status, 304);
    });
  });
});
