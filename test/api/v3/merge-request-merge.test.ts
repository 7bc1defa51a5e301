import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startApp, type TestApp } from '../../support/app';
import { cloneUrl, commit, git, tempDir } from '../../support/git';
import { seedCommit } from '../../support/repo';
import { createProjectWorld, type ProjectWorld } from '../../support/project-world';
import { createMergeRequest, mergeRequestRow } from '../../support/merge-requests';
import { eventually } from '../../support/eventually';
import { repoPathOf } from '../../../src/services/repository/repositories';
import { unlockStuckMerges } from '../../../src/services/merge-requests/stuck-merges';

let app: TestApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

type World = ProjectWorld<'master' | 'developer' | 'reporter'>;

/** A project with master (README) and a branch `feature` adding a file, and a merge request of it by the developer. */
async function world(
  options: { feature?: Record<string, string>; master?: Record<string, string>; title?: string; description?: string } = {},
) {
  const w: World = await createProjectWorld(app, { roles: ['master', 'developer', 'reporter'] as const });
  const base = await seedCommit(app, w.id, { files: { 'README.md': 'hello\n', ...(options.master ?? {}) }, message: 'initial\n' });
  const feature = await seedCommit(app, w.id, {
    branch: 'feature',
    startRef: base,
    files: options.feature ?? { 'feature.txt': 'new\n' },
    message: 'Add the feature\n',
  });
  const mr = await createMergeRequest(app, {
    targetProjectId: w.id,
    sourceBranch: 'feature',
    authorId: w.developer.user.id,
    title: options.title,
    description: options.description,
  });
  return { w, base, feature, mr };
}

const mergePath = (w: { id: number }, mr: { id: number }) => `/projects/${w.id}/merge_requests/${mr.id}/merge`;

/** `git log` of a fresh clone of the project's master, as the owner sees it. */
async function cloneLog(w: World, format: string): Promise<string[]> {
  const dir = path.join(tempDir(), 'checkout');
  const cloned = await git(['clone', '-q', cloneUrl(app.url, w.path, w.owner.user.username, w.owner.token), dir]);
  assert.equal(cloned.code, 0, cloned.stderr);
  const log = await git(['log', `--format=${format}`, 'master'], dir);
  return log.stdout.split('\0').filter((entry) => entry.trim() !== '');
}

async function masterCommitsOf(w: { id: number }): Promise<Array<{ id: string; parents: string[] }>> {
  const out = await git(['--git-dir', repoPathOf(app.ctx, w.id), 'log', '--format=%H %P', 'master']);
  return out.stdout
    .trim()
    .split('\n')
    .map((line) => {
      const [id, ...parents] = line.split(' ');
      return { id, parents: parents.filter(Boolean) };
    });
}

describe('PUT /projects/:id/merge_requests/:merge_request_id/merge', () => {
  test('a clean merge makes a merge commit that a fresh clone shows with parents [target, source], the message and the merging user as author', async () => {
    const { w, base, feature, mr } = await world({ description: 'Why it matters' });
    const answer = await w.master.client.put(mergePath(w, mr), {});
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.state, 'merged');
    assert.match(answer.body.merge_commit_sha, /^[0-9a-f]{40}$/);

    const [entry] = await cloneLog(w, '%H%n%P%n%an <%ae>%n%cn <%ce>%n%B%x00');
    const [id, parents, author, committer, ...message] = entry.trim().split('\n');
    assert.equal(id, answer.body.merge_commit_sha);
    assert.deepEqual(parents.split(' '), [base, feature]);
    assert.equal(author, `${w.master.user.name} <${w.master.user.email}>`);
    assert.equal(committer, author);
    assert.equal(
      message.join('\n').trim(),
      `Merge branch 'feature' into 'master'\n\nMerge feature\n\nWhy it matters\n\nSee merge request !${mr.iid}`,
    );
    const files = await git(['--git-dir', repoPathOf(app.ctx, w.id), 'ls-tree', '--name-only', 'master']);
    assert.deepEqual(files.stdout.trim().split('\n').sort(), ['README.md', 'feature.txt']);
  });

  test('merge_commit_message replaces the default message', async () => {
    const { w, mr } = await world();
    const answer = await w.master.client.put(mergePath(w, mr), { merge_commit_message: 'Ship it' });
    assert.equal(answer.status, 200);
    const [message] = await cloneLog(w, '%B%x00');
    assert.equal(message.trim(), 'Ship it');
  });

  test('conflicting changes answer 406 Branch cannot be merged and leave the target and the request as they were', async () => {
    const { w, mr } = await world({ feature: { 'README.md': 'feature side\n' } });
    const before = await masterCommitsOf(w);
    await seedCommit(app, w.id, { files: { 'README.md': 'master side\n' } });
    const moved = await masterCommitsOf(w);
    const answer = await w.master.client.put(mergePath(w, mr), {});
    assert.equal(answer.status, 406);
    assert.deepEqual(answer.body, { message: 'Branch cannot be merged' });
    assert.deepEqual(await masterCommitsOf(w), moved);
    assert.notDeepEqual(moved, before);
    const row = await mergeRequestRow(app, mr.id);
    assert.equal(row.state, 'opened');
    assert.equal(row.merge_status, 'cannot_be_merged');
  });

  test('conflicts are answered before a wrong sha (406, then 409), as 8.12 checked them', async () => {
    const { w, mr } = await world({ feature: { 'README.md': 'feature side\n' } });
    await seedCommit(app, w.id, { files: { 'README.md': 'master side\n' } });
    assert.equal((await w.master.client.put(mergePath(w, mr), { sha: 'f'.repeat(40) })).status, 406);
  });

  test('a merge commit message git cannot store is 400, and the request stays open', async () => {
    const { w, mr } = await world();
    const answer = await w.master.client.put(mergePath(w, mr), { merge_commit_message: 'a\u0000b' });
    assert.equal(answer.status, 400);
    assert.equal((await mergeRequestRow(app, mr.id)).state, 'opened');
  });

  test('a closed merge request answers 405', async () => {
    const { w, mr } = await world();
    await app.ctx.db.updateTable('merge_requests').set({ state: 'closed' }).where('id', '=', mr.id).execute();
    const answer = await w.master.client.put(mergePath(w, mr), {});
    assert.equal(answer.status, 405);
    assert.deepEqual(answer.body, { message: '405 Method Not Allowed' });
  });

  test('a work in progress answers 405', async () => {
    const { w, mr } = await world({ title: 'WIP: not yet' });
    const answer = await w.master.client.put(mergePath(w, mr), {});
    assert.equal(answer.status, 405);
  });

  test('a deleted source branch ("broken") answers 405', async () => {
    const { w, mr } = await world();
    await git(['--git-dir', repoPathOf(app.ctx, w.id), 'update-ref', '-d', 'refs/heads/feature']);
    assert.equal((await w.master.client.put(mergePath(w, mr), {})).status, 405);
  });

  test('a reporter, who may not push to the target branch, gets 401 Unauthorized', async () => {
    const { w, mr } = await world();
    const answer = await w.reporter.client.put(mergePath(w, mr), {});
    assert.equal(answer.status, 401);
    assert.deepEqual(answer.body, { message: '401 Unauthorized' });
  });

  test('a protected target branch takes a master, or a developer when developers_can_merge', async () => {
    const { w, mr } = await world();
    assert.equal((await w.owner.client.put(`/projects/${w.id}/repository/branches/master/protect`, {})).status, 200);
    assert.equal((await w.developer.client.put(mergePath(w, mr), {})).status, 401);
    assert.equal(
      (await w.owner.client.put(`/projects/${w.id}/repository/branches/master/protect`, { developers_can_merge: true })).status,
      200,
    );
    const answer = await w.developer.client.put(mergePath(w, mr), {});
    assert.equal(answer.status, 200);
    assert.equal(answer.body.state, 'merged');
  });

  test('a sha other than the source head answers 409 naming the head; the right sha merges', async () => {
    const { w, feature, mr } = await world();
    const wrong = await w.master.client.put(mergePath(w, mr), { sha: '0'.repeat(40) });
    assert.equal(wrong.status, 409);
    assert.deepEqual(wrong.body, { message: `SHA does not match HEAD of source branch: ${feature}` });
    const row = await mergeRequestRow(app, mr.id);
    assert.equal(row.state, 'opened');
    assert.equal(row.merge_commit_sha, null);
    const right = await w.master.client.put(mergePath(w, mr), { sha: feature });
    assert.equal(right.status, 200);
    assert.equal(right.body.state, 'merged');
  });

  test('an unknown merge request is 404; so is one of another project', async () => {
    const { w } = await world();
    const other = await world();
    assert.equal((await w.master.client.put(`/projects/${w.id}/merge_requests/999999/merge`, {})).status, 404);
    assert.equal((await w.owner.client.put(mergePath(w, other.mr), {})).status, 404);
  });

  test('the singular merge_request path merges too', async () => {
    const { w, mr } = await world();
    const answer = await w.master.client.put(`/projects/${w.id}/merge_request/${mr.id}/merge`, {});
    assert.equal(answer.status, 200);
    assert.equal(answer.body.state, 'merged');
  });

  test('a request left locked by a merge that died is refused (405) until the sweep unlocks it', async () => {
    const { w, mr } = await world();
    const long = new Date(Date.now() - 60 * 60 * 1000).toISOString();
    await app.ctx.db
      .updateTable('merge_requests')
      .set({ state: 'locked', locked_from: 'reopened', locked_at: long })
      .where('id', '=', mr.id)
      .execute();
    assert.equal((await w.master.client.put(mergePath(w, mr), {})).status, 405);
    assert.equal(await unlockStuckMerges(app.ctx), 1);
    assert.equal((await mergeRequestRow(app, mr.id)).state, 'reopened');
    assert.equal((await w.master.client.put(mergePath(w, mr), {})).status, 200);
  });

  test('anonymous callers are 401, even on a public project', async () => {
    const { w, mr } = await world();
    assert.equal((await w.owner.client.put(`/projects/${w.id}`, { visibility_level: 20 })).status, 200);
    assert.equal((await app.anonymous.put(mergePath(w, mr), {})).status, 401);
    assert.equal((await app.anonymous.post(`/projects/${w.id}/merge_requests/${mr.id}/cancel_merge_when_build_succeeds`, {})).status, 401);
    assert.equal((await mergeRequestRow(app, mr.id)).state, 'opened');
  });

  test('bad input is a 4xx, never a 500, and merges nothing', async () => {
    const { w, mr } = await world();
    const answers = await Promise.all([
      w.master.client.put(`/projects/${w.id}/merge_requests/abc/merge`, {}),
      w.master.client.put(`/projects/${w.id}/merge_requests/99999999999/merge`, {}),
      w.master.client.put(mergePath(w, mr), { should_remove_source_branch: 'perhaps' }),
      w.master.client.put(mergePath(w, mr), { merge_when_build_succeeds: [1, 2] }),
      w.master.client.put(mergePath(w, mr), { sha: { a: 1 } }),
      w.master.client.get(`/projects/${w.id}/merge_requests/${mr.id}/versions/abc`),
      w.master.client.get(`/projects/${w.id}/merge_requests/${mr.id}/closes_issues?page=-1&per_page=abc`),
    ]);
    for (const answer of answers)
      assert.ok((answer.status >= 400 && answer.status < 500) || answer.status === 200, `${answer.status} ${JSON.stringify(answer.body)}`);
    assert.equal((await mergeRequestRow(app, mr.id)).state, 'opened');
  });

  test('a merged request is not merged again (405)', async () => {
    const { w, mr } = await world();
    assert.equal((await w.master.client.put(mergePath(w, mr), {})).status, 200);
    assert.equal((await w.master.client.put(mergePath(w, mr), {})).status, 405);
  });

  test('two merges of the same request at once make exactly one merge commit', async () => {
    const { w, base, mr } = await world();
    const answers = await Promise.all([
      w.master.client.put(mergePath(w, mr), {}),
      w.owner.client.put(mergePath(w, mr), {}),
      w.master.client.put(mergePath(w, mr), {}),
    ]);
    const statuses = answers.map((answer) => answer.status).sort();
    assert.equal(statuses.filter((status) => status === 200).length, 1, JSON.stringify(statuses));
    assert.ok(
      statuses.every((status) => status === 200 || status === 405),
      JSON.stringify(statuses),
    );
    const merges = (await masterCommitsOf(w)).filter((commit) => commit.parents.length === 2);
    assert.equal(merges.length, 1);
    assert.equal(merges[0].parents[0], base);
    assert.equal((await mergeRequestRow(app, mr.id)).state, 'merged');
  });

  test('commits pushed to the target while the merge is made are all kept', async () => {
    const { w, mr } = await world();
    const writes = Array.from({ length: 4 }, (_, index) =>
      w.owner.client.post(`/projects/${w.id}/repository/files`, {
        file_path: `concurrent-${index}.txt`,
        branch_name: 'master',
        content: `${index}\n`,
        commit_message: `concurrent ${index}`,
      }),
    );
    const [merged, ...written] = await Promise.all([w.master.client.put(mergePath(w, mr), {}), ...writes]);
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    for (const answer of written) assert.equal(answer.status, 201, JSON.stringify(answer.body));
    const files = await git(['--git-dir', repoPathOf(app.ctx, w.id), 'ls-tree', '--name-only', 'master']);
    const names = files.stdout.trim().split('\n');
    for (const name of ['feature.txt', 'concurrent-0.txt', 'concurrent-1.txt', 'concurrent-2.txt', 'concurrent-3.txt'])
      assert.ok(names.includes(name), `${name} in ${names}`);
    const merges = (await masterCommitsOf(w)).filter((commit) => commit.parents.length === 2);
    assert.deepEqual(
      merges.map((commit) => commit.id),
      [merged.body.merge_commit_sha],
    );
  });

  test('pushes over git racing merges: every push git accepted is in the target, every merge made is there once', async () => {
    const { w, base } = await world();
    const requests = [];
    for (let index = 0; index < 3; index++) {
      await seedCommit(app, w.id, { branch: `race-${index}`, startRef: base, files: { [`race-${index}.txt`]: `${index}\n` } });
      requests.push(await createMergeRequest(app, { targetProjectId: w.id, sourceBranch: `race-${index}`, authorId: w.developer.user.id }));
    }
    const dir = path.join(tempDir(), 'racer');
    assert.equal((await git(['clone', '-q', cloneUrl(app.url, w.path, w.owner.user.username, w.owner.token), dir])).code, 0);
    const accepted: string[] = [];
    for (const [index, request] of requests.entries()) {
      await git(['pull', '-q', '--rebase', 'origin', 'master'], dir);
      await commit(dir, { [`pushed-${index}.txt`]: `${index}\n` }, `pushed ${index}`);
      const sha = (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();
      const [merged, pushed] = await Promise.all([
        w.master.client.put(mergePath(w, request), {}),
        git(['push', '-q', 'origin', 'master'], dir),
      ]);
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      if (pushed.code === 0) accepted.push(sha);
    }
    const history = (await masterCommitsOf(w)).map((entry) => entry.id);
    for (const sha of accepted) assert.ok(history.includes(sha), `pushed ${sha} kept`);
    assert.equal((await masterCommitsOf(w)).filter((entry) => entry.parents.length === 2).length, 3);
  });

  test('should_remove_source_branch removes the merged source branch', async () => {
    const { w, mr } = await world();
    const answer = await w.master.client.put(mergePath(w, mr), { should_remove_source_branch: true });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.should_remove_source_branch, true);
    assert.equal((await w.master.client.get(`/projects/${w.id}/repository/branches/feature`)).status, 404);
  });

  test('the merge is a push to the target branch: its push event follows', async () => {
    const { w, mr } = await world();
    const answer = await w.master.client.put(mergePath(w, mr), {});
    assert.equal(answer.status, 200);
    const event = await eventually(
      async () => {
        const events = await w.owner.client.get(`/projects/${w.id}/events`);
        return events.body.find?.((e: any) => e.action_name === 'pushed to' && e.data?.after === answer.body.merge_commit_sha);
      },
      { message: 'the push event of the merge commit' },
    );
    assert.equal(event.author_id, w.master.user.id);
  });

  test('merging records the accepted event (after the opened one) and the "Status changed to merged" note, and finishes the todos on it', async () => {
    const { w, mr } = await world();
    await app.ctx.db
      .insertInto('todos')
      .values({
        user_id: w.reporter.user.id,
        project_id: w.id,
        author_id: w.developer.user.id,
        target_type: 'MergeRequest',
        target_id: mr.id,
        note_id: null,
        action: 1,
        state: 'pending',
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    assert.equal((await w.master.client.put(mergePath(w, mr), {})).status, 200);
    const db = app.ctx.db;
    const events = await db
      .selectFrom('events')
      .selectAll()
      .where('target_type', '=', 'MergeRequest')
      .where('target_id', '=', mr.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      events.map((event) => event.action),
      ['opened', 'accepted'],
    );
    const notes = await db
      .selectFrom('notes')
      .select('note')
      .where('noteable_type', '=', 'MergeRequest')
      .where('noteable_id', '=', mr.id)
      .execute();
    assert.ok(notes.some((note) => note.note === 'Status changed to merged'));
    const todos = await db
      .selectFrom('todos')
      .select('state')
      .where('target_type', '=', 'MergeRequest')
      .where('target_id', '=', mr.id)
      .execute();
    assert.deepEqual(
      todos.map((todo) => todo.state),
      ['done'],
    );
  });
});

describe('merging a fork into its upstream', () => {
  test("the fork's branch is merged into the upstream's master, and a clone of the upstream shows it", async () => {
    const upstream: World = await createProjectWorld(app, { roles: ['master', 'developer', 'reporter'] as const });
    const base = await seedCommit(app, upstream.id, { files: { 'README.md': 'hello\n' } });
    const forked = await upstream.developer.client.post(`/projects/fork/${upstream.id}`, {});
    assert.equal(forked.status, 201, JSON.stringify(forked.body));
    const fork = forked.body;
    await eventually(async () => (await git(['--git-dir', repoPathOf(app.ctx, fork.id), 'rev-parse', '--verify', 'master'])).code === 0, {
      message: "the fork's repository",
    });
    const feature = await seedCommit(app, fork.id, {
      branch: 'fork-feature',
      startRef: base,
      files: { 'from-fork.txt': 'fork\n' },
      message: 'From the fork\n',
    });
    const mr = await createMergeRequest(app, {
      targetProjectId: upstream.id,
      sourceProjectId: fork.id,
      sourceBranch: 'fork-feature',
      authorId: upstream.developer.user.id,
    });
    const answer = await upstream.master.client.put(mergePath(upstream, mr), {});
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    const [entry] = await cloneLog(upstream, '%P%x00');
    assert.deepEqual(entry.trim().split(' '), [base, feature]);
  });
});

describe('GET …/closes_issues, and merging closes them', () => {
  test('lists the issues the description and commits close when targeting the default branch; merging closes them as the merging user', async () => {
    const w: World = await createProjectWorld(app, { roles: ['master', 'developer', 'reporter'] as const });
    const base = await seedCommit(app, w.id, { files: { 'README.md': 'hello\n' } });
    const issues: any[] = [];
    for (const title of ['first', 'second', 'untouched']) {
      const created = await w.owner.client.post(`/projects/${w.id}/issues`, { title });
      assert.equal(created.status, 201);
      issues.push(created.body);
    }
    await seedCommit(app, w.id, {
      branch: 'fix',
      startRef: base,
      files: { 'fix.txt': 'x\n' },
      message: `Repair things\n\nFixes #${issues[1].iid}\n`,
    });
    const mr = await createMergeRequest(app, {
      targetProjectId: w.id,
      sourceBranch: 'fix',
      authorId: w.developer.user.id,
      description: `Closes #${issues[0].iid}`,
    });
    const listed = await w.reporter.client.get(`/projects/${w.id}/merge_requests/${mr.id}/closes_issues`);
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.map((issue: any) => issue.id),
      [issues[0].id, issues[1].id],
    );
    assert.equal(listed.headers.get('x-total'), '2');
    assert.equal((await w.reporter.client.get(`/projects/${w.id}/merge_request/${mr.id}/closes_issues`)).body.length, 2);

    assert.equal((await w.master.client.put(mergePath(w, mr), {})).status, 200);
    // Closed in the background, after the merge.
    await eventually(async () => (await w.owner.client.get(`/projects/${w.id}/issues/${issues[1].id}`)).body.state === 'closed', {
      message: 'the issues closed',
    });
    for (const [index, state] of [
      [0, 'closed'],
      [1, 'closed'],
      [2, 'opened'],
    ] as const) {
      const issue = await w.owner.client.get(`/projects/${w.id}/issues/${issues[index].id}`);
      assert.equal(issue.body.state, state, issues[index].title);
    }
    const closedEvents = await app.ctx.db
      .selectFrom('events')
      .selectAll()
      .where('target_type', '=', 'Issue')
      .where('action', '=', 'closed')
      .where('project_id', '=', w.id)
      .execute();
    assert.deepEqual(
      closedEvents.map((event) => event.author_id),
      [w.master.user.id, w.master.user.id],
    );
  });

  test('none when the merge request targets another branch than the default one; [] without references', async () => {
    const w: World = await createProjectWorld(app, { roles: ['master', 'developer', 'reporter'] as const });
    const base = await seedCommit(app, w.id, { files: { 'README.md': 'hello\n' } });
    await seedCommit(app, w.id, { branch: 'stable', startRef: base, files: { 's.txt': 's\n' } });
    await seedCommit(app, w.id, { branch: 'topic', startRef: base, files: { 't.txt': 't\n' } });
    const issue = await w.owner.client.post(`/projects/${w.id}/issues`, { title: 'bug' });
    const toStable = await createMergeRequest(app, {
      targetProjectId: w.id,
      sourceBranch: 'topic',
      targetBranch: 'stable',
      authorId: w.developer.user.id,
      description: `Closes #${issue.body.iid}`,
    });
    assert.deepEqual((await w.reporter.client.get(`/projects/${w.id}/merge_requests/${toStable.id}/closes_issues`)).body, []);
    const plain = await createMergeRequest(app, {
      targetProjectId: w.id,
      sourceBranch: 'topic',
      authorId: w.developer.user.id,
      description: 'nothing to close',
    });
    assert.deepEqual((await w.reporter.client.get(`/projects/${w.id}/merge_requests/${plain.id}/closes_issues`)).body, []);
    assert.equal((await w.reporter.client.get(`/projects/${w.id}/merge_requests/999999/closes_issues`)).status, 404);
  });
});
