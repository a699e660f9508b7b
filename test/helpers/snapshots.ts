import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import Database from './sqlite.js';
import { openDatabase } from '../../src/server/core/db.js';
import { saveSnapshot } from '../../src/server/core/snapshot-file.js';
import { migrations } from '../../src/server/migrations.js';

// Snapshot files a user may hand the sandbox that it must refuse or migrate, made from a good one
// (saved by the binary or the API): one from a newer cms, one from an older, one cut short.

/** A copy of `good` as a newer cms would leave it: a migration this cms does not know. */
export function newerSnapshot(good: string, to: string): void {
  copyFileSync(good, to);
  const db = new Database(to);
  db.prepare("INSERT INTO migrations (id, applied_date) VALUES ('9999-from-the-future', '2040-01-01')").run();
  db.pragma(`user_version = ${migrations.length + 1}`);
  db.close();
}

/** `good` cut short by `bytes` (a copy that lost its end). */
export function truncatedSnapshot(good: string, to: string, bytes = 4096): void {
  const all = readFileSync(good);
  writeFileSync(to, all.subarray(0, all.length - bytes));
}

/**
 * A snapshot as an older cms saved it (all but the newest `behind` migrations) holding the hubs of
 * `good`; returns the schema version it has.
 */
export function olderSnapshot(good: string, to: string, behind = 2): number {
  const old = openDatabase({ dataDir: ':memory:', migrations: migrations.slice(0, migrations.length - behind) });
  const src = new Database(good, { readonly: true });
  try {
    // The columns both schemas have: a hub as the older cms stored it.
    const cols = (old.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('hubs') as string[]).filter((c) =>
      (src.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('hubs') as string[]).includes(c),
    );
    const insert = old.prepare(`INSERT INTO hubs (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`);
    for (const row of src.prepare(`SELECT ${cols.join(', ')} FROM hubs`).all() as Record<string, unknown>[]) insert.run(...cols.map((c) => row[c]));
    saveSnapshot(old, to, '0.0.1');
    return migrations.length - behind;
  } finally {
    src.close();
    old.close();
  }
}

/**
 * Edits a copy of `good` at `to` with `edit`, schema writes allowed (writable_schema): a snapshot as
 * someone who wants the sandbox to run something would hand it over (issue 32 point 1).
 */
export function craftSnapshot(good: string, to: string, edit: (db: InstanceType<typeof Database>) => void): void {
  copyFileSync(good, to);
  const db = new Database(to);
  try {
    db.unsafeMode(true);
    edit(db);
  } finally {
    db.close();
  }
}

/** `sql` in place of the schema text of `name` (what SQLite itself prepares only the first statement of). */
export function rewriteSchemaRow(db: InstanceType<typeof Database>, name: string, sql: string): void {
  db.pragma('writable_schema = ON');
  db.prepare('UPDATE sqlite_master SET sql = ? WHERE name = ?').run(sql, name);
  db.pragma('writable_schema = OFF');
}
