import { sql } from 'kysely';
import type { DbHandle, DialectName, SchemaFreeDb } from '../index';
import type { TableShape } from './tables';

/*
 * Rows out of one database and into another, in a form neither database owns: each row an array
 * of JSON values in the order of its table's columns. Forge's columns are integers, reals and text
 * on both databases (flags are 0/1, times ISO 8601 text), so a value read from one is written to
 * the other as it is; the few types a driver may hand back otherwise are made plain here.
 */

export type Row = unknown[];

/**
 * Runs `work` in one read-only snapshot of the whole database: a repeatable-read transaction on
 * PostgreSQL, a read transaction on SQLite (WAL: the server keeps writing meanwhile). The snapshot
 * is taken by a first read before `work` starts, so what `work` does next sees none of the writes
 * made after this call's first statement.
 */
export async function withReadSnapshot<T>(handle: DbHandle, work: (snapshot: SchemaFreeDb) => Promise<T>): Promise<T> {
  const begin =
    handle.dialect === 'postgres'
      ? handle.db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only')
      : handle.db.transaction();
  return begin.execute(async (trx) => {
    await sql`select count(*) from kysely_migration`.execute(trx);
    return work(trx);
  });
}

/** A table's rows in primary-key order, `batch` at a time: by key ranges when the key is one column, by offsets otherwise. */
export async function* readRows(db: SchemaFreeDb, table: TableShape, batch: number): AsyncGenerator<Row[]> {
  const columns = table.columns.map((column) => sql.ref(column));
  const order = (table.primaryKey.length > 0 ? table.primaryKey : table.columns).map((column) => sql.ref(column));
  const keyIndex = table.primaryKey.length === 1 ? table.columns.indexOf(table.primaryKey[0]) : -1;
  let after: unknown;
  for (let offset = 0; ; offset += batch) {
    const range = keyIndex >= 0 && after !== undefined ? sql`where ${sql.ref(table.primaryKey[0])} > ${after}` : sql``;
    const page = keyIndex >= 0 ? sql`limit ${sql.lit(batch)}` : sql`limit ${sql.lit(batch)} offset ${sql.lit(offset)}`;
    const { rows } = await sql<Record<string, unknown>>`
      select ${sql.join(columns)} from ${sql.table(table.name)} ${range} order by ${sql.join(order)} ${page}`.execute(db);
    if (rows.length === 0) return;
    // The select names every column in the table's order, so a row's values come in that order.
    const values = rows.map((row) => Object.values(row).map(plain));
    if (keyIndex >= 0) after = values[values.length - 1][keyIndex];
    yield values;
    if (rows.length < batch) return;
  }
}

function plain(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return value.toISOString();
  if (Buffer.isBuffer(value)) throw new Error('binary columns are not supported by forge backup');
  return value;
}

/** Inserts rows given as arrays in `columns`' order; as many per statement as both databases take. */
export async function insertRows(db: SchemaFreeDb, dialect: DialectName, table: string, columns: string[], rows: Row[]): Promise<void> {
  // SQLite binds at most 32,766 values a statement, PostgreSQL 65,535.
  const perStatement = Math.max(1, Math.floor(30_000 / Math.max(1, columns.length)));
  for (let start = 0; start < rows.length; start += perStatement) {
    const values = rows.slice(start, start + perStatement).map((row) => {
      const record: Record<string, unknown> = {};
      columns.forEach((column, index) => {
        const value = row[index];
        record[column] = dialect === 'sqlite' && typeof value === 'boolean' ? Number(value) : value;
      });
      return record;
    });
    await db.insertInto(table).values(values).execute();
  }
}

/** The last number each table's id counter handed out: with it, a restored instance never hands out a deleted record's id again. */
export interface CounterValue {
  table: string;
  column: string;
  value: number;
}

export async function readCounters(db: SchemaFreeDb, dialect: DialectName): Promise<CounterValue[]> {
  if (dialect === 'sqlite') {
    const { rows } = await sql<{ name: string; seq: number }>`select name, seq from sqlite_sequence order by name`.execute(db);
    // SQLite's AUTOINCREMENT counts only a table's INTEGER PRIMARY KEY, which Forge always names id.
    return rows.map((row) => ({ table: row.name, column: 'id', value: Number(row.seq) }));
  }
  const sequences = await serialColumns(db);
  if (sequences.length === 0) return [];
  const { rows } = await sql<{ position: number; value: number }>`${sql.join(
    sequences.map(
      (entry, position) =>
        sql`select ${sql.lit(position)} as position, case when is_called then last_value else last_value - 1 end as value from ${sql.raw(entry.sequence)}`,
    ),
    sql` union all `,
  )}`.execute(db);
  return rows.map((row) => ({ table: sequences[row.position].table, column: sequences[row.position].column, value: Number(row.value) }));
}

/** Sets each id counter past both the recorded value and the largest id loaded, whichever is higher. */
export async function writeCounters(db: SchemaFreeDb, dialect: DialectName, counters: CounterValue[]): Promise<void> {
  const recorded = new Map(counters.map((counter) => [`${counter.table}.${counter.column}`, counter.value]));
  if (dialect === 'sqlite') {
    // Inserting ids moved sqlite_sequence to the largest; a recorded value above it (rows deleted at the end) is put back.
    for (const counter of counters) {
      const updated = await sql`update sqlite_sequence set seq = max(seq, ${counter.value}) where name = ${counter.table}`.execute(db);
      if (Number(updated.numAffectedRows ?? 0) === 0)
        await sql`insert into sqlite_sequence (name, seq) values (${counter.table}, ${counter.value})`.execute(db);
    }
    return;
  }
  for (const entry of await serialColumns(db)) {
    const floor = recorded.get(`${entry.table}.${entry.column}`) ?? 0;
    await sql`select setval(${entry.sequence}, greatest(coalesce(max(${sql.ref(entry.column)}), 0), ${floor}, 1),
      greatest(coalesce(max(${sql.ref(entry.column)}), 0), ${floor}) > 0) from ${sql.table(entry.table)}`.execute(db);
  }
}

/** PostgreSQL's serial columns and their sequences. */
async function serialColumns(db: SchemaFreeDb): Promise<Array<{ table: string; column: string; sequence: string }>> {
  const { rows } = await sql<{ table_name: string; column_name: string; sequence: string }>`
    select table_name, column_name, pg_get_serial_sequence(quote_ident(table_name), column_name) as sequence
    from information_schema.columns
    where table_schema = current_schema() and column_default like 'nextval(%'
    order by table_name`.execute(db);
  return rows
    .filter((row) => row.sequence !== null && !row.table_name.startsWith('kysely_'))
    .map((row) => ({ table: row.table_name, column: row.column_name, sequence: row.sequence }));
}
