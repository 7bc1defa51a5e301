import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../../support/app';
import { ApiClient } from '../../support/client';
import { startServerProcess, type ServerProcess } from '../../support/server-process';
import { cloneUrl, commit, git, tempDir } from '../../support/git';
import { createRootProject } from '../../support/repo';

/*
 * Each Forge process keeps the branches and tags it read, under the project's refs version. A
 * change made through any process, by a push or through the API, is read by the next request to
 * any other, at once: the keepers never wait for an expiry.
 */

let app: TestApp;
let other: ServerProcess;
let here: ApiClient;
let there: ApiClient;
let project: { id: number; head: string };

const names = async (client: ApiClient, kind: 'branches' | 'tags'): Promise<string[]> => {
  const response = await client.get(`/projects/${project.id}/repository/${kind}`);
  assert.equal(response.status, 200);
  return response.body.map((ref: { name: string }) => ref.name);
};

const branchHead = async (client: ApiClient, name: string): Promise<string | number> => {
  const response = await client.get(`/projects/${project.id}/repository/branches/${name}`);
  return response.status === 200 ? response.body.commit.id : response.status;
};

/** A working copy of the project, cloned through this process. */
async function clone(): Promise<string> {
  const dir = tempDir();
  const cloned = await git(['clone', '-q', cloneUrl(app.url, 'root/refs-exact', 'root', 'rootpassword'), dir]);
  assert.equal(cloned.code, 0, cloned.stderr);
  return dir;
}

async function push(dir: string, baseUrl: string, refspec: string): Promise<void> {
  const pushed = await git(['push', '-q', cloneUrl(baseUrl, 'root/refs-exact', 'root', 'rootpassword'), refspec], dir);
  assert.equal(pushed.code, 0, pushed.stderr);
}

before(async () => {
  app = await startApp();
  other = await startServerProcess(app);
  here = app.root;
  there = new ApiClient(other.url, app.rootToken);
  project = await createRootProject(app, 'refs-exact');
});

after(async () => {
  await other?.close();
  await app?.close();
});

describe('branches and tags kept by a Forge process', () => {
  test('a push through one process is read by the other at once', async () => {
    // Both processes read the refs first, so that each keeps them.
    assert.deepEqual(await names(here, 'branches'), ['master']);
    assert.deepEqual(await names(there, 'branches'), ['master']);
    const dir = await clone();
    await git(['checkout', '-q', '-b', 'pushed'], dir);
    await commit(dir, { 'pushed.txt': 'pushed\n' }, 'a pushed commit');
    await push(dir, app.url, 'pushed');
    assert.deepEqual(await names(there, 'branches'), ['master', 'pushed']);
    assert.deepEqual(await names(here, 'branches'), ['master', 'pushed']);

    await commit(dir, { 'more.txt': 'more\n' }, 'another pushed commit');
    await push(dir, other.url, 'pushed:master');
    const pushedHead = (await git(['rev-parse', 'HEAD'], dir)).stdout.trim();
    assert.equal(await branchHead(here, 'master'), pushedHead);
    assert.equal(await branchHead(there, 'master'), pushedHead);
  });

  test('branches and tags made and removed through the API of one process are read by the other at once', async () => {
    await names(here, 'tags');
    await names(there, 'tags');
    assert.equal(
      (await there.post(`/projects/${project.id}/repository/branches`, { branch_name: 'made-there', ref: 'master' })).status,
      200,
    );
    assert.ok((await names(here, 'branches')).includes('made-there'));

    assert.equal(
      (await here.post(`/projects/${project.id}/repository/tags`, { tag_name: 'v1.0', ref: 'master', message: 'Release 1.0' })).status,
      201,
    );
    assert.deepEqual(await names(there, 'tags'), ['v1.0']);
    assert.equal((await there.get(`/projects/${project.id}/repository/tags/v1.0`)).body.message, 'Release 1.0');

    assert.equal((await there.delete(`/projects/${project.id}/repository/tags/v1.0`)).status, 200);
    assert.deepEqual(await names(here, 'tags'), []);
    assert.equal((await here.get(`/projects/${project.id}/repository/tags/v1.0`)).status, 404);

    assert.equal((await here.delete(`/projects/${project.id}/repository/branches/made-there`)).status, 200);
    assert.equal(await branchHead(there, 'made-there'), 404);
    assert.ok(!(await names(there, 'branches')).includes('made-there'));
  });

  test('a commit of the files API through one process moves the branch the other shows', async () => {
    const before = await branchHead(here, 'master');
    assert.equal(await branchHead(there, 'master'), before);
    const created = await there.post(`/projects/${project.id}/repository/files`, {
      file_path: 'written.txt',
      branch_name: 'master',
      content: 'written\n',
      commit_message: 'Write a file',
    });
    assert.equal(created.status, 201);
    const after = await branchHead(here, 'master');
    assert.notEqual(after, before);
    assert.equal((await here.get(`/projects/${project.id}/repository/commits/${after}`)).body.title, 'Write a file');
    assert.equal(await branchHead(there, 'master'), after);
  });
});
