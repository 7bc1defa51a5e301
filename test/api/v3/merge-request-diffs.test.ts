import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startApp, type TestApp } from '../../support/app';
import { cloneUrl, commit, git, tempDir } from '../../support/git';
import { seedCommit } from '../../support/repo';
import { createProjectWorld, type ProjectWorld } from '../../support/project-world';
import { createMergeRequest, mergeRequestRow } from '../../support/merge-requests';
import { eventually } from '../../support/eventually';

let app: TestApp;

before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

type World = ProjectWorld<'master' | 'developer' | 'reporter'>;

/** master with a README; `feature` with three commits (a.txt, b.txt, c.txt); a merge request of it. */
async function world() {
  const w: World = await createProjectWorld(app, { roles: ['master', 'developer', 'reporter'] as const });
  const base = await seedCommit(app, w.id, { files: { 'README.md': 'hello\n' }, message: 'initial\n' });
  const commits: string[] = [];
  for (const name of ['a', 'b', 'c']) {
    commits.push(
      await seedCommit(app, w.id, { branch: 'feature', startRef: base, files: { [`${name}.txt`]: `${name}\n` }, message: `Add ${name}\n` }),
    );
  }
  const mr = await createMergeRequest(app, { targetProjectId: w.id, sourceBranch: 'feature', authorId: w.developer.user.id });
  return { w, base, commits, mr, at: `/projects/${w.id}/merge_requests/${mr.id}` };
}

/** One commit on `branch` through the files API: a push, so push processing (and the merge request refresh) follows. */
async function pushFile(w: World, branch: string, file: string, content: string, message = `Add ${file}`): Promise<void> {
  const answer = await w.owner.client.post(`/projects/${w.id}/repository/files`, {
    file_path: file,
    branch_name: branch,
    content,
    commit_message: message,
  });
  assert.equal(answer.status, 201, JSON.stringify(answer.body));
}

async function mergeStatus(w: World, at: string): Promise<string> {
  return (await w.reporter.client.get(`${at}/changes`)).body.merge_status;
}

describe('GET …/commits', () => {
  test("the latest version's commits, newest first, as RepoCommit", async () => {
    const { w, commits, at, mr } = await world();
    const answer = await w.reporter.client.get(`${at}/commits`);
    assert.equal(answer.status, 200);
    assert.deepEqual(
      answer.body.map((c: any) => c.id),
      [...commits].reverse(),
    );
    assert.deepEqual(Object.keys(answer.body[0]).sort(), [
      'author_email',
      'author_name',
      'created_at',
      'id',
      'message',
      'short_id',
      'title',
    ]);
    assert.equal(answer.body[0].title, 'Add c');
    const singular = await w.reporter.client.get(`/projects/${w.id}/merge_request/${mr.id}/commits`);
    assert.deepEqual(singular.body, answer.body);
  });

  test('an unknown merge request is 404; a stranger to a private project gets 404 for the project', async () => {
    const { w, at } = await world();
    const missing = await w.reporter.client.get(`/projects/${w.id}/merge_requests/999999/commits`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { message: '404 Not found' });
    const stranger = await app.createUser();
    const hidden = await stranger.client.get(`${at}/commits`);
    assert.equal(hidden.status, 404);
    assert.deepEqual(hidden.body, { message: '404 Project Not Found' });
  });
});

describe('GET …/changes', () => {
  test('the merge request with the diffs of its latest version against the merge base', async () => {
    const { w, at, mr, commits } = await world();
    // A change on master after the branch point is not part of the merge request's changes.
    await seedCommit(app, w.id, { files: { 'master-only.txt': 'm\n' } });
    const answer = await w.reporter.client.get(`${at}/changes`);
    assert.equal(answer.status, 200);
    assert.equal(answer.body.id, mr.id);
    assert.equal(answer.body.sha, commits[2]);
    assert.deepEqual(answer.body.changes.map((change: any) => change.new_path).sort(), ['a.txt', 'b.txt', 'c.txt']);
    const a = answer.body.changes.find((change: any) => change.new_path === 'a.txt');
    assert.equal(a.new_file, true);
    assert.match(a.diff, /\+a/);
    assert.equal((await w.reporter.client.get(`/projects/${w.id}/merge_request/${mr.id}/changes`)).body.changes.length, 3);
  });
});

describe('GET …/versions and …/versions/:version_id', () => {
  test('each push to the source branch records a version; newest first; one version shows its commits and diffs', async () => {
    const { w, at, commits, base } = await world();
    await pushFile(w, 'feature', 'd.txt', 'd\n');
    const versions = await eventually(
      async () => {
        const answer = await w.reporter.client.get(`${at}/versions`);
        return answer.body.length === 2 ? answer.body : undefined;
      },
      { message: 'a second version after the push' },
    );
    const head = (await w.reporter.client.get(`/projects/${w.id}/repository/branches/feature`)).body.commit.id;
    assert.equal(versions[0].head_commit_sha, head);
    assert.equal(versions[0].base_commit_sha, base);
    assert.equal(versions[0].start_commit_sha, base);
    assert.equal(versions[0].real_size, '4');
    assert.equal(versions[1].head_commit_sha, commits[2]);
    assert.ok(versions[0].id > versions[1].id);
    assert.deepEqual(Object.keys(versions[0]).sort(), [
      'base_commit_sha',
      'created_at',
      'head_commit_sha',
      'id',
      'merge_request_id',
      'real_size',
      'start_commit_sha',
      'state',
    ]);

    const older = await w.reporter.client.get(`${at}/versions/${versions[1].id}`);
    assert.equal(older.status, 200);
    assert.equal(older.body.head_commit_sha, commits[2]);
    assert.deepEqual(
      older.body.commits.map((c: any) => c.id),
      [...commits].reverse(),
    );
    assert.equal(older.body.diffs.length, 3);
    const newer = await w.reporter.client.get(`${at}/versions/${versions[0].id}`);
    assert.equal(newer.body.commits.length, 4);
    assert.equal((await w.reporter.client.get(`${at}/commits`)).body[0].id, head);

    // The push is told on the merge request, as 8.12's "Added N commits" note.
    const notes = await app.ctx.db
      .selectFrom('notes')
      .select('note')
      .where('noteable_type', '=', 'MergeRequest')
      .where('system', '=', 1)
      .execute();
    assert.ok(
      notes.some((note) => note.note.startsWith(`Added 1 commit:\n\n* ${head.slice(0, 8)} - Add d.txt`)),
      JSON.stringify(notes),
    );
  });

  test('an unknown version or merge request is 404', async () => {
    const { w, at } = await world();
    assert.equal((await w.reporter.client.get(`${at}/versions/999999`)).status, 404);
    assert.equal((await w.reporter.client.get(`/projects/${w.id}/merge_requests/999999/versions`)).status, 404);
  });
});

describe('merge_status, checked in the background', () => {
  test('a new merge request becomes can_be_merged; a conflicting push to the target makes it cannot_be_merged; a push to the source that resolves it makes it mergeable again', async () => {
    const { w, at } = await world();
    await eventually(async () => (await mergeStatus(w, at)) === 'can_be_merged', { message: 'can_be_merged' });
    await pushFile(w, 'master', 'a.txt', 'master side\n');
    await eventually(async () => (await mergeStatus(w, at)) === 'cannot_be_merged', {
      message: 'cannot_be_merged after a conflicting push to the target',
    });
    const update = await w.owner.client.put(`/projects/${w.id}/repository/files`, {
      file_path: 'a.txt',
      branch_name: 'feature',
      content: 'master side\n',
      commit_message: 'Agree with master',
    });
    assert.equal(update.status, 200, JSON.stringify(update.body));
    await eventually(async () => (await mergeStatus(w, at)) === 'can_be_merged', { message: 'can_be_merged after the source agreed' });
  });
});

describe('a push that merges by hand', () => {
  test('pushing the source branch into the target with the real git client marks the merge request merged', async () => {
    const { w, at, mr } = await world();
    const dir = path.join(tempDir(), 'work');
    const url = cloneUrl(app.url, w.path, w.owner.user.username, w.owner.token);
    assert.equal((await git(['clone', '-q', url, dir])).code, 0);
    assert.equal((await git(['merge', '-q', '--no-ff', '-m', 'merged by hand', 'origin/feature'], dir)).code, 0);
    await commit(dir, { 'after.txt': 'x\n' }, 'after the merge');
    const pushed = await git(['push', '-q', 'origin', 'master'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
    await eventually(async () => (await w.reporter.client.get(`${at}/changes`)).body.state === 'merged', { message: 'merged by the push' });
    const events = await app.ctx.db
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
    assert.equal((await mergeRequestRow(app, mr.id)).state, 'merged');
  });
});

describe('a merge request from a fork', () => {
  test("a push to the fork's branch records a version of the upstream's merge request, read from the upstream repository", async () => {
    const upstream: World = await createProjectWorld(app, { roles: ['master', 'developer', 'reporter'] as const });
    const base = await seedCommit(app, upstream.id, { files: { 'README.md': 'hello\n' } });
    const forked = await upstream.developer.client.post(`/projects/fork/${upstream.id}`, {});
    assert.equal(forked.status, 201);
    const fork = forked.body;
    await eventually(
      async () => (await git(['--git-dir', app.services.repositories.path(fork.id), 'rev-parse', '--verify', 'master'])).code === 0,
      { message: "the fork's repository" },
    );
    await seedCommit(app, fork.id, { branch: 'topic', startRef: base, files: { 'one.txt': '1\n' }, message: 'One\n' });
    const mr = await createMergeRequest(app, {
      targetProjectId: upstream.id,
      sourceProjectId: fork.id,
      sourceBranch: 'topic',
      authorId: upstream.developer.user.id,
    });
    const added = await upstream.developer.client.post(`/projects/${fork.id}/repository/files`, {
      file_path: 'two.txt',
      branch_name: 'topic',
      content: '2\n',
      commit_message: 'Two',
    });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    const at = `/projects/${upstream.id}/merge_requests/${mr.id}`;
    const versions = await eventually(
      async () => {
        const answer = await upstream.reporter.client.get(`${at}/versions`);
        return answer.body.length === 2 ? answer.body : undefined;
      },
      { message: 'a second version after the push to the fork' },
    );
    const commits = await upstream.reporter.client.get(`${at}/commits`);
    assert.deepEqual(
      commits.body.map((c: any) => c.title),
      ['Two', 'One'],
    );
    assert.equal(commits.body[0].id, versions[0].head_commit_sha);
    const changes = await upstream.reporter.client.get(`${at}/changes`);
    assert.deepEqual(changes.body.changes.map((change: any) => change.new_path).sort(), ['one.txt', 'two.txt']);
  });
});
