/**
 * Values remembered for a moment in this process. `forgetAll` drops them all, and a load that began
 * before it is not kept: once a write has called `forgetAll`, nothing from before it is served.
 * Missing values (undefined) are never kept.
 */
export class RecentCache<K, V> {
  private readonly entries = new Map<K, { value: V; loadedAt: number; generation: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly capacity = 10_000,
  ) {}

  async get(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const entry = this.entries.get(key);
    const time = Date.now();
    if (entry && entry.generation === this.generation && time - entry.loadedAt < this.ttlMs) return entry.value;
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && generation === this.generation) {
      if (this.entries.size >= this.capacity) this.entries.clear();
      this.entries.set(key, { value, loadedAt: time, generation });
    } else {
      this.entries.delete(key);
    }
    return value;
  }

  forgetAll(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
