import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type DbHandle } from '../../src/db/index';
import { withForeignKeysAfter } from '../../src/db/dump/bulk-load';
import { columnTypes, copyRowsIn, copyRowsOut, copyTablesOut, encodeCopyValue, withOwnConnection } from '../../src/db/dump/postgres-copy';
import type { Row } from '../../src/db/dump/rows';
import { freshDatabaseUrl } from '../support/app';

/*
 * COPY's text format both ways (backups and restores on PostgreSQL): every value that format
 * escapes or reads specially comes back as it went in, NULL apart from empty and from the text
 * `\N`, numbers as numbers and numeric-looking text as text. Needs TEST_DATABASE_URL.
 */

const postgres = process.env.TEST_DATABASE_URL;

test('values in COPY text format', () => {
  assert.equal(encodeCopyValue(null), '\\N');
  assert.equal(encodeCopyValue(undefined), '\\N');
  assert.equal(encodeCopyValue(''), '');
  assert.equal(encodeCopyValue('\\N'), '\\\\N');
  assert.equal(encodeCopyValue('a\tb\nc\rd\\e'), 'a\\tb\\nc\\rd\\\\e');
  assert.equal(encodeCopyValue(true), '1');
  assert.equal(encodeCopyValue(false), '0');
  assert.equal(encodeCopyValue(12345678901234n), '12345678901234');
  assert.equal(encodeCopyValue(0.25), '0.25');
  assert.equal(encodeCopyValue(Buffer.from([0, 255])), '\\\\x00ff');
  assert.equal(encodeCopyValue({ a: 'x\ty' }), '{"a":"x\\\\ty"}');
});

describe('COPY in and out of PostgreSQL', { skip: !postgres && 'TEST_DATABASE_URL is not set' }, () => {
  let database: DbHandle;
  let drop: () => Promise<void>;
  before(async () => {
    const fresh = await freshDatabaseUrl(postgres, 'forge_test_copy');
    drop = fresh.drop;
    database = openDatabase({ databaseUrl: fresh.url, dataDir: '' });
    await sql`create table awkward (id integer primary key, body text, n bigint, r real, flag integer)`.execute(database.db);
  });
  after(async () => {
    await database?.db.destroy();
    await drop?.();
  });

  test('rows come back as they went in', async () => {
    const rows: Row[] = [
      [1, null, null, null, null],
      [2, '', 0, 0, 0],
      [3, '\\N', 9007199254740991, 0.5, 1],
      [4, 'tab\there\r\nnew line\\n \\ trailing\\', -1, -2.5, 0],
      [5, '\\.\n\\.', 42, 1e-3, 1],
      [6, '042', 7, 3, 1],
      [7, '{"json": ["x\\ty", null], "ü": "🦊"}', 1, 1, 0],
    ];
    // Many rows as well, past one chunk of the stream either way.
    for (let id = 8; id < 20_000; id++) rows.push([id, `row ${id}\t${'x'.repeat(id % 50)}`, id * 3, id / 4, id % 2]);
    const back = await withOwnConnection(database, async ({ client, db }) => {
      const loaded = await db.transaction().execute(() => copyRowsIn(client, 'awkward', ['id', 'body', 'n', 'r', 'flag'], rows));
      assert.equal(loaded, rows.length);
      const types = (await columnTypes(db)).get('awkward');
      const shape = { name: 'awkward', columns: ['id', 'body', 'n', 'r', 'flag'], primaryKey: ['id'], parents: [] };
      const read: Row[] = [];
      for await (const batch of copyRowsOut(client, shape, types)) read.push(...batch);
      // Read ahead table after table, as a backup reads them: the same rows, each table's own.
      const tables = [shape, { ...shape, columns: ['id', 'n'] }, shape];
      const ahead = copyTablesOut(client, tables, new Map([['awkward', types!]]));
      const readAhead: Row[][] = [];
      for (const table of tables) {
        const tableRows: Row[] = [];
        for await (const batch of ahead(table)) tableRows.push(...batch);
        readAhead.push(tableRows);
      }
      assert.deepEqual(readAhead[0], read);
      assert.deepEqual(
        readAhead[1],
        read.map((row) => [row[0], row[2]]),
      );
      assert.deepEqual(readAhead[2], read);
      return read;
    });
    assert.deepEqual(back, rows);
    // And as PostgreSQL itself reads them.
    const { rows: stored } = await sql<{ id: number; body: string | null }>`select id, body from awkward where id <= 7 order by id`.execute(
      database.db,
    );
    assert.deepEqual(
      stored.map((row) => row.body),
      rows.slice(0, 7).map((row) => row[1]),
    );
  });

  test('a refused row or a failing source fails the COPY, and nothing of it stays', async () => {
    await assert.rejects(
      withOwnConnection(database, ({ client, db }) =>
        db.transaction().execute(() => copyRowsIn(client, 'awkward', ['id', 'body', 'n', 'r', 'flag'], [[1, 'duplicate key', 1, 1, 1]])),
      ),
      /duplicate key/,
    );
    // A source that fails midway (a damaged archive's file) ends the COPY with nothing loaded.
    function* failing(): Generator<Row> {
      for (let id = 100_000; id < 150_000; id++) yield [id, 'x'.repeat(100), 0, 0, 0];
      throw new Error('the source failed');
    }
    await assert.rejects(
      withOwnConnection(database, ({ client, db }) =>
        db.transaction().execute(() => copyRowsIn(client, 'awkward', ['id', 'body', 'n', 'r', 'flag'], failing())),
      ),
      /the source failed/,
    );
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from awkward`.execute(database.db);
    assert.equal(rows[0].n, 19_999);
  });

  test('foreign keys set aside for a load are checked once after it, and are back either way', async () => {
    await sql`create table parents (id integer primary key)`.execute(database.db);
    await sql`create table children (id integer primary key, parent_id integer not null references parents (id) on delete cascade)`.execute(
      database.db,
    );
    const load = (children: Row[]) =>
      withOwnConnection(database, ({ client, db }) =>
        db.transaction().execute((trx) =>
          withForeignKeysAfter(trx, async () => {
            await copyRowsIn(client, 'children', ['id', 'parent_id'], children);
            await copyRowsIn(client, 'parents', ['id'], [[1], [2]]);
          }),
        ),
      );
    await assert.rejects(
      load([
        [1, 1],
        [2, 3],
      ]),
      /violates foreign key constraint/,
    );
    const keys = async () =>
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from pg_constraint where contype = 'f' and conrelid = 'children'::regclass`.execute(database.db)
      ).rows[0].n;
    assert.equal(await keys(), 1);
    assert.equal((await sql<{ n: number }>`select count(*)::int as n from children`.execute(database.db)).rows[0].n, 0);
    // Children before their parents, as long as the parents are there by the end.
    await load([
      [1, 1],
      [2, 2],
    ]);
    assert.equal(await keys(), 1);
    await assert.rejects(sql`insert into children (id, parent_id) values (3, 99)`.execute(database.db), /violates foreign key constraint/);
    await sql`delete from parents where id = 1`.execute(database.db);
    assert.deepEqual((await sql<{ id: number }>`select id from children`.execute(database.db)).rows, [{ id: 2 }]);
  });
});
