import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { DbHandle, SchemaFreeDb } from '../db/index';
import { describeTables, executedMigrations, type TableShape } from '../db/dump/tables';
import { readCounters, withReadSnapshot, writeCounters, type CounterValue } from '../db/dump/rows';
import { columnTypes, copyTablesOut, withOwnConnection } from '../db/dump/postgres-copy';
import { copyInSnapshot, copyRowsInto, countRows, openSqliteFile } from '../db/dump/sqlite-file';
import { migrateTo } from '../db/migrate';
import { readRepositoryRefs, sameRefs, type RepositoryRefs } from '../git/backup-files';
import { repositoryPath } from '../git/paths';
import type { ArchiveWriter } from './archive-writer';
import { DATABASE_CHECKSUM, DATABASE_FILE, FORMAT, FORMAT_VERSION, MANIFEST, type Manifest } from './format';
import type { Progress } from './progress';

/*
 * The database and the repositories' refs as of one moment. The refs are read just before the
 * database snapshot is taken and again just after; when no repository's refs moved in between,
 * they are the refs as of the snapshot (every writer moves refs in git before it writes the rows
 * that name the new commits, and after it the rows that follow the move). When some moved, the
 * snapshot is let go and taken again, with the second reading as the first of the next try. A
 * repository that moves every time is saved with its refs as just after the snapshot (so every
 * commit the rows name is there), and the manifest names it.
 *
 * The snapshot is a SQLite file (format.ts): on SQLite a copy of the database taken by SQLite's
 * online backup; on PostgreSQL a file made by the same migrations and filled from a
 * repeatable-read transaction.
 */

const ATTEMPTS = 6;
/** Repositories whose refs are read at once. */
const PARALLEL_GIT = 4;

export interface DatabaseSnapshot {
  /** The projects of the snapshot, with the refs of their repositories (undefined: no repository on disk). */
  repositories: Map<number, RepositoryRefs | undefined>;
  rows: Record<string, number>;
  moved: number[];
}

interface Taken {
  refs: Map<number, RepositoryRefs | undefined>;
  moved: number[];
  /** Unset: the refs moved, and the snapshot is to be taken again. */
  database?: { migrations: string[]; tables: TableShape[]; counters: CounterValue[]; rows: Record<string, number> };
  /** The database file's bytes, when they are not in the scratch file. */
  content?: Buffer;
}

/** Writes the manifest and the database's file to the archive; `scratch` is a folder for the file on its way. */
export async function saveDatabase(
  writer: ArchiveWriter,
  database: DbHandle,
  dataDir: string,
  scratch: string,
  progress: Progress,
): Promise<DatabaseSnapshot> {
  const secretKey = await fs.readFile(path.join(dataDir, 'secret.key'));
  const file = path.join(scratch, 'forge.db');
  let before = await readRefs(dataDir, await projectIds(database.db));
  for (let attempt = 1; ; attempt++) {
    await fs.rm(file, { force: true });
    const retry = attempt < ATTEMPTS;
    const taken =
      database.dialect === 'sqlite'
        ? await copySqlite(dataDir, file, before, retry)
        : await copyPostgres(database, dataDir, file, before, retry);
    if (taken.database === undefined) {
      progress.say(`${taken.moved.length} repositories moved while the snapshot was taken: taking it again`);
      before = taken.refs;
      continue;
    }
    const { migrations, tables, counters, rows } = taken.database;
    const total = Object.values(rows).reduce((sum, count) => sum + count, 0);
    progress.say(
      `database snapshot taken (${taken.refs.size} projects, ${tables.length} tables, ${total} rows${attempt > 1 ? `, attempt ${attempt}` : ''})`,
    );
    const manifest: Manifest = {
      format: FORMAT,
      version: FORMAT_VERSION,
      created_at: new Date().toISOString(),
      source_database: database.dialect,
      migrations,
      tables: tables.map((table) => table.name),
      counters,
      secret_key_sha256: crypto.hash('sha256', secretKey.toString('utf8').trim(), 'hex'),
      repositories_moved: taken.moved,
    };
    await writer.addBuffer(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
    let digest: string;
    if (taken.content !== undefined) {
      digest = await writer.addBufferWithDigest(DATABASE_FILE, taken.content);
    } else {
      const handle = await fs.open(file, 'r');
      try {
        const stats = await handle.stat();
        digest = await writer.addFileWithDigest(DATABASE_FILE, handle, stats.size, stats.mtime);
      } finally {
        await handle.close();
      }
    }
    await writer.addBuffer(DATABASE_CHECKSUM, `${digest}\n`);
    await fs.rm(file, { force: true });
    return { repositories: taken.refs, rows, moved: taken.moved };
  }
}

/** SQLite: the database's pages copied in one read transaction, the refs read around its start. */
async function copySqlite(dataDir: string, file: string, before: Map<number, RepositoryRefs | undefined>, retry: boolean): Promise<Taken> {
  const live = openSqliteFile(path.join(dataDir, 'forge.db'));
  try {
    return await withReadSnapshot(live.handle, async (snapshot) => {
      const refs = await readRefs(dataDir, await projectIds(snapshot));
      const moved = movedBetween(before, refs);
      if (moved.length > 0 && retry) return { refs, moved };
      const tables = await describeTables(snapshot, 'sqlite');
      const database = {
        migrations: await executedMigrations(snapshot),
        tables,
        counters: await readCounters(snapshot, 'sqlite'),
        rows: countRows(
          live,
          tables.map((table) => table.name),
        ),
      };
      const content = await copyInSnapshot(live, file);
      return { refs, moved, database, content };
    });
  } finally {
    await live.close();
  }
}

/**
 * PostgreSQL: the rows of one repeatable-read snapshot written into a file made by the same
 * migrations, each table read by one `COPY … TO STDOUT` on the snapshot's connection.
 */
async function copyPostgres(
  database: DbHandle,
  dataDir: string,
  file: string,
  before: Map<number, RepositoryRefs | undefined>,
  retry: boolean,
): Promise<Taken> {
  return withOwnConnection(database, ({ client, db }) =>
    withReadSnapshot({ db, dialect: 'postgres' }, async (snapshot) => {
      const refs = await readRefs(dataDir, await projectIds(snapshot));
      const moved = movedBetween(before, refs);
      if (moved.length > 0 && retry) return { refs, moved };
      const migrations = await executedMigrations(snapshot);
      const tables = await describeTables(snapshot, 'postgres');
      const counters = await readCounters(snapshot, 'postgres');
      const types = await columnTypes(snapshot);
      const copy = openSqliteFile(file, { scratch: true });
      try {
        await migrateTo(copy.handle, migrations[migrations.length - 1]);
        const rows = await copyRowsInto(copyTablesOut(client, tables, types), tables, copy);
        await writeCounters(copy.handle.db, 'sqlite', counters);
        return { refs, moved, database: { migrations, tables, counters, rows } };
      } finally {
        await copy.close();
      }
    }),
  );
}

const movedBetween = (before: Map<number, RepositoryRefs | undefined>, after: Map<number, RepositoryRefs | undefined>): number[] =>
  [...after.keys()].filter((id) => !sameRefs(before.get(id), after.get(id)));

async function projectIds(db: SchemaFreeDb): Promise<number[]> {
  const rows = await db.selectFrom('projects').select('id').orderBy('id').execute();
  return rows.map((row) => Number(row.id));
}

async function readRefs(dataDir: string, ids: number[]): Promise<Map<number, RepositoryRefs | undefined>> {
  const refs = new Map<number, RepositoryRefs | undefined>();
  let next = 0;
  const worker = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      refs.set(id, await readRepositoryRefs(repositoryPath(dataDir, id)));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_GIT }, worker));
  return new Map([...refs.entries()].sort((a, b) => a[0] - b[0]));
}
