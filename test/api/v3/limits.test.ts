import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { createRootProject } from '../../support/repo';
import { LIMITS } from '../../../src/lib/limits';

let app: TestApp;
let projectId: number;
let head: string;

before(async () => {
  app = await startApp();
  ({ id: projectId, head } = await createRootProject(app, 'limits'));
});
after(() => app.close());

const TEXT_PAST = 'd'.repeat(LIMITS.text + 1);
const NAME_PAST = 'n'.repeat(LIMITS.name + 1);
const tooLong = (field: string, max: number) => ({ message: { [field]: [`is too long (maximum is ${max} characters)`] } });
const answer = (response: { status: number; body: unknown }) => [response.status, response.body];

describe('POST /projects', () => {
  test(`a description of ${LIMITS.text} characters is kept; one more is too long`, async () => {
    const kept = await app.root.post('/projects', { name: 'long-description', description: 'd'.repeat(LIMITS.text) });
    assert.equal(kept.status, 201);
    assert.equal(kept.body.description.length, LIMITS.text);
    const refused = await app.root.post('/projects', { name: 'too-long-description', description: TEXT_PAST });
    assert.deepEqual(answer(refused), [400, tooLong('description', LIMITS.text)]);
  });
});

describe('PUT /projects/:id', () => {
  test('a description past the text limit is too long', async () => {
    assert.deepEqual(answer(await app.root.put(`/projects/${projectId}`, { description: TEXT_PAST })), [
      400,
      tooLong('description', LIMITS.text),
    ]);
  });
});

describe('POST /users', () => {
  test('profile fields count characters, not bytes: 255 of them, of any width', async () => {
    const { user } = await app.createUser({ skype: '€'.repeat(LIMITS.name) });
    assert.equal(user.skype, '€'.repeat(LIMITS.name));
    const refused = await app.root.post('/users', {
      email: 'long@example.com',
      password: 'password123',
      name: 'Long',
      username: 'long',
      twitter: NAME_PAST,
    });
    assert.deepEqual(answer(refused), [400, tooLong('twitter', LIMITS.name)]);
  });
});

describe('POST /projects/:id/repository/files', () => {
  test('a commit message past the text limit is too long', async () => {
    const response = await app.root.post(`/projects/${projectId}/repository/files`, {
      file_path: 'new.txt',
      branch_name: 'master',
      content: 'x',
      commit_message: TEXT_PAST,
    });
    assert.deepEqual(answer(response), [400, tooLong('commit_message', LIMITS.text)]);
  });

  test('a file path past PATH_MAX is too long', async () => {
    const response = await app.root.post(`/projects/${projectId}/repository/files`, {
      file_path: 'p'.repeat(LIMITS.filePath + 1),
      branch_name: 'master',
      content: 'x',
      commit_message: 'add',
    });
    assert.deepEqual(answer(response), [400, tooLong('file_path', LIMITS.filePath)]);
  });
});

describe('POST /projects/:id/repository/commits/:sha/comments', () => {
  test('a note past the text limit is too long', async () => {
    const response = await app.root.post(`/projects/${projectId}/repository/commits/${head}/comments`, { note: TEXT_PAST });
    assert.deepEqual(answer(response), [400, tooLong('note', LIMITS.text)]);
  });
});

describe('POST /projects/:id/statuses/:sha', () => {
  test('a ref past 255 characters is too long, a description past the text limit too', async () => {
    const ref = await app.root.post(`/projects/${projectId}/statuses/${head}`, { state: 'success', ref: NAME_PAST });
    assert.deepEqual(answer(ref), [400, tooLong('ref', LIMITS.name)]);
    const description = await app.root.post(`/projects/${projectId}/statuses/${head}`, { state: 'success', description: TEXT_PAST });
    assert.deepEqual(answer(description), [400, tooLong('description', LIMITS.text)]);
  });
});

describe('POST /broadcast_messages', () => {
  test('a message past the text limit is too long', async () => {
    assert.deepEqual(answer(await app.root.post('/broadcast_messages', { message: TEXT_PAST })), [400, tooLong('message', LIMITS.text)]);
  });
});

describe('POST /projects/:id/hooks and POST /hooks', () => {
  test('a hook URL past the text limit is too long', async () => {
    const url = `http://example.com/${TEXT_PAST}`;
    assert.deepEqual(answer(await app.root.post(`/projects/${projectId}/hooks`, { url })), [400, tooLong('url', LIMITS.text)]);
    assert.deepEqual(answer(await app.root.post('/hooks', { url })), [400, tooLong('url', LIMITS.text)]);
  });
});

describe('PUT /application/settings', () => {
  test('a sign-in text past the text limit is too long', async () => {
    assert.deepEqual(answer(await app.root.put('/application/settings', { sign_in_text: TEXT_PAST })), [
      400,
      tooLong('sign_in_text', LIMITS.text),
    ]);
  });
});

describe('POST /projects/:id/repository/tags', () => {
  test('a release description past the text limit is too long', async () => {
    const response = await app.root.post(`/projects/${projectId}/repository/tags`, {
      tag_name: 'v1',
      ref: 'master',
      release_description: TEXT_PAST,
    });
    assert.deepEqual(answer(response), [400, tooLong('release_description', LIMITS.text)]);
  });
});

describe('list filters', () => {
  // A filter is echoed four times in the Link header: unbounded, it made headers no client reads.
  test('a search or ref filter past 255 characters is too long', async () => {
    assert.deepEqual(answer(await app.root.get('/projects', { search: NAME_PAST })), [400, tooLong('search', LIMITS.name)]);
    const statuses = await app.root.get(`/projects/${projectId}/repository/commits/${head}/statuses`, { ref: 'r'.repeat(5000) });
    assert.deepEqual(answer(statuses), [400, tooLong('ref', LIMITS.name)]);
  });
});
