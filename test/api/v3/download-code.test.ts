import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import type { ApiClient } from '../../support/client';
import { createProjectWorld, type ProjectWorld } from '../../support/project-world';
import { assertCodeAccess } from '../../support/access-matrix';

/**
 * Every route that copies or shows a project's code needs `download_code` (GitLab 8.12's
 * `fork_project` asks the same: reporters and up, or any reader of a public or internal project).
 * A guest of a private project may see the project but not its code.
 */
let app: TestApp;
let guest: ApiClient;
let reporter: ApiClient;
let project: ProjectWorld<'guest' | 'reporter'>;
let sha: { first: string; second: string; blob: string };

before(async () => {
  app = await startApp();
  project = await createProjectWorld(app, {
    name: 'secret',
    visibility: 0,
    roles: ['guest', 'reporter'],
    commits: [
      { files: { 'README.md': '# secret\n' }, message: 'first\n' },
      { files: { 'README.md': '# secret\n\nmore\n' }, message: 'second\n' },
    ],
  });
  guest = project.guest.client;
  reporter = project.reporter.client;
  const [first, second] = project.shas;
  const file = await reporter.get(`/projects/${project.id}/repository/files`, { file_path: 'README.md', ref: 'master' });
  sha = { first, second, blob: file.body.blob_id };
  await project.owner.client.post(`/projects/${project.id}/repository/tags`, { tag_name: 'v1', ref: 'master' });
});
after(() => app.close());

const repo = () => `/projects/${project.id}/repository`;

/** Each read of the code, and what a reporter gets from it. */
const READS: { name: string; call(client: ApiClient): Promise<{ status: number; body: unknown }>; ok: number }[] = [
  { name: 'GET tree', call: (c) => c.get(`${repo()}/tree`), ok: 200 },
  { name: 'GET files', call: (c) => c.get(`${repo()}/files`, { file_path: 'README.md', ref: 'master' }), ok: 200 },
  { name: 'GET blobs/:sha', call: (c) => c.get(`${repo()}/blobs/${sha.second}`, { filepath: 'README.md' }), ok: 200 },
  { name: 'GET commits/:sha/blob', call: (c) => c.get(`${repo()}/commits/${sha.second}/blob`, { filepath: 'README.md' }), ok: 200 },
  { name: 'GET raw_blobs/:sha', call: (c) => c.get(`${repo()}/raw_blobs/${sha.blob}`), ok: 200 },
  { name: 'GET archive', call: (c) => c.get(`${repo()}/archive`), ok: 200 },
  { name: 'GET archive.zip', call: (c) => c.get(`${repo()}/archive.zip`), ok: 200 },
  { name: 'GET compare', call: (c) => c.get(`${repo()}/compare`, { from: sha.first, to: sha.second }), ok: 200 },
  { name: 'GET contributors', call: (c) => c.get(`${repo()}/contributors`), ok: 200 },
  { name: 'GET commits', call: (c) => c.get(`${repo()}/commits`), ok: 200 },
  { name: 'GET commits/:sha', call: (c) => c.get(`${repo()}/commits/${sha.second}`), ok: 200 },
  { name: 'GET commits/:sha/diff', call: (c) => c.get(`${repo()}/commits/${sha.second}/diff`), ok: 200 },
  { name: 'GET commits/:sha/comments', call: (c) => c.get(`${repo()}/commits/${sha.second}/comments`), ok: 200 },
  { name: 'POST commits/:sha/comments', call: (c) => c.post(`${repo()}/commits/${sha.second}/comments`, { note: 'looks good' }), ok: 201 },
  { name: 'GET commits/:sha/statuses', call: (c) => c.get(`${repo()}/commits/${sha.second}/statuses`), ok: 200 },
  { name: 'GET branches', call: (c) => c.get(`${repo()}/branches`), ok: 200 },
  { name: 'GET branches/:branch', call: (c) => c.get(`${repo()}/branches/master`), ok: 200 },
  { name: 'GET tags', call: (c) => c.get(`${repo()}/tags`), ok: 200 },
  { name: 'GET tags/:tag', call: (c) => c.get(`${repo()}/tags/v1`), ok: 200 },
];

describe('routes that show the code of a private project', () => {
  for (const read of READS) {
    test(`${read.name}: a guest gets 403, a reporter gets through`, async () => {
      await assertCodeAccess({ private: project }, read.call, read.ok);
    });
  }
});

describe('POST /projects/fork/:id', () => {
  test('a guest of a private project may not fork it, and no project is created', async () => {
    const before = await app.ctx.db.selectFrom('projects').select('id').execute();
    const fork = await guest.post(`/projects/fork/${project.id}`);
    // GitLab 8.12.x's answer: the fork service refuses it as a validation error.
    assert.equal(fork.status, 409);
    assert.deepEqual(fork.body, { message: { forked_from_project_id: ['is forbidden'] } });
    const afterwards = await app.ctx.db.selectFrom('projects').select('id').execute();
    assert.deepEqual(afterwards, before);
  });

  test('a reporter of a private project may fork it, code included', async () => {
    const fork = await reporter.post(`/projects/fork/${project.id}`);
    assert.equal(fork.status, 201);
    assert.equal(fork.body.forked_from_project.id, project.id);
    const file = await reporter.get(`/projects/${fork.body.id}/repository/files`, { file_path: 'README.md', ref: 'master' });
    assert.equal(file.status, 200);
  });
});
