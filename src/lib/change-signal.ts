/**
 * A version number that waiters can wait on: `bump` moves it and wakes every waiter at once.
 * A waiter costs one promise and one timer, nothing while it waits. A waiter passes the version
 * it last acted on, so a change made between its look and its wait is never missed.
 */
export class ChangeSignal {
  private current = 0;
  private readonly waiters = new Set<() => void>();
  private closed = false;

  get version(): number {
    return this.current;
  }

  /** How many are waiting now. */
  get waiting(): number {
    return this.waiters.size;
  }

  bump(): void {
    this.current++;
    this.wakeAll();
  }

  /** Wakes every waiter without a change, now and from now on: the server is closing, they answer at once. */
  close(): void {
    this.closed = true;
    this.wakeAll();
  }

  private wakeAll(): void {
    const woken = [...this.waiters];
    this.waiters.clear();
    for (const wake of woken) wake();
  }

  /**
   * Resolves once the version differs from `since`, or after `timeoutMs`, or when `abort` fires,
   * whichever comes first; at once when it already differs.
   */
  wait(since: number, timeoutMs: number, abort?: AbortSignal): Promise<void> {
    if (this.closed || this.current !== since || timeoutMs <= 0 || abort?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.waiters.delete(done);
        abort?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.waiters.add(done);
      abort?.addEventListener('abort', done, { once: true });
    });
  }
}
