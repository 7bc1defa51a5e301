import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildFixture, git, tempDir, type Fixture } from './fixture';
import { GitReader } from '../../src/git/reader';
import { GitStoreError } from '../../src/git/errors';
import { createRepository } from '../../src/git/repositories';
import { createBranch, createTag, deleteBranch, deleteTag, updateRef } from '../../src/git/write';
import { commitFiles } from '../../src/git/commit-files';
import { findBranch, findTag, listTags } from '../../src/git/refs';
import { resolveCommit } from '../../src/git/commits';
import { blobAtPath, listTree } from '../../src/git/tree';
import { isValidBranchName } from '../../src/git/ref-names';

/** The long-lived processes and caches the functions under test read through, as the app's own. */
const reader = new GitReader();

let root: string;
let fx: Fixture;
let counter = 0;
/** A private copy of the fixture per test, so tests do not see each other's writes. */
const copy = () => {
  const repo = path.join(root, `copy-${counter++}.git`);
  git(root, ['clone', '-q', '--bare', fx.repoPath, repo]);
  return repo;
};
before(async () => {
  root = tempDir();
  fx = await buildFixture(root);
});
after(async () => {
  await reader.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const failure = (code: string) => (error: unknown) => {
  assert.ok(error instanceof GitStoreError, String(error));
  assert.equal(error.code, code);
  return true;
};

const ALICE = { name: 'Alice', email: 'alice@example.com', time: new Date('2016-09-22T10:00:00Z') };

describe('branch names', () => {
  test('follow `git check-ref-format refs/<name>`, as GitLab checks them', () => {
    const names = [
      'feature1',
      'feature/one',
      'v1.0',
      'a-b_c',
      'ünï',
      '@',
      'a@b',
      'a{b',
      'new design',
      'a..b',
      'a~1',
      'a^',
      'a:b',
      'a?',
      'a*',
      'a[',
      'a\\b',
      '.hidden',
      'a/.b',
      'a.lock',
      'x.lock/y',
      'a/',
      '/a',
      'a//b',
      'a.',
      'a@{1}',
      'tab\tx',
      'del\x7f',
      '',
    ];
    for (const name of names) {
      const gitSays = spawnSync('git', ['check-ref-format', `refs/${name}`]).status === 0;
      assert.equal(isValidBranchName(name), gitSays, JSON.stringify(name));
    }
  });

  test('names that spell a full ref or an option are refused', () => {
    for (const name of ['refs/heads/x', 'refs/remotes/x', '-x']) assert.equal(isValidBranchName(name), false, name);
  });
});

describe('creating and deleting branches', () => {
  test('from a sha, a branch or a tag', async () => {
    const repo = copy();
    assert.equal(await createBranch(reader, repo, 'feature1', fx.c2), fx.c2);
    assert.equal(await createBranch(reader, repo, 'from-tag', 'v1.1.0'), fx.c2);
    assert.equal((await findBranch(reader, repo, 'feature1'))!.commit.id, fx.c2);
  });

  test('an invalid name, an existing branch, an unknown ref and a name clash are refused', async () => {
    const repo = copy();
    await assert.rejects(createBranch(reader, repo, 'new design', 'master'), failure('invalid_ref_name'));
    await assert.rejects(createBranch(reader, repo, 'feature', 'master'), failure('ref_exists'));
    await assert.rejects(createBranch(reader, repo, 'feature1', 'foo'), failure('invalid_revision'));
    await assert.rejects(createBranch(reader, repo, 'master/sub', 'master'), failure('ref_name_conflict'));
    assert.equal((await findBranch(reader, repo, 'feature'))!.commit.id, fx.feature);
  });

  test('delete, only while the branch has the expected value', async () => {
    const repo = copy();
    await assert.rejects(deleteBranch(repo, 'feature', fx.c1), failure('ref_moved'));
    await deleteBranch(repo, 'feature', fx.feature);
    assert.equal(await findBranch(reader, repo, 'feature'), undefined);
    await assert.rejects(deleteBranch(repo, 'feature'), failure('ref_missing'));
  });

  test('a compare-and-swap update fails when the ref moved', async () => {
    const repo = copy();
    await updateRef(repo, 'refs/heads/master', fx.c3, fx.c4);
    await assert.rejects(updateRef(repo, 'refs/heads/master', fx.c2, fx.c4), failure('ref_moved'));
    await assert.rejects(updateRef(repo, 'refs/heads/master', fx.c2, null), failure('ref_exists'));
  });
});

describe('tags', () => {
  test('lightweight and annotated tags', async () => {
    const repo = copy();
    assert.equal(await createTag(reader, repo, 'v2.0.0', 'master'), fx.c4);
    const tagId = await createTag(reader, repo, 'v2.1.0', fx.c3, { message: 'Release 2.1', tagger: ALICE });
    assert.notEqual(tagId, fx.c3);
    const tag = (await findTag(reader, repo, 'v2.1.0'))!;
    assert.deepEqual([tag.message, tag.commit?.id, tag.targetId], ['Release 2.1', fx.c3, tagId]);
    assert.equal((await findTag(reader, repo, 'v2.0.0'))!.message, null);
    assert.match(git(repo, ['cat-file', 'tag', tagId]), /^tagger Alice <alice@example.com> 1474538400 \+0000$/m);
  });

  test('invalid names, existing tags and unknown targets are refused; delete removes', async () => {
    const repo = copy();
    await assert.rejects(createTag(reader, repo, 'v 1.0.0', 'master'), failure('invalid_ref_name'));
    await assert.rejects(createTag(reader, repo, 'v1.0.0', 'master'), failure('ref_exists'));
    await assert.rejects(createTag(reader, repo, 'v3', 'foo'), failure('invalid_revision'));
    await deleteTag(repo, 'v1.1.0');
    assert.deepEqual(
      (await listTags(reader, repo)).map((t) => t.name),
      ['v1.0.0'],
    );
    await assert.rejects(deleteTag(repo, 'v1.1.0'), failure('ref_missing'));
  });
});

describe('committing files', () => {
  test('create, update and delete a file on a branch, with author and committer', async () => {
    const repo = copy();
    const created = await commitFiles(reader, repo, {
      branch: 'master',
      changes: [{ action: 'create', path: '/newfile.rb', content: Buffer.from('puts 1\n') }],
      message: 'Add newfile',
      author: { name: 'Author', email: 'author@example.com', time: new Date('2016-01-01T00:00:00Z') },
      committer: ALICE,
    });
    assert.equal(created.branchCreated, false);
    const commit = (await resolveCommit(reader, repo, 'master'))!;
    assert.equal(commit.id, created.commitId);
    assert.deepEqual(commit.parentIds, [fx.c4]);
    assert.equal(commit.message, 'Add newfile');
    assert.deepEqual(
      [commit.author.name, commit.author.email, commit.author.date],
      ['Author', 'author@example.com', '2016-01-01T00:00:00.000+00:00'],
    );
    assert.deepEqual([commit.committer.name, commit.committer.email], ['Alice', 'alice@example.com']);
    assert.equal((await blobAtPath(reader, repo, commit.id, 'newfile.rb'))!.content.toString(), 'puts 1\n');

    await commitFiles(reader, repo, {
      branch: 'master',
      changes: [{ action: 'update', path: 'bin/run', content: Buffer.from('#!/bin/sh\n') }],
      message: 'Edit',
      author: ALICE,
    });
    const bin = (await listTree(reader, repo, 'master', 'bin'))!;
    assert.deepEqual(
      bin.map((e) => [e.name, e.mode]),
      [['run', '100755']],
      'an update keeps the executable bit',
    );

    await commitFiles(reader, repo, {
      branch: 'master',
      changes: [{ action: 'delete', path: 'newfile.rb' }],
      message: 'Remove',
      author: ALICE,
    });
    assert.equal(await blobAtPath(reader, repo, 'master', 'newfile.rb'), undefined);
    git(repo, ['fsck', '--strict']);
  });

  test('binary content is stored byte for byte', async () => {
    const repo = copy();
    const bytes = Buffer.from([0, 255, 1, 254, 10, 13]);
    await commitFiles(reader, repo, {
      branch: 'master',
      changes: [{ action: 'create', path: 'bin.dat', content: bytes }],
      message: 'Binary',
      author: ALICE,
    });
    assert.deepEqual((await blobAtPath(reader, repo, 'master', 'bin.dat'))!.content, bytes);
  });

  test('the first commit of an empty repository creates the branch', async () => {
    const repo = path.join(root, 'empty-first.git');
    await createRepository(repo);
    const result = await commitFiles(reader, repo, {
      branch: 'master',
      changes: [{ action: 'create', path: 'README.md', content: Buffer.from('hi\n') }],
      message: 'First',
      author: ALICE,
    });
    assert.equal(result.branchCreated, true);
    assert.deepEqual((await resolveCommit(reader, repo, 'master'))!.parentIds, []);
  });

  test('a new branch can start from another ref', async () => {
    const repo = copy();
    const result = await commitFiles(reader, repo, {
      branch: 'topic',
      startRef: 'v1.0.0',
      changes: [{ action: 'create', path: 'x', content: Buffer.from('x') }],
      message: 'x',
      author: ALICE,
    });
    assert.equal(result.branchCreated, true);
    assert.deepEqual((await resolveCommit(reader, repo, 'topic'))!.parentIds, [fx.c1]);
    await assert.rejects(
      commitFiles(reader, repo, {
        branch: 'other',
        startRef: 'nope',
        changes: [{ action: 'delete', path: 'x' }],
        message: 'x',
        author: ALICE,
      }),
      failure('invalid_revision'),
    );
  });

  test('existing, missing, blocked, escaping and .git paths are refused and nothing changes', async () => {
    const repo = copy();
    const attempt = (action: 'create' | 'update' | 'delete', file: string) =>
      commitFiles(reader, repo, {
        branch: 'master',
        changes: [action === 'delete' ? { action, path: file } : { action, path: file, content: Buffer.from('x') }],
        message: 'm',
        author: ALICE,
      });
    await assert.rejects(attempt('create', 'README.md'), failure('file_exists'));
    await assert.rejects(attempt('create', 'files'), failure('path_conflict'));
    await assert.rejects(attempt('create', 'README.md/inner'), failure('path_conflict'));
    await assert.rejects(attempt('update', 'nope.txt'), failure('file_missing'));
    await assert.rejects(attempt('delete', 'files'), failure('file_missing'));
    await assert.rejects(attempt('create', '../escape'), failure('invalid_path'));
    await assert.rejects(attempt('create', 'a/.GIT/config'), failure('invalid_path'));
    await assert.rejects(attempt('create', ''), failure('invalid_path'));
    await assert.rejects(
      commitFiles(reader, repo, { branch: 'bad name', changes: [], message: 'm', author: ALICE }),
      failure('invalid_ref_name'),
    );
    await assert.rejects(
      attempt('create', 'ok.txt').then(() =>
        commitFiles(reader, repo, { branch: 'master', changes: [], message: 'm', author: { name: '<>', email: 'x' } }),
      ),
      failure('invalid_identity'),
    );
    assert.equal((await resolveCommit(reader, repo, 'master~1'))!.id, fx.c4);
  });

  test('concurrent commits to one branch: one wins, the other is told the branch moved', async () => {
    const repo = copy();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        commitFiles(reader, repo, {
          branch: 'master',
          changes: [{ action: 'create', path: `file-${i}`, content: Buffer.from(String(i)) }],
          message: `c${i}`,
          author: ALICE,
        }),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    assert.ok(won.length >= 1);
    for (const loss of lost) failure('ref_moved')(loss.reason);
    const history = git(repo, ['rev-list', 'master']).trim().split('\n');
    assert.equal(history.length, 4 + won.length, 'every winner is in history, no winner was clobbered');
  });
});
