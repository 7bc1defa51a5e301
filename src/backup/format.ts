import type { CounterValue } from '../db/dump/rows';

/*
 * What a Forge backup holds, entry by entry, in the order it is written and read back:
 *
 *   forge-backup.json                          this manifest: the schema (migrations) the rows fit
 *   database/forge.db                          the database as of one moment, as a SQLite file made
 *                                              by Forge's migrations, whichever database it came from
 *   database/forge.db.sha256                   its SHA-256, so that a damaged one is never loaded
 *   data/repositories/<n>/<id>.git/…           each project's repository: HEAD, packed-refs, objects
 *   data/<anything else of DATA_DIR>           the file store: traces, artifacts, LFS objects, uploads
 *   forge-backup-end.json                      the counts, so a cut archive is known for one
 *
 * The secret key and the SSH host key are not in it: they go to `<archive>.secrets`, apart.
 *
 * A SQLite file is the neutral form: a backup of SQLite is a copy of its file (about the cost of
 * copying it), and restoring onto SQLite puts the file in place; PostgreSQL writes its rows into
 * such a file and loads them back from one. Format 1 held each table's rows as JSON lines instead,
 * `database/NNN-<table>/NNNNNN.jsonl` (a chunk's first line its columns, each further line a row,
 * parents' tables first); a restore still takes it.
 */

export const FORMAT = 'forge-backup';
export const FORMAT_VERSION = 2;
export const MANIFEST = 'forge-backup.json';
export const TRAILER = 'forge-backup-end.json';
export const DATABASE_PREFIX = 'database/';
export const DATA_PREFIX = 'data/';
export const DATABASE_FILE = 'database/forge.db';
export const DATABASE_CHECKSUM = 'database/forge.db.sha256';

export interface Manifest {
  format: typeof FORMAT;
  version: number;
  created_at: string;
  /** The database the backup was taken from (any restores onto either). */
  source_database: 'sqlite' | 'postgres';
  /** The migrations the source had run: the restore loads the rows into this schema, then migrates further. */
  migrations: string[];
  /** Tables in load order (parents first). */
  tables: string[];
  /** The last id each table's counter handed out. */
  counters: CounterValue[];
  /** SHA-256 of the secret key, to tell whether a secrets file belongs to this backup. */
  secret_key_sha256: string;
  /** Projects whose refs moved while the snapshot was taken, every attempt: their refs are those read just after it. */
  repositories_moved: number[];
}

export interface Trailer {
  rows: Record<string, number>;
  repositories: number;
  files: number;
}

export interface SecretsFile {
  format: 'forge-backup-secrets';
  version: number;
  /** DATA_DIR's secret files by name, their contents as text. */
  files: Record<string, string>;
}

/** The table a format 1 entry's rows belong to. */
export function tableOfEntry(name: string): string | undefined {
  return name.match(/^database\/\d+-([A-Za-z0-9_]+)\/\d+\.jsonl$/)?.[1];
}

export const secretsFileOf = (archive: string): string => `${archive}.secrets`;

/** A failure the operator can act on, said in one line. */
export class BackupError extends Error {}
