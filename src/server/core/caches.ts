/**
 * Caches valid until the data changes: the service empties them all on a change made here
 * (markChanged) or committed by another process (SQLite's data_version). A family keeps its own
 * cache here by name, so the service needs to know no family's cache.
 */
export class Caches {
  private readonly all = new Map<string, { clear(): void; delete?(key: string): void }>();

  /** The cache named `name`, created on first use. */
  get<T extends { clear(): void }>(name: string, create: () => T): T {
    let cache = this.all.get(name) as T | undefined;
    if (!cache) this.all.set(name, (cache = create()));
    return cache;
  }

  clear(): void {
    for (const cache of this.all.values()) cache.clear();
  }

  /** Drops these keys from every cache that keeps entries by key (the items a request wrote). */
  evict(keys: Iterable<string>): void {
    for (const key of keys) for (const cache of this.all.values()) cache.delete?.(key);
  }
}
