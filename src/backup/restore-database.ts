import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DbHandle } from '../db/index';
import { writeCounters } from '../db/dump/rows';
import { withForeignKeysAfter } from '../db/dump/bulk-load';
import { copyRowsIn, withOwnConnection } from '../db/dump/postgres-copy';
import { openSqliteFile, tableRows } from '../db/dump/sqlite-file';
import { describeTables } from '../db/dump/tables';
import { migrateTo } from '../db/migrate';
import { hashing } from './archive';
import { BackupError, type Manifest } from './format';

/*
 * The database of a format 2 archive: a SQLite file (format.ts). Onto SQLite it is the database
 * itself, put in place; onto PostgreSQL its tables are read and loaded by COPY, parents first, in
 * one transaction. Either way it is checked against its SHA-256 before anything is loaded from it.
 */

/** Where the file goes: the database itself on SQLite; on PostgreSQL a file of its own in DATA_DIR, removed once loaded. */
export const databaseFileOf = (database: DbHandle, dataDir: string): string =>
  path.join(dataDir, database.dialect === 'sqlite' ? 'forge.db' : '.forge-restore.db');

/** Writes the archive's database file to `file`; its SHA-256. */
export async function receiveDatabaseFile(body: Readable, file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  await pipeline(body, hashing(hash), createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  return hash.digest('hex');
}

export function checkDatabaseFile(archive: string, received: string, recorded: string): void {
  if (received !== recorded.trim()) throw new BackupError(`${archive} is damaged: its database does not match its SHA-256`);
}

/**
 * Loads the file's rows into PostgreSQL (its schema made as the backup's migrations made it),
 * counters included, in one transaction: each table by one `COPY … FROM STDIN`, parents first, the
 * foreign keys checked once after (bulk-load.ts). The rows per table.
 */
export async function loadDatabaseFile(database: DbHandle, file: string, manifest: Manifest): Promise<Record<string, number>> {
  const source = openSqliteFile(file, { readonly: true });
  try {
    const shapes = new Map((await describeTables(source.handle.db, 'sqlite')).map((shape) => [shape.name, shape]));
    const tables = manifest.tables.map((name) => {
      const shape = shapes.get(name);
      if (shape === undefined) throw new BackupError(`the archive's database has no table ${name}: it is damaged`);
      return shape;
    });
    await migrateTo(database, manifest.migrations[manifest.migrations.length - 1]);
    return await withOwnConnection(database, ({ client, db }) =>
      db.transaction().execute(async (trx) => {
        const rows: Record<string, number> = {};
        await withForeignKeysAfter(trx, async () => {
          for (const table of tables) rows[table.name] = await copyRowsIn(client, table.name, table.columns, tableRows(source, table));
        });
        await writeCounters(trx, database.dialect, manifest.counters);
        return rows;
      }),
    );
  } finally {
    await source.close();
  }
}

/** A database file left by a failed restore. */
export async function removeDatabaseFile(file: string): Promise<void> {
  await Promise.all(['', '-wal', '-shm', '-journal'].map((suffix) => fs.rm(`${file}${suffix}`, { force: true })));
}
