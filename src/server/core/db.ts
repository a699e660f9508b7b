import type BetterSqlite3 from 'better-sqlite3';
import { createRequire } from 'node:module';
import { chmodSync, closeSync, existsSync, openSync, renameSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ensurePrivateDir } from '../../config/private-dir.js';
import { keepNative } from './native-keep.js';

export type Db = BetterSqlite3.Database;

// require() skips the export scan Node runs on a CommonJS package imported from ESM.
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3') as typeof BetterSqlite3;

/**
 * The native addon's file, where better-sqlite3 builds it: the package's own lookup (the
 * `bindings` package) probes a dozen paths and costs a few ms of every embedded command's startup.
 * Undefined (the package's own lookup) when it is elsewhere.
 */
let addonFile: string | null | undefined;
function nativeBinding(): string | undefined {
  if (addonFile === undefined) {
    const file = join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');
    addonFile = existsSync(file) ? file : null;
  }
  return addonFile ?? undefined;
}

export interface OpenOptions {
  /** Directory holding sandbox.db; ':memory:' for a throwaway database. */
  dataDir?: string;
  /** Or a database file itself (a snapshot). */
  file?: string;
  /** Or an in-memory database made from this serialized one (Database#serialize, a snapshot file's bytes). */
  buffer?: Buffer;
  /** The one ordered list of migrations (src/server/migrations.ts), applied in order; null applies none. */
  migrations: readonly Migration[] | null;
  readonly?: boolean;
  /** WAL by default; a snapshot file stays one self-contained file (DELETE). */
  journal?: 'WAL' | 'DELETE';
}

export interface Migration {
  /** Unique, never renamed: records which migrations a database has. */
  id: string;
  sql: string;
  seed?: (db: Db) => void;
}


/**
 * Opens the sandbox database: WAL so readers never block the writer, a busy timeout so several
 * CLI processes can share one data directory, and migrations applied under an exclusive lock.
 */
export function openDatabase({ dataDir = ':memory:', file, buffer, migrations, readonly = false, journal = 'WAL' }: OpenOptions): Db {
  if (file === undefined) {
    file = ':memory:';
    if (dataDir !== ':memory:') {
      // The database holds the token signing key and every client secret.
      ensurePrivateDir(dataDir, 'data directory');
      file = join(dataDir, 'sandbox.db');
    }
  }
  if (!buffer && !readonly && file !== ':memory:') {
    // Created 0600 before SQLite opens it: SQLite gives the -wal and -shm files the database's mode.
    closeSync(openSync(file, 'a', 0o600));
    try {
      chmodSync(file, 0o600);
    } catch {
      /* not ours to change (a read-only copy): SQLite reports what matters */
    }
  }
  // Kept reachable until closed and let go safely: see native-keep.ts (Node 24 aborts otherwise).
  const db = keepNative(buffer ? new Database(buffer, { nativeBinding: nativeBinding() }) : new Database(file, { nativeBinding: nativeBinding(), readonly, fileMustExist: readonly }));
  try {
    configure(db, migrations, readonly, journal);
  } catch (err) {
    db.close();
    const code = (err as { code?: string }).code;
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') throw new DamagedDatabase(file, (err as Error).message);
    throw err;
  }
  return db;
}

/** sandbox.db is not a database (overwritten, truncated, another program's file): named, so it can be moved aside. */
export class DamagedDatabase extends Error {
  override readonly name = 'DamagedDatabase';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`The sandbox database ${file} is damaged: ${reason}`);
  }
}

/**
 * Moves a damaged sandbox.db (and its WAL and shared-memory files) aside, kept for inspection
 * under a dated name; the next open starts an empty sandbox. Returns where it went.
 */
export function moveDamagedAside(file: string): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = `${file}.damaged-${stamp}`;
  renameSync(file, target);
  for (const suffix of ['-wal', '-shm']) if (existsSync(file + suffix)) renameSync(file + suffix, target + suffix);
  return target;
}

function configure(db: Db, migrations: readonly Migration[] | null | undefined, readonly: boolean, journal: NonNullable<OpenOptions['journal']>): void {
  db.pragma('busy_timeout = 10000');
  // No function with side effects runs from the schema, whoever wrote the file (issue 32).
  db.pragma('trusted_schema = OFF');
  if (readonly) return;
  db.pragma(`journal_mode = ${journal}`);
  // NORMAL in WAL mode keeps every committed transaction across a process crash (kill -9);
  // only an OS crash or power loss can drop the newest commits. CMS_SANDBOX_SYNC=full for that.
  db.pragma(`synchronous = ${process.env.CMS_SANDBOX_SYNC === 'full' ? 'FULL' : 'NORMAL'}`);
  db.pragma('foreign_keys = ON');
  // A checkpoint syncs the file (twice) on the writer's thread: with the default (every 1,000
  // pages, a few dozen item writes) those waits were most of a write's cost. Every 10,000 pages
  // (a WAL of up to ~40 MB) pays them ten times less often; durability is the same.
  db.pragma('wal_autocheckpoint = 10000');
  if (migrations) migrate(db, migrations);
}

function migrate(db: Db, migrations: readonly Migration[]): void {
  // user_version counts applied migrations: one cheap read on the common, up-to-date path.
  if ((db.pragma('user_version', { simple: true }) as number) === migrations.length) return;
  db.transaction(() => {
    db.exec('CREATE TABLE IF NOT EXISTS migrations (id TEXT PRIMARY KEY, applied_date TEXT NOT NULL)');
    const applied = new Set(db.prepare('SELECT id FROM migrations').pluck().all() as string[]);
    for (const m of migrations) {
      if (applied.has(m.id)) continue;
      db.exec(m.sql);
      m.seed?.(db);
      db.prepare('INSERT INTO migrations (id, applied_date) VALUES (?, ?)').run(m.id, new Date().toISOString());
    }
    db.pragma(`user_version = ${migrations.length}`);
  }).immediate();
}

/**
 * Runs several reads on one snapshot (a deferred read transaction, or the one already open):
 * reads run outside transactions, so a page and its total read by two statements could
 * otherwise straddle another process's commit.
 */
export function readConsistently<T>(db: Db, read: () => T): T {
  return db.inTransaction ? read() : db.transaction(read).deferred();
}
