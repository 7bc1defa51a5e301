import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { buildFixture, git, tempDir, type Fixture } from './fixture';
import { GitReader } from '../../src/git/reader';
import { RefsCache } from '../../src/git/refs-cache';

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

describe('RefsCache', () => {
  test('a snapshot read again with the same refs is the one kept (and what it read); moved refs make a new one', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 1_000_000 });
    const cache = new RefsCache(reader);
    const first = await cache.get(fx.repoPath, 1);
    const branches = await first.branches();
    // Past the snapshot's age, the refs are listed again; unchanged, the snapshot and its reads are kept.
    t.mock.timers.tick(60_000);
    const aged = await cache.get(fx.repoPath, 1);
    assert.equal(aged, first);
    assert.equal(await aged.branches(), branches);
    // A newer refs version with the same refs keeps it too.
    assert.equal(await cache.get(fx.repoPath, 2), first);
    git(fx.repoPath, ['update-ref', 'refs/heads/moved', fx.c1]);
    const moved = await cache.get(fx.repoPath, 3);
    assert.notEqual(moved, first);
    assert.ok((await moved.branches()).some((branch) => branch.name === 'moved'));
  });

  test('mergedIntoBranch: the branch head and the branches merged into it, none for a missing branch', async () => {
    git(fx.repoPath, ['update-ref', 'refs/heads/old', fx.c1]);
    const snapshot = await new RefsCache(reader).get(fx.repoPath, 1);
    const master = await snapshot.mergedIntoBranch('master');
    assert.equal(master.headId, fx.c4);
    assert.ok(master.merged.has('master'));
    assert.ok(master.merged.has('old'));
    assert.ok(!master.merged.has('feature'));
    assert.equal(await snapshot.mergedIntoBranch('master'), master);
    const missing = await snapshot.mergedIntoBranch('nope');
    assert.deepEqual([missing.headId, missing.merged.size], [undefined, 0]);
  });

  test('a branch read alone is read once per snapshot', async () => {
    const snapshot = await new RefsCache(reader).get(fx.repoPath, 1);
    const feature = await snapshot.branch('feature');
    assert.equal(feature?.commit.id, fx.feature);
    assert.equal(await snapshot.branch('feature'), feature);
    assert.equal(await snapshot.branch('nope'), undefined);
  });
});
