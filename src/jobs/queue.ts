import os from 'node:os';
import { sql, type Selectable } from 'kysely';
import type { Db, DialectName } from '../db/index';
import type { JobsTable } from '../db/schema';
import { now } from '../lib/time';
import { currentRequestId } from '../lib/request-context';
import { chunksOf } from '../db/chunks';
import type { JobKind, JobKinds } from './kinds';

export type JobRow = Selectable<JobsTable>;

/** A claimed lock older than this is taken to belong to a process that died. */
const STALE_LOCK_MS = 5 * 60 * 1000;

/** Where a job that used up its attempts is parked: never due, kept a while for inspection (`purgeGivenUp`). */
const GAVE_UP_AT = '9999-12-31T00:00:00.000Z';

/**
 * The key of a stored payload naming the request that caused the job (`X-Request-Id`), so that
 * the job's log lines can be found from the request's. In the payload's JSON rather than a column:
 * no migration, and a row written by an older process simply has none. The worker takes it out
 * before the handler sees the payload.
 */
export const REQUEST_ID_KEY = '_requestId';

/** How many jobs of a kind are in each state, and the due time of the oldest queued one. */
export interface JobCounts {
  kind: string;
  /** Due and waiting for a worker. */
  queued: number;
  /** Waiting for a retry's time. */
  scheduled: number;
  /** Claimed by a worker (or by one that died, until its lock goes stale). */
  running: number;
  /** Given up after their last attempt, kept for inspection. */
  failed: number;
  /** The earliest `run_at` of the queued ones. */
  oldestQueuedAt: string | null;
}

/**
 * A durable queue in the database. Jobs are enqueued in the same transaction as
 * the change that causes them, so a committed change always has its jobs.
 */
export class JobQueue {
  private readonly workerId = `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  private listeners = new Set<() => void>();

  constructor(
    private readonly db: Db,
    private readonly dialect: DialectName,
    private readonly maxAttempts: number,
  ) {}

  /** Adds a job; pass the transaction of the change that causes it. */
  enqueue<K extends JobKind>(kind: K, payload: JobKinds[K], executor: Db = this.db): Promise<void> {
    return this.enqueueMany(kind, [payload], executor);
  }

  /** Adds one job per payload, in as few inserts as the database's parameter limit allows. */
  async enqueueMany<K extends JobKind>(kind: K, payloads: JobKinds[K][], executor: Db = this.db): Promise<void> {
    if (payloads.length === 0) return;
    const time = now();
    const requestId = currentRequestId();
    const rows = payloads.map((payload) => ({
      kind,
      payload: JSON.stringify(requestId === undefined ? payload : { ...payload, [REQUEST_ID_KEY]: requestId }),
      run_at: time,
      attempts: 0,
      max_attempts: this.maxAttempts,
      created_at: time,
    }));
    for (const chunk of chunksOf(rows)) await executor.insertInto('jobs').values(chunk).execute();
    // Wake idle workers in this process (they look again until the transaction
    // commits); other processes find the job on their next poll.
    setImmediate(() => this.listeners.forEach((listener) => listener()));
  }

  /** Wakes this process's idle workers: a job fell due other than by `enqueue` (an administrator's retry). */
  wake(): void {
    setImmediate(() => this.listeners.forEach((listener) => listener()));
  }

  onEnqueue(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Claims the oldest due job in one statement, so two workers never get the
   * same one: on PostgreSQL the pick skips rows other claims have locked; on
   * SQLite the statement is its own write transaction.
   */
  async claim(): Promise<JobRow | undefined> {
    const time = now();
    const staleBefore = new Date(Date.now() - STALE_LOCK_MS).toISOString();
    let pick = this.db
      .selectFrom('jobs')
      .select('id')
      .where('run_at', '<=', time)
      .where((eb) => eb.or([eb('locked_at', 'is', null), eb('locked_at', '<', staleBefore)]))
      .orderBy('run_at')
      .orderBy('id')
      .limit(1);
    if (this.dialect === 'postgres') pick = pick.forUpdate().skipLocked();
    return this.db
      .updateTable('jobs')
      .set({ locked_at: time, locked_by: this.workerId, attempts: sql<number>`attempts + 1` })
      .where('id', '=', pick)
      .returningAll()
      .executeTakeFirst();
  }

  async complete(job: JobRow): Promise<void> {
    await this.db.deleteFrom('jobs').where('id', '=', job.id).execute();
  }

  /** Schedules another try after `delayMs`, or gives up after the last attempt (the row stays a while, for inspection). */
  async fail(job: JobRow, error: string, delayMs: number): Promise<void> {
    const giveUp = job.attempts >= job.max_attempts;
    await this.db
      .updateTable('jobs')
      .set({
        locked_at: giveUp ? GAVE_UP_AT : null,
        locked_by: giveUp ? 'failed' : null,
        last_error: error.slice(0, 2000),
        run_at: new Date(Date.now() + delayMs).toISOString(),
      })
      .where('id', '=', job.id)
      .execute();
  }

  /** Deletes the jobs given up more than `keepMs` ago (they are kept that long for inspection); answers how many. */
  async purgeGivenUp(keepMs: number): Promise<number> {
    const result = await this.db
      .deleteFrom('jobs')
      .where('locked_by', '=', 'failed')
      .where('run_at', '<', new Date(Date.now() - keepMs).toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Hands back a job interrupted by a shutdown, without counting the attempt. */
  async release(job: JobRow): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ locked_at: null, locked_by: null, attempts: sql<number>`attempts - 1` })
      .where('id', '=', job.id)
      .execute();
  }

  /** Every kind's jobs by state, in one statement (for metrics). */
  async counts(): Promise<JobCounts[]> {
    const time = now();
    const count = (condition: ReturnType<typeof sql<boolean>>) => sql<number>`sum(case when ${condition} then 1 else 0 end)`;
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => [
        'kind',
        count(sql`locked_at is null and run_at <= ${time}`).as('queued'),
        count(sql`locked_at is null and run_at > ${time}`).as('scheduled'),
        count(sql`locked_at is not null and locked_by <> 'failed'`).as('running'),
        count(sql`locked_by = 'failed'`).as('failed'),
        eb.fn.min(sql<string>`case when locked_at is null and run_at <= ${time} then run_at end`).as('oldestQueuedAt'),
      ])
      .groupBy('kind')
      .execute();
    return rows.map((row) => ({
      kind: row.kind,
      queued: Number(row.queued),
      scheduled: Number(row.scheduled),
      running: Number(row.running),
      failed: Number(row.failed),
      oldestQueuedAt: row.oldestQueuedAt ?? null,
    }));
  }

  /**
   * Hands back every job claimed by a worker (not those given up): after `forge restore`, the
   * workers that held them are those of another instance, and the jobs run again at once
   * rather than when their locks go stale.
   */
  static async releaseAllClaims(db: Db): Promise<void> {
    await db
      .updateTable('jobs')
      .set({ locked_at: null, locked_by: null, attempts: sql<number>`attempts - 1` })
      .where('locked_by', 'is not', null)
      .where('locked_by', '<>', 'failed')
      .execute();
  }

  /** When the next job falls due, for the worker's sleep. */
  async nextRunAt(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('jobs')
      .select('run_at')
      .where('locked_at', 'is', null)
      .orderBy('run_at')
      .limit(1)
      .executeTakeFirst();
    return row?.run_at;
  }
}
