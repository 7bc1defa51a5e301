import { sql } from 'kysely';
import type { DbHandle, SchemaFreeDb } from '../index';

/*
 * Loading a whole database's rows at once into an empty SQLite database (a restore), the way
 * SQLite loads fastest without giving up a check: the secondary indexes are dropped first and made
 * again after the rows are in (one sort per index instead of a B-tree insert per row and index),
 * and foreign keys are checked once over the loaded rows instead of at each insert. Both happen in
 * the loading transaction: a failed load rolls the indexes back with the rows, and a row whose
 * parent is missing fails the load as it would have failed its insert. On PostgreSQL the foreign
 * keys alone are set aside the same way (`withForeignKeysAfter`); its indexes stay.
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

/**
 * PostgreSQL: runs `load` inside the caller's transaction with the schema's foreign keys dropped,
 * and adds them back after it, each table's in one `ALTER TABLE`. Adding a key checks every row
 * at once (one join per key) instead of a trigger's query per row loaded, which was more than half
 * of a restore's COPY; a row without its parent still fails the transaction, with PostgreSQL's
 * foreign-key error. A failed load rolls the dropped keys back with the rows.
 */
export async function withForeignKeysAfter<T>(trx: SchemaFreeDb, load: () => Promise<T>): Promise<T> {
  const { rows: keys } = await sql<{ table: string; name: string; definition: string }>`
    select cls.relname as table, con.conname as name, pg_get_constraintdef(con.oid) as definition
    from pg_constraint con join pg_class cls on cls.oid = con.conrelid
    where con.contype = 'f' and con.connamespace = current_schema()::regnamespace
    order by cls.relname, con.conname`.execute(trx);
  const byTable = new Map<string, typeof keys>();
  for (const key of keys) byTable.set(key.table, [...(byTable.get(key.table) ?? []), key]);
  const alter = (table: string, clauses: string[]) => sql`alter table ${sql.table(table)} ${sql.raw(clauses.join(', '))}`.execute(trx);
  for (const [table, tableKeys] of byTable)
    await alter(
      table,
      tableKeys.map((key) => `drop constraint ${quote(key.name)}`),
    );
  const loaded = await load();
  for (const [table, tableKeys] of byTable)
    await alter(
      table,
      tableKeys.map((key) => `add constraint ${quote(key.name)} ${key.definition}`),
    );
  return loaded;
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
