import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { buildFixture, git, tempDir, type Fixture } from '../git/fixture';
import { ZERO_OID } from '../../src/git/ref-names';
import { createRepository } from '../../src/git/repositories';
import {
  FORCE_PUSH_MESSAGE,
  MemoryBackend,
  PROTECTED_MESSAGE,
  gitClient,
  startGitServer,
  withCredentials,
  type TestProject,
  type TestUser,
} from './server';

const alice: TestUser = { username: 'alice', password: 'alice-password', token: 'alice-private-token' };
const bob: TestUser = { username: 'bob', password: 'bob-password', token: 'bob-token' };
const eve: TestUser = { username: 'eve', password: 'eve-password', token: 'eve-token' };

let root: string;
let fx: Fixture;
let app: FastifyInstance;
let base: string;
let backend: MemoryBackend;
let privateRepo: string;
let publicRepo: string;
let emptyRepo: string;

before(async () => {
  root = tempDir('forge-git-http-');
  fx = await buildFixture(root);
  privateRepo = path.join(root, 'private.git');
  publicRepo = path.join(root, 'public.git');
  git(root, ['clone', '-q', '--bare', fx.repoPath, privateRepo]);
  git(root, ['clone', '-q', '--bare', fx.repoPath, publicRepo]);
  git(privateRepo, ['update-ref', 'refs/heads/stable', fx.c3]);
  emptyRepo = path.join(root, 'empty.git');
  await createRepository(emptyRepo);
  const projects = new Map<string, TestProject>([
    ['alice/private', { id: 1, repoPath: privateRepo, public: false, members: { alice: 'developer', bob: 'reporter' } }],
    ['alice/public', { id: 2, repoPath: publicRepo, public: true, members: { alice: 'developer' } }],
    ['alice/empty', { id: 3, repoPath: emptyRepo, public: false, members: { alice: 'developer' } }],
    ['alice/unborn', { id: 4, repoPath: path.join(root, 'never-created.git'), public: true, members: {} }],
  ]);
  backend = new MemoryBackend([alice, bob, eve], projects);
  ({ app, url: base } = await startGitServer(backend));
});
after(async () => {
  await app.close();
  fs.rmSync(root, { recursive: true, force: true });
});

let counter = 0;
const scratch = () => path.join(root, `client-${counter++}`);
const privateUrl = (user: TestUser = alice, secret?: string) => `${withCredentials(base, user, secret)}/alice/private.git`;

/** A clone of the private project by alice, with a commit on a new branch ready to push. */
async function workCloneWithCommit(branch: string, file: string): Promise<{ dir: string; sha: string }> {
  const dir = scratch();
  const cloned = await gitClient(root, ['clone', '-q', privateUrl(), dir]);
  assert.equal(cloned.code, 0, cloned.stderr);
  git(dir, ['checkout', '-q', '-b', branch]);
  fs.writeFileSync(path.join(dir, file), `${branch}\n`);
  git(dir, ['add', file]);
  git(dir, ['commit', '-q', '-m', `Add ${file}`], {
    GIT_AUTHOR_NAME: 'A',
    GIT_AUTHOR_EMAIL: 'a@x',
    GIT_COMMITTER_NAME: 'A',
    GIT_COMMITTER_EMAIL: 'a@x',
  });
  return { dir, sha: git(dir, ['rev-parse', 'HEAD']).trim() };
}

describe('GET /:namespace/:project.git/info/refs', () => {
  test('anonymous callers are asked for credentials on a private project: 401 with WWW-Authenticate', async () => {
    const response = await fetch(`${base}/alice/private.git/info/refs?service=git-upload-pack`);
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Basic realm="Forge"');
  });

  test('wrong credentials are 401, never 500', async () => {
    for (const authorization of [
      `Basic ${Buffer.from('alice:wrong').toString('base64')}`,
      `Basic ${Buffer.from('nobody:x').toString('base64')}`,
      'Basic %%%',
      'Basic',
    ]) {
      const response = await fetch(`${base}/alice/private.git/info/refs?service=git-upload-pack`, { headers: { authorization } });
      assert.equal(response.status, 401, authorization);
      assert.equal(response.headers.get('www-authenticate'), 'Basic realm="Forge"');
    }
  });

  test('an unknown project is 401 for anonymous callers and 404 for signed-in ones; an invisible one is 404', async () => {
    const auth = (user: TestUser) => ({ authorization: `Basic ${Buffer.from(`${user.username}:${user.password}`).toString('base64')}` });
    assert.equal((await fetch(`${base}/alice/nope.git/info/refs?service=git-upload-pack`)).status, 401);
    assert.equal((await fetch(`${base}/alice/nope.git/info/refs?service=git-upload-pack`, { headers: auth(alice) })).status, 404);
    assert.equal((await fetch(`${base}/alice/private.git/info/refs?service=git-upload-pack`, { headers: auth(eve) })).status, 404);
  });

  test('the v0 advertisement starts with the service line; v2 answers with capabilities only', async () => {
    const v0 = await fetch(`${base}/alice/public.git/info/refs?service=git-upload-pack`);
    assert.equal(v0.status, 200);
    assert.equal(v0.headers.get('content-type'), 'application/x-git-upload-pack-advertisement');
    assert.equal(v0.headers.get('cache-control'), 'no-cache, max-age=0, must-revalidate');
    const v0Body = await v0.text();
    assert.ok(v0Body.startsWith('001e# service=git-upload-pack\n0000'), v0Body.slice(0, 60));
    assert.match(v0Body, new RegExp(`${fx.c4} refs/heads/master`));

    const v2 = await fetch(`${base}/alice/public/info/refs?service=git-upload-pack`, { headers: { 'git-protocol': 'version=2' } });
    const v2Body = await v2.text();
    assert.ok(v2Body.startsWith('000eversion 2\n'), v2Body.slice(0, 60));
  });

  test('a project without a repository on disk is 404', async () => {
    assert.equal((await fetch(`${base}/alice/unborn.git/info/refs?service=git-upload-pack`)).status, 404);
  });

  test('a service other than upload-pack and receive-pack is refused', async () => {
    assert.equal((await fetch(`${base}/alice/public.git/info/refs`)).status, 403);
    assert.equal((await fetch(`${base}/alice/public.git/info/refs?service=git-upload-archive`)).status, 403);
  });
});

describe('clone and fetch (git-upload-pack)', () => {
  test('anyone clones a public project, with or without .git in the URL', async () => {
    for (const suffix of ['.git', '']) {
      const dir = scratch();
      const result = await gitClient(root, ['clone', '-q', `${base}/alice/public${suffix}`, dir]);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(git(dir, ['rev-parse', 'HEAD']).trim(), fx.c4);
      assert.equal(git(dir, ['rev-parse', 'origin/feature']).trim(), fx.feature);
    }
  });

  for (const version of ['0', '1', '2']) {
    test(`a member clones a private project with protocol version ${version}`, async () => {
      const dir = scratch();
      const result = await gitClient(root, ['-c', `protocol.version=${version}`, 'clone', '--no-local', privateUrl(bob), dir], {
        GIT_TRACE_PACKET: '1',
      });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(git(dir, ['rev-parse', 'HEAD']).trim(), fx.c4);
      if (version === '2') assert.match(result.stderr, /clone< version 2/);
      else assert.doesNotMatch(result.stderr, /clone< version 2/);
      git(dir, ['fsck', '--strict']);
    });
  }

  test('a private token works as the password', async () => {
    const result = await gitClient(root, ['clone', '-q', privateUrl(alice, alice.token), scratch()]);
    assert.equal(result.code, 0, result.stderr);
  });

  test('anonymous, wrong-password and non-member clones of a private project fail', async () => {
    const anonymous = await gitClient(root, ['clone', '-q', `${base}/alice/private.git`, scratch()]);
    assert.notEqual(anonymous.code, 0);
    assert.match(anonymous.stderr, /could not read Username|Authentication failed/);
    const wrong = await gitClient(root, ['clone', '-q', privateUrl(alice, 'nope'), scratch()]);
    assert.match(wrong.stderr, /Authentication failed/);
    const stranger = await gitClient(root, ['clone', '-q', privateUrl(eve), scratch()]);
    assert.match(stranger.stderr, /not found/);
  });

  test('an incremental fetch over protocol v2 brings only what is new', async () => {
    const dir = scratch();
    assert.equal((await gitClient(root, ['clone', '-q', `${base}/alice/public.git`, dir])).code, 0);
    const extra = path.join(root, 'extra-for-fetch');
    git(root, ['clone', '-q', publicRepo, extra]);
    git(extra, ['commit', '-q', '--allow-empty', '-m', 'Newer'], {
      GIT_AUTHOR_NAME: 'A',
      GIT_AUTHOR_EMAIL: 'a@x',
      GIT_COMMITTER_NAME: 'A',
      GIT_COMMITTER_EMAIL: 'a@x',
    });
    git(extra, ['push', '-q', 'origin', 'HEAD:refs/heads/newer']);
    const fetched = await gitClient(dir, ['-c', 'protocol.version=2', 'fetch', 'origin']);
    assert.equal(fetched.code, 0, fetched.stderr);
    assert.equal(git(dir, ['rev-parse', 'origin/newer']).trim(), git(extra, ['rev-parse', 'HEAD']).trim());
  });

  test('a gzip-compressed request body is read', async () => {
    const request = Buffer.concat([Buffer.from(`0032want ${fx.c4}\n`), Buffer.from('0000'), Buffer.from('0009done\n')]);
    const response = await fetch(`${base}/alice/public.git/git-upload-pack`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-git-upload-pack-request', 'content-encoding': 'gzip' },
      body: gzipSync(request),
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/x-git-upload-pack-result');
    const body = Buffer.from(await response.arrayBuffer());
    assert.equal(body.subarray(0, 8).toString(), '0008NAK\n');
    assert.ok(body.includes(Buffer.from('PACK')));
  });
});

describe('push (git-receive-pack)', () => {
  test('a developer pushes a new branch; afterPush gets the applied update once git is done', async () => {
    const { dir, sha } = await workCloneWithCommit('topic', 'topic.txt');
    backend.pushes.length = 0;
    const pushed = await gitClient(dir, ['push', 'origin', 'topic']);
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.equal(git(privateRepo, ['rev-parse', 'refs/heads/topic']).trim(), sha);
    assert.deepEqual(backend.pushes, [{ user: 'alice', project: 1, updates: [{ oldId: ZERO_OID, newId: sha, ref: 'refs/heads/topic' }] }]);

    const deleted = await gitClient(dir, ['push', 'origin', ':topic']);
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(backend.pushes[1].updates, [{ oldId: sha, newId: ZERO_OID, ref: 'refs/heads/topic' }]);
  });

  test('a refused push shows the reason in git’s output and changes nothing', async () => {
    const { dir, sha } = await workCloneWithCommit('protected', 'p.txt');
    git(dir, ['branch', 'allowed-too']);
    backend.pushes.length = 0;
    const pushed = await gitClient(dir, ['push', 'origin', 'protected', 'allowed-too']);
    assert.notEqual(pushed.code, 0);
    assert.match(pushed.stderr, new RegExp(`remote: ${PROTECTED_MESSAGE.replace(/\./g, '\\.')}`));
    assert.match(
      pushed.stderr,
      /! \[remote rejected\] protected -> protected \(You are not allowed to push code to protected branches on this project\.\)/,
    );
    assert.match(pushed.stderr, /! \[remote rejected\] allowed-too -> allowed-too \(declined: another update in this push was refused\)/);
    assert.equal(git(privateRepo, ['for-each-ref', 'refs/heads/protected', 'refs/heads/allowed-too']), '');
    assert.throws(() => git(privateRepo, ['cat-file', '-e', sha]), 'the pack was never given to git');
    assert.deepEqual(backend.pushes, []);
    assert.deepEqual(
      backend.checked
        .at(-1)!
        .map((u) => u.ref)
        .sort(),
      ['refs/heads/allowed-too', 'refs/heads/protected'],
    );
  });

  test('a fast-forward-only branch moves forward but refuses a force push, with the reason shown', async () => {
    const dir = scratch();
    assert.equal((await gitClient(root, ['clone', '-q', privateUrl(), dir])).code, 0);
    git(dir, ['checkout', '-q', '-b', 'local-stable', 'origin/stable']);
    backend.pushes.length = 0;
    const forward = await gitClient(dir, ['push', 'origin', `${fx.c4}:refs/heads/stable`]);
    assert.equal(forward.code, 0, forward.stderr);
    assert.equal(git(privateRepo, ['rev-parse', 'stable']).trim(), fx.c4);

    const forced = await gitClient(dir, ['push', '--force', 'origin', `${fx.feature}:refs/heads/stable`]);
    assert.notEqual(forced.code, 0);
    assert.match(forced.stderr, new RegExp(`remote: ${FORCE_PUSH_MESSAGE.replace(/\./g, '\\.')}`));
    assert.match(forced.stderr, /! \[remote rejected\] .* -> stable \(pre-receive hook declined\)/);
    assert.equal(git(privateRepo, ['rev-parse', 'stable']).trim(), fx.c4);
    assert.equal(backend.pushes.length, 1, 'only the fast-forward was recorded');

    const elsewhere = await gitClient(dir, ['push', '--force', 'origin', `${fx.c1}:refs/heads/feature`]);
    assert.equal(elsewhere.code, 0, 'other branches may still be forced');
  });

  test('anonymous pushes are asked for credentials, even to a public project', async () => {
    const dir = scratch();
    assert.equal((await gitClient(root, ['clone', '-q', `${base}/alice/public.git`, dir])).code, 0);
    const pushed = await gitClient(dir, ['push', 'origin', 'HEAD:refs/heads/anon']);
    assert.notEqual(pushed.code, 0);
    assert.match(pushed.stderr, /could not read Username/);
    const response = await fetch(`${base}/alice/public.git/info/refs?service=git-receive-pack`);
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), 'Basic realm="Forge"');
  });

  test('a reporter may not push: 403 with the reason', async () => {
    const dir = scratch();
    assert.equal((await gitClient(root, ['clone', '-q', privateUrl(bob), dir])).code, 0);
    const pushed = await gitClient(dir, ['push', 'origin', 'HEAD:refs/heads/by-bob']);
    assert.notEqual(pushed.code, 0);
    assert.match(pushed.stderr, /403/);
    assert.match(pushed.stderr, /You are not allowed to push code to this project\./);
  });

  test('an empty project is cloned empty and takes its first push', async () => {
    const dir = scratch();
    const url = `${withCredentials(base, alice)}/alice/empty.git`;
    const cloned = await gitClient(root, ['clone', url, dir]);
    assert.equal(cloned.code, 0, cloned.stderr);
    assert.match(cloned.stderr, /empty repository/);
    git(dir, ['checkout', '-q', '-b', 'master']);
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'First'], {
      GIT_AUTHOR_NAME: 'A',
      GIT_AUTHOR_EMAIL: 'a@x',
      GIT_COMMITTER_NAME: 'A',
      GIT_COMMITTER_EMAIL: 'a@x',
    });
    const pushed = await gitClient(dir, ['push', 'origin', 'master']);
    assert.equal(pushed.code, 0, pushed.stderr);
    assert.equal(git(emptyRepo, ['rev-parse', 'master']).trim(), git(dir, ['rev-parse', 'HEAD']).trim());
    assert.equal(backend.pushes.at(-1)!.project, 3);
  });

  test('a pushed branch can be fetched by others at once', async () => {
    const { dir, sha } = await workCloneWithCommit('shared', 'shared.txt');
    assert.equal((await gitClient(dir, ['push', '-q', 'origin', 'shared'])).code, 0);
    const other = scratch();
    const cloned = await gitClient(root, ['-c', 'protocol.version=2', 'clone', '-q', '--branch', 'shared', privateUrl(bob), other]);
    assert.equal(cloned.code, 0, cloned.stderr);
    assert.equal(git(other, ['rev-parse', 'HEAD']).trim(), sha);
  });
});
