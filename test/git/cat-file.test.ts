import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { buildFixture, git, tempDir, type Fixture } from './fixture';
import { eventually } from '../support/eventually';
import { CatFilePool } from '../../src/git/cat-file';
import { createRepository } from '../../src/git/repositories';
import { GitCommandError } from '../../src/git/errors';

let root: string;
let fx: Fixture;
before(async () => {
  root = tempDir();
  fx = await buildFixture(root);
});
after(() => fs.rmSync(root, { recursive: true, force: true }));

describe('the cat-file pool', () => {
  test('read gives id, type, size and content; info leaves the content out; missing objects are undefined', async () => {
    const pool = new CatFilePool();
    try {
      const object = (await pool.read(fx.repoPath, 'master:README.md'))!;
      assert.equal(object.type, 'blob');
      assert.equal(object.content.toString(), 'Sample repo for testing\n\nMore words.\nAnd more.\n');
      assert.equal(object.size, object.content.length);
      assert.equal(object.oid, git(fx.repoPath, ['rev-parse', 'master:README.md']).trim());
      assert.deepEqual(await pool.info(fx.repoPath, fx.c1), {
        oid: fx.c1,
        type: 'commit',
        size: (await pool.read(fx.repoPath, fx.c1))!.size,
      });
      assert.equal(await pool.read(fx.repoPath, 'nope'), undefined);
      assert.equal(await pool.info(fx.repoPath, '0'.repeat(40)), undefined);
      assert.equal(await pool.read(fx.repoPath, 'master\ncontents HEAD'), undefined);
    } finally {
      await pool.closeAll();
    }
  });

  test('one process per repository answers many pipelined requests in order', async () => {
    const pool = new CatFilePool();
    try {
      const revs = Array.from(
        { length: 300 },
        (_, i) => [fx.c1, 'master:files/images/logo.png', 'missing', `${fx.c2}^{tree}`, 'master:no/such/path'][i % 5],
      );
      const objects = await pool.readMany(fx.repoPath, revs);
      assert.equal(pool.active().length, 1);
      objects.forEach((object, i) => {
        const kind = i % 5;
        if (kind === 0) assert.equal(object!.oid, fx.c1);
        if (kind === 1) assert.deepEqual([...object!.content], [0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3, 0, 255]);
        if (kind === 2) assert.equal(object, undefined);
        if (kind === 3) assert.equal(object!.type, 'tree');
        if (kind === 4) assert.equal(object, undefined);
      });
    } finally {
      await pool.closeAll();
    }
  });

  test('a large object arriving in many chunks is read whole', async () => {
    const repo = path.join(root, 'large.git');
    await createRepository(repo);
    const content = Buffer.alloc(3 * 1024 * 1024 + 17, 'abcdefg');
    const oid = git(repo, ['hash-object', '-w', '--stdin'], {}, content).trim();
    const pool = new CatFilePool();
    try {
      const [a, b] = await Promise.all([pool.read(repo, oid), pool.read(repo, oid)]);
      assert.ok(a!.content.equals(content));
      assert.ok(b!.content.equals(content));
    } finally {
      await pool.closeAll();
    }
  });

  test('a process that dies rejects what it held and is replaced on the next request', async () => {
    const pool = new CatFilePool();
    try {
      await pool.read(fx.repoPath, fx.c1);
      const [{ pid }] = pool.active();
      const pending = pool.read(fx.repoPath, fx.c2);
      process.kill(pid!, 'SIGKILL');
      await pending.then(
        (object) => assert.equal(object?.oid, fx.c2, 'answered before the kill landed'),
        (error) => assert.ok(error instanceof GitCommandError),
      );
      await eventually(() => pool.active().every((p) => p.pid !== pid));
      assert.equal((await pool.read(fx.repoPath, fx.c3))!.oid, fx.c3);
      assert.notEqual(pool.active()[0].pid, pid);
    } finally {
      await pool.closeAll();
    }
  });

  test('a repository that does not exist rejects instead of hanging', async () => {
    const pool = new CatFilePool();
    try {
      await assert.rejects(pool.read(path.join(root, 'nothing.git'), 'HEAD'), GitCommandError);
    } finally {
      await pool.closeAll();
    }
  });

  test('idle processes close, and the pool is bounded', async () => {
    const pool = new CatFilePool({ idleMs: 50, maxProcesses: 2 });
    try {
      const repos = await Promise.all(
        ['a', 'b', 'c'].map(async (name) => {
          const repo = path.join(root, `bound-${name}.git`);
          await createRepository(repo);
          return repo;
        }),
      );
      for (const repo of repos) await pool.info(repo, 'HEAD');
      assert.ok(pool.active().length <= 2);
      assert.ok(!pool.active().some((p) => p.repoPath === repos[0]), 'the least recently used went first');
      await eventually(() => pool.active().length === 0);
    } finally {
      await pool.closeAll();
    }
  });

  test('refs are read fresh after they move', async () => {
    const pool = new CatFilePool();
    const repo = path.join(root, 'moving.git');
    try {
      git(root, ['clone', '-q', '--bare', fx.repoPath, repo]);
      assert.equal((await pool.info(repo, 'master'))!.oid, fx.c4);
      git(repo, ['update-ref', 'refs/heads/master', fx.c1]);
      assert.equal((await pool.info(repo, 'master'))!.oid, fx.c1);
      git(repo, ['pack-refs', '--all']);
      git(repo, ['update-ref', '-d', 'refs/heads/feature']);
      assert.equal(await pool.info(repo, 'refs/heads/feature'), undefined);
    } finally {
      await pool.closeAll();
    }
  });
});
