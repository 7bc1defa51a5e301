import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startApp, type TestApp } from '../../support/app';
import { cloneUrl, git, workTree } from '../../support/git';

/**
 * An archive is streamed as git writes it, so git can fail once the answer has begun. Git is made
 * to fail here the way a damaged repository makes it fail: an object it needs is removed from disk.
 */
let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

/**
 * A project whose master holds a large file first (in tree order), then a small one, pushed as
 * loose objects (fewer than git's unpack limit); and the on-disk path of an object of master.
 */
async function project() {
  const { user, token } = await app.createUser();
  const created = await app.as(token).post('/projects', { name: `a${crypto.randomBytes(3).toString('hex')}`, visibility_level: 0 });
  assert.equal(created.status, 201);
  const work = await workTree('master', { 'a-large.bin': crypto.randomBytes(2 * 1024 * 1024).toString('base64'), 'z-last.txt': 'last\n' });
  const pushed = await git(['push', '-q', cloneUrl(app.url, created.body.path_with_namespace, user.username, token), 'master'], work);
  assert.equal(pushed.code, 0, pushed.stderr);
  const repo = app.services.repositories.path(created.body.id);
  const objectFile = async (spec: string) => {
    const id = (await git(['rev-parse', spec], work)).stdout.trim();
    const file = path.join(repo, 'objects', id.slice(0, 2), id.slice(2));
    assert.ok(fs.existsSync(file), `${spec} is a loose object`);
    return file;
  };
  const download = (file: string) =>
    fetch(`${app.url}/api/v3/projects/${created.body.id}/repository/${file}`, { headers: { 'private-token': token } });
  return { objectFile, download };
}

describe('GET /projects/:id/repository/archive when git fails', () => {
  test('after the first byte: the answer is cut off in a way the client sees as failed, never a complete-looking short body', async () => {
    const p = await project();
    fs.rmSync(await p.objectFile('master:z-last.txt'));
    for (const file of ['archive', 'archive.zip', 'archive.tar']) {
      const response = await p.download(file);
      // The status went out with the first bytes, before git failed.
      assert.equal(response.status, 200, file);
      await assert.rejects(response.arrayBuffer(), (error: Error) => error.message === 'terminated', file);
    }
  });

  test("before the first byte: GitLab's JSON error, without the archive's headers", async () => {
    const p = await project();
    fs.rmSync(await p.objectFile('master^{tree}'));
    for (const file of ['archive', 'archive.zip']) {
      const response = await p.download(file);
      assert.equal(response.status, 500, file);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.equal(response.headers.get('content-disposition'), null);
      assert.deepEqual(await response.json(), { message: '500 Internal Server Error' });
    }
  });
});
