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
