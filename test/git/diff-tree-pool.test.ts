import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { clientEnv, git, tempDir } from './fixture';
import { eventually } from '../support/eventually';
import { GitReader } from '../../src/git/reader';
import { resolveCommit } from '../../src/git/commits';
import { commitStats } from '../../src/git/commit-stats';
import { commitDiff, diffTrees } from '../../src/git/diff';
import { DiffTreePool } from '../../src/git/diff-tree-pool';
import { GitCommandError } from '../../src/git/errors';
import { runGit } from '../../src/git/run';

/** The long-lived processes and caches the functions under test read through, as the app's own. */
const reader = new GitReader();

/** What `src/git/diff.ts` asks git for, run once per diff as before the pool. */
const DIFF_TREE = ['-c', 'core.quotePath=false', 'diff-tree', '-r', '-z', '-M', '--raw', '--no-commit-id', '-p'];
const EMPTY_TREE: Record<number, string> = {
  40: '4b825dc642cb6eb9a060e54bf8d69288fbee4904',
  64: '6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321',
};
/** The end line the pools under test write after each request, here known to the files below. */
const MARKER = 'test';
const END_LINE = `%forge-end ${MARKER}`;

const once = (repo: string, from: string, to: string): Buffer =>
  execFileSync('git', [`--git-dir=${repo}`, ...DIFF_TREE, '--end-of-options', from, to], { env: clientEnv(), maxBuffer: 1 << 28 });
const treeOf = (repo: string, rev: string): string => git(repo, ['rev-parse', `${rev}^{tree}`]).trim();

/** Names git has to quote in a patch, or that would end a line of output, or that are the end line. */
const ODD_NAMES = [
  'with space.txt',
  'tab\there',
  'new\nline',
  END_LINE,
  `${END_LINE}\n`,
  `x\n${END_LINE}\n`,
  ':100644 100644 starts like a raw record',
  'quote"and\\backslash',
  'Ünïcödé name.txt',
  '-starts-with-dash',
];

/** File content whose lines look like the end line, the pair line, raw records and patch headers. */
const lookalikes = (pair: string) =>
  [
    `${END_LINE}`,
    pair,
    `:100644 100644 ${'1'.repeat(40)} ${'2'.repeat(40)} M`,
    'diff --git a/x b/x',
    '--- a/x',
    '+++ b/x',
    '@@ -1 +1 @@',
    '\\ No newline at end of file',
    '',
  ].join('\n');

interface History {
  repo: string;
  /** Every commit, newest first. */
  commits: string[];
  root: string;
  empty: string;
  big: string;
  bigParent: string;
}

/**
 * A history that changes every kind of entry: odd names added, renamed (with a newline in both
 * names), deleted; binary files holding the end line; a file turned symlink; a mode change; a
 * submodule; content without a final newline and with CRLF; an empty commit; a merge; and a commit
 * whose patch is larger than `smallCommitDiff` reads.
 */
function buildHistory(parent: string, objectFormat: 'sha1' | 'sha256'): History {
  const work = path.join(parent, `work-${objectFormat}`);
  git(parent, ['init', '-q', `--object-format=${objectFormat}`, '-b', 'master', work]);
  let time = 1_500_000_000;
  const env = () => {
    time += 60;
    return {
      GIT_AUTHOR_NAME: 'A',
      GIT_AUTHOR_EMAIL: 'a@x',
      GIT_COMMITTER_NAME: 'A',
      GIT_COMMITTER_EMAIL: 'a@x',
      GIT_AUTHOR_DATE: `${time} +0000`,
      GIT_COMMITTER_DATE: `${time} +0000`,
    };
  };
  const write = (name: string, content: string | Buffer) => fs.writeFileSync(path.join(work, name), content);
  const commit = (message: string, staged?: () => void) => {
    git(work, ['add', '-A']);
    staged?.();
    git(work, ['commit', '-q', '--allow-empty', '-m', message], env());
    return git(work, ['rev-parse', 'HEAD']).trim();
  };
  const binary = Buffer.concat([Buffer.from([0, 1, 2, 0xff]), Buffer.from(`\n${END_LINE}\n`), Buffer.from([0])]);

  for (const name of ODD_NAMES) write(name, `${name}\n`);
  write('plain.txt', 'one\ntwo\nthree\n');
  write('looks.txt', lookalikes(`${'a'.repeat(40)} ${'b'.repeat(40)}`));
  write('binary.bin', binary);
  write('no-newline.txt', 'last line');
  write('crlf.txt', 'a\r\nb\r\n');
  write('moved-and-edited.txt', Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join(''));
  const root = commit('root');

  const pair = `${treeOf(work, 'HEAD')} ${treeOf(work, 'HEAD')}`;
  write('looks.txt', `${lookalikes(pair)}${END_LINE}\n${END_LINE}`);
  write(`${END_LINE}\n`, `${END_LINE}\n${pair}\n`);
  fs.renameSync(path.join(work, 'with space.txt'), path.join(work, `renamed\n${END_LINE}\n`));
  fs.renameSync(path.join(work, 'moved-and-edited.txt'), path.join(work, 'moved\tand edited.txt'));
  fs.appendFileSync(path.join(work, 'moved\tand edited.txt'), 'one more\n');
  fs.chmodSync(path.join(work, 'plain.txt'), 0o755);
  fs.rmSync(path.join(work, 'tab\there'));
  fs.symlinkSync(`${END_LINE}\n`, path.join(work, 'tab\there'));
  fs.rmSync(path.join(work, 'new\nline'));
  write('binary.bin', Buffer.concat([binary, binary]));
  write('no-newline.txt', 'last line, still no newline');
  write('crlf.txt', 'a\r\nc\r\n');
  // An empty directory is an unpopulated submodule: later `add -A` leave it alone.
  fs.mkdirSync(path.join(work, 'submodule'));
  commit('everything changes', () => git(work, ['update-index', '--add', '--cacheinfo', `160000,${root},submodule`]));
  const empty = commit('nothing changes');

  git(work, ['checkout', '-q', '-b', 'side', 'HEAD~2']);
  write('side.txt', `${END_LINE}\n`);
  commit('side');
  git(work, ['checkout', '-q', 'master']);
  git(work, ['merge', '-q', '--no-ff', 'side', '-m', 'merge'], env());

  const bigParent = git(work, ['rev-parse', 'HEAD']).trim();
  write('big.txt', Array.from({ length: 40_000 }, (_, i) => `${i} ${END_LINE}\n`).join(''));
  const big = commit('big');
  return { repo: path.join(work, '.git'), commits: git(work, ['rev-list', '--all']).trim().split('\n'), root, empty, big, bigParent };
}

/** Each commit against its first parent (the empty tree for a root) and the other way round, as tree ids. */
function pairsOf(history: History): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const commit of history.commits) {
    const parents = git(history.repo, ['rev-list', '--parents', '-n', '1', commit]).trim().split(' ').slice(1);
    const base = parents.length > 0 ? treeOf(history.repo, parents[0]) : EMPTY_TREE[commit.length];
    pairs.push([base, treeOf(history.repo, commit)], [treeOf(history.repo, commit), base]);
  }
  return pairs;
}

let root: string;
let sha1: History;
let sha256: History;
before(() => {
  root = tempDir();
  sha1 = buildHistory(root, 'sha1');
  sha256 = buildHistory(root, 'sha256');
});
after(async () => {
  await reader.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const newPool = (options: ConstructorParameters<typeof DiffTreePool>[1] = {}) =>
  new DiffTreePool(DIFF_TREE, { marker: MARKER, ...options });

describe('the diff-tree pool', () => {
  test('answers byte for byte as diff-tree run once does, whatever the names and contents, one request after the other', async () => {
    const pool = newPool();
    try {
      for (const history of [sha1, sha256]) {
        const pairs = pairsOf(history);
        const answers = await Promise.all(pairs.map(([from, to]) => pool.diff(history.repo, from, to, 1 << 28)));
        answers.forEach((answer, i) =>
          assert.ok(answer!.equals(once(history.repo, ...pairs[i])), `${history.repo}: ${pairs[i].join(' ')}`),
        );
        const [{ pid }] = pool.active().filter((p) => p.repoPath === history.repo);
        assert.ok((await pool.diff(history.repo, pairs[0][0], pairs[0][1], 1 << 28))!.equals(answers[0]!));
        assert.equal(pool.active().find((p) => p.repoPath === history.repo)!.pid, pid, 'one process answered them all');
      }
      assert.equal(pool.active().length, 2);
    } finally {
      await pool.closeAll();
    }
  });

  test('the file names that would end a line of output, or are the end line, are in the answer', async () => {
    const pool = newPool();
    try {
      const text = (await pool.diff(sha1.repo, EMPTY_TREE[40], treeOf(sha1.repo, sha1.root), 1 << 28))!.toString('utf8');
      for (const name of ODD_NAMES) assert.ok(text.includes(`\0${name}\0`), JSON.stringify(name));
      assert.ok(text.includes(`+${END_LINE}\n`));
    } finally {
      await pool.closeAll();
    }
  });

  test('an empty diff is an empty answer', async () => {
    const pool = newPool();
    try {
      const tree = treeOf(sha1.repo, sha1.empty);
      assert.deepEqual(await pool.diff(sha1.repo, treeOf(sha1.repo, `${sha1.empty}~1`), tree, 100), Buffer.alloc(0));
      assert.deepEqual(await pool.diff(sha256.repo, EMPTY_TREE[64], EMPTY_TREE[64], 100), Buffer.alloc(0));
    } finally {
      await pool.closeAll();
    }
  });

  test('past maxBytes the answer is undefined, as git run once is killed; what was asked behind it is answered', async () => {
    const pool = newPool();
    try {
      const [from, to] = [treeOf(sha1.repo, sha1.bigParent), treeOf(sha1.repo, sha1.big)];
      const whole = once(sha1.repo, from, to);
      assert.ok((await pool.diff(sha1.repo, from, to, whole.length))!.equals(whole), 'exactly the limit is within it');
      const { pid } = pool.active()[0];
      assert.equal(await pool.diff(sha1.repo, from, to, whole.length - 1), undefined, 'the whole answer, one byte too long');
      const small = pairsOf(sha1).slice(0, 6);
      const [cut, ...behind] = await Promise.all([
        pool.diff(sha1.repo, from, to, 64 * 1024),
        ...small.map(([a, b]) => pool.diff(sha1.repo, a, b, 1 << 28)),
      ]);
      assert.equal(cut, undefined);
      behind.forEach((answer, i) => assert.ok(answer!.equals(once(sha1.repo, ...small[i]))));
      assert.notEqual(pool.active()[0].pid, pid, 'the process cut short was replaced');
    } finally {
      await pool.closeAll();
    }
  });

  test('an object git cannot read, or that is no tree, fails that request only, and the process goes on', async () => {
    const pool = newPool();
    try {
      const [from, to] = pairsOf(sha1)[0];
      const expected = once(sha1.repo, from, to);
      assert.ok((await pool.diff(sha1.repo, from, to, 1 << 28))!.equals(expected));
      const { pid } = pool.active()[0];
      const blob = git(sha1.repo, ['rev-parse', `${sha1.commits[0]}:plain.txt`]).trim();
      const results = await Promise.allSettled([
        pool.diff(sha1.repo, '0'.repeat(40), to, 1 << 28),
        pool.diff(sha1.repo, from, '1'.repeat(40), 1 << 28),
        pool.diff(sha1.repo, from, sha1.commits[0], 1 << 28),
        pool.diff(sha1.repo, blob, to, 1 << 28),
        pool.diff(sha1.repo, from, to, 1 << 28),
      ]);
      for (const result of results.slice(0, 4))
        assert.ok(result.status === 'rejected' && result.reason instanceof GitCommandError, JSON.stringify(result));
      assert.ok(results[4].status === 'fulfilled' && results[4].value!.equals(expected));
      await assert.rejects(pool.diff(sha1.repo, 'HEAD', to, 100));
      assert.deepEqual(pool.active(), [{ repoPath: sha1.repo, pid }]);
    } finally {
      await pool.closeAll();
    }
  });

  test('a process that dies fails the request it was answering; those behind it go to a new process', async () => {
    const pool = newPool();
    try {
      const pairs = pairsOf(sha1).slice(0, 5);
      const asked = pairs.map(([a, b]) => pool.diff(sha1.repo, a, b, 1 << 28));
      const [{ pid }] = pool.active();
      process.kill(pid!, 'SIGKILL');
      const [first, ...rest] = await Promise.allSettled(asked);
      assert.ok(first.status === 'rejected' && first.reason instanceof GitCommandError);
      rest.forEach((result, i) => assert.ok(result.status === 'fulfilled' && result.value!.equals(once(sha1.repo, ...pairs[i + 1]))));
      assert.notEqual(pool.active()[0].pid, pid);
    } finally {
      await pool.closeAll();
    }
  });

  test('a repository that does not exist rejects instead of hanging', async () => {
    const pool = newPool();
    try {
      await assert.rejects(pool.diff(path.join(root, 'nothing.git'), EMPTY_TREE[40], EMPTY_TREE[40], 100), GitCommandError);
    } finally {
      await pool.closeAll();
    }
  });

  test('a process is replaced after maxRequests answers; idle processes close; the pool is bounded', async () => {
    const pool = newPool({ maxRequests: 3, idleMs: 50, maxProcesses: 1 });
    try {
      const pairs = pairsOf(sha1).slice(0, 8);
      const pids = new Set<number>();
      for (const [a, b] of pairs) {
        assert.ok((await pool.diff(sha1.repo, a, b, 1 << 28))!.equals(once(sha1.repo, a, b)));
        pids.add(pool.active()[0].pid!);
      }
      assert.equal(pids.size, 3);
      await pool.diff(sha256.repo, EMPTY_TREE[64], EMPTY_TREE[64], 100);
      assert.deepEqual(
        pool.active().map((p) => p.repoPath),
        [sha256.repo],
        'the least recently used went first',
      );
      await eventually(() => pool.active().length === 0);
    } finally {
      await pool.closeAll();
    }
  });

  test('closing answers what was asked before the process ends', async () => {
    const pool = newPool();
    const pairs = pairsOf(sha1).slice(0, 6);
    const asked = pairs.map(([a, b]) => pool.diff(sha1.repo, a, b, 1 << 28));
    await pool.closeAll();
    (await Promise.all(asked)).forEach((answer, i) => assert.ok(answer!.equals(once(sha1.repo, ...pairs[i]))));
    assert.deepEqual(pool.active(), []);
  });
});

describe('commit diffs read through the pool', () => {
  test('commit diffs and comparisons come from the long-lived process, named as git names them', async () => {
    const diff = await diffTrees(reader, sha1.repo, null, sha1.root);
    assert.deepEqual(pool(sha1.repo).length, 1);
    assert.deepEqual(
      diff.files
        .map((file) => file.newPath)
        .filter((name) => ODD_NAMES.includes(name))
        .sort(),
      [...ODD_NAMES].sort(),
    );
    const changes = await diffTrees(reader, sha1.repo, sha1.root, `${sha1.empty}~1`);
    const renamed = changes.files.find((file) => file.oldPath === 'with space.txt')!;
    assert.deepEqual([renamed.newPath, renamed.renamedFile, renamed.diff], [`renamed\n${END_LINE}\n`, true, '']);
    const looks = changes.files.find((file) => file.newPath === 'looks.txt')!;
    assert.match(looks.diff, new RegExp(`^\\+${END_LINE}$`, 'm'));
    const typeChange = changes.files.find((file) => file.newPath === 'tab\there')!;
    assert.deepEqual([typeChange.aMode, typeChange.bMode], ['100644', '120000']);
    assert.deepEqual(
      changes.files.map((file) => `${file.additions} ${file.deletions}`),
      numstat(sha1.repo, sha1.root, `${sha1.empty}~1`),
    );
    assert.deepEqual((await diffTrees(reader, sha256.repo, null, sha256.root)).files.length, diff.files.length);
  });

  test('an empty commit has no files; a root commit is diffed against the empty tree of its hash', async () => {
    for (const history of [sha1, sha256]) {
      assert.deepEqual(await commitDiff(reader, history.repo, (await resolveCommit(reader, history.repo, history.empty))!), {
        files: [],
        overflow: false,
      });
      const root = (await resolveCommit(reader, history.repo, history.root))!;
      assert.equal((await commitDiff(reader, history.repo, root)).files.length, ODD_NAMES.length + 6);
    }
  });

  test('a commit past the stats limit is counted by git and its diff still read whole', async () => {
    const commit = (await resolveCommit(reader, sha1.repo, sha1.big))!;
    assert.deepEqual(await commitStats(reader, sha1.repo, commit), { additions: 40_000, deletions: 0, total: 40_000 });
    const { files, overflow } = await commitDiff(reader, sha1.repo, commit);
    assert.deepEqual([files.length, overflow, files[0].additions], [1, false, 40_000]);
  });

  test('objects git cannot read fail as git run once fails', async () => {
    const zero = '0'.repeat(40);
    for (const [from, to] of [
      [zero, sha1.commits[0]],
      [sha1.commits[0], zero],
      [null, zero],
    ] as const) {
      const expected = await runGit(sha1.repo, [...DIFF_TREE, '--end-of-options', from ?? EMPTY_TREE[40], to]).then(
        () => assert.fail('git run once succeeded'),
        (error: GitCommandError) => error,
      );
      await assert.rejects(
        diffTrees(reader, sha1.repo, from, to),
        (error) => error instanceof GitCommandError && error.message === expected.message,
      );
    }
  });

  test('when the process dies the diff is still read, and the next one starts another process', async () => {
    const expected = await diffTrees(reader, sha1.repo, sha1.root, sha1.empty);
    const [{ pid }] = pool(sha1.repo);
    process.kill(pid!, 'SIGKILL');
    assert.deepEqual(await diffTrees(reader, sha1.repo, sha1.root, sha1.empty), expected);
    await eventually(() => pool(sha1.repo).every((p) => p.pid !== pid));
    assert.deepEqual(await diffTrees(reader, sha1.repo, sha1.root, sha1.empty), expected);
    assert.equal(pool(sha1.repo).length, 1);
  });
});

const pool = (repo: string) => reader.patches.active().filter((p) => p.repoPath === repo);

function numstat(repo: string, from: string, to: string): string[] {
  const records = git(repo, ['diff-tree', '-r', '-z', '-M', '--numstat', from, to]).split('\0');
  const counts: string[] = [];
  for (let i = 0; i < records.length; i += 1) {
    const match = /^(\d+|-)\t(\d+|-)\t(.*)$/s.exec(records[i]);
    if (!match) continue;
    counts.push(`${match[1] === '-' ? 0 : match[1]} ${match[2] === '-' ? 0 : match[2]}`);
    if (match[3] === '') i += 2;
  }
  return counts;
}
