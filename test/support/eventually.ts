import { setTimeout as sleep } from 'node:timers/promises';

export interface EventuallyOptions {
  /** How long to keep asking before failing (ms). It only turns a hang into a clear failure: keep it generous. */
  timeout?: number;
  /** Pause between two checks (ms). */
  interval?: number;
  /** Says what never happened, in the failure. */
  message?: string;
}

/**
 * Asks `check` again and again until it gives a value other than undefined, null or false, and
 * returns that value. For what happens on its own schedule (background jobs, hook deliveries, pool
 * processes exiting when idle); awaiting the event itself is better wherever there is one.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  options: EventuallyOptions = {},
): Promise<Exclude<T, undefined | null | false>> {
  const { timeout = 60_000, interval = 20, message = 'the awaited condition' } = options;
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value as Exclude<T, undefined | null | false>;
    if (Date.now() > deadline) throw new Error(`eventually: ${message} did not hold within ${timeout} ms`);
    await sleep(interval);
  }
}
