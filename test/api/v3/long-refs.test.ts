import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createRootProject } from '../../support/repo';
import { LIMITS } from '../../../src/lib/limits';

// Refs longer than git can store do not exist: refused (or not found) before git runs. A body
// carries 100,000 characters (well past git's limits, well within the API body limit); a query
// string 5,000 (a URL must fit in Node's 16 KB of headers).
const LONG = 'b'.repeat(100_000);
const LONG_QUERY = 'q'.repeat(5_000);
// One component past the filesystem's NAME_MAX: a loose ref could not be written.
const LONG_COMPONENT = `feature/${'c'.repeat(LIMITS.refComponentBytes + 1)}`;

let app: TestApp;
let base: string;

before(async () => {
  app = await startApp();
  const project = await createRootProject(app, 'long-refs');
  base = `/projects/${project.id}/repository`;
});
after(() => app.close());

const answer = (response: { status: number; body: unknown }) => [response.status, response.body];

describe('POST /projects/:id/repository/branches', () => {
  test('a branch name longer than git can store is invalid', async () => {
    for (const name of [LONG, LONG_COMPONENT]) {
      const response = await app.root.post(`${base}/branches`, { branch_name: name, ref: 'master' });
      assert.deepEqual(answer(response), [400, { message: 'Branch name is invalid' }]);
    }
  });

  test('a ref longer than git can store is no reference', async () => {
    const response = await app.root.post(`${base}/branches`, { branch_name: 'from-long', ref: LONG });
    assert.deepEqual(answer(response), [400, { message: 'Invalid reference name' }]);
  });

  test('a long name within the limits is still a branch', async () => {
    const name = `feature/${'c'.repeat(LIMITS.refComponentBytes)}`;
    const response = await app.root.post(`${base}/branches`, { branch_name: name, ref: 'master' });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    const found = await app.root.get(`${base}/branches/${name}`);
    assert.equal(found.status, 200);
  });
});

describe('GET /projects/:id/repository/branches/:branch', () => {
  test('a branch name longer than git can store is not found', async () => {
    assert.deepEqual(answer(await app.root.get(`${base}/branches/${LONG_QUERY}`)), [404, { message: '404 Branch Not Found' }]);
  });
});

describe('POST /projects/:id/repository/tags', () => {
  test('a tag name longer than git can store is invalid', async () => {
    for (const name of [LONG, LONG_COMPONENT]) {
      const response = await app.root.post(`${base}/tags`, { tag_name: name, ref: 'master' });
      assert.deepEqual(answer(response), [400, { message: 'Tag name invalid' }]);
    }
  });
});

describe('GET /projects/:id/repository/tags/:tag_name', () => {
  test('a tag name longer than git can store is not found', async () => {
    assert.deepEqual(answer(await app.root.get(`${base}/tags/${LONG_QUERY}`)), [404, { message: '404 Tag Not Found' }]);
  });
});

describe('POST, PUT and DELETE /projects/:id/repository/files', () => {
  test('a branch_name longer than git can store is no branch to commit on', async () => {
    const onBranch = { message: 'You can only create or edit files when you are on a branch' };
    const body = { file_path: 'new.txt', branch_name: LONG, content: 'x', commit_message: 'add' };
    assert.deepEqual(answer(await app.root.post(`${base}/files`, body)), [400, onBranch]);
    assert.deepEqual(answer(await app.root.put(`${base}/files`, { ...body, file_path: 'README.md' })), [400, onBranch]);
    const removed = await app.root.delete(`${base}/files`, { file_path: 'README.md', branch_name: LONG_QUERY, commit_message: 'rm' });
    assert.deepEqual(answer(removed), [400, onBranch]);
  });
});

describe('repository reads naming a ref longer than git can store', () => {
  test('GET /projects/:id/repository/files answers 404 Commit Not Found', async () => {
    const response = await app.root.get(`${base}/files`, { file_path: 'README.md', ref: LONG_QUERY });
    assert.deepEqual(answer(response), [404, { message: '404 Commit Not Found' }]);
  });

  test('GET /projects/:id/repository/tree answers 404 Tree Not Found', async () => {
    assert.deepEqual(answer(await app.root.get(`${base}/tree`, { ref_name: LONG_QUERY })), [404, { message: '404 Tree Not Found' }]);
  });

  test('GET /projects/:id/repository/commits answers no commits', async () => {
    assert.deepEqual(answer(await app.root.get(`${base}/commits`, { ref_name: LONG_QUERY })), [200, []]);
  });

  test('GET /projects/:id/repository/archive answers 404 File Not Found', async () => {
    assert.deepEqual(answer(await app.root.get(`${base}/archive`, { sha: LONG_QUERY })), [404, { message: '404 File Not Found' }]);
  });

  test('GET /projects/:id/repository/compare compares nothing', async () => {
    const response = await app.root.get(`${base}/compare`, { from: LONG_QUERY, to: LONG_QUERY });
    assert.equal(response.status, 200);
    assert.deepEqual([response.body.commit, response.body.commits, response.body.diffs], [null, [], []]);
  });
});

describe('a ref name git could not be handed', () => {
  // JSON allows a lone surrogate (`"\ud800"`); it has no UTF-8 form, so git would get another name.
  test('a lone UTF-16 surrogate makes a branch or tag name invalid', async () => {
    const branch = await app.root.raw('POST', `/api/v3${base}/branches`, {
      body: '{"branch_name":"a\\ud800b","ref":"master"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.deepEqual(answer(branch), [400, { message: 'Branch name is invalid' }]);
    const tag = await app.root.raw('POST', `/api/v3${base}/tags`, {
      body: '{"tag_name":"a\\udc00b","ref":"master"}',
      headers: { 'content-type': 'application/json' },
    });
    assert.deepEqual(answer(tag), [400, { message: 'Tag name invalid' }]);
  });
});
