import type { Db } from './db.js';
import type { ItemRow } from './items.js';

/** Ids of the items written on a connection since its owner last took them (Service.markChanged). */
const changed = new WeakMap<Db, Set<string>>();

/** Records that an item's row was written (store/items.ts saveItem, touchItem). */
export function noteItemChanged(db: Db, id: string): void {
  let ids = changed.get(db);
  if (!ids) changed.set(db, (ids = new Set()));
  ids.add(id);
}

/** The ids noted since the last call, and forgets them. */
export function takeChangedItems(db: Db): Set<string> {
  const ids = changed.get(db);
  changed.delete(db);
  return ids ?? new Set();
}

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
