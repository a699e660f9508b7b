import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// On Node 24, a garbage collection that finalizes a better-sqlite3 statement or database while
// no Node context is entered aborts the process (native-keep.ts). The collector must never find
// one on its own: here a collection is forced at a moment of V8's choosing would be, and nothing
// of better-sqlite3 may be finalized by it, while what was closed is let go (no leak).
// A child process with --expose-gc: the collections are the test's, not the runner's.

const dbModule = fileURLToPath(new URL('../../dist/server/core/db.js', import.meta.url));

const script = `
const { openDatabase } = await import(${JSON.stringify(dbModule)});
const finalized = [];
const registry = new FinalizationRegistry((what) => finalized.push(what));
const tick = () => new Promise((r) => setTimeout(r, 10));
async function collect() { for (let i = 0; i < 3; i++) { globalThis.gc(); await tick(); } }

// Statements made and dropped at once (ad hoc, a pragma's own) on an open database.
const db = openDatabase({ migrations: null });
db.exec('CREATE TABLE t (a)');
for (let i = 0; i < 200; i++) {
  const insert = db.prepare('INSERT INTO t VALUES (' + (i % 20) + ')');
  insert.run();
  registry.register(insert, 'statement');
  db.pragma('user_version', { simple: true });
}
db.pragma('foreign_keys = ON');
const same = db.prepare('SELECT a FROM t');
const plucked = same.pluck().get();
const again = db.prepare('SELECT a FROM t');
const rows = again.all();
await collect();
const whileOpen = finalized.length;

// Databases opened, used and closed: let go after a few, in the keeper's own collection.
function openUseClose() {
  const other = openDatabase({ migrations: null });
  registry.register(other, 'database');
  registry.register(other.prepare('SELECT 1'), 'statement');
  other.pragma('user_version', { simple: true });
  other.close();
}
for (let i = 0; i < 20; i++) openUseClose();
await collect();
const atOnce = finalized.filter((w) => w === 'database').length;
// The ones let go while still held (closed in the job that opened them) and the last few: a little later.
await new Promise((r) => setTimeout(r, 2500));
await collect();
console.log(JSON.stringify({ whileOpen, atOnce, afterClose: finalized.filter((w) => w === 'database').length, plucked, firstRow: rows[0], sameObject: same === again }));
`;

describe('better-sqlite3 objects are never left for the collector to find on its own', () => {
  it('keeps every statement of an open database; lets closed databases go in its own collection', () => {
    const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    const result = JSON.parse(out.trim().split('\n').at(-1)!);
    // Nothing of an open database was finalized by a collection the keeper did not run.
    expect(result.whileOpen).toBe(0);
    // The closed ones were let go, not kept for ever (V8 may hold the most recent one a while:
    // its functions' constants stay in the object's shape; plain better-sqlite3 frees it).
    expect(result.afterClose, JSON.stringify(result)).toBeGreaterThanOrEqual(19);
    // prepare() makes a new statement each time, as better-sqlite3's own: a caller's pluck() is its own.
    expect(result.plucked).toBe(0);
    expect(result.firstRow).toEqual({ a: 0 });
    expect(result.sameObject).toBe(false);
  });
});
