import type { Db } from './db.js';
import { stmt } from './statements.js';

/** Small sandbox-wide values (signing key, clock, settings) in the sandbox_state table. */
export function readState<T>(db: Db, key: string): T | undefined {
  const v = stmt(db, 'SELECT value FROM sandbox_state WHERE key = ?').pluck().get(key) as string | undefined;
  return v === undefined ? undefined : (JSON.parse(v) as T);
}

export function writeState(db: Db, key: string, value: unknown): void {
  stmt(db, 'INSERT INTO sandbox_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value').run(
    key,
    JSON.stringify(value),
  );
}

export function signingKey(db: Db): Buffer {
  const v = stmt(db, "SELECT value FROM sandbox_state WHERE key = 'signing-key'").pluck().get() as string;
  return Buffer.from(v, 'base64');
}
