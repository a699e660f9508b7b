import type BetterSqlite3 from 'better-sqlite3';
import { createRequire } from 'node:module';
import { keepNative } from '../../src/server/core/native-keep.js';

// Tests open sandbox files with better-sqlite3 itself; kept as the sandbox keeps its own
// databases (src/server/core/native-keep.ts): on Node 24 a database or statement the collector
// finds on its own aborts the test worker. The architecture test allows no other value import.
const Raw = createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;

const Database = function Database(file?: string | Buffer, options?: BetterSqlite3.Options): BetterSqlite3.Database {
  return keepNative(new Raw(file, options));
} as unknown as typeof BetterSqlite3;

export default Database;

/**
 * The query plans (EXPLAIN QUERY PLAN, one line per statement) of the statements `db` prepares
 * from now on whose SQL `matches`, run with `args(sql)` bound: to check a lookup searches an index.
 */
export function recordPlans(db: BetterSqlite3.Database, matches: (sql: string) => boolean, args: (sql: string) => unknown[]): string[] {
  const plans: string[] = [];
  const prepare = db.prepare.bind(db);
  (db as unknown as { prepare: (sql: string) => unknown }).prepare = (sql: string) => {
    if (matches(sql)) plans.push((prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args(sql)) as { detail: string }[]).map((r) => r.detail).join(' | '));
    return prepare(sql);
  };
  return plans;
}
