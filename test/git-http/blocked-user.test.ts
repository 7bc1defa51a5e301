import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import path from 'node:path';
import { startApp, type TestApp } from '../support/app';
import { cloneUrl, git, tempDir } from '../support/git';
import { basicAuth, lfsGit, lfsGitOk, lfsObject, lfsWorkTree } from '../support/git-lfs';

/**
 * A blocked account's credentials are refused wherever they are given: git over HTTP answers
 * git's 401 "HTTP Basic: Access denied", public projects included (credentials given are checked,
 * not ignored), LFS answers its 401, the API its 401. (SSH: test/ssh/git-over-ssh.test.ts.)
 */
let app: TestApp;
before(async () => {
  // The hrefs of LFS batch answers name the external URL: the loopback address the server listens on.
  app = await startApp({ EXTERNAL_URL: 'http://127.0.0.1:0' });
});
after(() => app.close());

const LARGE = 'large file content';

/** A user owning a project with an LFS file on master, pushed while active, then blocked. */
async function blockedOwner(visibility: 0 | 20) {
  const { user, token, password } = await app.createUser();
  const created = await app
    .as(token)
    .post('/projects', { name: `b${crypto.randomBytes(3).toString('hex')}`, visibility_level: visibility });
  assert.equal(created.status, 201);
  const projectPath = created.body.path_with_namespace as string;
  const work = await lfsWorkTree({ 'big.bin': LARGE, 'README.md': '# blocked\n' });
  await lfsGitOk(['push', cloneUrl(app.url, projectPath, user.username, token), 'master'], work);
  // Once with each secret while active: git's credential memory holds them when the block comes.
  for (const secret of [password, token])
    assert.equal((await git(['ls-remote', cloneUrl(app.url, projectPath, user.username, secret)])).code, 0);
  assert.equal((await app.root.put(`/users/${user.id}/block`)).status, 200);
  return { username: user.username as string, secrets: { password, 'private token': token }, path: projectPath, work };
}

const DENIED = /HTTP Basic: Access denied/;

describe("a blocked user's credentials over git HTTP", () => {
  test('are refused on a private project: ls-remote, clone and push fail with "HTTP Basic: Access denied"', async () => {
    const p = await blockedOwner(0);
    for (const [kind, secret] of Object.entries(p.secrets)) {
      const url = cloneUrl(app.url, p.path, p.username, secret);
      const listed = await git(['ls-remote', url]);
      assert.notEqual(listed.code, 0, kind);
      assert.match(listed.stderr, DENIED, kind);
      assert.match(listed.stderr, /Authentication failed/, kind);
      const cloned = await git(['clone', '-q', url, path.join(tempDir(), 'c')]);
      assert.notEqual(cloned.code, 0, kind);
      assert.match(cloned.stderr, DENIED, kind);
      const pushed = await git(['push', url, 'master:other'], p.work);
      assert.notEqual(pushed.code, 0, kind);
      assert.match(pushed.stderr, DENIED, kind);
    }
  });

  test('are refused on a public project too, although anonymous reads are allowed', async () => {
    const p = await blockedOwner(20);
    const url = `${app.url}/${p.path}.git`;
    // git sends credentials only once asked for them (a 401), which an anonymous read of a public
    // project never is: `git ls-remote http://blocked:secret@…/public.git` reads as anyone would,
    // and the server cannot tell (GitLab, 8.12 or later, answers the same). Credentials it is sent
    // are checked, and a blocked account's refused.
    assert.equal((await git(['ls-remote', cloneUrl(app.url, p.path, p.username, p.secrets.password)])).code, 0);
    for (const [kind, secret] of Object.entries(p.secrets)) {
      // git sends credentials up front when told to (as CI checkouts do with http.extraHeader).
      const listed = await git(['-c', `http.extraHeader=Authorization: ${basicAuth(p.username, secret)}`, 'ls-remote', url]);
      assert.notEqual(listed.code, 0, kind);
      assert.equal(listed.stdout, '', kind);
      const refs = await fetch(`${url}/info/refs?service=git-upload-pack`, { headers: { authorization: basicAuth(p.username, secret) } });
      assert.equal(refs.status, 401, kind);
      assert.equal(refs.headers.get('www-authenticate'), 'Basic realm="Forge"');
      assert.equal(await refs.text(), 'HTTP Basic: Access denied\n');
      // A push asks for credentials, git sends them, and they are refused.
      const pushed = await git(['push', cloneUrl(app.url, p.path, p.username, secret), 'master:other'], p.work);
      assert.notEqual(pushed.code, 0, kind);
      assert.match(pushed.stderr, DENIED, kind);
    }
  });

  test('are refused by LFS: the batch API, object downloads and git-lfs itself', async () => {
    for (const visibility of [0, 20] as const) {
      const p = await blockedOwner(visibility);
      const object = lfsObject(LARGE);
      for (const [kind, secret] of Object.entries(p.secrets)) {
        const authorization = basicAuth(p.username, secret);
        const batch = await fetch(`${app.url}/${p.path}.git/info/lfs/objects/batch`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/vnd.git-lfs+json', accept: 'application/vnd.git-lfs+json' },
          body: JSON.stringify({ operation: 'download', objects: [object] }),
        });
        assert.equal(batch.status, 401, `${kind}, visibility ${visibility}`);
        assert.equal((await batch.json()).message, 'Access denied. Check your credentials.');
        const download = await fetch(`${app.url}/${p.path}.git/gitlab-lfs/objects/${object.oid}`, { headers: { authorization } });
        assert.equal(download.status, 401, `${kind}, visibility ${visibility}`);
        await download.arrayBuffer();
        const upload = await fetch(`${app.url}/${p.path}.git/gitlab-lfs/objects/${object.oid}/${object.size}`, {
          method: 'PUT',
          headers: { authorization },
          body: LARGE,
        });
        assert.equal(upload.status, 401, `${kind}, visibility ${visibility}`);
        await upload.arrayBuffer();
      }
      // git-lfs sends the credentials of the remote's URL with its first request: it gets nothing.
      const clone = path.join(tempDir(), 'c');
      const cloned = await lfsGit(['clone', '-q', `${app.url}/${p.path}.git`, clone], undefined, { GIT_LFS_SKIP_SMUDGE: '1' });
      if (visibility === 20) {
        assert.equal(cloned.code, 0, cloned.stderr);
        await lfsGitOk(['lfs', 'install', '--local'], clone);
        await lfsGitOk(['remote', 'set-url', 'origin', cloneUrl(app.url, p.path, p.username, p.secrets.password)], clone);
        const pulled = await lfsGit(['lfs', 'pull'], clone);
        assert.notEqual(pulled.code, 0, pulled.stderr);
        assert.match(pulled.stderr, /Access denied\. Check your credentials\./);
      }
    }
  });
});

describe("a blocked user's credentials over the API", () => {
  test('POST /session with the login and password: 401, as 8.12 answered', async () => {
    const p = await blockedOwner(0);
    const session = await fetch(`${app.url}/api/v3/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: p.username, password: p.secrets.password }),
    });
    assert.equal(session.status, 401);
    assert.deepEqual(await session.json(), { message: '401 Unauthorized' });
    assert.equal((await app.as(p.secrets['private token']).get('/user')).status, 401);
  });
});
