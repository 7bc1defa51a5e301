import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startApp, type TestApp } from '../../support/app';
import { createProjectWorld } from '../../support/project-world';

let app: TestApp;
let world: Awaited<ReturnType<typeof makeWorld>>;

const makeWorld = () =>
  createProjectWorld(app, {
    roles: ['developer', 'reporter'],
    commits: [{ files: { 'README.md': '# readme\n', 'a/b/c.txt': 'deep\n', 'data.json': '{"a":1}\n' } }],
  });

const url = (path: string) => `/projects/${world.id}/repository/files/${encodeURIComponent(path)}`;

before(async () => {
  app = await startApp();
  world = await makeWorld();
});
after(async () => app?.close());

describe('GET /projects/:id/repository/files/:file_path', () => {
  test('reads a file by its URL-encoded path, with content_sha256 and the X-Gitlab headers', async () => {
    const response = await world.reporter.client.v4().get(url('a/b/c.txt'), { ref: 'master' });
    assert.equal(response.status, 200);
    assert.equal(response.body.file_path, 'a/b/c.txt');
    assert.equal(response.body.file_name, 'c.txt');
    assert.equal(Buffer.from(response.body.content, 'base64').toString(), 'deep\n');
    assert.equal(response.body.content_sha256, createHash('sha256').update('deep\n').digest('hex'));
    assert.equal(response.body.last_commit_id, world.shas[0]);
    assert.equal(response.headers.get('x-gitlab-file-path'), 'a/b/c.txt');
    assert.equal(response.headers.get('content-type'), 'application/json');
  });

  test('names ending in .json and .md are files, not formats', async () => {
    const json = await world.reporter.client.v4().get(url('data.json'), { ref: 'master' });
    assert.equal(json.status, 200);
    assert.equal(Buffer.from(json.body.content, 'base64').toString(), '{"a":1}\n');
    const md = await world.reporter.client.v4().get(url('README.md'), { ref: 'master' });
    assert.equal(md.body.file_name, 'README.md');
  });

  test('HEAD answers the headers only', async () => {
    const response = await world.reporter.client.v4().raw('HEAD', `${url('README.md')}?ref=master`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('x-gitlab-file-name'), 'README.md');
    assert.equal(response.text, '');
  });

  test('a missing file is 404 File Not Found, a missing ref 404 Commit Not Found, no ref 400', async () => {
    const client = world.reporter.client.v4();
    assert.deepEqual((await client.get(url('nope.txt'), { ref: 'master' })).body, { message: '404 File Not Found' });
    assert.deepEqual((await client.get(url('README.md'), { ref: 'nope' })).body, { message: '404 Commit Not Found' });
    assert.equal((await client.get(url('README.md'))).status, 400);
  });

  test('raw answers the bytes, at the default branch without a ref', async () => {
    const response = await world.reporter.client.v4().get(`${url('a/b/c.txt')}/raw`);
    assert.equal(response.status, 200);
    assert.equal(response.text, 'deep\n');
  });

  test('a private project is 404 to anonymous callers', async () => {
    assert.equal((await app.anonymous.v4().get(url('README.md'), { ref: 'master' })).status, 404);
  });
});

describe('POST, PUT, DELETE /projects/:id/repository/files/:file_path', () => {
  test('creates a file in nested directories and answers {file_path, branch}', async () => {
    const client = world.developer.client.v4();
    const created = await client.post(url('x/y/new.md'), { branch: 'master', content: 'hello', commit_message: 'add' });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body, { file_path: 'x/y/new.md', branch: 'master' });
    const read = await client.get(url('x/y/new.md'), { ref: 'master' });
    assert.equal(Buffer.from(read.body.content, 'base64').toString(), 'hello');
  });

  test('creating an existing file is 400 "A file with this name already exists"', async () => {
    const response = await world.developer.client.v4().post(url('README.md'), { branch: 'master', content: 'x', commit_message: 'again' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'A file with this name already exists' });
  });

  test('updates with base64 content and a new branch from start_branch', async () => {
    const client = world.developer.client.v4();
    const response = await client.put(url('data.json'), {
      branch: 'feature/json',
      start_branch: 'master',
      content: Buffer.from('{"b":2}\n').toString('base64'),
      encoding: 'base64',
      commit_message: 'update json',
    });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { file_path: 'data.json', branch: 'feature/json' });
    const read = await client.get(`${url('data.json')}/raw`, { ref: 'feature/json' });
    assert.equal(read.text, '{"b":2}\n');
    assert.equal((await client.get(`${url('data.json')}/raw`, { ref: 'master' })).text, '{"a":1}\n');
  });

  test('a stale last_commit_id is refused', async () => {
    const client = world.developer.client.v4();
    const response = await client.put(url('README.md'), {
      branch: 'master',
      content: 'x',
      commit_message: 'stale',
      last_commit_id: '0000000000000000000000000000000000000000',
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { message: 'The file has changed since you started editing it: README.md' });
  });

  test('deletes a file with 204; a missing one is 400', async () => {
    const client = world.developer.client.v4();
    await client.post(url('gone.txt'), { branch: 'master', content: 'x', commit_message: 'add' });
    const deleted = await client.delete(url('gone.txt'), { branch: 'master', commit_message: 'remove' });
    assert.equal(deleted.status, 204);
    assert.equal((await client.get(url('gone.txt'), { ref: 'master' })).status, 404);
    const again = await client.delete(url('gone.txt'), { branch: 'master', commit_message: 'remove' });
    assert.deepEqual([again.status, again.body], [400, { message: "A file with this name doesn't exist" }]);
  });

  test('a reporter may not write (403), anonymous callers are 401, a missing commit_message is 400', async () => {
    const body = { branch: 'master', content: 'x', commit_message: 'm' };
    assert.equal((await world.reporter.client.v4().post(url('r.txt'), body)).status, 403);
    assert.equal((await app.anonymous.v4().post(url('r.txt'), body)).status, 401);
    const missing = await world.developer.client.v4().post(url('r.txt'), { branch: 'master', content: 'x' });
    assert.equal(missing.status, 400);
  });
});
