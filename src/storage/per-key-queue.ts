/**
 * Runs tasks one after another per key (and freely across keys), so that two appends to one trace
 * land in the order they were asked for. Within this process only: several Forge processes writing
 * one key must be ordered by whoever calls them (the database, for traces).
 */
export class PerKeyQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    // A tail never rejects (see below): one failed append does not stop the next.
    const previous = this.tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    // Forget the key once its last task is done, so the map does not grow with every key ever written.
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
