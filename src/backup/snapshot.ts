import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { DbHandle, SchemaFreeDb } from '../db/index';
import { describeTables, executedMigrations } from '../db/dump/tables';
import { readCounters, readRowLines, withReadSnapshot } from '../db/dump/rows';
import { readRepositoryRefs, sameRefs, type RepositoryRefs } from '../git/backup-files';
import { repositoryPath } from '../git/paths';
import type { ArchiveWriter } from './archive';
import { FORMAT, FORMAT_VERSION, MANIFEST, tableEntry, type Manifest } from './format';
import type { Progress } from './progress';

/*
 * The database and the repositories' refs as of one moment. The refs are read just before the
 * database snapshot is taken and again just after; when no repository's refs moved in between,
 * they are the refs as of the snapshot (every writer moves refs in git before it writes the rows
 * that name the new commits, and after it the rows that follow the move). When some moved, the
 * snapshot is let go and taken again, with the second reading as the first of the next try. A
 * repository that moves every time is saved with its refs as just after the snapshot (so every
 * commit the rows name is there), and the manifest names it.
 */

const ATTEMPTS = 6;
/** Rows per archive entry. */
const ROWS_PER_CHUNK = 5000;
/** Repositories whose refs are read at once. */
const PARALLEL_GIT = 4;

export interface DatabaseSnapshot {
  /** The projects of the snapshot, with the refs of their repositories (undefined: no repository on disk). */
  repositories: Map<number, RepositoryRefs | undefined>;
  rows: Record<string, number>;
  moved: number[];
}

export async function saveDatabase(
  writer: ArchiveWriter,
  database: DbHandle,
  dataDir: string,
  progress: Progress,
): Promise<DatabaseSnapshot> {
  const secretKey = await fs.readFile(path.join(dataDir, 'secret.key'));
  let before = await readRefs(dataDir, await projectIds(database.db));
  for (let attempt = 1; ; attempt++) {
    const outcome = await withReadSnapshot(database, async (snapshot) => {
      const after = await readRefs(dataDir, await projectIds(snapshot));
      const moved = [...after.keys()].filter((id) => !sameRefs(before.get(id), after.get(id)));
      if (moved.length > 0 && attempt < ATTEMPTS) return { retry: after, moved };
      progress.say(`database snapshot taken (${after.size} projects${attempt > 1 ? `, attempt ${attempt}` : ''})`);
      const rows = await dumpTables(writer, snapshot, database, secretKey, moved, progress);
      return { snapshot: { repositories: after, rows, moved } };
    });
    if ('snapshot' in outcome) return outcome.snapshot!;
    progress.say(`${outcome.moved.length} repositories moved while the snapshot was taken: taking it again`);
    before = outcome.retry!;
  }
}

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

async function dumpTables(
  writer: ArchiveWriter,
  snapshot: SchemaFreeDb,
  database: DbHandle,
  secretKey: Buffer,
  moved: number[],
  progress: Progress,
): Promise<Record<string, number>> {
  const tables = await describeTables(snapshot, database.dialect);
  const manifest: Manifest = {
    format: FORMAT,
    version: FORMAT_VERSION,
    created_at: new Date().toISOString(),
    source_database: database.dialect,
    migrations: await executedMigrations(snapshot),
    tables: tables.map((table) => table.name),
    counters: await readCounters(snapshot, database.dialect),
    secret_key_sha256: crypto.hash('sha256', secretKey.toString('utf8').trim(), 'hex'),
    repositories_moved: moved,
  };
  await writer.addBuffer(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
  const counts: Record<string, number> = {};
  let total = 0;
  for (const [position, table] of tables.entries()) {
    let chunk = 0;
    counts[table.name] = 0;
    const header = `${JSON.stringify(table.columns)}\n`;
    for await (const lines of readRowLines(snapshot, database.dialect, table, ROWS_PER_CHUNK)) {
      await writer.addBuffer(tableEntry(position + 1, table.name, ++chunk), `${header}${lines.text}\n`);
      counts[table.name] += lines.count;
      total += lines.count;
      progress.tick(() => `database: ${total} rows (${table.name})`);
    }
  }
  progress.say(`database: ${tables.length} tables, ${total} rows`);
  return counts;
}
