import { CompiledQuery, sql } from 'kysely';
import type { DbHandle, DialectName, SchemaFreeDb } from '../index';

/*
 * Rows out of one database and into another, in a form neither database owns: each row an array
 * of values in the order of its table's columns. Forge's columns are integers, reals and text on
 * both databases (flags are 0/1, times ISO 8601 text), so a value read from one is written to the
 * other as it is.
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

/*
 * Values bound per insert. PostgreSQL takes 65,535 and a round trip is what costs; SQLite (32,766 at
 * most) runs in the process, where preparing a statement of thousands of rows cost more than the
 * statements saved (each statement is prepared once per shape and kept by the database layer).
 */
const POSTGRES_VALUES = 30_000;
const SQLITE_VALUES = 3_000;

/**
 * Inserts rows given as arrays in `columns`' order, as many per statement as both databases take.
 * The statements are written here, not built by Kysely (whose building and compiling of a large
 * multi-row insert cost more than the database's own work), and are the same text for every full
 * batch, so SQLite's statement cache and PostgreSQL's parser see one statement again and again.
 */
export async function insertRows(db: SchemaFreeDb, dialect: DialectName, table: string, columns: string[], rows: Row[]): Promise<void> {
  const width = columns.length;
  const perStatement = Math.max(1, Math.floor((dialect === 'sqlite' ? SQLITE_VALUES : POSTGRES_VALUES) / Math.max(1, width)));
  const booleans = dialect === 'sqlite';
  const statements = new Map<number, string>();
  for (let start = 0; start < rows.length; start += perStatement) {
    const count = Math.min(perStatement, rows.length - start);
    const parameters = new Array<unknown>(count * width);
    for (let r = 0; r < count; r++) {
      const row = rows[start + r];
      for (let c = 0; c < width; c++) {
        const value = row[c];
        parameters[r * width + c] = booleans && typeof value === 'boolean' ? Number(value) : (value ?? null);
      }
    }
    let statement = statements.get(count);
    if (statement === undefined) statements.set(count, (statement = insertStatement(dialect, table, columns, count)));
    await db.executeQuery(CompiledQuery.raw(statement, parameters));
  }
}

function insertStatement(dialect: DialectName, table: string, columns: string[], count: number): string {
  const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;
  let next = 0;
  const placeholder = dialect === 'postgres' ? () => `$${++next}` : () => '?';
  const tuples = new Array<string>(count);
  for (let r = 0; r < count; r++) tuples[r] = `(${columns.map(placeholder).join(', ')})`;
  return `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values ${tuples.join(', ')}`;
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
