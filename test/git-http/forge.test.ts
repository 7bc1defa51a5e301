import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startApp, type TestApp } from '../support/app';
import { grantProjectRole } from '../support/roles';
import { cloneUrl, commit, git, tempDir, workTree } from '../support/git';
import { eventually } from '../support/eventually';
import { digestToken } from '../../src/lib/secrets';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

interface Person {
  username: string;
  token: string;
  id: number;
}

async function person(): Promise<Person> {
  const { user, token } = await app.createUser();
  return { username: user.username, token, id: user.id };
}

/** A project owned by a new user, with one pushed commit on master (unless empty). */
async function project(visibility: number, options: { empty?: boolean } = {}) {
  const owner = await person();
  const created = await app
    .as(owner.token)
    .post('/projects', { name: `p${Math.random().toString(36).slice(2, 8)}`, visibility_level: visibility });
  assert.equal(created.status, 201);
  const url = (who?: Person) => cloneUrl(app.url, created.body.path_with_namespace, who?.username, who?.token);
  if (!options.empty) {
    const dir = await workTree();
    const pushed = await git(['push', url(owner), 'master'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
  }
  return { owner, id: created.body.id as number, path: created.body.path_with_namespace as string, url };
}

async function member(projectId: number, level: number): Promise<Person> {
  const who = await person();
  await grantProjectRole(app, projectId, who.id, level);
  return who;
}

const clone = (url: string) => git(['clone', '-q', url, `${tempDir()}/c`]);

describe('git clone and fetch over HTTP', () => {
  test('a public project clones without credentials', async () => {
    const p = await project(20);
    const result = await clone(p.url());
    assert.equal(result.code, 0, result.stderr);
  });

  test('an internal project clones with any account, not anonymously', async () => {
    const p = await project(10);
    assert.notEqual((await clone(p.url())).code, 0);
    const stranger = await person();
    assert.equal((await clone(p.url(stranger))).code, 0);
  });

  test('a private project clones with reporter access; guests are refused and strangers see nothing', async () => {
    const p = await project(0);
    const reporter = await member(p.id, 20);
    assert.equal((await clone(p.url(reporter))).code, 0);
    const guest = await member(p.id, 10);
    const refused = await clone(p.url(guest));
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /403|not allowed/i);
    const stranger = await clone(p.url(await person()));
    assert.notEqual(stranger.code, 0);
    assert.match(stranger.stderr, /not found|404/i);
  });

  test('the password works as well as the private token; wrong credentials fail with 401', async () => {
    const p = await project(0);
    const owner = p.owner;
    const byPassword = await clone(cloneUrl(app.url, p.path, owner.username, 'password123'));
    assert.equal(byPassword.code, 0, byPassword.stderr);
    const wrong = await clone(cloneUrl(app.url, p.path, owner.username, 'wrong-password'));
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stderr, /Authentication failed|401/);
    const response = await fetch(`${app.url}/${p.path}.git/info/refs?service=git-upload-pack`, {
      headers: { authorization: `Basic ${Buffer.from('nobody:nothing').toString('base64')}` },
    });
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate') ?? '', /^Basic/);
  });

  test("gitlab-ci-token with a running build's token fetches that build's project only", async () => {
    const p = await project(0);
    const other = await project(0);
    const db = app.ctx.db;
    const time = new Date().toISOString();
    const pipeline = await db
      .insertInto('ci_pipelines')
      .values({ project_id: p.id, ref: 'master', sha: '0'.repeat(40), tag: 0, status: 'running', created_at: time, updated_at: time })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('ci_builds')
      .values({
        project_id: p.id,
        pipeline_id: pipeline.id,
        type: 'Build',
        name: 'test',
        stage: 'test',
        stage_idx: 0,
        ref: 'master',
        tag: 0,
        status: 'running',
        allow_failure: 0,
        when: 'on_success',
        options: '',
        yaml_variables: '',
        token_digest: digestToken('build-token-1'),
        created_at: time,
        updated_at: time,
      })
      .execute();
    assert.equal((await clone(cloneUrl(app.url, p.path, 'gitlab-ci-token', 'build-token-1'))).code, 0);
    assert.notEqual((await clone(cloneUrl(app.url, other.path, 'gitlab-ci-token', 'build-token-1'))).code, 0);
    assert.notEqual((await clone(cloneUrl(app.url, p.path, 'gitlab-ci-token', 'wrong-token'))).code, 0);
    const dir = await workTree('ci-branch');
    assert.notEqual((await git(['push', cloneUrl(app.url, p.path, 'gitlab-ci-token', 'build-token-1'), 'ci-branch'], dir)).code, 0);
  });

  test('fetch brings new commits', async () => {
    const p = await project(0);
    const dir = `${tempDir()}/c`;
    assert.equal((await git(['clone', '-q', p.url(p.owner), dir])).code, 0);
    const other = `${tempDir()}/writer`;
    assert.equal((await git(['clone', '-q', p.url(p.owner), other])).code, 0);
    await commit(other, { 'more.txt': 'more\n' }, 'second commit');
    assert.equal((await git(['push', '-q', 'origin', 'master'], other)).code, 0);
    assert.equal((await git(['fetch', '-q', 'origin'], dir)).code, 0);
    const log = await git(['log', '--format=%s', 'origin/master'], dir);
    assert.match(log.stdout, /second commit/);
  });
});

describe('git push over HTTP', () => {
  test('the first push to an empty project sets its default branch, protected', async () => {
    const p = await project(0, { empty: true });
    const dir = await workTree('main');
    assert.equal((await git(['push', '-q', p.url(p.owner), 'main'], dir)).code, 0);
    const shown = await app.as(p.owner.token).get(`/projects/${p.id}`);
    assert.equal(shown.body.default_branch, 'main');
    const rules = await app.services.protectedBranches.list(p.id);
    assert.deepEqual(
      rules.map((r) => [r.name, r.developers_can_push]),
      [['main', 0]],
    );
  });

  test('push needs developer access: reporters are refused', async () => {
    const p = await project(0);
    const reporter = await member(p.id, 20);
    const dir = await workTree('feature');
    const refused = await git(['push', p.url(reporter), 'feature'], dir);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /not allowed to push code to this project|403/i);
    const developer = await member(p.id, 30);
    const pushed = await git(['push', p.url(developer), 'feature'], dir);
    assert.equal(pushed.code, 0, pushed.stderr);
  });

  test('anonymous pushes to a public project are asked for credentials', async () => {
    const p = await project(20);
    const dir = await workTree('anon');
    const refused = await git(['push', p.url(), 'anon'], dir);
    assert.notEqual(refused.code, 0);
  });

  test('developers cannot push to a protected branch; masters can; the message reaches git', async () => {
    const p = await project(0);
    const developer = await member(p.id, 30);
    const dir = `${tempDir()}/c`;
    await git(['clone', '-q', p.url(developer), dir]);
    await commit(dir, { 'dev.txt': 'x\n' }, 'developer change');
    const refused = await git(['push', 'origin', 'master'], dir);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /You are not allowed to push code to protected branches on this project\./);
    await app.services.protectedBranches.protect(p.id, 'master', { developersCanPush: true, developersCanMerge: false });
    assert.equal((await git(['push', 'origin', 'master'], dir)).code, 0);
  });

  test('nobody force-pushes or deletes a protected branch, masters included', async () => {
    const p = await project(0);
    const dir = `${tempDir()}/c`;
    await git(['clone', '-q', p.url(p.owner), dir]);
    await commit(dir, { 'a.txt': 'a\n' }, 'to be rewritten');
    assert.equal((await git(['push', '-q', 'origin', 'master'], dir)).code, 0);
    await git(['reset', '-q', '--hard', 'HEAD~1'], dir);
    await commit(dir, { 'b.txt': 'b\n' }, 'rewritten history');
    const forced = await git(['push', '--force', 'origin', 'master'], dir);
    assert.notEqual(forced.code, 0);
    assert.match(forced.stderr, /force push code to a protected branch/);
    const deleted = await git(['push', 'origin', ':master'], dir);
    assert.notEqual(deleted.code, 0);
    assert.match(deleted.stderr, /You are not allowed to delete protected branches from this project\./);
    const remote = await git(['ls-remote', p.url(p.owner), 'refs/heads/master']);
    assert.match(remote.stdout, /refs\/heads\/master/);
  });

  test('tags: developers push new tags but only masters change existing ones', async () => {
    const p = await project(0);
    const developer = await member(p.id, 30);
    const dir = `${tempDir()}/c`;
    await git(['clone', '-q', p.url(developer), dir]);
    await git(['tag', 'v1.0'], dir);
    assert.equal((await git(['push', '-q', 'origin', 'v1.0'], dir)).code, 0);
    const moved = await git(['push', 'origin', ':refs/tags/v1.0'], dir);
    assert.notEqual(moved.code, 0);
    assert.match(moved.stderr, /not allowed to change existing tags/);
    assert.equal((await git(['push', '-q', p.url(p.owner), ':refs/tags/v1.0'], dir)).code, 0);
  });
});

/** The project once its import, which runs in the background, has finished or failed. */
function importEnded(owner: Person, id: number) {
  return eventually(
    async () => {
      const shown = (await app.as(owner.token).get(`/projects/${id}`)).body;
      return ['finished', 'failed'].includes(shown.import_status) && shown;
    },
    { message: 'the end of the import' },
  );
}

describe('repository storage', () => {
  test('creating a project creates its bare repository; deleting it removes the repository', async () => {
    const p = await project(0, { empty: true });
    const repoPath = app.services.repositories.path(p.id);
    assert.ok(fs.existsSync(path.join(repoPath, 'HEAD')));
    assert.equal((await app.as(p.owner.token).delete(`/projects/${p.id}`)).status, 200);
    await eventually(() => !fs.existsSync(repoPath), { message: 'the removal of the repository' });
    assert.equal(fs.existsSync(repoPath), false);
  });

  test('a fork gets a copy of the repository that survives the parent', async () => {
    const p = await project(20);
    const forker = await person();
    const fork = await app.as(forker.token).post(`/projects/fork/${p.id}`);
    assert.equal(fork.status, 201);
    assert.equal((await app.as(p.owner.token).delete(`/projects/${p.id}`)).status, 200);
    const cloned = await clone(cloneUrl(app.url, fork.body.path_with_namespace, forker.username, forker.token));
    assert.equal(cloned.code, 0, cloned.stderr);
  });

  test('import_url clones from any URL git can fetch, in the background', async () => {
    const source = await project(20);
    const owner = await person();
    const created = await app.as(owner.token).post('/projects', { name: 'imported', import_url: cloneUrl(app.url, source.path) });
    assert.equal(created.status, 201);
    const shown = await importEnded(owner, created.body.id);
    assert.equal(shown.import_status, 'finished');
    assert.equal(shown.default_branch, 'master');
    assert.equal((await clone(cloneUrl(app.url, shown.path_with_namespace, owner.username, owner.token))).code, 0);
  });

  test("a file:// import of Forge's own repositories is refused", async () => {
    const secret = await project(0);
    const owner = await person();
    const url = `file://${app.services.repositories.path(secret.id)}`;
    const created = await app.as(owner.token).post('/projects', { name: 'sneaky', import_url: url });
    const shown = await importEnded(owner, created.body.id);
    assert.equal(shown.import_status, 'failed');
  });
});
