import type { User } from './users';

/** How long another process may go on seeing a user as it was (a block, an admin flag, a new token). */
const TTL_MS = 1000;
const CAPACITY = 10_000;

interface Entry {
  user: User;
  loadedAt: number;
  generation: number;
}

/**
 * Whom a private token belongs to, remembered for a second. Every API request asks, and the look-up
 * was the larger part of a simple request's time. Exact within this process: every write to a user
 * goes through UsersService, which calls `forgetAll` once it is committed; a look-up that began before
 * such a write is not kept. Other processes (several share one PostgreSQL) see a change within TTL_MS.
 * Unknown tokens are never kept, so guessing tokens cannot fill the memory.
 */
export class TokenOwners {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;

  async get(digest: string, load: (digest: string) => Promise<User | undefined>): Promise<User | undefined> {
    const entry = this.entries.get(digest);
    const time = Date.now();
    if (entry && entry.generation === this.generation && time - entry.loadedAt < TTL_MS) return entry.user;
    const generation = this.generation;
    const user = await load(digest);
    if (user && generation === this.generation) {
      if (this.entries.size >= CAPACITY) this.entries.clear();
      this.entries.set(digest, { user, loadedAt: time, generation });
    } else {
      this.entries.delete(digest);
    }
    return user;
  }

  forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
