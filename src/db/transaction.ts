import { setTimeout as sleep } from 'node:timers/promises';
import type { Transaction } from 'kysely';
import type { Db } from './index';
import type { Database } from './schema';

/** PostgreSQL aborted the transaction to let a concurrent one through: a deadlock, a serialization failure. */
const LOST_TO_ANOTHER = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/**
 * Runs `work` in one transaction, and runs it again (up to three times in all) when PostgreSQL
 * aborted it to break a deadlock with a concurrent transaction. Two writes that meet the same rows
 * in different orders (deleting a project while one of its members is removed) otherwise answered
 * 500; rolled back and retried, one simply waits for the other. `work` must touch only the
 * database, as it may run again. SQLite never deadlocks: it runs one write transaction at a time.
 */
export async function inTransaction<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    // This attempt's own: one rolled back and run again leaves its callbacks behind.
    const callbacks: Array<() => void> = [];
    try {
      const result = await db.transaction().execute((trx) => {
        commitCallbacks.set(trx, callbacks);
        return work(trx);
      });
      for (const callback of callbacks) callback();
      return result;
    } catch (error) {
      if (attempt >= ATTEMPTS || !LOST_TO_ANOTHER.has((error as { code?: string } | null)?.code ?? '')) throw error;
      // A short, random wait, so the two do not meet again in step.
      await sleep(5 + Math.random() * 20 * attempt);
    }
  }
}

/** What runs once the transaction commits, by transaction; an attempt rolled back forgets its own. */
const commitCallbacks = new WeakMap<object, Array<() => void>>();

/**
 * Runs `callback` (in-process work only: waking waiters) once the transaction `handle` belongs to
 * has committed, so that what it wakes sees the change; on the next turn of the event loop when
 * `handle` is not a transaction of `inTransaction` (the database itself: already committed).
 */
export function afterCommit(handle: Db, callback: () => void): void {
  const callbacks = commitCallbacks.get(handle);
  if (callbacks) callbacks.push(callback);
  else setImmediate(callback);
}
