import { itemRow, type ItemRow } from './store.js';
import type { Caches } from '../core/caches.js';
import type { Db } from '../core/db.js';

/**
 * Item rows kept for `GET item` (the hot read) until the data changes: the owner drops the rows
 * of the items a request wrote, and empties it on any other change (or another process's). Bounded by count and by the characters of the stored JSON, since one item may
 * be megabytes; when full it starts over rather than tracking recency (cheap, and a miss costs
 * one indexed read).
 */
export class ItemRowCache {
  private readonly rows = new Map<string, ItemRow | null>();
  private chars = 0;

  constructor(
    private readonly maxRows = 2000,
    private readonly maxChars = 32 * 1024 * 1024,
  ) {}

  get(id: string, load: () => ItemRow | undefined): ItemRow | undefined {
    let row = this.rows.get(id);
    if (row === undefined) {
      row = load() ?? null;
      const size = row?.json.length ?? 0;
      // A row larger than the whole budget is answered but not kept (nor allowed to evict the rest).
      if (size > this.maxChars) return row ?? undefined;
      if (this.rows.size >= this.maxRows || this.chars + size > this.maxChars) this.clear();
      this.rows.set(id, row);
      this.chars += size;
    }
    return row ?? undefined;
  }

  /** Forgets one item's row (it was written). */
  delete(id: string): void {
    const row = this.rows.get(id);
    if (row === undefined) return;
    this.chars -= row?.json.length ?? 0;
    this.rows.delete(id);
  }

  clear(): void {
    this.rows.clear();
    this.chars = 0;
  }
}

/** An item's keys and stored JSON, from the service's cache while nothing has changed. */
export function cachedItemRow(service: { readonly db: Db; readonly caches: Caches }, id: string): ItemRow | undefined {
  return service.caches.get('itemRows', () => new ItemRowCache()).get(id, () => itemRow(service.db, id));
}
