import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { sql } from 'kysely';
import { startApp, type TestApp } from '../support/app';

// Named prepared statements are PostgreSQL's; SQLite keeps its own per connection.
const postgres = Boolean(process.env.TEST_DATABASE_URL);

let app: TestApp;
before(async () => {
  app = await startApp();
});
after(async () => {
  await app.close();
});

test('a query prepared before another process added a column to its table still answers, with the column', {
  skip: !postgres && 'PostgreSQL only',
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
  // Prepared on every connection of the pool that runs it.
  for (let i = 0; i < 12; i++) assert.deepEqual(await read(), [{ id: 1, name: 'one' }]);
  const other = new pg.Client({ connectionString: app.databaseUrl });
  await other.connect();
  await other.query(`alter table widened add column size integer not null default 7`);
  await other.end();
  for (let i = 0; i < 12; i++) assert.deepEqual(await read(), [{ id: 1, name: 'one', size: 7 }]);
});
