import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { startApp, type TestApp } from '../support/app';
import { grantProjectRole } from '../support/roles';
import { cloneUrl, tempDir } from '../support/git';
import { eventually } from '../support/eventually';
import { projectLfsSize } from '../../src/services/lfs-objects/queries';
import { lfsGitOk, lfsWorkTree, sha256, storedObjectPath } from '../support/git-lfs';

let app: TestApp;
before(async () => {
  // The hrefs of the batch answers name the external URL: the loopback address the server listens on.
  app = await startApp({ EXTERNAL_URL: 'http://127.0.0.1:0' });
});
after(() => app.close());

async function person() {
  const { user, token } = await app.createUser();
  return { username: user.username as string, token, id: user.id as number };
}

async function privateProject() {
  const owner = await person();
  const created = await app.as(owner.token).post('/projects', { name: `lfs${crypto.randomBytes(3).toString('hex')}`, visibility_level: 0 });
  assert.equal(created.status, 201);
  return { owner, id: created.body.id as number, path: created.body.path_with_namespace as string };
}

const large = () => crypto.randomBytes(3 * 1024 * 1024 + 17);

/** Clones without LFS content, then fetches it with `git lfs pull`, as a client that installs git-lfs after cloning. */
async function cloneAndPull(url: string): Promise<string> {
  const dir = path.join(tempDir(), 'c');
  await lfsGitOk(['clone', '-q', url, dir], undefined, { GIT_LFS_SKIP_SMUDGE: '1' });
  await lfsGitOk(['lfs', 'install', '--local'], dir);
  await lfsGitOk(['lfs', 'pull'], dir);
  return dir;
}

describe('git lfs push and pull over HTTP', () => {
  test('the real git-lfs client pushes large files and another member pulls the same bytes', async () => {
    const p = await privateProject();
    const big = large();
    const small = crypto.randomBytes(1000);
    const work = await lfsWorkTree({ 'big.bin': big, 'small.bin': small, 'README.md': '# lfs\n' });
    await lfsGitOk(['push', cloneUrl(app.url, p.path, p.owner.username, p.owner.token), 'master'], work);

    // Stored once each, by SHA-256, with their exact bytes.
    for (const content of [big, small]) assert.deepEqual(fs.readFileSync(storedObjectPath(app.dataDir, sha256(content))), content);
    // Counted in what the project holds.
    assert.equal(await projectLfsSize(app.ctx.db, p.id), big.length + small.length);

    const reporter = await person();
    await grantProjectRole(app, p.id, reporter.id, 20);
    const clone = await cloneAndPull(cloneUrl(app.url, p.path, reporter.username, reporter.token));
    assert.deepEqual(fs.readFileSync(path.join(clone, 'big.bin')), big);
    assert.deepEqual(fs.readFileSync(path.join(clone, 'small.bin')), small);
  });

  test('a clone with git-lfs installed gets the content at checkout (the smudge filter downloads it)', async () => {
    const p = await privateProject();
    const content = crypto.randomBytes(200_000);
    const work = await lfsWorkTree({ 'data.bin': content });
    const url = cloneUrl(app.url, p.path, p.owner.username, p.owner.token);
    await lfsGitOk(['push', url, 'master'], work);
    const dir = path.join(tempDir(), 'c');
    await lfsGitOk([
      '-c',
      'filter.lfs.smudge=git-lfs smudge -- %f',
      '-c',
      'filter.lfs.process=git-lfs filter-process',
      '-c',
      'filter.lfs.required=true',
      'clone',
      '-q',
      url,
      dir,
    ]);
    assert.deepEqual(fs.readFileSync(path.join(dir, 'data.bin')), content);
  });

  test('a later push adds its new object beside the earlier one, and both pull', async () => {
    const p = await privateProject();
    const first = crypto.randomBytes(50_000);
    const work = await lfsWorkTree({ 'one.bin': first });
    const url = cloneUrl(app.url, p.path, p.owner.username, p.owner.token);
    await lfsGitOk(['push', url, 'master'], work);
    const second = crypto.randomBytes(60_000);
    fs.writeFileSync(path.join(work, 'two.bin'), second);
    await lfsGitOk(['add', '-A'], work);
    await lfsGitOk(['commit', '-q', '-m', 'another'], work);
    await lfsGitOk(['push', url, 'master'], work);
    const clone = await cloneAndPull(url);
    assert.deepEqual(fs.readFileSync(path.join(clone, 'one.bin')), first);
    assert.deepEqual(fs.readFileSync(path.join(clone, 'two.bin')), second);
  });

  test('a reporter cannot push LFS objects: the push fails and nothing is stored', async () => {
    const p = await privateProject();
    const reporter = await person();
    await grantProjectRole(app, p.id, reporter.id, 20);
    const content = crypto.randomBytes(10_000);
    const work = await lfsWorkTree({ 'r.bin': content });
    const pushed = await lfsGitOk(['push', cloneUrl(app.url, p.path, reporter.username, reporter.token), 'master'], work).catch(
      (error: Error) => error,
    );
    assert.ok(pushed instanceof Error, 'the push should fail');
    assert.equal(fs.existsSync(storedObjectPath(app.dataDir, sha256(content))), false);
  });

  test('a fork pulls the objects of the project it was forked from', async () => {
    const p = await privateProject();
    const content = crypto.randomBytes(100_000);
    const work = await lfsWorkTree({ 'shared.bin': content });
    await lfsGitOk(['push', cloneUrl(app.url, p.path, p.owner.username, p.owner.token), 'master'], work);
    const forker = await person();
    await grantProjectRole(app, p.id, forker.id, 20);
    const fork = await app.as(forker.token).post(`/projects/fork/${p.id}`);
    assert.equal(fork.status, 201);
    const clone = await cloneAndPull(cloneUrl(app.url, fork.body.path_with_namespace, forker.username, forker.token));
    assert.deepEqual(fs.readFileSync(path.join(clone, 'shared.bin')), content);
  });

  test('removing a project removes the objects no other project links, and keeps those another links', async () => {
    const p = await privateProject();
    const own = crypto.randomBytes(30_000);
    const shared = crypto.randomBytes(40_000);
    const work = await lfsWorkTree({ 'own.bin': own, 'shared.bin': shared });
    await lfsGitOk(['push', cloneUrl(app.url, p.path, p.owner.username, p.owner.token), 'master'], work);
    const other = await privateProject();
    const otherWork = await lfsWorkTree({ 'shared.bin': shared });
    await lfsGitOk(['push', cloneUrl(app.url, other.path, other.owner.username, other.owner.token), 'master'], otherWork);

    assert.equal((await app.as(p.owner.token).delete(`/projects/${p.id}`)).status, 200);
    await eventually(() => !fs.existsSync(storedObjectPath(app.dataDir, sha256(own))), {
      message: "the removed project's own object is deleted",
    });
    assert.deepEqual(fs.readFileSync(storedObjectPath(app.dataDir, sha256(shared))), shared);
    const rows = await app.ctx.db
      .selectFrom('lfs_objects')
      .select('oid')
      .where('oid', 'in', [sha256(own), sha256(shared)])
      .execute();
    assert.deepEqual(
      rows.map((row) => row.oid),
      [sha256(shared)],
    );
    // The other project still pulls it.
    const clone = await cloneAndPull(cloneUrl(app.url, other.path, other.owner.username, other.owner.token));
    assert.deepEqual(fs.readFileSync(path.join(clone, 'shared.bin')), shared);
  });
});
