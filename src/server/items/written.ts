import type { Db } from '../core/db.js';

// Which items a request wrote, so the service drops only their cached rows (Service.markChanged).
// Its own module: the store notes writes and the row cache reads the store, so neither may hold it.

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
