import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startApp, type TestApp } from '../support/app';
import { createIssue } from '../support/create';
import { cloneUrl, commit, git, tempDir, workTree } from '../support/git';
import { seedCommit } from '../support/repo';
import { putArtifacts, putTrace, seedPipeline } from '../support/ci';
import { eventually } from '../support/eventually';
import { archiveContents, backup, emptyInstance, restore, serveRestored, sha256Of, type Target } from '../support/backup';
import { repositoryPath } from '../../src/git/paths';

/*
 * `forge backup` of a running instance and `forge restore` of its archive, as an operator runs
 * them: processes of their own, the instances named by DATA_DIR and DATABASE_URL (SQLite, or
 * PostgreSQL under TEST_DATABASE_URL). The restored instance is served and compared with the
 * source through the API, git and the files' bytes.
 */

let app: TestApp;
let instance: Record<string, string>;
let projectId: number;
let forkId: number;
let buildId: number;
let artifacts: Buffer;
const targets: Target[] = [];
const archives = tempDir();

const newTarget = async (base = process.env.TEST_DATABASE_URL) => {
  const target = await emptyInstance(base);
  targets.push(target);
  return target;
};

before(async () => {
  app = await startApp();
  instance = { DATA_DIR: app.dataDir, DATABASE_URL: app.databaseUrl };
  const created = await app.root.post('/projects', { name: 'kept', visibility_level: 20 });
  assert.equal(created.status, 201);
  projectId = created.body.id;
  const head = await seedCommit(app, projectId, { files: { 'README.md': 'hello\n' } });
  assert.equal(
    (await app.root.post(`/projects/${projectId}/repository/tags`, { tag_name: 'v1', ref: 'master', message: 'one' })).status,
    201,
  );
  const forked = await app.as((await app.createUser()).token).post(`/projects/fork/${projectId}`);
  assert.equal(forked.status, 201);
  forkId = forked.body.id;
  issueRowId = (await createIssue(app.root, projectId, { title: 'notes go here' })).id;
  const pipeline = await seedPipeline(app, projectId, { sha: head, status: 'success', builds: [{ name: 'test', status: 'success' }] });
  buildId = pipeline.builds[0];
  await putTrace(app, projectId, buildId, 'the build said this\n');
  artifacts = await putArtifacts(app, projectId, buildId, {
    content: Buffer.from([0x50, 0x4b, 5, 6, ...new Array(18).fill(0), 0xff, 0x00]),
  });
});

after(async () => {
  await app.close();
  for (const target of targets) await target.drop();
});

/** Pushes a commit to `busy` then comments on the issue, over and over, until told to stop: at any moment the source has pushed n and commented n or n - 1 times. */
function busyWriter(): { stop(): Promise<number> } {
  let stopping = false;
  const done = (async () => {
    const work = await workTree('busy');
    const url = cloneUrl(app.url, 'root/kept', 'root', app.rootToken);
    let n = 0;
    while (!stopping) {
      n++;
      await commit(work, { 'count.txt': `${n}\n` }, `push ${n}`);
      const pushed = await git(['push', '-q', '-f', url, 'busy'], work);
      assert.equal(pushed.code, 0, pushed.stderr);
      assert.equal((await app.root.post(`/projects/${projectId}/issues/${issueId()}/notes`, { body: `note ${n}` })).status, 201);
    }
    return n;
  })();
  return {
    async stop() {
      stopping = true;
      return done;
    },
  };
}

let issueRowId = 0;
const issueId = () => issueRowId;

async function projectState(client: TestApp['root'], id: number) {
  const [project, branches, tags, issues, builds] = await Promise.all([
    client.get(`/projects/${id}`),
    client.get(`/projects/${id}/repository/branches`),
    client.get(`/projects/${id}/repository/tags`),
    client.get(`/projects/${id}/issues`),
    client.get(`/projects/${id}/builds`),
  ]);
  return {
    project: { name: project.body.name, path: project.body.path_with_namespace, default_branch: project.body.default_branch },
    branches: branches.body.map((branch: any) => [branch.name, branch.commit.id]),
    tags: tags.body.map((tag: any) => [tag.name, tag.commit.id, tag.message]),
    issues: issues.body.map((issue: any) => [issue.iid, issue.title, issue.state]),
    builds: builds.body.map((build: any) => [build.id, build.name, build.status, build.artifacts_file?.filename ?? null]),
  };
}

async function download(url: string, token: string): Promise<Buffer> {
  const response = await fetch(url, { headers: { 'private-token': token } });
  assert.equal(response.status, 200, url);
  return Buffer.from(await response.arrayBuffer());
}

describe('forge backup while the server works, then forge restore', () => {
  test('restores an instance whose lists, repositories and files equal the source as of the snapshot', async () => {
    const writer = busyWriter();
    // Let the writer get going, so that the snapshot falls among its writes.
    await eventually(async () =>
      (await app.root.get(`/projects/${projectId}/issues/${issueRowId}/notes`)).body.length >= 2 ? true : undefined,
    );
    const archive = path.join(archives, 'busy.tar');
    const saved = await backup(instance, archive);
    const written = await writer.stop();
    assert.equal(saved.code, 0, saved.stderr);

    // The size and checksum it printed are the file's; the secrets are beside it, not in it.
    assert.match(saved.stdout, new RegExp(`size +${fs.statSync(archive).size} bytes`));
    assert.match(saved.stdout, new RegExp(`sha256 +${sha256Of(archive)}`));
    assert.match(saved.stderr, /secret key is NOT in the archive/);
    assert.equal(fs.statSync(`${archive}.secrets`).mode & 0o777, 0o600);
    const { names } = await archiveContents(archive);
    assert.ok(!names.some((name) => /secret\.key|ssh_host/.test(name)), names.join('\n'));
    assert.ok(names.includes(`data/${path.relative(app.dataDir, repositoryPath(app.dataDir, forkId))}/packed-refs`));

    const target = await newTarget();
    const restored = await restore(target.env, archive);
    assert.equal(restored.code, 0, restored.stderr);
    const { server, root, url } = await serveRestored(target, app.rootToken);
    try {
      // Consistent: the restored notes are the source's first ones, and as many as the pushes the restored branch holds (or one fewer).
      const notes = (await root.get(`/projects/${projectId}/issues/${issueRowId}/notes`, { per_page: 100 })).body;
      const sourceNotes = (await app.root.get(`/projects/${projectId}/issues/${issueRowId}/notes`, { per_page: 100 })).body;
      const bodies = notes.map((note: any) => note.body).sort();
      assert.deepEqual(
        bodies,
        sourceNotes
          .map((note: any) => note.body)
          .filter((body: string) => bodies.includes(body))
          .sort(),
      );
      const busy = (await root.get(`/projects/${projectId}/repository/branches/busy`)).body;
      const pushes = Number(busy.commit.message.match(/push (\d+)/)[1]);
      assert.ok(notes.length === pushes || notes.length === pushes - 1, `${pushes} pushes and ${notes.length} notes`);
      assert.ok(pushes < written || notes.length < written, 'the snapshot fell before the writer stopped');

      // Everything that did not move equals the source.
      for (const id of [projectId, forkId]) {
        const [left, right] = [await projectState(app.root, id), await projectState(root, id)];
        left.branches = left.branches.filter(([name]: string[]) => name !== 'busy');
        right.branches = right.branches.filter(([name]: string[]) => name !== 'busy');
        assert.deepEqual(right, left);
      }
      for (const listPath of ['/projects', '/users', '/namespaces']) {
        const [left, right] = [await app.root.get(listPath, { per_page: 100 }), await root.get(listPath, { per_page: 100 })];
        assert.equal(right.status, 200);
        const strip = (items: any[]) =>
          items.map(({ last_activity_at, http_url_to_repo, web_url, ssh_url_to_repo, avatar_url, ...rest }) => rest);
        assert.deepEqual(strip(right.body).length, strip(left.body).length);
        assert.deepEqual(
          strip(right.body).map((item: any) => item.id),
          strip(left.body).map((item: any) => item.id),
        );
      }
      // The sealed token unseals with the restored secret key.
      const session = await root.post('/session', { login: 'root', password: 'rootpassword' });
      assert.equal(session.body.private_token, app.rootToken);

      // The files: trace and artifacts, byte for byte.
      assert.equal((await root.get(`/projects/${projectId}/builds/${buildId}/trace`)).text, 'the build said this\n');
      assert.deepEqual(await download(`${url}/api/v3/projects/${projectId}/builds/${buildId}/artifacts`, app.rootToken), artifacts);

      // The repositories: whole (git fsck), refs as the source had them (busy: a commit of the source's branch).
      for (const id of [projectId, forkId]) {
        const repo = repositoryPath(target.dataDir, id);
        const fsck = await git(['--git-dir', repo, 'fsck', '--no-progress']);
        assert.equal(fsck.code, 0, fsck.stderr);
        const refs = (await git(['--git-dir', repo, 'for-each-ref', '--format=%(objectname) %(refname)'])).stdout;
        const sourceRefs = (await git(['--git-dir', repositoryPath(app.dataDir, id), 'for-each-ref', '--format=%(objectname) %(refname)']))
          .stdout;
        const withoutBusy = (text: string) => text.split('\n').filter((line) => !line.endsWith('refs/heads/busy'));
        assert.deepEqual(withoutBusy(refs), withoutBusy(sourceRefs));
      }
      const ancestor = await git([
        '--git-dir',
        repositoryPath(app.dataDir, projectId),
        'merge-base',
        '--is-ancestor',
        busy.commit.id,
        'busy',
      ]);
      assert.equal(ancestor.code, 0);
      const clone = await git(['clone', '-q', cloneUrl(url, 'root/kept', 'root', app.rootToken), path.join(tempDir(), 'kept')]);
      assert.equal(clone.code, 0, clone.stderr);
    } finally {
      await server.close();
    }
  });
});
