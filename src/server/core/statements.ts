import type { Statement } from 'better-sqlite3';
import type { Db } from './db.js';

// Preparing a statement costs more than running it; cache each SQL text per connection.
const caches = new WeakMap<Db, Map<string, Statement>>();

export function stmt(db: Db, sql: string): Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let s = cache.get(sql);
  if (!s) cache.set(sql, (s = db.prepare(sql)));
  return s;
}
