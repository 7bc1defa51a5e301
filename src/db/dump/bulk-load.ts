import { sql } from 'kysely';
import type { DbHandle, SchemaFreeDb } from '../index';

/*
 * Loading a whole database's rows at once into an empty SQLite database (a restore), the way
 * SQLite loads fastest without giving up a check: the secondary indexes are dropped first and made
 * again after the rows are in (one sort per index instead of a B-tree insert per row and index),
 * and foreign keys are checked once over the loaded rows instead of at each insert. Both happen in
 * the loading transaction: a failed load rolls the indexes back with the rows, and a row whose
 * parent is missing fails the load as it would have failed its insert. PostgreSQL is left as it is.
 */

export interface BulkLoad {
  /** Makes the indexes again and checks every foreign key; throws `ForeignKeyViolation` on a row without its parent. */
  finish(): Promise<void>;
  /** Turns foreign keys back on for the connection, once the transaction has ended (committed or not). */
  release(): Promise<void>;
}

export class ForeignKeyViolation extends Error {
  constructor(
    readonly table: string,
    readonly parent: string,
    readonly count: number,
  ) {
    super(`${count} row(s) of ${table} name a missing row of ${parent}`);
  }
}

/** Call before the loading transaction starts (SQLite takes `foreign_keys` only outside one); `start` runs inside it. */
export async function prepareBulkLoad(database: DbHandle): Promise<{ start: (trx: SchemaFreeDb) => Promise<BulkLoad> }> {
  if (database.dialect !== 'sqlite') {
    const nothing: BulkLoad = { finish: async () => {}, release: async () => {} };
    return { start: async () => nothing };
  }
  await sql`pragma foreign_keys = off`.execute(database.db);
  const release = async () => {
    await sql`pragma foreign_keys = on`.execute(database.db);
  };
  return {
    start: async (trx) => {
      // Indexes SQLite makes for a UNIQUE or PRIMARY KEY constraint have no SQL and stay.
      const { rows: indexes } = await sql<{ name: string; sql: string }>`
        select name, sql from sqlite_master where type = 'index' and sql is not null order by name`.execute(trx);
      for (const index of indexes) await sql`drop index ${sql.ref(index.name)}`.execute(trx);
      return {
        release,
        finish: async () => {
          for (const index of indexes) await sql.raw(index.sql).execute(trx);
          const { rows: broken } = await sql<{ table: string; parent: string }>`pragma foreign_key_check`.execute(trx);
          if (broken.length > 0) throw new ForeignKeyViolation(broken[0].table, broken[0].parent, broken.length);
        },
      };
    },
  };
}
