import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildFixture, git, tempDir, type Fixture } from './fixture';
import { GitReader } from '../../src/git/reader';
import { GitStoreError } from '../../src/git/errors';
import { normalizeRepoPath, repositoryPath } from '../../src/git/paths';
import {
  createRepository,
  deleteRepository,
  forkRepository,
  importRepository,
  isEmpty,
  repositoryExists,
  setHeadBranch,
} from '../../src/git/repositories';
import { headBranch, listBranches, listTags } from '../../src/git/refs';
import { resolveCommitId } from '../../src/git/commits';

/** The long-lived processes and caches the functions under test read through, as the app's own. */
const reader = new GitReader();

let root: string;
let fx: Fixture;
before(async () => {
  root = tempDir();
  fx = await buildFixture(root);
});
after(async () => {
  await reader.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const failure = (code: string) => (error: unknown) => error instanceof GitStoreError && error.code === code;

describe('repository paths', () => {
  test('by project id under DATA_DIR/repositories, sharded by id % 100', () => {
    assert.equal(repositoryPath('/data', 1234), '/data/repositories/34/1234.git');
    assert.equal(repositoryPath('/data', 7), '/data/repositories/7/7.git');
    assert.throws(() => repositoryPath('/data', 0));
  });

  test('paths inside a repository never climb out', () => {
    assert.equal(normalizeRepoPath('/files//ruby/./popen.rb'), 'files/ruby/popen.rb');
    assert.equal(normalizeRepoPath(''), '');
    assert.equal(normalizeRepoPath('files/../../etc/passwd'), undefined);
    assert.equal(normalizeRepoPath('..'), undefined);
  });
});

describe('create and delete', () => {
  test('a new repository is bare, empty, HEAD names master, hooks are empty', async () => {
    const repo = repositoryPath(path.join(root, 'data'), 101);
    await createRepository(repo);
    assert.equal(await repositoryExists(repo), true);
    assert.equal(git(repo, ['rev-parse', '--is-bare-repository']).trim(), 'true');
    assert.equal(git(repo, ['symbolic-ref', 'HEAD']).trim(), 'refs/heads/master');
    assert.deepEqual(fs.readdirSync(path.join(repo, 'hooks')), []);
    assert.equal(await isEmpty(repo), true);
    assert.equal(fs.readdirSync(path.dirname(repo)).filter((name) => name.startsWith('.')).length, 0, 'no scratch left behind');
  });

  test('creating over an existing repository is refused', async () => {
    const repo = path.join(root, 'twice.git');
    await createRepository(repo);
    await assert.rejects(createRepository(repo), failure('repository_exists'));
  });

  test('delete removes the repository and is idempotent', async () => {
    const repo = path.join(root, 'gone.git');
    await createRepository(repo);
    await reader.objects.info(repo, 'HEAD');
    await deleteRepository(reader, repo);
    assert.equal(fs.existsSync(repo), false);
    await deleteRepository(reader, repo);
    assert.equal(await isEmpty(repo), true);
  });

  test('HEAD can point at another branch', async () => {
    const repo = path.join(root, 'head.git');
    await createRepository(repo);
    await setHeadBranch(repo, 'develop');
    assert.equal(await headBranch(repo), 'develop');
    await assert.rejects(setHeadBranch(repo, 'bad name'), failure('invalid_ref_name'));
  });
});

describe('fork', () => {
  test('a fork has the branches, tags and HEAD of its source, and survives the source’s deletion', async () => {
    const source = path.join(root, 'fork-source.git');
    git(root, ['clone', '-q', '--bare', fx.repoPath, source]);
    git(source, ['symbolic-ref', 'HEAD', 'refs/heads/feature']);
    const fork = path.join(root, 'forks', 'fork.git');
    await forkRepository(source, fork);
    await deleteRepository(reader, source);

    assert.deepEqual(
      (await listBranches(reader, fork)).map((b) => [b.name, b.commit.id]),
      [
        ['feature', fx.feature],
        ['master', fx.c4],
      ],
    );
    assert.deepEqual(
      (await listTags(reader, fork)).map((t) => t.name),
      ['v1.0.0', 'v1.1.0'],
    );
    assert.equal(await headBranch(fork), 'feature');
    assert.equal(fs.existsSync(path.join(fork, 'objects/info/alternates')), false);
    assert.doesNotMatch(fs.readFileSync(path.join(fork, 'config'), 'utf8'), /remote/);
    git(fork, ['fsck', '--strict']);
    assert.deepEqual(fs.readdirSync(path.join(fork, 'hooks')), []);
  });

  test('forking a missing repository or onto an existing one is refused', async () => {
    await assert.rejects(forkRepository(path.join(root, 'none.git'), path.join(root, 'f1.git')), failure('repository_missing'));
    const existing = path.join(root, 'existing.git');
    await createRepository(existing);
    await assert.rejects(forkRepository(fx.repoPath, existing), failure('repository_exists'));
  });
});

describe('import', () => {
  test('from a file:// URL (when allowed): heads, tags and HEAD; the URL is not kept', async () => {
    const repo = path.join(root, 'imported.git');
    await importRepository(reader, repo, `file://${fx.repoPath}`, { allowFileUrls: true });
    assert.deepEqual(
      (await listBranches(reader, repo)).map((b) => b.name),
      ['feature', 'master'],
    );
    assert.deepEqual(
      (await listTags(reader, repo)).map((t) => [t.name, t.message]),
      [
        ['v1.0.0', null],
        ['v1.1.0', 'Version 1.1.0'],
      ],
    );
    assert.equal(await resolveCommitId(reader, repo, 'HEAD'), fx.c4);
    assert.doesNotMatch(fs.readFileSync(path.join(repo, 'config'), 'utf8'), /remote|file:/);
    assert.deepEqual(fs.readdirSync(path.join(repo, 'hooks')), []);
  });

  test('into an existing empty repository (a project created before its import ran)', async () => {
    const repo = path.join(root, 'import-into-empty.git');
    await createRepository(repo);
    await importRepository(reader, repo, `file://${fx.repoPath}`, { allowFileUrls: true });
    assert.equal(await resolveCommitId(reader, repo, 'master'), fx.c4);
    await assert.rejects(importRepository(reader, repo, `file://${fx.repoPath}`, { allowFileUrls: true }), failure('repository_exists'));
  });

  test('file:// URLs, local paths and other transports are refused unless allowed', async () => {
    const repo = path.join(root, 'refused.git');
    for (const url of [`file://${fx.repoPath}`, fx.repoPath, 'ext::sh -c touch% /tmp/pwned', 'ssh://host/repo.git', 'not a url']) {
      await assert.rejects(importRepository(reader, repo, url), failure('invalid_url'), url);
    }
    assert.equal(fs.existsSync(repo), false);
  });

  test('a failing import says why, without the credentials of the URL, and leaves nothing behind', async () => {
    const repo = path.join(root, 'failed.git');
    await assert.rejects(
      importRepository(reader, repo, 'http://user:s3cret@127.0.0.1:1/repo.git', { timeoutMs: 20_000 }),
      (error: unknown) => {
        assert.ok(error instanceof GitStoreError && error.code === 'import_failed');
        assert.doesNotMatch(error.message, /s3cret/);
        return true;
      },
    );
    assert.equal(fs.existsSync(repo), false);
    assert.deepEqual(
      fs.readdirSync(root).filter((name) => name.includes('failed')),
      [],
    );
  });
});
