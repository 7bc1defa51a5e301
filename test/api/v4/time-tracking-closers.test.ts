import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createRootProject, seedCommit } from '../../support/repo';

/** Root's project with a repository, a reporter, a guest, and a developer who closes and merges. */
describe('API v4: time tracking, closed_by and merged_by', () => {
  let app: TestApp;
  let root: ApiClient;
  let reporter: ApiClient;
  let guest: ApiClient;
  let developer: ApiClient;
  let developerName: string;
  let project: { id: number };
  let branches = 0;

  before(async () => {
    app = await startApp();
    root = app.root.v4();
    project = await createRootProject(app, 'timed');
    const member = async (level: number) => {
      const made = await app.createUser();
      const added = await app.root.post(`/projects/${project.id}/members`, { user_id: made.user.id, access_level: level });
      assert.equal(added.status, 201);
      return made;
    };
    reporter = (await member(20)).client.v4();
    guest = (await member(10)).client.v4();
    const dev = await member(30);
    developer = dev.client.v4();
    developerName = dev.user.username;
  });
  after(async () => app?.close());

  const newIssue = async () => {
    const created = await root.post(`/projects/${project.id}/issues`, { title: `issue ${Date.now()}` });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body as { iid: number };
  };

  async function openMergeRequest() {
    const branch = `timed-${++branches}`;
    await seedCommit(app, project.id, {
      branch,
      startRef: 'refs/heads/master',
      files: { [`${branch}.txt`]: `${branch}\n` },
      message: `Add ${branch}\n`,
    });
    const created = await root.post(`/projects/${project.id}/merge_requests`, {
      source_branch: branch,
      target_branch: 'master',
      title: branch,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    return created.body as { iid: number };
  }

  for (const kind of ['issues', 'merge_requests'] as const) {
    describe(`time tracking of ${kind}`, () => {
      const make = () => (kind === 'issues' ? newIssue() : openMergeRequest());
      // GitLab asks for `admin_issue` (reporters) and `admin_merge_request` (developers).
      const tracker = () => (kind === 'issues' ? reporter : developer);
      const reader = () => (kind === 'issues' ? guest : reporter);

      test('POST time_estimate sets the estimate from a human duration; time_stats and the record show it', async () => {
        const { iid } = await make();
        const base = `/projects/${project.id}/${kind}/${iid}`;
        const set = await tracker().post(`${base}/time_estimate`, { duration: '3h30m' });
        assert.equal(set.status, 200, JSON.stringify(set.body));
        assert.deepEqual(set.body, {
          time_estimate: 12_600,
          total_time_spent: 0,
          human_time_estimate: '3h 30m',
          human_total_time_spent: null,
        });
        const stats = await root.get(`${base}/time_stats`);
        assert.equal(stats.status, 200);
        assert.equal(stats.body.time_estimate, 12_600);
        assert.equal((await root.get(base)).body.time_stats.human_time_estimate, '3h 30m');
        const week = await tracker().form('POST', `${base}/time_estimate`, { duration: '1w 1d' });
        assert.equal(week.body.time_estimate, 6 * 8 * 3600, 'a week is five working days of eight hours');
        assert.equal(week.body.human_time_estimate, '1w 1d');
        const reset = await tracker().post(`${base}/reset_time_estimate`);
        assert.equal(reset.status, 200);
        assert.equal(reset.body.time_estimate, 0);
        assert.equal(reset.body.human_time_estimate, null);
      });

      test('POST add_spent_time adds (201), a negative duration subtracts, never below zero; reset_spent_time clears it', async () => {
        const { iid } = await make();
        const base = `/projects/${project.id}/${kind}/${iid}`;
        const first = await tracker().post(`${base}/add_spent_time`, { duration: '1h' });
        assert.equal(first.status, 201, JSON.stringify(first.body));
        assert.equal(first.body.total_time_spent, 3600);
        const second = await tracker().post(`${base}/add_spent_time`, { duration: '30m' });
        assert.equal(second.body.total_time_spent, 5400);
        assert.equal(second.body.human_total_time_spent, '1h 30m');
        const less = await tracker().post(`${base}/add_spent_time`, { duration: '-1h' });
        assert.equal(less.status, 201);
        assert.equal(less.body.total_time_spent, 1800);
        const tooMuch = await tracker().post(`${base}/add_spent_time`, { duration: '-2h' });
        assert.equal(tooMuch.status, 400);
        assert.equal((await root.get(`${base}/time_stats`)).body.total_time_spent, 1800, 'a refused subtraction changes nothing');
        const reset = await tracker().post(`${base}/reset_spent_time`);
        assert.equal(reset.status, 200);
        assert.equal(reset.body.total_time_spent, 0);
      });

      test('a missing or unreadable duration is 400; one who may read but not administer it reads time_stats and changes nothing (403)', async () => {
        const { iid } = await make();
        const base = `/projects/${project.id}/${kind}/${iid}`;
        assert.equal((await tracker().post(`${base}/time_estimate`, {})).status, 400);
        assert.equal((await tracker().post(`${base}/time_estimate`, { duration: 'soon' })).status, 400);
        assert.equal((await tracker().post(`${base}/add_spent_time`, { duration: '' })).status, 400);
        assert.equal((await reader().get(`${base}/time_stats`)).status, 200);
        assert.equal((await reader().post(`${base}/time_estimate`, { duration: '1h' })).status, 403);
        assert.equal((await reader().post(`${base}/add_spent_time`, { duration: '1h' })).status, 403);
        assert.equal((await root.get(`${base}/time_stats`)).body.time_estimate, 0);
        assert.equal((await root.get(`/projects/${project.id}/${kind}/99999/time_stats`)).status, 404);
      });
    });
  }

  describe('closed_by and merged_by', () => {
    test('an issue closed by a developer shows them as closed_by; reopened, it is null again', async () => {
      const { iid } = await newIssue();
      const path = `/projects/${project.id}/issues/${iid}`;
      assert.equal((await root.get(path)).body.closed_by, null);
      const closed = await developer.put(path, { state_event: 'close' });
      assert.equal(closed.status, 200, JSON.stringify(closed.body));
      assert.equal(closed.body.closed_by.username, developerName);
      const listed = await root.get(`/projects/${project.id}/issues`, { iids: [iid] });
      assert.equal(listed.body[0].closed_by.username, developerName);
      const reopened = await root.put(path, { state_event: 'reopen' });
      assert.equal(reopened.body.closed_by, null);
    });

    test('a merge request merged by a developer shows them as merged_by; one closed shows closed_by', async () => {
      const merging = await openMergeRequest();
      const mergePath = `/projects/${project.id}/merge_requests/${merging.iid}`;
      assert.equal((await root.get(mergePath)).body.merged_by, null);
      const merged = await developer.put(`${mergePath}/merge`);
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      assert.equal(merged.body.merged_by.username, developerName);
      assert.equal((await root.get(mergePath)).body.merged_by.username, developerName);

      const closing = await openMergeRequest();
      const closePath = `/projects/${project.id}/merge_requests/${closing.iid}`;
      const closed = await developer.put(closePath, { state_event: 'close' });
      assert.equal(closed.body.closed_by.username, developerName);
      assert.equal(closed.body.merged_by, null);
    });
  });
});
