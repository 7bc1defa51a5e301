import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(() => app.close());

const DAY_MS = 24 * 60 * 60 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

test('jobs given up more than the kept time ago are purged; recent failures and pending jobs stay', async () => {
  const { db, jobs } = app.ctx;
  const row = (kind: string, runAt: string, lockedBy: string | null) => ({
    kind,
    payload: '{}',
    run_at: runAt,
    attempts: lockedBy ? 10 : 0,
    max_attempts: 10,
    created_at: daysAgo(30),
    // Never due for this server's worker: a pending row is locked far ahead, as a claimed one would be.
    locked_at: lockedBy ? '9999-12-31T00:00:00.000Z' : new Date(Date.now() + DAY_MS).toISOString(),
    locked_by: lockedBy ?? 'another-process',
  });
  // Given up 3 days ago and purged after 2: the server's own hourly sweep, which also runs once at
  // start and may run while this test does, keeps them a week, so it never takes these rows first.
  await db
    .insertInto('jobs')
    .values([
      row('test.old-failure', daysAgo(3), 'failed'),
      row('test.recent-failure', daysAgo(1), 'failed'),
      row('test.pending', daysAgo(3), null),
    ])
    .execute();

  assert.equal(await jobs.purgeGivenUp(2 * DAY_MS), 1);
  const left = await db.selectFrom('jobs').select('kind').where('kind', 'like', 'test.%').orderBy('kind').execute();
  assert.deepEqual(
    left.map((job) => job.kind),
    ['test.pending', 'test.recent-failure'],
  );
});
