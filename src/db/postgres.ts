import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { runNamed } from './postgres-query';

/** Distinct statements prepared by name at most; others (rare, generated shapes) are sent unnamed. */
const MAX_NAMED_STATEMENTS = 2_000;
const NAMEABLE = /^\s*(select|insert|update|delete|with)\b/i;
/** `cached plan must not change result type` (feature_not_supported). */
const STALE_PLAN = '0A000';
/** How Kysely opens a transaction (`begin`, or `start transaction` with an isolation level). */
const TRANSACTION_START = /^\s*(begin|start transaction)\b/i;
/** How Kysely ends one (not `rollback to` a savepoint). */
const TRANSACTION_END = /^\s*(commit|rollback)\s*$/i;
/** Shared connections at most; a second is opened only while the first is held up. */
const MAX_SHARED = 4;
/**
 * A shared connection with queries outstanding and no answer for this long is held up (a slow
 * statement). Not less: under load the event loop reads answers late, and at 50 ms a busy connection
 * looked held up, more were opened, and their database processes took CPU from Forge's thread.
 */
const HELD_UP_MS = 1_000;
/** Statements held back behind a shared connection's unanswered ones leave after this long at the latest. */
const MAX_BATCH_WAIT_MS = 100;

/** Sends one statement, named unless `unnamed`. */
type Run = (client: pg.Client, sql: string, parameters: ReadonlyArray<unknown> | undefined, unnamed: boolean) => Promise<pg.QueryResult>;

/**
 * Kysely's pool for PostgreSQL. Statements outside transactions share a few pipelined connections
 * (`sharedConnections`); a transaction takes a connection of its own from `pool` at its `begin`
 * and gives it back at its end. Every statement goes out as a named prepared statement
 * (`namedStatements`).
 *
 * What Kysely holds between acquiring and releasing (one statement, `db.connection()`) runs on one
 * connection throughout, in order, a transaction within it on its own. On a shared connection,
 * other statements come in between: session state outside a transaction (Kysely's migration lock,
 * a session-level advisory lock) is held by the connection, not by the holder alone.
 */
export function forgePool(pool: pg.Pool, config: pg.ClientConfig, onError: (error: Error) => void): PostgresPool & { stats(): PoolStats } {
  const leases: Leases = { pool, shared: sharedConnections(config, onError), run: namedStatements(), free: [] };
  return {
    connect: async () => (leases.free.pop() ?? new Lease(leases)).take() as unknown as PostgresPoolClient,
    end: async () => {
      await leases.shared.end();
      await pool.end();
    },
    stats: () => ({
      transactionConnections: pool.totalCount,
      idleTransactionConnections: pool.idleCount,
      waitingForTransactionConnection: pool.waitingCount,
      ...leases.shared.stats(),
    }),
  };
}

/** The connections' state, for metrics. */
export interface PoolStats {
  /** Connections of the pool transactions take (open, and idle among them). */
  transactionConnections: number;
  idleTransactionConnections: number;
  /** Transactions waiting for a connection of that pool. */
  waitingForTransactionConnection: number;
  /** Shared, pipelined connections (statements outside transactions). */
  sharedConnections: number;
  /** Statements sent on them and not yet answered. */
  sharedPendingStatements: number;
}

/** Released leases kept for reuse at most: Kysely wraps each lease object once and remembers it. */
const FREE_LEASES = 256;

interface Leases {
  pool: pg.Pool;
  shared: ReturnType<typeof sharedConnections>;
  run: Run;
  free: Lease[];
}

/** What Kysely holds between acquiring and releasing: each statement, or `db.connection()`. */
class Lease {
  private own: pg.PoolClient | undefined;
  private bound: Shared | undefined;
  private held = false;

  constructor(private readonly leases: Leases) {}

  take(): this {
    this.held = true;
    return this;
  }

  query(sql: unknown, parameters?: ReadonlyArray<unknown>): Promise<pg.QueryResult> {
    if (typeof sql !== 'string') throw new Error('Forge sends SQL text only');
    // A statement prepared before another process migrated the table it reads (`select *` of a
    // table that gained a column) cannot run again: it is sent again unnamed, as a statement of its
    // own (on a shared connection its batch must know of it).
    return this.send(sql, parameters, false).catch((error: { code?: string }) => {
      if (error?.code === STALE_PLAN) return this.send(sql, parameters, true);
      throw error;
    });
  }

  private async send(sql: string, parameters: ReadonlyArray<unknown> | undefined, unnamed: boolean): Promise<pg.QueryResult> {
    const { pool, shared, run } = this.leases;
    // A transaction runs on a connection of its own, also when begun on a held connection
    // (Kysely's migrator: lock, transaction, unlock); on a shared one it would take in other
    // requests' statements. Once it ends, the holder's statements go where they went before.
    if (!this.own && TRANSACTION_START.test(sql)) this.own = await pool.connect();
    if (this.own && TRANSACTION_END.test(sql)) {
      const ended = this.own;
      this.own = undefined;
      try {
        return await run(ended, sql, parameters, unnamed);
      } finally {
        ended.release();
      }
    }
    if (this.own) return run(this.own, sql, parameters, unnamed);
    const bound = (this.bound ??= shared.choose());
    return shared.run(bound, (client) => run(client, sql, parameters, unnamed));
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    this.own?.release();
    this.own = undefined;
    this.bound = undefined;
    if (this.leases.free.length < FREE_LEASES) this.leases.free.push(this);
  }
}

/**
 * Kysely sends every query unnamed, so PostgreSQL parses and plans it anew each time: for the
 * small indexed queries a request makes, that was most of the database's CPU. Queries go out as
 * named prepared statements instead, one name per SQL text (the `pg` client prepares a name once
 * per connection and then only binds values).
 */
function namedStatements(): Run {
  const names = new Map<string, string>();
  const nameOf = (sql: string): string | undefined => {
    let name = names.get(sql);
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS && NAMEABLE.test(sql)) {
      name = `forge_${names.size + 1}`;
      names.set(sql, name);
    }
    return name;
  };
  return (client, sql, parameters, unnamed) => {
    const name = unnamed ? undefined : nameOf(sql);
    if (!name) return client.query({ text: sql, values: parameters as unknown[] });
    return runNamed(client, name, sql, parameters as unknown[]);
  };
}

interface Shared {
  client: pg.Client;
  ready: Promise<pg.Client>;
  /** Once connected. */
  batcher?: Batcher;
  /** Queries sent and not yet answered. */
  pending: number;
  /** When the last answer came, or when the connection last went from idle to busy. */
  progressAt: number;
}

/**
 * Statements outside transactions go out on shared connections in `pg`'s pipeline mode: sent at
 * once, without waiting for the answers of those before them, each with its own Sync, so each is
 * its own transaction and an error ends only its own statement. On a pool of ten, each connection
 * carried one query per turn of the event loop: under load the requests queued for connections,
 * and the database's ten processes took CPU from Forge's one thread (the PostgreSQL GPT mix reached
 * 710 of 1,000/s; on one pipelined connection, 970 to 1,000). Statements leave in batches
 * (`Batcher`), and many answers arrive in one read.
 *
 * One connection carries everything while it keeps answering; while it is held up (a slow query:
 * queries outstanding and no answer for `HELD_UP_MS`) the next one takes the new statements.
 */
function sharedConnections(config: pg.ClientConfig, onError: (error: Error) => void) {
  const connections: Shared[] = [];
  const open = (): Shared => {
    const client = new pg.Client({ ...config, pipeline: true });
    const ready = client.connect().then(() => {
      entry.batcher = batcherFor(client);
      return client;
    });
    const entry: Shared = { client, ready, pending: 0, progressAt: performance.now() };
    const drop = () => {
      const index = connections.indexOf(entry);
      if (index >= 0) connections.splice(index, 1);
    };
    // A lost connection fails the statements on it, as a pooled one does; the next statement opens another.
    client.on('error', (error) => {
      drop();
      onError(error);
    });
    client.on('end', drop);
    entry.ready.catch(drop);
    connections.push(entry);
    return entry;
  };
  const choose = (): Shared => {
    const now = performance.now();
    for (const entry of connections) if (entry.pending === 0 || now - entry.progressAt < HELD_UP_MS) return entry;
    if (connections.length < MAX_SHARED) return open();
    return connections.reduce((least, entry) => (entry.pending < least.pending ? entry : least));
  };
  return {
    choose,
    async run<T>(entry: Shared, work: (client: pg.Client) => Promise<T>): Promise<T> {
      if (entry.pending++ === 0) entry.progressAt = performance.now();
      try {
        const client = await entry.ready;
        const batcher = entry.batcher;
        const batch = batcher?.hold();
        try {
          return await work(client);
        } finally {
          if (batch !== undefined) batcher!.settled(batch);
        }
      } finally {
        entry.pending--;
        entry.progressAt = performance.now();
      }
    },
    end: () => Promise.all(connections.splice(0).map(({ client }) => client.end().catch(() => undefined))),
    stats: () => ({
      sharedConnections: connections.length,
      sharedPendingStatements: connections.reduce((sum, entry) => sum + entry.pending, 0),
    }),
  };
}

/**
 * `pg` writes each statement to the socket by itself; here they leave in batches, as Nagle's
 * algorithm batches small packets. While the connection owes no answer, statements written in one
 * tick leave together at its end; while it owes some, new ones wait for the next answer to arrive
 * (or for the last owed one to settle). The database works through a pipeline in order anyway, so
 * they lose little, and under load a request's statements no longer cost a write and a wake-up of
 * the database process each.
 */
class Batcher {
  /** Statements sent and not yet settled. */
  private owed = 0;
  /** Statements of the batch being held, not yet settled. */
  private held = 0;
  /** The number of the batch being held: a statement settles against the batch it went in. */
  private batch = 0;
  /** When new statements began to wait for an answer; 0 while they do not. */
  private waitingSince = 0;

  constructor(private readonly stream: Socket) {
    stream.on('data', () => {
      if (this.waitingSince > 0) this.flush();
    });
    // The wait ends on the next answer or when the last owed statement settles. Should neither
    // come (an answer lost with its connection, a mistake in this count), the batch would wait for
    // ever and the requests behind it with it: it leaves after MAX_BATCH_WAIT_MS at the latest.
    const watchdog = setInterval(() => {
      if (this.waitingSince > 0 && performance.now() - this.waitingSince >= MAX_BATCH_WAIT_MS) this.flush();
    }, MAX_BATCH_WAIT_MS).unref();
    stream.once('close', () => clearInterval(watchdog));
  }

  /** Called just before a statement is written; returns the batch it goes in. */
  hold(): number {
    this.held++;
    if (this.stream.writableCorked === 0) {
      this.stream.cork();
      if (this.owed > 0) this.waitingSince = performance.now();
      else process.nextTick(() => this.flush());
    }
    return this.batch;
  }

  /** Called once the statement of `batch` has its answer, or failed (before it was sent, too). */
  settled(batch: number): void {
    if (batch === this.batch) this.held--;
    else this.owed--;
    if (this.owed === 0 && this.waitingSince > 0) this.flush();
  }

  private flush(): void {
    this.waitingSince = 0;
    this.owed += this.held;
    this.held = 0;
    this.batch++;
    if (this.stream.writableCorked > 0) this.stream.uncork();
  }
}

function batcherFor(client: pg.Client): Batcher | undefined {
  const stream = (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
  return stream && typeof stream.cork === 'function' ? new Batcher(stream) : undefined;
}
