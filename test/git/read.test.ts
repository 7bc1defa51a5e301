import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { buildFixture, tempDir, type Fixture } from './fixture';
import { GitReader } from '../../src/git/reader';
import { readCommits, resolveCommit, resolveCommitId } from '../../src/git/commits';
import { commitDiff, diffStats } from '../../src/git/diff';
import { blobAtPath, blobStream, listTree } from '../../src/git/tree';
import { compare, mergeBase } from '../../src/git/compare';
import { contributors } from '../../src/git/contributors';
import { archiveFormat, archiveStream } from '../../src/git/archive';
import { lastCommitForPath, log } from '../../src/git/log';
import { branchNames, defaultBranch, findBranch, findTag, headBranch, listBranches, listTags } from '../../src/git/refs';
import { commitTitle, gitTime } from '../../src/git/objects';

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

describe('commit objects', () => {
  test('dates keep the commit’s own UTC offset, with milliseconds', async () => {
    const commit = (await resolveCommit(reader, fx.repoPath, fx.c1))!;
    assert.equal(commit.author.date, '2012-09-20T09:06:12.000+03:00');
    assert.equal(commit.committer.date, '2012-09-20T09:06:12.000+03:00');
    const alice = (await resolveCommit(reader, fx.repoPath, fx.c2))!;
    assert.equal(alice.author.date, '2012-09-21T10:00:00.000-07:00');
    const utc = (await resolveCommit(reader, fx.repoPath, fx.c3))!;
    assert.equal(utc.author.date, '2012-09-22T12:00:00.000+00:00');
  });

  test('id, short_id of 8 characters, message with its newline, title, people and parents', async () => {
    const commit = (await resolveCommit(reader, fx.repoPath, fx.c1))!;
    assert.equal(commit.id, fx.c1);
    assert.equal(commit.shortId, fx.c1.slice(0, 8));
    assert.equal(commit.message, 'Initial commit\n\nWith a body line.\n');
    assert.equal(commit.title, 'Initial commit');
    assert.deepEqual(commit.author, {
      name: 'Dmitriy Zaporozhets',
      email: 'dmitriy.zaporozhets@gmail.com',
      date: '2012-09-20T09:06:12.000+03:00',
      time: 1348121172,
    });
    assert.deepEqual(commit.parentIds, []);
    assert.deepEqual((await resolveCommit(reader, fx.repoPath, fx.c2))!.parentIds, [fx.c1]);
  });

  test('a first line over 100 characters is cut to 80 and an ellipsis', async () => {
    const commit = (await resolveCommit(reader, fx.repoPath, fx.c2))!;
    assert.equal(commit.title, `${'x'.repeat(80)}…`);
    assert.equal(commitTitle('a'.repeat(100)), 'a'.repeat(100));
    assert.equal(commitTitle('  \n'), '--no commit message');
  });

  test('git times render in their own zone', () => {
    assert.equal(gitTime(1348121172, '+0300'), '2012-09-20T09:06:12.000+03:00');
    assert.equal(gitTime(1348121172, '-0130'), '2012-09-20T04:36:12.000-01:30');
    assert.equal(gitTime(0, '+0000'), '1970-01-01T00:00:00.000+00:00');
  });
});

describe('resolving revisions', () => {
  test('a sha, a short sha, a branch, a tag, HEAD and ~n all resolve', async () => {
    assert.equal(await resolveCommitId(reader, fx.repoPath, fx.c2), fx.c2);
    assert.equal(await resolveCommitId(reader, fx.repoPath, fx.c2.slice(0, 10)), fx.c2);
    assert.equal(await resolveCommitId(reader, fx.repoPath, 'feature'), fx.feature);
    assert.equal(await resolveCommitId(reader, fx.repoPath, 'v1.1.0'), fx.c2);
    assert.equal(await resolveCommitId(reader, fx.repoPath, 'HEAD'), fx.c4);
    assert.equal(await resolveCommitId(reader, fx.repoPath, 'master~3'), fx.c1);
  });

  test('unknown names, options and history searches resolve to nothing', async () => {
    for (const rev of ['invalid_sha', '1234ab', '--all', ':/Initial', 'master@{1}', 'a..b', 'master\ninfo HEAD', '']) {
      assert.equal(await resolveCommit(reader, fx.repoPath, rev), undefined, rev);
    }
  });

  test('many commits are read in one pipelined exchange, in the order asked', async () => {
    const commits = await readCommits(reader, fx.repoPath, [fx.c3, fx.c1, fx.c2]);
    assert.deepEqual(
      commits.map((c) => c.id),
      [fx.c3, fx.c1, fx.c2],
    );
  });
});

describe('branches and tags', () => {
  test('branches are sorted by name with their head commit', async () => {
    const branches = await listBranches(reader, fx.repoPath);
    assert.deepEqual(
      branches.map((b) => b.name),
      ['feature', 'master'],
    );
    assert.equal(branches[1].commit.id, fx.c4);
    assert.deepEqual(await branchNames(fx.repoPath), ['feature', 'master']);
    assert.equal((await findBranch(reader, fx.repoPath, 'feature'))!.commit.id, fx.feature);
    assert.equal(await findBranch(reader, fx.repoPath, 'feat'), undefined);
    assert.equal(await findBranch(reader, fx.repoPath, '../master'), undefined);
  });

  test('annotated tags carry their message (without the final newline), lightweight ones null', async () => {
    const tags = await listTags(reader, fx.repoPath);
    assert.deepEqual(
      tags.map((t) => [t.name, t.message, t.commit?.id]),
      [
        ['v1.0.0', null, fx.c1],
        ['v1.1.0', 'Version 1.1.0', fx.c2],
      ],
    );
    assert.notEqual(tags[1].targetId, fx.c2);
    assert.equal((await findTag(reader, fx.repoPath, 'v1.1.0'))!.message, 'Version 1.1.0');
    assert.equal(await findTag(reader, fx.repoPath, 'v9'), undefined);
  });

  test('the default branch is HEAD’s, else master, else the first', async () => {
    assert.equal(await headBranch(fx.repoPath), 'master');
    assert.equal(await defaultBranch(fx.repoPath), 'master');
  });
});

describe('log', () => {
  test('newest first from a ref, with offset and limit', async () => {
    assert.deepEqual(
      (await log(reader, fx.repoPath, { ref: 'master' })).map((c) => c.id),
      [fx.c4, fx.c3, fx.c2, fx.c1],
    );
    assert.deepEqual(
      (await log(reader, fx.repoPath, { ref: 'master', offset: 1, limit: 2 })).map((c) => c.id),
      [fx.c3, fx.c2],
    );
  });

  test('since and until are inclusive committer dates', async () => {
    const c3Time = new Date('2012-09-22T12:00:00Z');
    assert.deepEqual(
      (await log(reader, fx.repoPath, { ref: 'master', since: c3Time })).map((c) => c.id),
      [fx.c4, fx.c3],
    );
    assert.deepEqual(
      (await log(reader, fx.repoPath, { ref: 'master', until: c3Time })).map((c) => c.id),
      [fx.c3, fx.c2, fx.c1],
    );
  });

  test('a path keeps the commits that touched it', async () => {
    assert.deepEqual(
      (await log(reader, fx.repoPath, { ref: 'master', path: 'README.md' })).map((c) => c.id),
      [fx.c4, fx.c2, fx.c1],
    );
    assert.equal((await lastCommitForPath(reader, fx.repoPath, 'master', 'files/ruby/open.rb'))!.id, fx.c3);
    assert.deepEqual(await log(reader, fx.repoPath, { ref: 'master', path: '../etc/passwd' }), []);
  });

  test('an unknown ref has no history', async () => {
    assert.deepEqual(await log(reader, fx.repoPath, { ref: 'nope' }), []);
  });
});

describe('commit diffs', () => {
  test('a root commit: every file new, a_mode 0, the text from the --- line', async () => {
    const { files, overflow } = await commitDiff(reader, fx.repoPath, (await resolveCommit(reader, fx.repoPath, fx.c1))!);
    assert.equal(overflow, false);
    assert.deepEqual(
      files.map((f) => f.newPath),
      ['README.md', 'files/js/app.js', 'files/ruby/popen.rb'],
    );
    const readme = files[0];
    assert.equal(readme.newFile, true);
    assert.equal(readme.aMode, '0');
    assert.equal(readme.bMode, '100644');
    assert.equal(readme.diff, '--- /dev/null\n+++ b/README.md\n@@ -0,0 +1 @@\n+Sample repo for testing\n');
  });

  test('modified, added, deleted, binary and submodule entries', async () => {
    const { files } = await commitDiff(reader, fx.repoPath, (await resolveCommit(reader, fx.repoPath, fx.c2))!);
    const byPath = new Map(files.map((f) => [f.newPath, f]));
    assert.equal(
      byPath.get('README.md')!.diff,
      '--- a/README.md\n+++ b/README.md\n@@ -1 +1,3 @@\n Sample repo for testing\n+\n+More words.\n',
    );
    assert.equal(byPath.get('files/js/app.js')!.deletedFile, true);
    assert.equal(byPath.get('files/js/app.js')!.bMode, '0');
    assert.match(byPath.get('files/images/logo.png')!.diff, /^Binary files \/dev\/null and b\/files\/images\/logo.png differ\n$/);
    assert.equal(byPath.get('gitlab-grack')!.bMode, '160000');
    assert.match(byPath.get('gitlab-grack')!.diff, /\+Subproject commit /);
    assert.equal(byPath.get('encoding/utf8.txt')!.diff, '--- /dev/null\n+++ b/encoding/utf8.txt\n@@ -0,0 +1 @@\n+Ünïcödé\n');
    assert.deepEqual(diffStats(files), { additions: 4, deletions: 1, total: 5 });
  });

  test('a rename is one entry, renamed_file true, with an empty diff when the content is the same', async () => {
    const { files } = await commitDiff(reader, fx.repoPath, (await resolveCommit(reader, fx.repoPath, fx.c3))!);
    const rename = files.find((f) => f.renamedFile)!;
    assert.equal(rename.oldPath, 'files/ruby/popen.rb');
    assert.equal(rename.newPath, 'files/ruby/open.rb');
    assert.equal(rename.diff, '');
    const script = files.find((f) => f.newPath === 'bin/run')!;
    assert.equal(script.bMode, '100755');
  });
});

describe('trees and blobs', () => {
  test('directories first, then files, then submodules, with 6-character modes', async () => {
    const entries = (await listTree(reader, fx.repoPath, fx.c3))!;
    assert.deepEqual(
      entries.map((e) => [e.name, e.type, e.mode]),
      [
        ['bin', 'tree', '040000'],
        ['encoding', 'tree', '040000'],
        ['files', 'tree', '040000'],
        ['README.md', 'blob', '100644'],
        ['gitlab-grack', 'commit', '160000'],
      ],
    );
    const ruby = (await listTree(reader, fx.repoPath, fx.c3, 'files/ruby/'))!;
    assert.deepEqual(
      ruby.map((e) => e.path),
      ['files/ruby/open.rb'],
    );
  });

  test('a path that is not a directory lists nothing', async () => {
    assert.equal(await listTree(reader, fx.repoPath, fx.c3, 'README.md'), undefined);
    assert.equal(await listTree(reader, fx.repoPath, fx.c3, 'nope'), undefined);
    assert.equal(await listTree(reader, fx.repoPath, fx.c3, '../..'), undefined);
  });

  test('a blob by path at a commit', async () => {
    const blob = (await blobAtPath(reader, fx.repoPath, fx.c1, '/files/ruby/popen.rb'))!;
    assert.match(blob.content.toString(), /^require 'fileutils'\n/);
    assert.equal(blob.size, blob.content.length);
    assert.equal(await blobAtPath(reader, fx.repoPath, fx.c1, 'files'), undefined);
    assert.equal(await blobAtPath(reader, fx.repoPath, fx.c1, 'files/../README.md'), undefined);
  });

  test('a blob streams without being held in memory', async () => {
    const blob = (await blobAtPath(reader, fx.repoPath, fx.c1, 'files/ruby/popen.rb'))!;
    const chunks: Buffer[] = [];
    for await (const chunk of blobStream(fx.repoPath, blob.id)) chunks.push(chunk as Buffer);
    assert.deepEqual(Buffer.concat(chunks), blob.content);
    assert.throws(() => blobStream(fx.repoPath, '--output=/tmp/x'));
  });
});

describe('compare', () => {
  test('from master to feature: commits oldest first, diffs from the merge base', async () => {
    const result = await compare(reader, fx.repoPath, 'master', 'feature');
    assert.deepEqual(
      result.commits.map((c) => c.id),
      [fx.feature],
    );
    assert.deepEqual(
      result.diffs.map((d) => d.newPath),
      ['feature.txt'],
    );
    assert.equal(result.sameRef, false);
    assert.equal(await mergeBase(fx.repoPath, fx.c4, fx.feature), fx.c3);
  });

  test('tags compare too; parent to child has commits, child to parent none', async () => {
    const forward = await compare(reader, fx.repoPath, 'v1.0.0', 'v1.1.0');
    assert.deepEqual(
      forward.commits.map((c) => c.id),
      [fx.c2],
    );
    assert.ok(forward.diffs.length > 0);
    const backward = await compare(reader, fx.repoPath, 'v1.1.0', 'v1.0.0');
    assert.deepEqual([backward.commits, backward.diffs, backward.sameRef], [[], [], false]);
  });

  test('the same ref compares empty with compare_same_ref; unknown refs compare empty', async () => {
    assert.deepEqual(await compare(reader, fx.repoPath, 'master', 'master'), { commits: [], diffs: [], sameRef: true, overflow: false });
    assert.deepEqual(await compare(reader, fx.repoPath, 'master', 'nope'), { commits: [], diffs: [], sameRef: false, overflow: false });
  });
});

describe('contributors', () => {
  test('grouped by e-mail in order of first appearance, newest first', async () => {
    assert.deepEqual(await contributors(reader, fx.repoPath), [
      { name: 'Dmitriy Zaporozhets', email: 'dmitriy.zaporozhets@gmail.com', commits: 3, additions: 0, deletions: 0 },
      { name: 'Alice Liddell', email: 'alice@example.com', commits: 1, additions: 0, deletions: 0 },
    ]);
  });

  test('line counts from one git log --numstat', async () => {
    const counted = await contributors(reader, fx.repoPath, { lineCounts: true });
    assert.deepEqual(
      counted.map((c) => [c.email, c.commits, c.additions, c.deletions]),
      [
        ['dmitriy.zaporozhets@gmail.com', 3, 11, 0],
        ['alice@example.com', 1, 4, 1],
      ],
    );
  });
});

describe('archives', () => {
  const collect = async (stream: NodeJS.ReadableStream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  };

  test('formats follow GitLab’s extensions', () => {
    assert.deepEqual(['zip', 'tar', 'tar.gz', 'tgz', 'gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2', undefined].map(archiveFormat), [
      'zip',
      'tar',
      'tar.gz',
      'tar.gz',
      'tar.gz',
      'tar.bz2',
      'tar.bz2',
      'tar.bz2',
      'tar.bz2',
      'tar.bz2',
      'tar.gz',
    ]);
  });

  for (const [format, list] of [
    ['tar', ['tar', 'tf', '-']],
    ['tar.gz', ['tar', 'tzf', '-']],
    ['tar.bz2', ['tar', 'tjf', '-']],
  ] as const) {
    test(`${format} archives stream every path under the prefix`, async () => {
      const bytes = await collect(archiveStream(fx.repoPath, fx.c1, format, 'fixture-master-abc/'));
      const names = execFileSync(list[0], list.slice(1), { input: bytes }).toString().trim().split('\n');
      assert.ok(names.includes('fixture-master-abc/files/ruby/popen.rb'), names.join(','));
      assert.ok(names.every((name) => name.startsWith('fixture-master-abc/')));
    });
  }

  test('zip archives', async () => {
    const bytes = await collect(archiveStream(fx.repoPath, fx.c1, 'zip', 'p/'));
    assert.equal(bytes.subarray(0, 2).toString(), 'PK');
    const file = path.join(root, 'a.zip');
    fs.writeFileSync(file, bytes);
    assert.match(execFileSync('unzip', ['-l', file]).toString(), /p\/README\.md/);
  });

  test('an unknown commit fails the stream', async () => {
    await assert.rejects(collect(archiveStream(fx.repoPath, '0'.repeat(40), 'tar', 'p/')));
  });
});
