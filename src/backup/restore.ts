import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { sql, type ControlledTransaction } from 'kysely';
import type { DbHandle } from '../db/index';
import type { Database } from '../db/schema';
import { ForeignKeyViolation, prepareBulkLoad, type BulkLoad } from '../db/dump/bulk-load';
import { insertRows, writeCounters, type Row } from '../db/dump/rows';
import { isEmptyDatabase } from '../db/dump/tables';
import { knownMigrations, migrateTo, migrateToLatest } from '../db/migrate';
import { createRepository } from '../git/repositories';
import { JobQueue } from '../jobs/queue';
import { readArchive, readBody, type ArchiveEntry } from './archive';
import { dataDirContents, SECRET_FILES } from './data-dir';
import {
  BackupError,
  DATA_PREFIX,
  DATABASE_CHECKSUM,
  DATABASE_FILE,
  DATABASE_PREFIX,
  FORMAT,
  FORMAT_VERSION,
  MANIFEST,
  tableOfEntry,
  TRAILER,
  type Manifest,
  type SecretsFile,
  type Trailer,
} from './format';
import { mebibytes, type Progress } from './progress';
import { checkDatabaseFile, databaseFileOf, loadDatabaseFile, receiveDatabaseFile, removeDatabaseFile } from './restore-database';

/*
 * `forge restore`: an archive of `forge backup` into an empty DATA_DIR and an empty database, of
 * either kind. Format 2's database is a SQLite file (`restore-database.ts`): put in place on
 * SQLite, loaded into PostgreSQL. Format 1's rows are loaded into the schema they were saved in,
 * in one transaction (parents first), the id counters set. Either way the database is then
 * migrated to this version of Forge, and repositories and files written after. The archive is read
 * once, in order.
 */

export interface RestoreOptions {
  dataDir: string;
  /** Opens the target database; called once DATA_DIR is known to be empty. */
  openDatabase: () => DbHandle;
  /** The database as the operator knows it, for messages. */
  describeDatabase: string;
  archive: string;
  secrets: string;
  progress: Progress;
}

export interface RestoreResult {
  rows: number;
  repositories: number;
  files: number;
  migrations: { saved: number; applied: number };
}

export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const { dataDir, archive, progress } = options;
  if (!(await fs.stat(archive).catch(() => undefined))?.isFile()) throw new BackupError(`${archive} does not exist`);
  const secrets = await readSecrets(options.secrets);
  const contents = await dataDirContents(dataDir);
  if (contents.length > 0) {
    throw new BackupError(
      `DATA_DIR=${dataDir} is not empty (${contents.slice(0, 3).join(', ')}${contents.length > 3 ? ', …' : ''}): forge restore needs an empty DATA_DIR and an empty database`,
    );
  }
  let database = options.openDatabase();
  try {
    if (!(await isEmptyDatabase(database))) {
      throw new BackupError(
        `the database (${options.describeDatabase}) is not empty: forge restore needs an empty DATA_DIR and an empty database`,
      );
    }
    // SQLite's database is the archive's file itself, put in place: the one just opened (empty) goes.
    const replace = async (): Promise<DbHandle> => {
      await database.db.destroy();
      await removeDatabaseFile(databaseFileOf(database, dataDir));
      return database;
    };
    const reopen = (): DbHandle => (database = options.openDatabase());
    return await load(database, { replace, reopen }, dataDir, archive, secrets, progress);
  } finally {
    await database.db.destroy();
  }
}

async function load(
  opened: DbHandle,
  sqliteFile: { replace(): Promise<DbHandle>; reopen(): DbHandle },
  dataDir: string,
  archive: string,
  secrets: SecretsFile,
  progress: Progress,
): Promise<RestoreResult> {
  let database = opened;
  let manifest: Manifest | undefined;
  /** Format 2: the database's file, written but not yet checked, and its SHA-256. */
  let received: { file: string; sha256: string } | undefined;
  let trailer: Trailer | undefined;
  let transaction: ControlledTransaction<Database> | undefined;
  let bulk: BulkLoad | undefined;
  let databaseLoaded = false;
  const rows: Record<string, number> = {};
  const repositories = new Set<string>();
  let files = 0;
  let bytes = 0;

  const finishDatabase = async () => {
    if (databaseLoaded) return;
    if (manifest!.version >= 2) throw new BackupError(`${archive} is damaged: it holds no database`);
    databaseLoaded = true;
    await bulk!.finish().catch((error) => {
      throw error instanceof ForeignKeyViolation ? new BackupError(`${archive} is damaged: ${error.message}`) : error;
    });
    await writeCounters(transaction!, database.dialect, manifest!.counters);
    await transaction!.commit().execute();
    transaction = undefined;
    await bulk!.release();
    const total = Object.values(rows).reduce((sum, count) => sum + count, 0);
    progress.say(`database: ${total} rows loaded`);
    await migrateToLatest(database);
    await JobQueue.releaseAllClaims(database.db);
  };

  const onEntry = async (entry: ArchiveEntry) => {
    if (manifest === undefined) {
      if (entry.name !== MANIFEST) throw new BackupError(`${archive} is not a Forge backup (it does not begin with ${MANIFEST})`);
      manifest = parseManifest(await readBody(entry.body), archive);
      await writeSecretFiles(dataDir, secrets, manifest);
      if (manifest.version >= 2) return;
      await migrateTo(database, manifest.migrations[manifest.migrations.length - 1]);
      progress.say(`database: schema of ${manifest.migrations.length} migrations made, loading rows`);
      // The rows go in as one transaction: SQLite's default 2 MB page cache spilled it to the WAL
      // file again and again; this connection serves nothing else.
      if (database.dialect === 'sqlite') await sql`pragma cache_size = -65536`.execute(database.db);
      const load = await prepareBulkLoad(database);
      transaction = await database.db.startTransaction().execute();
      bulk = await load.start(transaction);
      return;
    }
    if (manifest.version >= 2 && !databaseLoaded) {
      if (received === undefined && entry.name === DATABASE_FILE) {
        if (database.dialect === 'sqlite') database = await sqliteFile.replace();
        const file = databaseFileOf(database, dataDir);
        received = { file, sha256: await receiveDatabaseFile(entry.body, file) };
        return;
      }
      if (received === undefined || entry.name !== DATABASE_CHECKSUM) throw new BackupError(`unexpected entry ${entry.name}`);
      checkDatabaseFile(archive, received.sha256, (await readBody(entry.body)).toString('utf8'));
      if (database.dialect === 'sqlite') {
        database = sqliteFile.reopen();
      } else {
        Object.assign(rows, await loadDatabaseFile(database, received.file, manifest));
        await removeDatabaseFile(received.file);
      }
      received = undefined;
      databaseLoaded = true;
      progress.say('database: restored');
      await migrateToLatest(database);
      await JobQueue.releaseAllClaims(database.db);
      return;
    }
    if (entry.name.startsWith(DATABASE_PREFIX)) {
      const table = tableOfEntry(entry.name);
      if (databaseLoaded || table === undefined || !manifest.tables.includes(table))
        throw new BackupError(`unexpected entry ${entry.name}`);
      const { columns, values } = parseChunk((await readBody(entry.body)).toString('utf8'));
      await insertRows(transaction!, database.dialect, table, columns, values);
      rows[table] = (rows[table] ?? 0) + values.length;
      progress.tick(() => `database: ${Object.values(rows).reduce((sum, count) => sum + count, 0)} rows (${table})`);
      return;
    }
    await finishDatabase();
    if (entry.name === TRAILER) {
      trailer = JSON.parse((await readBody(entry.body)).toString('utf8')) as Trailer;
      return;
    }
    if (!entry.name.startsWith(DATA_PREFIX)) throw new BackupError(`unexpected entry ${entry.name}`);
    const relative = entry.name.slice(DATA_PREFIX.length);
    const target = insideDataDir(dataDir, relative);
    const repository = relative.match(/^repositories\/\d+\/\d+\.git(?=\/)/)?.[0];
    if (repository !== undefined && !repositories.has(repository)) {
      repositories.add(repository);
      await createRepository(path.join(dataDir, repository));
    }
    await fs.mkdir(path.dirname(target), { recursive: true });
    if (entry.type === 'link') {
      const source = insideDataDir(dataDir, (entry.linkname ?? '').slice(DATA_PREFIX.length));
      await fs.rm(target, { force: true });
      await fs.link(source, target);
    } else {
      await pipeline(entry.body, createWriteStream(target));
      bytes += entry.size;
    }
    if (repository === undefined) files++;
    progress.tick(() => `repositories: ${repositories.size}, files: ${files} (${mebibytes(bytes)})`);
  };

  const abandon = async (error: unknown): Promise<never> => {
    if (received !== undefined) await removeDatabaseFile(received.file);
    if (transaction !== undefined) {
      await transaction.rollback().execute();
      await bulk?.release();
    }
    throw error;
  };
  try {
    await readArchive(archive, onEntry);
  } catch (error) {
    await abandon(
      error instanceof BackupError || !isCut(error) ? error : new BackupError(`${archive} ends early: the archive is incomplete`),
    );
  }
  if (manifest === undefined || trailer === undefined) return abandon(new BackupError(`${archive} ends early: the archive is incomplete`));
  await finishDatabase().catch(abandon);
  // Onto SQLite a format 2 archive's rows are not counted one by one: its file is checked whole, by its SHA-256.
  if (manifest.version >= 2 && database.dialect === 'sqlite') Object.assign(rows, trailer.rows);
  for (const [table, count] of Object.entries(trailer.rows)) {
    if ((rows[table] ?? 0) !== count)
      throw new BackupError(`${archive} holds ${rows[table] ?? 0} rows of ${table}, not ${count}: it is damaged`);
  }
  if (repositories.size !== trailer.repositories || files !== trailer.files) {
    throw new BackupError(
      `${archive} holds ${repositories.size} repositories and ${files} files, not ${trailer.repositories} and ${trailer.files}: it is damaged`,
    );
  }
  progress.say(`repositories: ${repositories.size}, files: ${files} restored`);
  const total = Object.values(rows).reduce((sum, count) => sum + count, 0);
  return {
    rows: total,
    repositories: repositories.size,
    files,
    migrations: { saved: manifest.migrations.length, applied: knownMigrations().length - manifest.migrations.length },
  };
}

/** A chunk of rows: its first line the columns, each further line a row; JSON never holds a raw line break, so the rows parse as one array. */
function parseChunk(text: string): { columns: string[]; values: Row[] } {
  const header = text.indexOf('\n');
  const columns = JSON.parse(text.slice(0, header)) as string[];
  const rows = text.slice(header + 1).trimEnd();
  return { columns, values: rows === '' ? [] : (JSON.parse(`[${rows.replaceAll('\n', ',')}]`) as Row[]) };
}

function parseManifest(text: Buffer, archive: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text.toString('utf8')) as Manifest;
  } catch {
    throw new BackupError(`${archive} is not a Forge backup (its ${MANIFEST} is not JSON)`);
  }
  if (manifest.format !== FORMAT) throw new BackupError(`${archive} is not a Forge backup`);
  if (manifest.version > FORMAT_VERSION)
    throw new BackupError(`${archive} was made by a newer Forge (backup format ${manifest.version}): restore it with that version`);
  const known = knownMigrations();
  const unknown = manifest.migrations.filter((name) => !known.includes(name));
  if (unknown.length > 0 || manifest.migrations.length === 0) {
    throw new BackupError(`${archive} was made by a newer Forge (its database has migration ${unknown[0]}): restore it with that version`);
  }
  return manifest;
}

async function readSecrets(file: string): Promise<SecretsFile> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new BackupError(`${file} does not exist: the secret key is kept apart from the archive; name its file with --secrets`);
  }
  try {
    const secrets = JSON.parse(text) as SecretsFile;
    if (secrets.format === 'forge-backup-secrets' && typeof secrets.files?.['secret.key'] === 'string') return secrets;
  } catch {
    // Said below.
  }
  throw new BackupError(`${file} is not the secrets file of a Forge backup`);
}

async function writeSecretFiles(dataDir: string, secrets: SecretsFile, manifest: Manifest): Promise<void> {
  const fingerprint = crypto.hash('sha256', secrets.files['secret.key'].trim(), 'hex');
  if (fingerprint !== manifest.secret_key_sha256) {
    throw new BackupError('the secrets file does not belong to this backup (another secret key): name the right one with --secrets');
  }
  await fs.mkdir(dataDir, { recursive: true });
  for (const name of SECRET_FILES) {
    const content = secrets.files[name];
    if (content !== undefined) await fs.writeFile(path.join(dataDir, name), content, { mode: 0o600, flag: 'wx' });
  }
}

/** An entry's place in DATA_DIR; a name that would climb out of it is refused. */
function insideDataDir(dataDir: string, relative: string): string {
  const target = path.resolve(dataDir, relative);
  if (relative === '' || path.isAbsolute(relative) || !target.startsWith(`${path.resolve(dataDir)}${path.sep}`)) {
    throw new BackupError(`the archive names a file outside DATA_DIR: ${relative}`);
  }
  return target;
}

const isCut = (error: unknown): boolean => /unexpected end|premature/i.test(String((error as Error)?.message ?? ''));
