import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type LogEvent, type SqliteDatabase, type SqliteStatement } from 'kysely';
import type { Database } from './schema';
import { readingStatement } from './sqlite-rows';
import { forgePool, type PoolStats } from './postgres';

export type Db = Kysely<Database>;
/** A database handle whose tables are named at run time (migrations, backups), not by `schema.ts`. */
// biome-ignore lint/suspicious/noExplicitAny: tables named at run time, read from the database's catalogue
export type SchemaFreeDb = Kysely<any>;
export type DialectName = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: DialectName;
  /** PostgreSQL's connections (SQLite has one, in the process). */
  poolStats?: () => PoolStats;
  /** PostgreSQL: a connection of the transaction pool, for what Kysely cannot send (COPY); the caller releases it. */
  ownConnection?: () => Promise<pg.PoolClient>;
}

export interface DatabaseOptions {
  databaseUrl: string;
  dataDir: string;
  onIdleError?: (error: Error) => void;
  /** Told how long each statement took, in seconds (metrics); unset, statements are not timed. */
  onStatement?: (seconds: number) => void;
}

// PostgreSQL returns int8 (count(*), sums) as strings; our counts fit in a JS number.
pg.types.setTypeParser(20, (value) => Number(value));

/** How long a SQLite statement waits for another process's write lock. */
export const SQLITE_BUSY_TIMEOUT_MS = 5000;

export function openDatabase(options: DatabaseOptions): DbHandle {
  const onStatement = options.onStatement;
  // Kysely times every statement it runs once given a log function; failed ones count as well.
  const log = onStatement && ((event: LogEvent) => onStatement(event.queryDurationMillis / 1000));
  if (options.databaseUrl) {
    // JIT compilation pays off for long analytic queries; Forge's are short and indexed, and
    // PostgreSQL's cost estimate can still start it on them, costing milliseconds each time.
    const config = { connectionString: options.databaseUrl, options: '-c jit=off' };
    const lost = (error: Error) => options.onIdleError?.(error);
    // Connections for transactions. An idle connection closed by the server (a restart, an
    // administrator) must not crash the process: the pool drops it and opens a new one when asked.
    const pool = new pg.Pool({ ...config, max: 10 });
    pool.on('error', lost);
    const forge = forgePool(pool, config, lost);
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: forge }), log }),
      dialect: 'postgres',
      poolStats: forge.stats,
      ownConnection: () => pool.connect(),
    };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(options.dataDir, 'forge.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}`);
  sqlite.pragma('synchronous = NORMAL');
  // Sorts, DISTINCT, UNION and IN lists build temporary b-trees: backed by a temporary file, each
  // costs more than a small query's own work (a page of projects: 350 → 200 µs). They hold a
  // query's candidate rows, at most a table's worth: memory enough at the sizes SQLite serves.
  sqlite.pragma('temp_store = MEMORY');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }), log }), dialect: 'sqlite' };
}

/**
 * Kysely's SQLite driver prepares every statement anew; preparing was a fifth of a simple
 * request's time. Statements are kept by their SQL text (least recently used go first), with
 * their rows read as arrays (`sqlite-rows.ts`). Safe because Kysely runs one statement at a time on
 * its one SQLite connection. A change of the schema (migrations) forgets them all, so that no kept
 * statement names its columns as they were.
 */
function withStatementCache(sqlite: SQLite.Database, capacity = 500): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (statement) {
        statements.delete(sql);
      } else {
        if (/^\s*(create|alter|drop)\b/i.test(sql)) {
          statements.clear();
          return sqlite.prepare(sql) as unknown as SqliteStatement;
        }
        statement = readingStatement(sqlite.prepare(sql));
        if (statements.size >= capacity) statements.delete(statements.keys().next().value!);
      }
      statements.set(sql, statement);
      return statement;
    },
  };
}
