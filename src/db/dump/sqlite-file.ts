import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { SQLITE_BUSY_TIMEOUT_MS, type DbHandle } from '../index';
import type { Database } from '../schema';
import type { Row } from './rows';
import type { TableShape } from './tables';

/*
 * A SQLite file as the form a backup keeps a database in, whichever database it came from: a
 * well-known archival format that either database can be loaded from. On SQLite it is a copy of
 * the database's own file, made by SQLite's online backup; PostgreSQL's rows are written into one
 * made by Forge's own migrations, and read back from one.
 */

export interface SqliteFile {
  sqlite: SQLite.Database;
  /** The same connection for Kysely (migrations, the catalogue). */
  handle: DbHandle;
  close(): Promise<void>;
}

/**
 * Opens a SQLite file apart from an instance's own connection. A scratch file (new, thrown away if
 * anything fails) keeps no journal and is never synced: a crash loses nothing that was not lost
 * anyway. Any other must exist.
 */
export function openSqliteFile(file: string, { scratch = false, readonly = false } = {}): SqliteFile {
  const sqlite = new SQLite(file, { readonly, fileMustExist: !scratch });
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  if (scratch) {
    sqlite.pragma('journal_mode = OFF');
    sqlite.pragma('synchronous = OFF');
  }
  sqlite.pragma('foreign_keys = OFF');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { sqlite, handle: { db, dialect: 'sqlite' }, close: () => db.destroy() };
}

/** Databases up to this size are copied in memory; larger ones through a file. */
const IN_MEMORY_BYTES = 512 * 1024 * 1024;

/**
 * A copy of the database as the connection's open read transaction sees it (WAL: the server
 * keeps writing meanwhile): its pages read in one statement (`sqlite3_serialize`), about the cost
 * of reading the file, and nothing written; or, for a large database, SQLite's online backup into
 * `file` in a single step under the same transaction (its destination is synced: slower, but in
 * bounded memory). The bytes, or undefined when they are in `file`.
 */
export async function copyInSnapshot(live: SqliteFile, file: string): Promise<Buffer | undefined> {
  const pages = live.sqlite.pragma('page_count', { simple: true }) as number;
  const pageSize = live.sqlite.pragma('page_size', { simple: true }) as number;
  if (pages * pageSize <= IN_MEMORY_BYTES) {
    const content = live.sqlite.serialize();
    // A WAL database's copy says so in its header (bytes 18 and 19); set back to the rollback
    // journal, as `journal_mode = delete` does, it opens anywhere, read-only too.
    content[18] = 1;
    content[19] = 1;
    return content;
  }
  await live.sqlite.backup(file, { progress: () => 0x7fffffff });
  const copy = new SQLite(file);
  copy.pragma('journal_mode = delete');
  copy.close();
  return undefined;
}

/**
 * Every row of `tables`, as `read` gives them (from a snapshot of another database), into an empty
 * file made by the same migrations, in one transaction: its secondary indexes dropped first and
 * made again at the end (one sort each instead of a B-tree insert per row), foreign keys not
 * checked (the source enforced them).
 */
export async function copyRowsInto(
  read: (table: TableShape) => AsyncIterable<Row[]>,
  tables: TableShape[],
  file: SqliteFile,
): Promise<Record<string, number>> {
  const { sqlite } = file;
  const indexes = sqlite.prepare(`select name, sql from sqlite_master where type = 'index' and sql is not null`).all() as Array<{
    name: string;
    sql: string;
  }>;
  const counts: Record<string, number> = {};
  sqlite.exec('begin');
  try {
    for (const index of indexes) sqlite.exec(`drop index ${quote(index.name)}`);
    for (const table of tables) {
      const insert = sqlite.prepare(
        `insert into ${quote(table.name)} (${table.columns.map(quote).join(', ')}) values (${table.columns.map(() => '?').join(', ')})`,
      );
      counts[table.name] = 0;
      for await (const rows of read(table)) {
        for (const row of rows) insert.run(row);
        counts[table.name] += rows.length;
      }
    }
    for (const index of indexes) sqlite.exec(index.sql);
    sqlite.exec('commit');
  } catch (error) {
    if (sqlite.inTransaction) sqlite.exec('rollback');
    throw error;
  }
  return counts;
}

/** A table's rows as arrays in its columns' order, in primary-key order, read one at a time. */
export function tableRows(file: SqliteFile, table: TableShape): IterableIterator<Row> {
  const order = (table.primaryKey.length > 0 ? table.primaryKey : table.columns).map(quote).join(', ');
  return file.sqlite
    .prepare(`select ${table.columns.map(quote).join(', ')} from ${quote(table.name)} order by ${order}`)
    .raw(true)
    .iterate() as IterableIterator<Row>;
}

/** Each table's number of rows. */
export function countRows(file: SqliteFile, tables: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const table of tables) counts[table] = (file.sqlite.prepare(`select count(*) as n from ${quote(table)}`).get() as { n: number }).n;
  return counts;
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
