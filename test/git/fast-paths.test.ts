import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildFixture, git, tempDir, type Fixture } from './fixture';
import { GitReader } from '../../src/git/reader';
import { resolveCommit } from '../../src/git/commits';
import { commitStats } from '../../src/git/commit-stats';
import { commitDiff, diffTrees } from '../../src/git/diff';
import { ImmutableCache } from '../../src/git/immutable-cache';
import { log, logIds } from '../../src/git/log';
import { createRepository } from '../../src/git/repositories';

/** The long-lived processes and caches the functions under test read through, as the app's own. */
const reader = new GitReader();

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

let root: string;
let fx: Fixture;
let merges: string;
before(async () => {
  root = tempDir();
  fx = await buildFixture(root);
  merges = await buildMergeHistory(root);
});
after(async () => {
  await reader.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/**
 * Branches merged into one another (an octopus too), committer dates out of order and equal, so
 * that the order of `git rev-list` depends on its date queue and on its tie rule.
 */
async function buildMergeHistory(parent: string): Promise<string> {
  const repoPath = path.join(parent, 'merges.git');
  await createRepository(repoPath);
  const work = path.join(parent, 'merges-work');
  git(parent, ['clone', '-q', repoPath, work]);
  const at = (seconds: number) => ({
    GIT_AUTHOR_NAME: 'A',
    GIT_AUTHOR_EMAIL: 'a@x',
    GIT_COMMITTER_NAME: 'A',
    GIT_COMMITTER_EMAIL: 'a@x',
    GIT_AUTHOR_DATE: `${seconds} +0000`,
    GIT_COMMITTER_DATE: `${seconds} +0000`,
  });
  const commit = (seconds: number, message: string) => git(work, ['commit', '-q', '--allow-empty', '-m', message], at(seconds));
  git(work, ['checkout', '-q', '-b', 'master']);
  commit(1_000_000_000, 'root');
  git(work, ['branch', 'one']);
  git(work, ['branch', 'two']);
  for (let i = 1; i <= 4; i++) commit(1_000_000_000 + i * 100, `main ${i}`);
  git(work, ['checkout', '-q', 'one']);
  for (let i = 1; i <= 3; i++) commit(1_000_000_000 + i * 150, `one ${i}`);
  commit(1_000_000_100, 'one, same date as main 1');
  git(work, ['checkout', '-q', 'two']);
  for (let i = 1; i <= 3; i++) commit(1_000_000_000 + i * 100, `two ${i}`);
  commit(999_999_999, 'two, older than its parent');
  commit(1_000_000_700, 'two, after');
  git(work, ['checkout', '-q', 'master']);
  git(work, ['merge', '-q', '--no-ff', 'one', '-m', 'merge one'], at(1_000_000_600));
  git(work, ['merge', '-q', '--no-ff', '-s', 'ours', 'two', '-m', 'merge two'], at(1_000_000_650));
  for (let i = 1; i <= 3; i++) commit(1_000_000_800, `same date ${i}`);
  git(work, ['checkout', '-q', '-b', 'octopus', 'one']);
  git(work, ['merge', '-q', '--no-ff', '-s', 'ours', 'two', 'master', '-m', 'octopus'], at(1_000_000_900));
  git(work, ['push', '-q', 'origin', 'master', 'octopus']);
  return repoPath;
}

describe('history pages read through cat-file', () => {
  test('the order is git rev-list’s, whatever the page, merges, ties and skewed dates', async () => {
    const all = git(merges, ['rev-list', '--all']).trim().split('\n');
    for (const ref of ['master', 'octopus', ...all]) {
      for (const [offset, limit] of [
        [0, 20],
        [0, 1],
        [3, 7],
        [5, 45],
      ]) {
        const walked = (await log(reader, merges, { ref, offset, limit })).map((commit) => commit.id);
        assert.deepEqual(walked, await logIds(reader, merges, { ref, offset, limit }), `${ref} ${offset}+${limit}`);
      }
    }
  });

  test('a page of nothing, an unknown ref and a blank path', async () => {
    assert.deepEqual(await log(reader, merges, { ref: 'master', limit: 0 }), []);
    assert.deepEqual(await log(reader, merges, { ref: 'nope', limit: 20 }), []);
    assert.deepEqual(
      (await log(reader, merges, { ref: 'master', path: '', limit: 5 })).map((c) => c.id),
      await logIds(reader, merges, { ref: 'master', limit: 5 }),
    );
  });
});

describe('line counts', () => {
  test('a diff counts the lines of its patch as --numstat does', async () => {
    for (const [from, to] of [
      [fx.c1, fx.c2],
      [fx.c2, fx.c3],
      [fx.c1, fx.c4],
      [null, fx.c4],
    ] as const) {
      const counted = (await diffTrees(reader, fx.repoPath, from, to)).files.map((file) => `${file.additions} ${file.deletions}`);
      const numstat = git(fx.repoPath, ['diff-tree', '-r', '-M', '--numstat', from ?? EMPTY_TREE, to])
        .trim()
        .split('\n');
      assert.deepEqual(
        counted,
        numstat
          .filter((line) => /^[\d-]/.test(line))
          .map((line) =>
            line
              .split('\t')
              .slice(0, 2)
              .map((n) => (n === '-' ? 0 : n))
              .join(' '),
          ),
      );
    }
  });

  test('a commit’s stats ignore renames: a moved file counts as deleted and added', async () => {
    const commit = (await resolveCommit(reader, fx.repoPath, fx.c3))!;
    const numstat = git(fx.repoPath, ['diff-tree', '-r', '--no-renames', '--numstat', fx.c2, fx.c3]).trim().split('\n');
    const additions = numstat.reduce((sum, line) => sum + Number(line.split('\t')[0]), 0);
    const deletions = numstat.reduce((sum, line) => sum + Number(line.split('\t')[1]), 0);
    assert.ok(deletions > 0);
    assert.deepEqual(await commitStats(reader, fx.repoPath, commit), { additions, deletions, total: additions + deletions });
    assert.equal((await commitDiff(reader, fx.repoPath, commit)).files.filter((file) => file.renamedFile).length, 1);
  });

  test('a commit’s stats leave its diff ready, and both are the same as read cold', async () => {
    const commit = (await resolveCommit(reader, fx.repoPath, fx.c4))!;
    const stats = await commitStats(reader, fx.repoPath, commit);
    const diff = await commitDiff(reader, fx.repoPath, commit);
    assert.equal(await commitDiff(reader, fx.repoPath, commit), diff);
    assert.deepEqual(diff, await diffTrees(reader, fx.repoPath, fx.c3, fx.c4));
    assert.deepEqual(stats, { additions: 1, deletions: 0, total: 1 });
  });
});

describe('ImmutableCache', () => {
  test('one computation per key, the least recently used one dropped first', async () => {
    const cache = new ImmutableCache<string>({ maxEntries: 2 });
    let computed = 0;
    const compute = (value: string) => async () => {
      computed += 1;
      return value;
    };
    assert.deepEqual(await Promise.all([cache.get('a', compute('A')), cache.get('a', compute('other'))]), ['A', 'A']);
    await cache.get('b', compute('B'));
    await cache.get('a', compute('other'));
    await cache.get('c', compute('C'));
    assert.equal(computed, 3);
    assert.equal(cache.peek('b'), undefined);
    assert.equal(await cache.peek('a'), 'A');
  });

  test('a failure is not kept, nor a value above a quarter of the size bound', async () => {
    const cache = new ImmutableCache<string>({ maxEntries: 10, maxBytes: 100, weigh: (value) => value.length });
    await assert.rejects(cache.get('a', async () => Promise.reject(new Error('git failed'))));
    assert.equal(cache.peek('a'), undefined);
    await cache.get('big', async () => 'x'.repeat(26));
    assert.equal(cache.peek('big'), undefined);
    cache.set('small', 'x'.repeat(25));
    assert.equal(await cache.peek('small'), 'x'.repeat(25));
    for (const key of ['s1', 's2', 's3', 's4']) cache.set(key, 'x'.repeat(25));
    assert.equal(cache.peek('small'), undefined);
    assert.equal(cache.size, 4);
  });
});
