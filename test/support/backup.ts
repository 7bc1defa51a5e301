import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { loadConfig } from '../../src/config';
import { startServer, type RunningServer } from '../../src/app';
import { readArchive, readBody } from '../../src/backup/archive';
import { createBackup, type BackupResult } from '../../src/backup/backup';
import { restoreBackup, type RestoreResult } from '../../src/backup/restore';
import { secretsFileOf } from '../../src/backup/format';
import { Progress } from '../../src/backup/progress';
import { openDatabase } from '../../src/db/index';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar, { type Headers } from 'tar-stream';
import { ApiClient } from './client';
import { freshDatabaseUrl } from './app';
import { runForge, type Finished } from './forge-command';

/*
 * Helpers of the backup tests: `forge backup` and `forge restore` run as an operator runs them (a
 * process of their own, the instance named by DATA_DIR and DATABASE_URL), an instance to restore
 * into, and a server started over a restored instance.
 */

export interface Target {
  dataDir: string;
  databaseUrl: string;
  env: Record<string, string>;
  drop(): Promise<void>;
}

/** A new, empty DATA_DIR (not created yet) and database: PostgreSQL when `base` is given, SQLite otherwise. */
export async function emptyInstance(base: string | undefined): Promise<Target> {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-restore-'));
  const dataDir = path.join(parent, 'data');
  const database = await freshDatabaseUrl(base ?? '', 'forge_restore');
  return {
    dataDir,
    databaseUrl: database.url,
    env: { DATA_DIR: dataDir, DATABASE_URL: database.url },
    async drop() {
      await database.drop();
      fs.rmSync(parent, { recursive: true, force: true });
    },
  };
}

export function backup(env: Record<string, string>, archive: string): Promise<Finished> {
  return runForge(['backup', '--to', archive], env);
}

export function restore(env: Record<string, string>, archive: string, extra: string[] = []): Promise<Finished> {
  return runForge(['restore', archive, ...extra], env);
}

const silent = () => new Progress('test', new PassThrough().resume());

/** The same backup as `forge backup`, through its function in this process (quicker than a process). */
export async function backupInProcess(instance: { dataDir: string; databaseUrl: string }, archive: string): Promise<BackupResult> {
  const database = openDatabase(instance);
  try {
    return await createBackup({ dataDir: instance.dataDir, database, archive, progress: silent() });
  } finally {
    await database.db.destroy();
  }
}

/** The same restore as `forge restore`, through its function in this process. */
export function restoreInProcess(target: Target, archive: string, secrets = secretsFileOf(archive)): Promise<RestoreResult> {
  return restoreBackup({
    dataDir: target.dataDir,
    openDatabase: () => openDatabase(target),
    describeDatabase: target.databaseUrl || 'SQLite',
    archive,
    secrets,
    progress: silent(),
  });
}

export function sha256Of(file: string): string {
  return crypto.hash('sha256', fs.readFileSync(file), 'hex');
}

/**
 * Every entry of an archive: names, and the rows of each table as text (its columns, then each row
 * as a JSON array, in key order), from the database file of format 2 or the chunks of format 1.
 */
export async function archiveContents(file: string): Promise<{ names: string[]; tables: Map<string, string>; manifest: any }> {
  const names: string[] = [];
  const tables = new Map<string, string>();
  let manifest: any;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'forge-archive-'));
  try {
    await readArchive(file, async (entry) => {
      names.push(entry.name);
      if (entry.name === 'forge-backup.json') manifest = JSON.parse((await readBody(entry.body)).toString('utf8'));
      const table = entry.name.match(/^database\/\d+-(\w+)\//)?.[1];
      if (table) tables.set(table, (tables.get(table) ?? '') + (await readBody(entry.body)).toString('utf8'));
      if (entry.name === 'database/forge.db') {
        fs.writeFileSync(path.join(scratch, 'forge.db'), await readBody(entry.body));
        const database = new SQLite(path.join(scratch, 'forge.db'), { readonly: true });
        try {
          for (const name of manifest.tables as string[]) {
            const columns = database.pragma(`table_info("${name}")`) as Array<{ name: string; pk: number }>;
            const keys = columns
              .filter((column) => column.pk > 0)
              .sort((a, b) => a.pk - b.pk)
              .map((column) => `"${column.name}"`);
            const lines = database
              .prepare(
                `select json_array(${columns.map((column) => `"${column.name}"`).join(', ')}) from "${name}" order by ${keys.join(', ') || 'rowid'}`,
              )
              .pluck()
              .all() as string[];
            if (lines.length > 0) tables.set(name, `${JSON.stringify(columns.map((column) => column.name))}\n${lines.join('\n')}\n`);
          }
        } finally {
          database.close();
        }
      }
    });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return { names, tables, manifest };
}

/** The real server over a restored instance, and a client of root's. */
export async function serveRestored(target: Target, rootToken: string): Promise<{ server: RunningServer; root: ApiClient; url: string }> {
  const config = loadConfig({ ...target.env, PORT: '0', HOST: '127.0.0.1', SSH_PORT: '0', JOB_RETRY_BASE_MS: '200' });
  const server = await startServer(config, { logger: false });
  const url = `http://127.0.0.1:${config.port}`;
  return { server, root: new ApiClient(url, rootToken), url };
}

/** A copy of an archive with some entries' bodies changed. */
export async function rewriteArchive(from: string, to: string, change: (name: string, body: Buffer) => Buffer): Promise<void> {
  const pack = tar.pack();
  const written = pipeline(pack, fs.createWriteStream(to));
  await readArchive(from, async (entry) => {
    const added = (header: Headers, body: Buffer) =>
      new Promise<void>((resolve, reject) => pack.entry(header, body, (error) => (error ? reject(error) : resolve())));
    if (entry.type === 'link') await added({ name: entry.name, type: 'link', linkname: entry.linkname }, Buffer.alloc(0));
    else await added({ name: entry.name }, change(entry.name, await readBody(entry.body)));
  });
  pack.finalize();
  await written;
}
