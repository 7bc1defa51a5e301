const tails = new Map<string, Promise<void>>();

/**
 * Runs `work` after every earlier holder of the same ref in this process has finished, so that
 * writers of one branch here queue instead of racing. Across processes `update-ref` with the
 * expected old value still decides; this only spares local writers needless retries.
 */
export async function withRefLock<T>(repoPath: string, ref: string, work: () => Promise<T>): Promise<T> {
  const key = `${repoPath}\0${ref}`;
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => held);
  tails.set(key, tail);
  await previous;
  try {
    return await work();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
