/**
 * Writers of one ref in this process queue instead of racing: `run` starts `work` after every
 * earlier holder of the same ref has finished. Across processes `update-ref` with the expected old
 * value still decides; this only spares local writers needless retries. One per app (`app.ts`).
 */
export class RefLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(repoPath: string, ref: string, work: () => Promise<T>): Promise<T> {
    const key = `${repoPath}\0${ref}`;
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => held);
    this.tails.set(key, tail);
    await previous;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
