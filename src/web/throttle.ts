/*
 * Sign-in throttling: after `maxFailures` failed attempts for one login from one address within
 * `windowMs`, further attempts are refused without checking the password until the window ends.
 * In memory (one process); the table is bounded so that a flood of names cannot grow it forever.
 */

interface Attempts {
  failures: number;
  since: number;
}

export class SignInThrottle {
  private readonly attempts = new Map<string, Attempts>();

  constructor(
    private readonly maxFailures = 5,
    private readonly windowMs = 15 * 60 * 1000,
    private readonly maxEntries = 10_000,
  ) {}

  private key(login: string, address: string): string {
    return `${login.trim().toLowerCase()}\n${address}`;
  }

  private current(key: string, now: number): Attempts | undefined {
    const entry = this.attempts.get(key);
    if (entry && now - entry.since >= this.windowMs) {
      this.attempts.delete(key);
      return undefined;
    }
    return entry;
  }

  blocked(login: string, address: string, now = Date.now()): boolean {
    return (this.current(this.key(login, address), now)?.failures ?? 0) >= this.maxFailures;
  }

  failed(login: string, address: string, now = Date.now()): void {
    const key = this.key(login, address);
    const entry = this.current(key, now);
    if (entry) {
      entry.failures++;
      return;
    }
    // The oldest entries go first (a Map iterates in insertion order).
    if (this.attempts.size >= this.maxEntries) this.attempts.delete(this.attempts.keys().next().value!);
    this.attempts.set(key, { failures: 1, since: now });
  }

  succeeded(login: string, address: string): void {
    this.attempts.delete(this.key(login, address));
  }
}
