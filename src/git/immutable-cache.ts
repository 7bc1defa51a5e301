export interface ImmutableCacheOptions<T> {
  /** Entries kept at most; the least recently used one goes first. */
  maxEntries: number;
  /** Estimated bytes kept at most (by `weigh`); a single value above a quarter of it is never kept. */
  maxBytes?: number;
  weigh?: (value: T) => number;
}

interface Entry<T> {
  value: Promise<T>;
  bytes: number;
}

/**
 * A small LRU of results computed from objects that never change (a commit's diff or stats: a sha
 * names the same content forever), keyed by repository, object id and options. Callers asking
 * for a result already being computed share its computation; a failure is not kept. Values are
 * shared between callers: they must not be modified.
 */
export class ImmutableCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private bytes = 0;

  constructor(private readonly options: ImmutableCacheOptions<T>) {}

  private get maxBytes(): number {
    return this.options.maxBytes ?? Number.POSITIVE_INFINITY;
  }

  /** The result for `key`, computed by `compute` unless it is known or being computed. */
  get(key: string, compute: () => Promise<T>): Promise<T> {
    const known = this.peek(key);
    if (known) return known;
    const entry: Entry<T> = { value: compute(), bytes: 0 };
    this.entries.set(key, entry);
    entry.value.then(
      (value) => this.settled(key, entry, value),
      () => {
        if (this.entries.get(key) === entry) this.remove(key);
      },
    );
    this.trim();
    return entry.value;
  }

  /** The result for `key` when it is known or being computed. */
  peek(key: string): Promise<T> | undefined {
    const found = this.entries.get(key);
    if (!found) return undefined;
    // Map order is the recency order.
    this.entries.delete(key);
    this.entries.set(key, found);
    return found.value;
  }

  /** Keeps a result computed elsewhere. */
  set(key: string, value: T): void {
    this.remove(key);
    const entry: Entry<T> = { value: Promise.resolve(value), bytes: 0 };
    this.entries.set(key, entry);
    this.settled(key, entry, value);
  }

  get size(): number {
    return this.entries.size;
  }

  private settled(key: string, entry: Entry<T>, value: T): void {
    if (this.entries.get(key) !== entry) return;
    entry.bytes = this.options.weigh?.(value) ?? 0;
    this.bytes += entry.bytes;
    if (entry.bytes > this.maxBytes / 4) this.remove(key);
    this.trim();
  }

  private trim(): void {
    while (this.entries.size > this.options.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) return;
      this.remove(oldest.value);
    }
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}
