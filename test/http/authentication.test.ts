import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { seedCommit } from '../support/repo';
import type { ApiClient } from '../support/client';

/**
 * "All consumer API rows require authentication unless stated": an anonymous call (no token, an
 * unknown token, a blocked user's token) gets 401 before anything is looked up, public projects
 * included. Open rows: POST /session, licenses, gitignores, gitlab_ci_ymls, POST /ci/lint, health, the
 * OpenAPI document.
 */
let app: TestApp;
let publicProject: number;
let sha: string;
let blob: string;
let callers: Record<'no token' | 'an unknown token' | "a blocked user's token", ApiClient>;

before(async () => {
  app = await startApp();
  const owner = await app.createUser();
  const created = await owner.client.post('/projects', { name: 'open-to-all', visibility_level: 20 });
  assert.equal(created.status, 201);
  publicProject = created.body.id;
  sha = await seedCommit(app, publicProject, { files: { 'README.md': '# open\n' } });
  blob = (await owner.client.get(`/projects/${publicProject}/repository/tree`)).body[0].id;
  const blocked = await app.createUser();
  assert.equal((await app.root.put(`/users/${blocked.user.id}/block`)).status, 200);
  callers = { 'no token': app.anonymous, 'an unknown token': app.as('no-such-token-0000'), "a blocked user's token": blocked.client };
});
after(() => app.close());

// The routes that used to serve public projects to anonymous callers.
const formerlyAnonymous = (id: number, commit: string, blobId: string) => [
  `/projects/${id}`,
  `/projects/${id}/events`,
  `/projects/${id}/repository/commits`,
  `/projects/${id}/repository/commits/${commit}`,
  `/projects/${id}/repository/commits/${commit}/diff`,
  `/projects/${id}/repository/commits/${commit}/comments`,
  `/projects/${id}/repository/tree`,
  `/projects/${id}/repository/blobs/${commit}?filepath=README.md`,
  `/projects/${id}/repository/commits/${commit}/blob?filepath=README.md`,
  `/projects/${id}/repository/raw_blobs/${blobId}`,
  `/projects/${id}/repository/archive`,
  `/projects/${id}/repository/archive.zip`,
  `/projects/${id}/repository/compare?from=${commit}&to=${commit}`,
  `/projects/${id}/repository/contributors`,
];

describe('consumer API rows need a signed-in caller', () => {
  for (const who of ['no token', 'an unknown token', "a blocked user's token"] as const) {
    test(`${who}: 401 on every read of a public project`, async () => {
      for (const path of formerlyAnonymous(publicProject, sha, blob)) {
        const response = await callers[who].get(path);
        assert.equal(response.status, 401, `${path}: ${response.status} ${response.text.slice(0, 100)}`);
        assert.deepEqual(response.body, { message: '401 Unauthorized' }, path);
      }
    });

    test(`${who}: 401 on GET /user`, async () => {
      const response = await callers[who].get('/user');
      assert.equal(response.status, 401);
      assert.deepEqual(response.body, { message: '401 Unauthorized' });
    });
  }

  test('a missing project is 401 for an anonymous caller, not 404: nothing is looked up first', async () => {
    for (const path of formerlyAnonymous(999999, sha, blob)) {
      const response = await app.anonymous.get(path);
      assert.equal(response.status, 401, path);
      assert.deepEqual(response.body, { message: '401 Unauthorized' }, path);
    }
  });

  test('a signed-in user still reads the public project', async () => {
    const { client } = await app.createUser();
    for (const path of formerlyAnonymous(publicProject, sha, blob)) assert.equal((await client.get(path)).status, 200, path);
  });
});

describe('rows open to anonymous callers', () => {
  test('templates, health, readiness and the OpenAPI document answer without a token', async () => {
    for (const path of ['/licenses', '/licenses/mit', '/gitignores', '/gitignores/Ruby', '/gitlab_ci_ymls', '/gitlab_ci_ymls/Ruby']) {
      assert.equal((await app.anonymous.get(path)).status, 200, path);
    }
    for (const path of ['/-/health', '/-/readiness', '/api/v3/openapi.json']) {
      assert.equal((await fetch(`${app.url}${path}`)).status, 200, path);
    }
  });

  test('POST /session answers without a token', async () => {
    assert.equal((await app.anonymous.post('/session', { login: 'root', password: 'rootpassword' })).status, 201);
  });

  test('POST /ci/lint answers without a token', async () => {
    const response = await app.anonymous.post('/api/v3/ci/lint', { content: 'job:\n  script: make\n' });
    assert.equal(response.status, 200);
    assert.equal(response.body.status, 'valid');
  });
});
