import crypto from 'node:crypto';

/**
 * Git asks for credentials on every request of a clone; checking a memory-hard password hash
 * each time would dominate small clones. A successful check is remembered for a minute.
 */
export class CredentialCache {
  private readonly entries = new Map<string, { userId: number; expires: number }>();

  key(login: string, secret: string): string {
    return crypto.createHash('sha256').update(`${login}\0${secret}`).digest('hex');
  }

  get(key: string): number | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expires < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.userId;
  }

  set(key: string, userId: number): void {
    if (this.entries.size > 10_000) this.entries.clear();
    this.entries.set(key, { userId, expires: Date.now() + 60_000 });
  }
}
