import fs from 'node:fs/promises';
import path from 'node:path';
import type { DbHandle } from '../db/index';
import { ArchiveWriter } from './archive-writer';
import { dataFiles, SECRET_FILES } from './data-dir';
import { BackupError, DATA_PREFIX, secretsFileOf, TRAILER, type SecretsFile, type Trailer } from './format';
import { mebibytes, type Progress } from './progress';
import { saveRepositories } from './repositories';
import { saveDatabase } from './snapshot';

/*
 * `forge backup`: one archive of a running instance (format.ts), written under a temporary name
 * and renamed into place once whole, and the secrets beside it in a file of their own.
 */

export interface BackupOptions {
  dataDir: string;
  database: DbHandle;
  archive: string;
  progress: Progress;
}

export interface BackupResult {
  archive: string;
  secrets: string;
  size: number;
  sha256: string;
  rows: number;
  repositories: number;
  files: number;
  /** Projects whose refs kept moving while the snapshot was taken. */
  moved: number[];
}

export async function createBackup({ dataDir, database, archive, progress }: BackupOptions): Promise<BackupResult> {
  const secrets = secretsFileOf(archive);
  for (const file of [archive, secrets]) {
    if (await exists(file)) throw new BackupError(`${file} already exists: choose another --to, or move it away`);
  }
  const partial = `${archive}.partial`;
  await fs.rm(partial, { force: true });
  await fs.mkdir(path.dirname(archive), { recursive: true });
  const writer = new ArchiveWriter(partial);
  // The database's file on its way into the archive, beside it (the space it needs is the archive's).
  const scratch = await fs.mkdtemp(path.join(path.dirname(archive), '.forge-backup-'));
  try {
    const snapshot = await saveDatabase(writer, database, dataDir, scratch, progress);
    const repositories = await saveRepositories(writer, dataDir, snapshot.repositories, progress);
    const files = await saveFiles(writer, dataDir, progress);
    const trailer: Trailer = { rows: snapshot.rows, repositories, files };
    await writer.addBuffer(TRAILER, `${JSON.stringify(trailer)}\n`);
    const { size, sha256 } = await writer.finish();
    await writeSecrets(dataDir, secrets);
    await fs.rename(partial, archive);
    const rows = Object.values(snapshot.rows).reduce((sum, count) => sum + count, 0);
    return { archive, secrets, size, sha256, rows, repositories, files, moved: snapshot.moved };
  } catch (error) {
    await writer.abandon();
    await fs.rm(partial, { force: true });
    throw error;
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** The file store and whatever else DATA_DIR holds, as files; one removed meanwhile (an expired artifact) is left out. */
async function saveFiles(writer: ArchiveWriter, dataDir: string, progress: Progress): Promise<number> {
  let saved = 0;
  for await (const relative of dataFiles(dataDir)) {
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(path.join(dataDir, relative), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    try {
      const stats = await handle.stat();
      await writer.addFile(`${DATA_PREFIX}${relative}`, handle, stats.size, stats.mtime);
    } finally {
      await handle.close();
    }
    saved++;
    progress.tick(() => `files: ${saved} (archive ${mebibytes(writer.size)})`);
  }
  progress.say(`files: ${saved} saved (traces, artifacts, LFS objects, uploads)`);
  return saved;
}

async function writeSecrets(dataDir: string, file: string): Promise<void> {
  const contents: SecretsFile = { format: 'forge-backup-secrets', version: 1, files: {} };
  for (const name of SECRET_FILES) {
    try {
      contents.files[name] = await fs.readFile(path.join(dataDir, name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  await fs.writeFile(file, `${JSON.stringify(contents, null, 2)}\n`, { flag: 'wx', mode: 0o600 });
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
