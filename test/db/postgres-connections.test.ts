import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import pg from 'pg';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/db/index';
import { inTransaction } from '../../src/db/transaction';
import { freshDatabaseUrl } from '../support/app';

// Statements outside transactions share pipelined connections on PostgreSQL (src/db/postgres.ts).
const postgres = Boolean(process.env.TEST_DATABASE_URL);
const skip = !postgres && 'PostgreSQL only';

let db: Db;
let databaseUrl = '';
let drop: () => Promise<void> = async () => {};
const table = (name: string) => db.selectFrom(name as 'users');

before(async () => {
  if (!postgres) return;
  ({ url: databaseUrl, drop } = await freshDatabaseUrl());
  db = openDatabase({ databaseUrl, dataDir: os.tmpdir() }).db;
  await sql`create table items (id integer primary key, name text not null unique, size bigint)`.execute(db);
});
after(async () => {
  if (!postgres) return;
  await db.destroy();
  await drop();
});

test('a statement that fails outside a transaction fails alone; those sent with it answer', { skip }, async () => {
  await db
    .insertInto('items' as 'users')
    .values({ id: 1, name: 'one', size: 10 } as never)
    .execute();
  const [before, duplicate, after] = await Promise.allSettled([
    table('items').selectAll().where('id', '=', 1).execute(),
    db
      .insertInto('items' as 'users')
      .values({ id: 2, name: 'one' } as never)
      .execute(),
    table('items')
      .select((eb) => eb.fn.countAll().as('count'))
      .execute(),
  ]);
  assert.deepEqual(before, { status: 'fulfilled', value: [{ id: 1, name: 'one', size: 10 }] });
  assert.equal(duplicate.status, 'rejected');
  assert.equal((duplicate as PromiseRejectedResult).reason.code, '23505');
  assert.deepEqual(after, { status: 'fulfilled', value: [{ count: 1 }] });
});

test('rows of a statement run again are read with its columns and their types (nulls too)', { skip }, async () => {
  await db
    .insertInto('items' as 'users')
    .values({ id: 3, name: 'three', size: null } as never)
    .execute();
  const read = (id: number) => table('items').selectAll().where('id', '=', id).execute();
  // The first run asks for the rows' description; the later ones on the same connection do not.
  for (let i = 0; i < 3; i++) {
    assert.deepEqual(await read(1), [{ id: 1, name: 'one', size: 10 }]);
    assert.deepEqual(await read(3), [{ id: 3, name: 'three', size: null }]);
  }
});

test('statements of many concurrent callers, each waiting for its last answer, are all answered, failures among them', {
  skip,
  timeout: 30_000,
}, async () => {
  // Statements written while others are owed an answer wait for the next answer (src/db/postgres.ts,
  // Batcher): none may be left waiting, whatever the mix of answers, errors and callers.
  const caller = async (n: number) => {
    const seen: unknown[] = [];
    for (let step = 0; step < 5; step++) {
      if (step === n % 5) {
        const failed = await sql`select 1 / ${0}::int as boom`.execute(db).then(
          () => 'answered',
          (error: { code?: string }) => error.code,
        );
        seen.push(failed);
      } else {
        const { rows } = await sql<{ n: number }>`select ${n * 10 + step}::int as n`.execute(db);
        seen.push(rows[0].n);
      }
    }
    return seen;
  };
  const results = await Promise.all(Array.from({ length: 200 }, (_, n) => caller(n)));
  results.forEach((seen, n) => {
    assert.deepEqual(
      seen,
      [0, 1, 2, 3, 4].map((step) => (step === n % 5 ? '22012' : n * 10 + step)),
    );
  });
});

test('a statement whose values cannot be sent fails at once, and the connection goes on answering', { skip, timeout: 30_000 }, async () => {
  // It fails before it leaves, while its batch is still held: the batch must not count it as owed
  // an answer, or the statements after it would wait for an answer that never comes.
  await new Promise((resolve) => setTimeout(resolve, 50));
  const unsendable = await sql`select ${{ size: 1n }}::text as x`.execute(db).then(
    () => 'sent',
    (error: Error) => error.name,
  );
  assert.equal(unsendable, 'TypeError');
  for (let i = 0; i < 20; i++) {
    const { rows } = await sql<{ n: number }>`select ${i}::int as n`.execute(db);
    assert.deepEqual(rows, [{ n: i }]);
  }
});

test('a slow statement does not hold up the statements sent after it', { skip }, async () => {
  const order: string[] = [];
  const slow = sql`select pg_sleep(3) as slept`.execute(db).then(() => order.push('slow'));
  // Sent once the slow one has been under way over a second: it goes out on another connection.
  await new Promise((resolve) => setTimeout(resolve, 1_300));
  await table('items').selectAll().where('id', '=', 1).execute();
  order.push('quick');
  await slow;
  assert.deepEqual(order, ['quick', 'slow']);
});

test('a transaction has a connection of its own: statements outside it do not see its writes before the commit', { skip }, async () => {
  let seenInside: unknown[] = [];
  await inTransaction(db, async (trx) => {
    await trx
      .insertInto('items' as 'users')
      .values({ id: 4, name: 'four' } as never)
      .execute();
    seenInside = await table('items')
      .select('id' as never)
      .where('id', '=', 4)
      .execute();
  });
  assert.deepEqual(seenInside, []);
  assert.deepEqual(
    await table('items')
      .select('id' as never)
      .where('id', '=', 4)
      .execute(),
    [{ id: 4 }],
  );
});

test('a session-level lock taken and released around a transaction on one held connection is released (as Kysely migrates)', {
  skip,
}, async () => {
  await db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(4242)`.execute(connection);
    await connection.transaction().execute((trx) =>
      trx
        .insertInto('items' as 'users')
        .values({ id: 5, name: 'five' } as never)
        .execute(),
    );
    await sql`select pg_advisory_unlock(4242)`.execute(connection);
  });
  assert.deepEqual(
    await table('items')
      .select('id' as never)
      .where('id', '=', 5)
      .execute(),
    [{ id: 5 }],
  );
  const other = new pg.Client({ connectionString: databaseUrl });
  await other.connect();
  try {
    const { rows } = await other.query('select pg_try_advisory_lock(4242) as taken');
    assert.equal(rows[0].taken, true);
  } finally {
    await other.end();
  }
});
