import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect, type PostgresPool, type PostgresPoolClient, type SqliteDatabase, type SqliteStatement } from 'kysely';
import type { Database } from './schema';
import { readingStatement } from './sqlite-rows';

export type Db = Kysely<Database>;
export type DialectName = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: DialectName;
}

// PostgreSQL returns int8 (count(*), sums) as strings; our counts fit in a JS number.
pg.types.setTypeParser(20, (value) => Number(value));

export function openDatabase(options: { databaseUrl: string; dataDir: string; onIdleError?: (error: Error) => void }): DbHandle {
  if (options.databaseUrl) {
    // JIT compilation pays off for long analytic queries; Forge's are short and indexed, and
    // PostgreSQL's cost estimate can still start it on them, costing milliseconds each time.
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10, options: '-c jit=off' });
    // An idle connection closed by the server (a restart, an administrator) must not crash the process:
    // the pool drops it and opens a new one on the next query.
    pool.on('error', (error) => options.onIdleError?.(error));
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) }), dialect: 'postgres' };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(options.dataDir, 'forge.db'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  // Sorts, DISTINCT, UNION and IN lists build temporary b-trees: backed by a temporary file, each
  // costs more than a small query's own work (a page of projects: 350 → 200 µs). They hold a
  // query's candidate rows, at most a table's worth: memory enough at the sizes SQLite serves.
  sqlite.pragma('temp_store = MEMORY');
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }), dialect: 'sqlite' };
}

/** Distinct statements prepared by name at most; others (rare, generated shapes) are sent unnamed. */
const MAX_NAMED_STATEMENTS = 2_000;
const NAMEABLE = /^\s*(select|insert|update|delete|with)\b/i;
/** `cached plan must not change result type` (feature_not_supported). */
const STALE_PLAN = '0A000';

/**
 * Kysely sends every query unnamed, so PostgreSQL parses and plans it anew each time: for the
 * small indexed queries a request makes, that was most of the database's CPU. Queries go out as
 * named prepared statements instead, one name per SQL text (the `pg` client prepares a name once
 * per connection and then only binds values).
 */
function withNamedStatements(pool: pg.Pool): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (sql: string): string | undefined => {
    let name = names.get(sql);
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS && NAMEABLE.test(sql)) {
      name = `forge_${names.size + 1}`;
      names.set(sql, name);
    }
    return name;
  };
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const adapt = (client: pg.PoolClient): PostgresPoolClient => {
    let adapted = clients.get(client);
    if (!adapted) {
      adapted = {
        query: ((sql: unknown, parameters?: ReadonlyArray<unknown>) => {
          if (typeof sql !== 'string') return client.query(sql as pg.Submittable);
          const name = nameOf(sql);
          const unnamed = () => client.query({ text: sql, values: parameters as unknown[] });
          if (!name) return unnamed();
          // A statement prepared before another process migrated the table it reads (`select *`
          // of a table that gained a column) cannot run again: it is sent unnamed this time.
          return client.query({ name, text: sql, values: parameters as unknown[] }).catch((error: { code?: string }) => {
            if (error?.code === STALE_PLAN) return unnamed();
            throw error;
          });
        }) as unknown as PostgresPoolClient['query'],
        release: () => client.release(),
      };
      clients.set(client, adapted);
    }
    return adapted;
  };
  return { connect: async () => adapt(await pool.connect()), end: () => pool.end() };
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
