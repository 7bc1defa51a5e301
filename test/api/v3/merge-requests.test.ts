import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createPeople, createProjectWorld, type People, type ProjectWorld, type Role } from '../../support/project-world';
import type { SeedCommit } from '../../support/repo';
import { HookListener } from '../../support/hook-listener';
import { cloneUrl, commit, git, tempDir } from '../../support/git';
import type { ApiClient } from '../../support/client';

/* Merge requests through the v3 API: listing, creation (also from a fork), changes, deletion, and what they announce. */

let app: TestApp;
let people: People<Role>;
let world: ProjectWorld<Role>;

/** A project with master, two feature branches from it, and an orphan branch with no history in common. */
const BRANCHES: SeedCommit[] = [
  { files: { 'README.md': 'hello\n' }, message: 'initial\n' },
  { branch: 'feature', startRef: 'master', files: { 'a.txt': 'a\n' }, message: 'add a\n' },
  { branch: 'feature2', startRef: 'master', files: { 'b.txt': 'b\n' }, message: 'add b\n' },
  { branch: 'orphan', files: { 'o.txt': 'o\n' }, message: 'unrelated\n' },
];

before(async () => {
  app = await startApp();
  people = await createPeople(app);
  // Each test that counts or changes what a project holds makes a project of its own, all the owner's (and forks, the developer's).
  for (const person of [people.owner, people.developer]) await app.root.put(`/users/${person.user.id}`, { projects_limit: 100 });
  world = await createProjectWorld(app, { people, commits: BRANCHES });
});
after(() => app.close());

const create = (client: ApiClient, projectId: number, body: Record<string, unknown>) =>
  client.post(`/projects/${projectId}/merge_requests`, body);

/** A project world of its own, for tests that count or change what a project holds. */
const freshWorld = (roles: Role[] = ['developer', 'reporter', 'guest', 'stranger'], visibility?: number) =>
  createProjectWorld(app, { people, roles, commits: BRANCHES, visibility });

async function opened(project: ProjectWorld<Role>, body: Record<string, unknown> = {}) {
  const response = await create(project.owner.client, project.id, {
    source_branch: 'feature',
    target_branch: 'master',
    title: 'A change',
    ...body,
  });
  assert.equal(response.status, 201, JSON.stringify(response.body));
  return response.body;
}

describe('POST /projects/:id/merge_requests', () => {
  test('opens a merge request with labels and a milestone, as 8.12 answered', async () => {
    const project = await freshWorld(['developer']);
    const milestone = (await project.owner.client.post(`/projects/${project.id}/milestones`, { title: 'v1' })).body;
    const response = await create(project.owner.client, project.id, {
      source_branch: 'feature',
      target_branch: 'master',
      title: 'Add a',
      description: 'Please',
      labels: 'label, label2,label?bar',
      milestone_id: milestone.id,
      assignee_id: project.developer.user.id,
    });
    assert.equal(response.status, 201);
    const mr = response.body;
    assert.equal(mr.iid, 1);
    assert.equal(mr.project_id, project.id);
    assert.equal(mr.source_project_id, project.id);
    assert.equal(mr.target_project_id, project.id);
    assert.equal(mr.title, 'Add a');
    assert.equal(mr.description, 'Please');
    assert.equal(mr.state, 'opened');
    assert.equal(mr.source_branch, 'feature');
    assert.equal(mr.target_branch, 'master');
    assert.deepEqual(mr.labels, ['label', 'label2', 'label?bar']);
    assert.equal(mr.milestone.id, milestone.id);
    assert.equal(mr.author.id, project.owner.user.id);
    assert.equal(mr.assignee.id, project.developer.user.id);
    assert.equal(mr.work_in_progress, false);
    assert.equal(mr.merge_when_build_succeeds, false);
    assert.equal(mr.upvotes, 0);
    assert.equal(mr.downvotes, 0);
    assert.equal(mr.user_notes_count, 0);
    // The author takes part, so 8.12's `subscribed?` is true without a subscription.
    assert.equal(mr.subscribed, true);
    assert.equal(mr.sha, project.shas[1]);
    assert.equal(mr.merge_commit_sha, null);
    assert.ok(['unchecked', 'can_be_merged'].includes(mr.merge_status));
    assert.match(mr.web_url, new RegExp(`/${project.path}/merge_requests/1$`));
    assert.equal('should_close_merge_request' in mr, false);
    // Each project counts its own iids.
    assert.equal(
      (await create(project.owner.client, project.id, { source_branch: 'feature2', target_branch: 'master', title: 'Add b' })).body.iid,
      2,
    );
  });

  test('source_branch, target_branch and title are required, in that order', async () => {
    const client = world.owner.client;
    assert.deepEqual((await create(client, world.id, {})).body, { message: '400 (Bad request) "source_branch" not given' });
    assert.deepEqual((await create(client, world.id, { source_branch: 'feature' })).body, {
      message: '400 (Bad request) "target_branch" not given',
    });
    const noTitle = await create(client, world.id, { source_branch: 'feature', target_branch: 'master', title: '  ' });
    assert.equal(noTitle.status, 400);
    assert.deepEqual(noTitle.body, { message: '400 (Bad request) "title" not given' });
  });

  test("the same project and branch at both ends: 422 with 8.12's error array", async () => {
    const response = await create(world.owner.client, world.id, { source_branch: 'feature', target_branch: 'feature', title: 'Loop' });
    assert.equal(response.status, 422);
    assert.deepEqual(response.body, { error: ['You can not use same project/branch for source and target'] });
  });

  test('a second open merge request between the same branches: 409 naming the first', async () => {
    const project = await freshWorld([]);
    await opened(project, { title: 'First "one"' });
    const response = await create(project.owner.client, project.id, { source_branch: 'feature', target_branch: 'master', title: 'Again' });
    assert.equal(response.status, 409);
    assert.deepEqual(response.body, { message: ['Cannot Create: This merge request already exists: ["First \\"one\\""]'] });
  });

  test('an unknown branch or unrelated histories: 400, and nothing is saved', async () => {
    const project = await freshWorld([]);
    const client = project.owner.client;
    const source = await create(client, project.id, { source_branch: 'nope', target_branch: 'master', title: 't' });
    assert.equal(source.status, 400);
    assert.deepEqual(source.body, { message: { source_branch: ['does not exist'] } });
    const target = await create(client, project.id, { source_branch: 'feature', target_branch: 'nope', title: 't' });
    assert.equal(target.status, 400);
    assert.deepEqual(target.body, { message: { target_branch: ['does not exist'] } });
    const orphan = await create(client, project.id, { source_branch: 'orphan', target_branch: 'master', title: 't' });
    assert.equal(orphan.status, 400);
    assert.match(JSON.stringify(orphan.body.message.source_branch), /no history in common/);
    assert.deepEqual((await client.get(`/projects/${project.id}/merge_requests`)).body, []);
    // The iid was not spent either: the next one is still 1.
    assert.equal((await opened(project)).iid, 1);
  });

  test('garbage ids and a target project that is not there: 4xx, never 500', async () => {
    const client = world.owner.client;
    const base = { source_branch: 'feature', target_branch: 'master', title: 't' };
    assert.equal((await create(client, world.id, { ...base, assignee_id: 'abc' })).status, 400);
    assert.equal((await create(client, world.id, { ...base, milestone_id: -3 })).status, 400);
    assert.equal((await create(client, world.id, { ...base, target_project_id: 'x' })).status, 400);
    const missing = await create(client, world.id, { ...base, target_project_id: 99999999 });
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: '404 Project Not Found' });
    assert.equal((await create(client, world.id, { ...base, labels: 'a,,b' })).status, 400);
  });

  test('developers and up open merge requests; reporters and guests 403; strangers 404; anonymous 401', async () => {
    const project = await freshWorld();
    const body = (title: string) => ({ source_branch: 'feature', target_branch: 'master', title });
    assert.equal((await create(project.guest.client, project.id, body('g'))).status, 403);
    assert.equal((await create(project.reporter.client, project.id, body('r'))).status, 403);
    const stranger = await create(project.stranger.client, project.id, body('s'));
    assert.equal(stranger.status, 404);
    assert.deepEqual(stranger.body, { message: '404 Project Not Found' });
    assert.equal((await create(app.anonymous, project.id, body('a'))).status, 401);
    const developer = await create(project.developer.client, project.id, {
      ...body('d'),
      assignee_id: project.guest.user.id,
      labels: 'dev',
    });
    assert.equal(developer.status, 201);
    // A developer may set the assignee and labels, as 8.12's `admin_merge_request` let them.
    assert.equal(developer.body.assignee.id, project.guest.user.id);
    assert.deepEqual(developer.body.labels, ['dev']);
  });

  test('with merge requests disabled the routes answer 403', async () => {
    const project = await freshWorld([]);
    await project.owner.client.put(`/projects/${project.id}`, { merge_requests_enabled: false });
    assert.equal((await project.owner.client.get(`/projects/${project.id}/merge_requests`)).status, 403);
    assert.equal(
      (await create(project.owner.client, project.id, { source_branch: 'feature', target_branch: 'master', title: 't' })).status,
      403,
    );
  });
});

describe('from a fork to its upstream', () => {
  test('a branch pushed with git to a fork opens a merge request into the upstream', async () => {
    const upstream = await freshWorld(['developer', 'stranger']);
    const forker = upstream.developer;
    const fork = await forker.client.post(`/projects/fork/${upstream.id}`);
    assert.equal(fork.status, 201);
    // Push a new branch to the fork with the real git client.
    const dir = tempDir();
    const url = cloneUrl(app.url, fork.body.path_with_namespace, forker.user.username, forker.token);
    assert.equal((await git(['clone', '-q', url, dir])).code, 0);
    await git(['checkout', '-q', '-b', 'fork-work'], dir);
    await commit(dir, { 'fork.txt': 'from the fork\n' }, 'work in the fork');
    const pushed = await git(['push', '-q', 'origin', 'fork-work'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
    const head = (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();

    const response = await create(forker.client, fork.body.id, {
      source_branch: 'fork-work',
      target_branch: 'master',
      title: 'From my fork',
      target_project_id: upstream.id,
    });
    assert.equal(response.status, 201, JSON.stringify(response.body));
    const mr = response.body;
    assert.equal(mr.project_id, upstream.id);
    assert.equal(mr.target_project_id, upstream.id);
    assert.equal(mr.source_project_id, fork.body.id);
    assert.equal(mr.sha, head);
    assert.match(mr.web_url, new RegExp(`/${upstream.path}/merge_requests/1$`));
    // It is the upstream's: listed and shown there.
    const listed = (await upstream.owner.client.get(`/projects/${upstream.id}/merge_requests`)).body;
    assert.deepEqual(
      listed.map((item: any) => item.id),
      [mr.id],
    );
    assert.equal((await upstream.owner.client.get(`/projects/${upstream.id}/merge_requests/${mr.id}`)).body.sha, head);

    // Same branch names at both ends are fine across projects.
    const same = await create(forker.client, fork.body.id, {
      source_branch: 'feature',
      target_branch: 'feature',
      title: 'Same names',
      target_project_id: upstream.id,
    });
    assert.equal(same.status, 201);
    // A target that is the fork itself is an ordinary merge request of the fork.
    const inFork = await create(forker.client, fork.body.id, {
      source_branch: 'fork-work',
      target_branch: 'master',
      title: 'Inside',
      target_project_id: fork.body.id,
    });
    assert.equal(inFork.status, 201);
    assert.equal(inFork.body.project_id, fork.body.id);
  });

  test('a target that is not the upstream: 422; one the caller cannot read: 404', async () => {
    const upstream = await freshWorld(['developer']);
    const fork = (await upstream.developer.client.post(`/projects/fork/${upstream.id}`)).body;
    const other = (await upstream.developer.client.post('/projects', { name: `other-${Date.now()}` })).body;
    const body = { source_branch: 'feature', target_branch: 'master', title: 't' };
    const notFork = await create(upstream.developer.client, fork.id, { ...body, target_project_id: other.id });
    assert.equal(notFork.status, 422);
    assert.deepEqual(notFork.body, { error: ['Source project is not a fork of the target project'] });
    // From the upstream into its fork: the wrong way round.
    const reversed = await create(upstream.owner.client, upstream.id, { ...body, target_project_id: fork.id });
    assert.equal(reversed.status, 404);
    const hidden = (await app.root.post('/projects', { name: `hidden-${Date.now()}` })).body;
    const invisible = await create(upstream.developer.client, fork.id, { ...body, target_project_id: hidden.id });
    assert.equal(invisible.status, 404);
    assert.deepEqual(invisible.body, { message: '404 Project Not Found' });
  });
});

describe('GET /projects/:id/merge_requests', () => {
  let project: ProjectWorld<Role>;
  let first: any;
  let second: any;
  let third: any;

  before(async () => {
    project = await freshWorld(['reporter', 'stranger']);
    first = await opened(project, { title: 'Merged one' });
    second = await opened(project, { source_branch: 'feature2', title: 'Closed one' });
    await project.owner.client.put(`/projects/${project.id}/merge_requests/${second.id}`, { state_event: 'close' });
    third = await opened(project, { source_branch: 'feature2', title: 'WIP: open one' });
    // A merge is mr-git's to make; the row is set as one would leave it.
    await app.ctx.db
      .updateTable('merge_requests')
      .set({ state: 'merged', merge_commit_sha: project.shas[1] })
      .where('id', '=', first.id)
      .execute();
  });

  const list = (query: Record<string, unknown> = {}, client = project.owner.client) =>
    client.get(`/projects/${project.id}/merge_requests`, query);

  test('every state, newest first, paginated', async () => {
    const response = await list();
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.map((mr: any) => mr.id),
      [third.id, second.id, first.id],
    );
    assert.equal(response.headers.get('x-total'), '3');
    assert.ok(response.headers.get('link'));
    const [open, closed, merged] = response.body;
    assert.equal(open.work_in_progress, true);
    assert.equal(closed.state, 'closed');
    assert.equal(merged.state, 'merged');
    assert.equal(merged.merge_commit_sha, project.shas[1]);
    assert.equal(open.merge_commit_sha, null);
    assert.equal(merged.sha, project.shas[1]);
    const paged = await list({ per_page: 1, page: 2 });
    assert.deepEqual(
      paged.body.map((mr: any) => mr.id),
      [second.id],
    );
  });

  test('state filters: opened, closed, merged; anything else is all', async () => {
    const ids = async (state: string) => (await list({ state })).body.map((mr: any) => mr.id);
    assert.deepEqual(await ids('opened'), [third.id]);
    assert.deepEqual(await ids('closed'), [second.id]);
    assert.deepEqual(await ids('merged'), [first.id]);
    assert.equal((await ids('')).length, 3);
    assert.equal((await ids('weird')).length, 3);
  });

  test('iid, one or several; sort and order_by', async () => {
    assert.deepEqual(
      (await list({ iid: third.iid })).body.map((mr: any) => mr.id),
      [third.id],
    );
    const several = await project.owner.client.get(`/projects/${project.id}/merge_requests?iid[]=${first.iid}&iid[]=${third.iid}`);
    assert.deepEqual(
      several.body.map((mr: any) => mr.id),
      [third.id, first.id],
    );
    assert.deepEqual((await list({ iid: 'abc' })).body, []);
    assert.deepEqual(
      (await list({ sort: 'asc' })).body.map((mr: any) => mr.id),
      [first.id, second.id, third.id],
    );
    assert.deepEqual(
      (await list({ order_by: 'created_at', sort: 'asc' })).body.map((mr: any) => mr.id),
      [first.id, second.id, third.id],
    );
    // The second was closed after it was opened, yet before the third was: by update it is still in the middle.
    assert.deepEqual(
      (await list({ order_by: 'updated_at' })).body.map((mr: any) => mr.id),
      [third.id, second.id, first.id],
    );
    await project.owner.client.put(`/projects/${project.id}/merge_requests/${second.id}`, { title: 'Closed one, edited' });
    assert.deepEqual(
      (await list({ order_by: 'updated_at' })).body.map((mr: any) => mr.id),
      [second.id, third.id, first.id],
    );
    assert.deepEqual(
      (await list({ order_by: 'updated_at', sort: 'asc' })).body.map((mr: any) => mr.id),
      [first.id, third.id, second.id],
    );
  });

  test('readers list them; strangers of a private project 404; anonymous 401', async () => {
    assert.equal((await list({}, project.reporter.client)).status, 200);
    assert.equal((await list({}, project.stranger.client)).status, 404);
    assert.equal((await list({}, app.anonymous)).status, 401);
  });

  test('one by id, also on the singular legacy path; an unknown one 404', async () => {
    const one = await project.reporter.client.get(`/projects/${project.id}/merge_requests/${third.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.title, 'WIP: open one');
    assert.equal(one.body.milestone, null);
    const legacy = await project.reporter.client.get(`/projects/${project.id}/merge_request/${third.id}`);
    assert.deepEqual(legacy.body, one.body);
    const unknown = await project.reporter.client.get(`/projects/${project.id}/merge_requests/99999999`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { message: '404 Not found' });
    assert.equal((await project.reporter.client.get(`/projects/${project.id}/merge_requests/abc`)).status, 404);
    // Another project's merge request is not found through this one.
    assert.equal((await world.owner.client.get(`/projects/${world.id}/merge_requests/${third.id}`)).status, 404);
  });
});

describe('PUT /projects/:id/merge_requests/:merge_request_id', () => {
  test('changes title, description, milestone, labels and target branch; writes system notes', async () => {
    const project = await freshWorld(['developer']);
    const mr = await opened(project, { labels: 'old' });
    const milestone = (await project.owner.client.post(`/projects/${project.id}/milestones`, { title: 'v2' })).body;
    const path = `/projects/${project.id}/merge_requests/${mr.id}`;
    const response = await project.owner.client.put(path, {
      title: 'New title',
      description: 'New words',
      milestone_id: milestone.id,
      labels: 'new,label&bar',
      target_branch: 'feature2',
      assignee_id: project.developer.user.id,
    });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.equal(response.body.title, 'New title');
    assert.equal(response.body.description, 'New words');
    assert.equal(response.body.milestone.id, milestone.id);
    assert.deepEqual(response.body.labels, ['label&bar', 'new']);
    assert.equal(response.body.target_branch, 'feature2');
    assert.equal(response.body.assignee.id, project.developer.user.id);
    // A new version was recorded against the new target; the source head is the same.
    const versions = await app.ctx.db
      .selectFrom('merge_request_diffs')
      .selectAll()
      .where('merge_request_id', '=', mr.id)
      .orderBy('id')
      .execute();
    assert.equal(versions.length, 2);
    assert.equal(versions[1].start_commit_sha, project.shas[2]);
    const notes = (await project.owner.client.get(`${path}/notes`)).body.map((note: any) => note.body);
    assert.ok(notes.includes('Changed title: **{-A chang-}e** → **{+New titl+}e**'), JSON.stringify(notes));
    assert.ok(notes.includes(`Milestone changed to %${milestone.iid}`));
    assert.ok(notes.includes(`Reassigned to @${project.developer.user.username}`));
    assert.ok(notes.includes('Target branch changed from `master` to `feature2`'));
    assert.ok(notes.some((body: string) => /^Added ~\d+ ~\d+ and removed ~\d+ labels$/.test(body)));
  });

  test('marking and unmarking WIP are notes of their own; a title note only when the rest changed', async () => {
    const project = await freshWorld([]);
    const mr = await opened(project);
    const path = `/projects/${project.id}/merge_requests/${mr.id}`;
    assert.equal((await project.owner.client.put(path, { title: 'WIP: A change' })).body.work_in_progress, true);
    assert.equal((await project.owner.client.put(path, { title: '[WIP] Another change' })).body.work_in_progress, true);
    assert.equal((await project.owner.client.put(path, { title: 'Another change' })).body.work_in_progress, false);
    const notes = (await project.owner.client.get(`${path}/notes`)).body.map((note: any) => note.body);
    assert.deepEqual(notes, [
      'Marked this merge request as a **Work In Progress**',
      'Changed title: **{-WIP: A-} change** → **{+[WIP] Another+} change**',
      'Unmarked this merge request as a Work In Progress',
    ]);
  });

  test('close and reopen; a merged one stays merged', async () => {
    const project = await freshWorld([]);
    const mr = await opened(project);
    const path = `/projects/${project.id}/merge_requests/${mr.id}`;
    assert.equal((await project.owner.client.put(path, { state_event: 'close' })).body.state, 'closed');
    assert.equal((await project.owner.client.put(path, { state_event: 'reopen' })).body.state, 'reopened');
    const legacy = await project.owner.client.put(`/projects/${project.id}/merge_request/${mr.id}`, { state_event: 'close' });
    assert.equal(legacy.status, 200);
    assert.equal(legacy.body.state, 'closed');
    await app.ctx.db.updateTable('merge_requests').set({ state: 'merged' }).where('id', '=', mr.id).execute();
    assert.equal((await project.owner.client.put(path, { state_event: 'reopen' })).body.state, 'merged');
    assert.equal((await project.owner.client.put(path, { state_event: 'close' })).body.state, 'merged');
    const notes = (await project.owner.client.get(`${path}/notes`)).body.map((note: any) => note.body);
    assert.deepEqual(notes, ['Status changed to closed', 'Status changed to reopened', 'Status changed to closed']);
  });

  test('source_branch given: 400; a target that makes a duplicate: 409; an unknown target: 400', async () => {
    const project = await freshWorld([]);
    const mr = await opened(project);
    await opened(project, { target_branch: 'feature2', title: 'Other' });
    const path = `/projects/${project.id}/merge_requests/${mr.id}`;
    const source = await project.owner.client.put(path, { source_branch: 'feature2' });
    assert.equal(source.status, 400);
    assert.deepEqual(source.body, { message: 'Source branch cannot be changed' });
    const duplicate = await project.owner.client.put(path, { target_branch: 'feature2' });
    assert.equal(duplicate.status, 409);
    assert.deepEqual(duplicate.body, { message: ['Cannot Create: This merge request already exists: ["Other"]'] });
    const same = await project.owner.client.put(path, { target_branch: 'feature' });
    assert.equal(same.status, 422);
    const unknown = await project.owner.client.put(path, { target_branch: 'nowhere', title: 'Not saved' });
    assert.equal(unknown.status, 400);
    const after = (await project.owner.client.get(path)).body;
    assert.equal(after.target_branch, 'master');
    assert.equal(after.title, 'A change');
    assert.equal((await project.owner.client.put(`/projects/${project.id}/merge_requests/99999999`, { title: 'x' })).status, 404);
  });

  test('reopening a closed one while another is open between the same branches: 409, still closed', async () => {
    const project = await freshWorld([]);
    const mr = await opened(project);
    const path = `/projects/${project.id}/merge_requests/${mr.id}`;
    await project.owner.client.put(path, { state_event: 'close' });
    await opened(project, { title: 'Replacement' });
    const reopened = await project.owner.client.put(path, { state_event: 'reopen' });
    assert.equal(reopened.status, 409);
    assert.deepEqual(reopened.body, { message: ['Cannot Create: This merge request already exists: ["Replacement"]'] });
    assert.equal((await project.owner.client.get(path)).body.state, 'closed');
  });

  test('developers, the author and the assignee change it; a reporter 403', async () => {
    // Internal: a guest of a private project does not read its merge requests, even one assigned to them.
    const project = await freshWorld(['developer', 'reporter', 'guest'], 10);
    const mr = await opened(project, { assignee_id: project.guest.user.id });
    const path = `/projects/${project.id}/merge_requests/${mr.id}`;
    assert.equal((await project.reporter.client.put(path, { title: 'by reporter' })).status, 403);
    assert.equal((await project.developer.client.put(path, { title: 'by developer' })).status, 200);
    const byAssignee = await project.guest.client.put(path, { title: 'by assignee', labels: 'dropped' });
    assert.equal(byAssignee.status, 200);
    // The assignee, a guest, may not label it: the labels are dropped silently.
    assert.deepEqual(byAssignee.body.labels, []);
  });
});

describe('DELETE /projects/:id/merge_requests/:merge_request_id', () => {
  test('owners delete (the raw record); developers and unknown ids 403', async () => {
    const project = await freshWorld(['developer']);
    const mr = await opened(project, { labels: 'gone' });
    await project.owner.client.post(`/projects/${project.id}/merge_requests/${mr.id}/notes`, { body: 'a note' });
    const path = `/projects/${project.id}/merge_requests/${mr.id}`;
    assert.equal((await project.developer.client.delete(path)).status, 403);
    assert.equal((await project.owner.client.delete(`/projects/${project.id}/merge_requests/99999999`)).status, 403);
    const removed = await project.owner.client.delete(path);
    assert.equal(removed.status, 200);
    assert.equal(removed.body.id, mr.id);
    assert.equal(removed.body.iid, mr.iid);
    assert.equal(removed.body.title, 'A change');
    assert.equal(removed.body.source_branch, 'feature');
    assert.equal((await project.owner.client.get(path)).status, 404);
    const db = app.ctx.db;
    assert.equal(
      (await db.selectFrom('notes').select('id').where('noteable_type', '=', 'MergeRequest').where('noteable_id', '=', mr.id).execute())
        .length,
      0,
    );
    assert.equal(
      (await db.selectFrom('label_links').select('id').where('target_type', '=', 'MergeRequest').where('target_id', '=', mr.id).execute())
        .length,
      0,
    );
    assert.equal((await db.selectFrom('merge_request_diffs').select('id').where('merge_request_id', '=', mr.id).execute()).length, 0);
  });
});

describe('events and hooks', () => {
  test("open, close, reopen and update reach a Merge Request Hook with 8.12's payload; the events are recorded", async () => {
    const project = await freshWorld(['developer']);
    const listener = await HookListener.start();
    try {
      await project.owner.client.post(`/projects/${project.id}/hooks`, {
        url: listener.url,
        merge_requests_events: true,
        push_events: false,
      });
      const mr = await opened(project, { assignee_id: project.developer.user.id, title: 'WIP: hooked' });
      const path = `/projects/${project.id}/merge_requests/${mr.id}`;
      await project.owner.client.put(path, { state_event: 'close' });
      await project.owner.client.put(path, { state_event: 'reopen' });
      await project.owner.client.put(path, { title: 'Hooked again' });
      const hooks = await listener.waitForCount(4);
      assert.deepEqual(hooks.map((hook) => hook.body.object_attributes.action).sort(), ['close', 'open', 'reopen', 'update']);
      const open = hooks.find((hook) => hook.body.object_attributes.action === 'open')!;
      assert.equal(open.headers['x-gitlab-event'], 'Merge Request Hook');
      const { body } = open;
      assert.equal(body.object_kind, 'merge_request');
      assert.equal(body.user.username, project.owner.user.username);
      assert.equal(body.assignee.username, project.developer.user.username);
      assert.equal(body.project.path_with_namespace, project.path);
      assert.equal(body.repository.name, project.project.name);
      const attributes = body.object_attributes;
      assert.equal(attributes.id, mr.id);
      assert.equal(attributes.iid, mr.iid);
      assert.equal(attributes.title, 'WIP: hooked');
      assert.equal(attributes.state, 'opened');
      assert.equal(attributes.source_branch, 'feature');
      assert.equal(attributes.target_branch, 'master');
      assert.equal(attributes.source_project_id, project.id);
      assert.equal(attributes.target_project_id, project.id);
      assert.equal(attributes.work_in_progress, true);
      assert.match(attributes.created_at, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
      assert.match(attributes.url, new RegExp(`/${project.path}/merge_requests/${mr.iid}$`));
      assert.equal(attributes.source.path_with_namespace, project.path);
      assert.equal(attributes.target.path_with_namespace, project.path);
      assert.equal(attributes.last_commit.id, project.shas[1]);
      assert.equal(attributes.last_commit.message, 'add a\n');
      assert.match(attributes.last_commit.url, new RegExp(`/commit/${project.shas[1]}$`));
      const update = hooks.find((hook) => hook.body.object_attributes.action === 'update')!;
      assert.equal(update.body.object_attributes.title, 'Hooked again');
      assert.equal(update.body.object_attributes.work_in_progress, false);
      const close = hooks.find((hook) => hook.body.object_attributes.action === 'close')!;
      assert.equal(close.body.object_attributes.state, 'closed');

      const events = (await project.owner.client.get(`/projects/${project.id}/events`)).body.filter(
        (event: any) => event.target_type === 'MergeRequest',
      );
      assert.deepEqual(
        events.map((event: any) => event.action_name),
        ['opened', 'closed', 'opened'],
      );
      assert.equal(events[0].target_id, mr.id);
      assert.equal(events[2].target_title, 'WIP: hooked');
    } finally {
      await listener.close();
    }
  });
});

describe('project deletion', () => {
  test('removes its merge requests and what names them', async () => {
    const project = await freshWorld(['developer']);
    const mr = await opened(project, { labels: 'x', assignee_id: project.developer.user.id });
    const path = `/projects/${project.id}/merge_requests/${mr.id}`;
    const note = (await project.developer.client.post(`${path}/notes`, { body: 'hello' })).body;
    await project.developer.client.post(`${path}/notes/${note.id}/award_emoji`, { name: 'tada' });
    await project.developer.client.post(`${path}/award_emoji`, { name: 'thumbsup' });
    await project.owner.client.post(`${path}/subscription`);
    assert.equal((await project.owner.client.delete(`/projects/${project.id}`)).status, 200);
    const db = app.ctx.db;
    assert.equal((await db.selectFrom('merge_requests').select('id').where('id', '=', mr.id).execute()).length, 0);
    for (const [table, type, id] of [
      ['notes', 'noteable_type', 'noteable_id'],
      ['award_emoji', 'awardable_type', 'awardable_id'],
      ['subscriptions', 'subscribable_type', 'subscribable_id'],
      ['todos', 'target_type', 'target_id'],
      ['label_links', 'target_type', 'target_id'],
    ] as const) {
      const left = await db.selectFrom(table).select('id').where(type, '=', 'MergeRequest').where(id, '=', mr.id).execute();
      assert.equal(left.length, 0, table);
    }
    assert.equal(
      (await db.selectFrom('award_emoji').select('id').where('awardable_type', '=', 'Note').where('awardable_id', '=', note.id).execute())
        .length,
      0,
    );
  });
});
