import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { startApp, type TestApp } from '../support/app';

// SQLite's rows are read as arrays and made into objects by Forge (src/db/sqlite-rows.ts).
const sqlite = !process.env.TEST_DATABASE_URL;

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

test('rows are the objects better-sqlite3 makes: keys in column order, a repeated name keeps its first place and its last value', {
  skip: !sqlite && 'SQLite only',
}, async () => {
  const query = 'select 1 as b, 2 as a, 3 as b, null as c, 4.5 as "10"';
  const { rows } = await sql.raw(query).execute(app.ctx.db);
  const direct = new SQLite(':memory:').prepare(query).all();
  assert.deepEqual(rows, direct);
  assert.deepEqual(Object.keys(rows[0] as object), Object.keys(direct[0] as object));
});

test('a query kept before another connection added a column to its table answers with the column', {
  skip: !sqlite && 'SQLite only',
}, async () => {
  const db = app.ctx.db;
  await sql`create table widened (id integer primary key, name text)`.execute(db);
  await db
    .insertInto('widened' as any)
    .values({ id: 1, name: 'one' })
    .execute();
  const read = () =>
    db
      .selectFrom('widened' as any)
      .selectAll()
      .where('id', '=', 1)
      .execute();
  assert.deepEqual(await read(), [{ id: 1, name: 'one' }]);
  const other = new SQLite(path.join(app.dataDir, 'forge.db'));
  other.exec('alter table widened add column size integer not null default 7');
  other.close();
  assert.deepEqual(await read(), [{ id: 1, name: 'one', size: 7 }]);
});
