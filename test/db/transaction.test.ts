import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startApp, type TestApp } from '../support/app';
import { inTransaction } from '../../src/db/transaction';

// Only PostgreSQL deadlocks: SQLite runs one write transaction at a time.
const postgres = Boolean(process.env.TEST_DATABASE_URL);

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

test('a transaction PostgreSQL aborts to break a deadlock runs again, and both writes land', {
  skip: !postgres && 'PostgreSQL only',
}, async () => {
  const db = app.ctx.db;
  const [a, b] = [(await app.createUser()).user.id, (await app.createUser()).user.id];
  // Both transactions take their first row, wait for each other, then reach for the other's row.
  let arrived = 0;
  let bothHoldOne!: () => void;
  const barrier = new Promise<void>((resolve) => (bothHoldOne = resolve));
  let runs = 0;
  const crossing = (first: number, second: number) =>
    inTransaction(db, async (trx) => {
      runs++;
      await trx
        .updateTable('users')
        .set({ bio: `first ${first}` })
        .where('id', '=', first)
        .execute();
      if (++arrived <= 2) {
        if (arrived === 2) bothHoldOne();
        await barrier;
      }
      await trx
        .updateTable('users')
        .set({ location: `then ${second}` })
        .where('id', '=', second)
        .execute();
    });
  await Promise.all([crossing(a, b), crossing(b, a)]);
  assert.equal(runs, 3, 'one of the two was aborted and ran again');
  const rows = await db.selectFrom('users').select(['id', 'bio', 'location']).where('id', 'in', [a, b]).orderBy('id').execute();
  assert.deepEqual(rows, [
    { id: a, bio: `first ${a}`, location: `then ${a}` },
    { id: b, bio: `first ${b}`, location: `then ${b}` },
  ]);
});
