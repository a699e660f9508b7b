import type BetterSqlite3 from 'better-sqlite3';
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Db = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

/**
 * Why this exists: better-sqlite3 12's Database and Statement are node::ObjectWrap objects, and
 * Node 24's ObjectWrap removes an environment cleanup hook when it is destroyed, asserting that a
 * Node context is entered. A garbage collection that finalizes one of them while none is (which
 * V8 does when it pleases) aborts the process: SIGABRT, "Assertion failed: (env) != nullptr" in
 * node::RemoveEnvironmentCleanupHook, about one `cms hub list` in ten on Node 24.21. Only
 * better-sqlite3 13 is free of it, and 13 does not run on Node 20 (it crashes there).
 *
 * So the collector never finds one on its own: every database and every statement made on it
 * stays reachable from here while the database is open (code whose SQL text varies prepares
 * through stmt(), which makes each text once, so what is kept stays bounded by the code's queries). A closed database is let go only in a full collection run from here,
 * inside a context, where finalizing it is safe; what something else still holds is kept again
 * for the next one. At the process's end, Node's own cleanup hooks destroy what is left, safely.
 */

interface Kept {
  /** Strong while kept; null once let go (then `ref` says whether something else still holds it). */
  db: Db | null;
  ref: WeakRef<Db>;
  /** Every statement prepared on it (ad hoc ones too: callers prepare through stmt() where the text varies, which makes each text once). */
  statements: Statement[] | null;
  /** pragma()'s own statements, one per text: nobody else holds them. */
  pragmas: Map<string, Statement>;
  refs: WeakRef<Statement>[];
  closed: boolean;
}

const kept = new Map<Db, Kept>();
const closed: Kept[] = [];
/** Closed databases let go together: each letting go is one full collection (10 to 20 ms with a large heap). */
const LET_GO_AFTER = 32;
/** Databases closed since the last letting go (those kept again then do not count). */
let closedSince = 0;
const LATER_MS = 2_000;
const MAX_LATER_MS = 120_000;

/** Wraps `db` so that it and its statements stay reachable until it is closed and let go here. */
export function keepNative(db: Db): Db {
  const entry: Kept = { db, ref: new WeakRef(db), statements: [], pragmas: new Map(), refs: [], closed: false };
  kept.set(db, entry);
  const proto = Object.getPrototypeOf(db) as Db;
  const keep = (st: Statement): Statement => {
    (entry.statements ??= []).push(st);
    entry.refs.push(new WeakRef(st));
    return st;
  };
  Object.defineProperties(db, {
    // A new statement each time, as better-sqlite3's own: a caller's pluck() or raw() is its own.
    prepare: { configurable: true, writable: true, value: (sql: string) => keep(proto.prepare.call(db, sql)) },
    // better-sqlite3's own pragma() prepares a statement the caller never sees: kept too.
    pragma: {
      writable: true,
      configurable: true,
      value: (source: string, options: { simple?: boolean } = {}) => {
        let st = entry.pragmas.get(source);
        if (!st) entry.pragmas.set(source, (st = keep(nativePrepare(db, `PRAGMA ${source}`))));
        if (!st.reader) {
          st.run();
          return options.simple ? undefined : [];
        }
        return options.simple ? st.pluck(true).get() : st.pluck(false).all();
      },
    },
    close: {
      writable: true,
      configurable: true,
      value: () => {
        proto.close.call(db);
        if (!entry.closed) {
          entry.closed = true;
          closed.push(entry);
          // Soon, not now: the database being closed is still held by whoever is closing it.
          if (++closedSince >= LET_GO_AFTER) soon();
          else later();
        }
        return db;
      },
    },
  });
  return db;
}

/** A statement prepared in pragma mode (it may return nothing), as better-sqlite3's pragma() does. */
function nativePrepare(db: Db, sql: string): Statement {
  const native = (db as unknown as Record<symbol, { prepare(sql: string, db: Db, pragma: boolean): Statement }>)[cppdb()];
  return native.prepare(sql, db, true);
}

let cppdbSymbol: symbol | undefined;
function cppdb(): symbol {
  // The package's own symbol for its native handle (lib/util.js).
  return (cppdbSymbol ??= (createRequire(import.meta.url)('better-sqlite3/lib/util') as { cppdb: symbol }).cppdb);
}

/**
 * A database closed and dropped in the same job (a snapshot file read and closed at once) is
 * still held until the job ends (WeakRef), and fewer than LET_GO_AFTER may never be followed by
 * more: a timer lets them go a little later, then less and less often while something holds them.
 */
let timer: NodeJS.Timeout | null = null;
let delayMs = LATER_MS;
function later(): void {
  if (timer || !closed.length) return;
  timer = setTimeout(() => {
    timer = null;
    const before = closed.length;
    letGo();
    delayMs = closed.length && closed.length >= before ? Math.min(delayMs * 4, MAX_LATER_MS) : LATER_MS;
    later();
  }, delayMs);
  timer.unref();
}

let immediate: NodeJS.Timeout | null = null;
function soon(): void {
  if (immediate) return;
  immediate = setTimeout(() => {
    immediate = null;
    letGo();
  }, 0);
  immediate.unref();
}

/** Lets the closed databases go in one full collection, and keeps again what something else still holds. */
function letGo(): void {
  closedSince = 0;
  const collect = fullCollection();
  if (!collect) return;
  const batch = closed.splice(0);
  for (const e of batch) {
    kept.delete(e.db!);
    e.db = null;
    e.statements = null;
    e.pragmas.clear();
  }
  collect();
  for (const e of batch) {
    const db = e.ref.deref();
    const live = e.refs.map((r) => r.deref()).filter((s): s is Statement => s !== undefined);
    if (!db && !live.length) continue;
    // Still held elsewhere (a service finishing its deliveries): kept for the next letting go.
    e.db = db ?? null;
    e.statements = live;
    e.refs = live.map((s) => new WeakRef(s));
    if (db) kept.set(db, e);
    closed.push(e);
  }
}

let collector: (() => void) | null | undefined;
/** V8's full collection, callable from here (--expose-gc for one new context only); null where it cannot be had. */
function fullCollection(): (() => void) | null {
  if (collector !== undefined) return collector;
  try {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as () => void;
  } catch {
    collector = null;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
  return collector;
}

/** How many databases are kept, open and closed (for tests and `--debug`). */
export function nativeKept(): { open: number; closed: number } {
  return { open: kept.size - closed.filter((e) => e.db).length, closed: closed.length };
}
