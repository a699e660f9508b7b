import { chmodSync, closeSync, copyFileSync, fsyncSync, mkdtempSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { stmt } from './statements.js';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import { openDatabase, type Db, type Migration } from './db.js';

// Whole-sandbox snapshots (issue 25): one SQLite file holding every table (hubs, content,
// versions, clients, the signing key, the clock, pending tasks, the webhook queue), plus a
// `sandbox_snapshot` table that marks it as one. Saved with VACUUM INTO (one read transaction: a
// consistent copy while writes go on) into a temporary file renamed into place, so a crash or
// kill -9 mid-save leaves the previous file whole and at most a stray `*.tmp-*` file.
//
// A snapshot is untrusted data (issue 32): they live in git beside tests and are shared. Opening
// one is the chokepoint (checkSnapshot): its schema must be exactly one this cms makes (the
// schema its migrations produce at the level the file records, built here and cached), so it has
// no view and no trigger, and every query run on it reads a table, bounded by the file's size
// (better-sqlite3 is built without SQLite's progress handler: nothing could interrupt an endless
// query). Nothing from the file is ever executed: a restore creates the search index from this
// cms's own DDL, and reads a private copy of the file (what was checked is what is restored).

export const SNAPSHOT_FORMAT = 'cms-sandbox-snapshot';
const SQLITE_MAGIC = 'SQLite format 3\0';
/** The marker table (what makes a SQLite file a snapshot). */
const MARKER_DDL = 'CREATE TABLE IF NOT EXISTS sandbox_snapshot (key TEXT PRIMARY KEY, value TEXT NOT NULL)';
/** More schema entries than any cms makes (about 60): refused before they are compared one by one. */
const MAX_SCHEMA_ROWS = 1000;

/** A snapshot the sandbox cannot use: not one, truncated, from a newer cms, refused. */
export class SnapshotError extends Error {}

/** A file in the way of a save that is not a snapshot (a package.json): replaced only when forced. */
export class NotASnapshotTarget extends SnapshotError {}

export interface SnapshotInfo {
  createdDate: string;
  cmsVersion: string;
  /** Migrations applied in the snapshot (the database's user_version). */
  schemaVersion: number;
  counts: { hubs: number; items: number; clients: number };
  bytes: number;
}

/**
 * Writes a snapshot of `db` to `file` (temporary file, fsync, rename). A file already there is
 * replaced only when it is a snapshot or empty, or with `force` (issue 32 point 7).
 */
export function saveSnapshot(db: Db, file: string, cmsVersion: string, { now = new Date(), force = false }: { now?: Date; force?: boolean } = {}): SnapshotInfo {
  refuseDirectory(file);
  if (!force) checkSnapshotTarget(file);
  removeStaleTemporaries(file);
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    stmt(db, 'VACUUM INTO ?').run(tmp);
    // It holds the signing key and every client's secret hash: private like the data directory.
    chmodSync(tmp, 0o600);
    const snap = openDatabase({ file: tmp, migrations: null });
    try {
      snap.pragma('journal_mode = DELETE');
      snap.exec(MARKER_DDL);
      const put = snap.prepare('INSERT OR REPLACE INTO sandbox_snapshot (key, value) VALUES (?, ?)');
      put.run('format', SNAPSHOT_FORMAT);
      put.run('cmsVersion', cmsVersion);
      put.run('createdDate', now.toISOString());
    } finally {
      snap.close();
    }
    const fd = openSync(tmp, 'r+');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    syncDir(dirname(file));
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return inspect(file, file, null).info;
}

/** Temporary files of saves whose process is gone (killed mid-save): never a snapshot, only litter. */
function removeStaleTemporaries(file: string): void {
  const dir = dirname(file);
  const prefix = `${basename(file)}.tmp-`;
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.startsWith(prefix));
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ESRCH') rmSync(join(dir, name), { force: true });
    }
  }
}

/** The rename survives a power loss only once its directory is synced (not possible on every OS). */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    /* Windows cannot open a directory: the rename is what there is */
  }
}

interface Inspected {
  info: SnapshotInfo;
  /** Migration ids the snapshot lacks (an older cms made it): restore applies them to a copy. */
  missing: number;
}

/** A directory where the snapshot file should go: refused before anything is written (the rename would fail last). */
function refuseDirectory(file: string): void {
  if (statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw new SnapshotError(`${file} is a directory: give the snapshot file's path (e.g. ${join(file, 'base.snapshot')})`);
}

/** A file that is neither empty nor a snapshot (a package.json, a database of something else): refused (NotASnapshotTarget). */
export function checkSnapshotTarget(file: string): void {
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st || (st.isFile() && st.size === 0)) return;
  const refuse = (what: string) => {
    throw new NotASnapshotTarget(`${file} ${what}: it is not replaced by a snapshot`);
  };
  if (!st.isFile()) refuse('is not a regular file');
  const header = readHeader(file);
  if (!header || header.toString('latin1', 0, 16) !== SQLITE_MAGIC) refuse('exists and is not a sandbox snapshot');
  let marked = false;
  try {
    const db = openDatabase({ file, migrations: null, readonly: true });
    try {
      db.pragma('trusted_schema = OFF');
      // Only the schema is read: no query of a table (or of a view pretending to be one).
      marked = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sandbox_snapshot'`).pluck().get() === 1;
    } finally {
      db.close();
    }
  } catch {
    /* not readable as a database: not a snapshot */
  }
  if (!marked) refuse('exists and is not a sandbox snapshot (a SQLite database of something else)');
}

/** The first 100 bytes of `file` (the SQLite header), or null when it is shorter. */
function readHeader(file: string): Buffer | null {
  const header = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  return read < 100 ? null : header;
}

/** The file's size, or the reason it cannot be a snapshot (missing, a directory, unreadable). */
function statSnapshot(file: string): number {
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new SnapshotError(`${file} is not a file`);
    return st.size;
  } catch (err) {
    if (err instanceof SnapshotError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new SnapshotError(`No snapshot at ${file}`);
    throw new SnapshotError(`Cannot read ${file}: ${(err as Error).message}`);
  }
}

/**
 * Checks that `file` is a whole snapshot this cms can read: a SQLite file (not another file), as
 * long as its header says (not truncated), marked as a snapshot, with no migration this cms does
 * not know (not from a newer cms), and with exactly the schema this cms makes (checkSnapshot).
 */
export function inspectSnapshot(file: string, migrations: readonly Migration[]): Inspected {
  return inspect(file, file, migrations);
}

/**
 * The same checks on a snapshot's bytes (what an in-memory sandbox is then made of), without the
 * counts; `file` names it in errors. Returns how many migrations it lacks.
 */
export function checkSnapshotBytes(bytes: Buffer, file: string, migrations: readonly Migration[]): number {
  checkHeader(bytes.subarray(0, 100), bytes.length, file);
  let snap: Db;
  try {
    snap = openDatabase({ buffer: bytes, migrations: null });
  } catch (err) {
    throw new SnapshotError(`${file} is not a sandbox snapshot (${(err as Error).message})`);
  }
  try {
    return checkSnapshot(snap, file, migrations).missing;
  } catch (err) {
    if (err instanceof SnapshotError) throw err;
    throw new SnapshotError(`${file} is damaged: ${(err as Error).message}`);
  } finally {
    snap.close();
  }
}

/** `path` is what is opened, `file` what errors name (a private copy is checked under the user's name for it). */
function inspect(path: string, file: string, migrations: readonly Migration[] | null): Inspected {
  const size = statSnapshot(path);
  checkHeader(readHeader(path), size, file);
  let snap: Db;
  try {
    snap = openDatabase({ file: path, migrations: null, readonly: true });
  } catch (err) {
    throw new SnapshotError(`${file} is not a sandbox snapshot (${(err as Error).message})`);
  }
  return inspectOpen(snap, file, size, migrations);
}

/** The header: SQLite's, whole, a rollback journal and UTF-8 text, as every snapshot cms saves. */
function checkHeader(header: Buffer | null, size: number, file: string): void {
  if (!header || header.length < 100 || header.toString('latin1', 0, 16) !== SQLITE_MAGIC) throw new SnapshotError(`${file} is not a sandbox snapshot (not a SQLite database)`);
  // Page size (1 means 65536) times the page count the header records: a shorter file lost its end.
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  if (pages > 0 && size < pageSize * pages) throw new SnapshotError(`${file} is truncated: ${size} bytes of the ${pageSize * pages} its header records`);
  // WAL mode (read/write versions 2): its content would come from -wal and -shm files beside it.
  if (header[18] !== 1 || header[19] !== 1) throw new SnapshotError(`${file} is refused: a database in WAL mode, not a snapshot cms saved (cms saves them with a rollback journal)`);
  const encoding = header.readUInt32BE(56);
  if (encoding === 2 || encoding === 3) throw new SnapshotError(`${file} is refused: a database of UTF-16 text, not a snapshot cms saved (cms saves UTF-8)`);
}

/** Reads what a snapshot says about itself once checkSnapshot found it is one; closes `snap`. */
function inspectOpen(snap: Db, file: string, size: number, migrations: readonly Migration[] | null): Inspected {
  try {
    const { schemaVersion, missing } = checkSnapshot(snap, file, migrations);
    const marker = (key: string) => snap.prepare('SELECT value FROM sandbox_snapshot WHERE key = ?').pluck().get(key) as string | undefined;
    if (marker('format') !== SNAPSHOT_FORMAT) throw new SnapshotError(`${file} is not a sandbox snapshot (a SQLite database without the snapshot marker)`);
    const count = (table: string) => snap.prepare(`SELECT count(*) FROM ${quoteIdent(table)}`).pluck().get() as number;
    const info: SnapshotInfo = {
      createdDate: text(marker('createdDate')),
      cmsVersion: text(marker('cmsVersion')),
      schemaVersion,
      counts: { hubs: count('hubs'), items: count('content_items'), clients: count('clients') },
      bytes: size,
    };
    return { info, missing };
  } catch (err) {
    if (err instanceof SnapshotError) throw err;
    throw new SnapshotError(`${file} is damaged: ${(err as Error).message}`);
  } finally {
    snap.close();
  }
}

/** A marker's value as text, bounded (it is printed). */
const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 200) : '');

interface SchemaRow {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

/**
 * The chokepoint every snapshot opening goes through (issue 32 point 1): `snap` (opened on the
 * untrusted file) must hold exactly the schema this cms's migrations make at the level it records,
 * plus the marker table. Only the schema and the `migrations` table are read before that is known.
 */
function checkSnapshot(snap: Db, file: string, migrations: readonly Migration[] | null): { schemaVersion: number; missing: number } {
  // Nothing in the schema may call a function with side effects; no write of any kind.
  snap.pragma('trusted_schema = OFF');
  snap.pragma('cell_size_check = ON');
  snap.pragma('query_only = ON');
  const refuse = (problem: string): never => {
    throw new SnapshotError(`${file} is refused: ${problem} (a snapshot holds only the tables and indexes cms makes; nothing in it is run)`);
  };
  const rows = snap.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master LIMIT ${MAX_SCHEMA_ROWS + 1}`).all() as SchemaRow[];
  if (rows.length > MAX_SCHEMA_ROWS) refuse(`more than ${MAX_SCHEMA_ROWS} tables, indexes, views and triggers`);
  const byName = new Map(rows.map((r) => [r.name, r]));
  if (!byName.has('sandbox_snapshot')) throw new SnapshotError(`${file} is not a sandbox snapshot (a SQLite database without the snapshot marker)`);
  const schemaVersion = snap.pragma('user_version', { simple: true }) as number;
  if (!migrations) return { schemaVersion, missing: 0 };
  const full = referenceSchema(migrations, migrations.length);
  // The migrations table first (a table as cms makes it: reading it runs nothing): a newer cms is named as such.
  const table = byName.get('migrations');
  if (!table || !sameRow(table, full.get('migrations')!)) refuse(table ? describe(table, 'is not as this cms makes it') : `it lacks the table 'migrations' this cms makes`);
  const ids = (snap.prepare(`SELECT id FROM migrations LIMIT ${migrations.length + 100}`).pluck().all() as unknown[]).map(String);
  const known = new Set(migrations.map((m) => m.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length || schemaVersion > migrations.length) {
    throw new SnapshotError(
      `${file} was saved by a newer cms (${text(markerOf(snap)) || 'unknown version'}, database schema ${schemaVersion}; this cms knows ${migrations.length}${unknown.length ? `, not ${unknown.slice(0, 3).map((id) => id.slice(0, 80)).join(', ')}` : ''}): upgrade cms to restore it`,
    );
  }
  const runnable = rows.find((r) => r.type !== 'table' && r.type !== 'index');
  if (runnable) refuse(`it holds a ${runnable.type} '${printable(runnable.name)}'`);
  const level = ids.length;
  const expected = new Set(migrations.slice(0, level).map((m) => m.id));
  if (level === 0 || ids.some((id) => !expected.has(id)) || new Set(ids).size !== level || schemaVersion !== level) {
    refuse(`its migrations (${ids.length} recorded, schema version ${schemaVersion}) are not the first ${level} this cms applies, in its order`);
  }
  const reference = referenceSchema(migrations, level);
  for (const row of rows) {
    const ref = reference.get(row.name);
    if (!ref) refuse(describe(row, 'this cms does not make', true));
    else if (!sameRow(row, ref)) refuse(describe(row, 'is not as this cms makes it'));
  }
  for (const ref of reference.values()) if (!byName.has(ref.name)) refuse(`it lacks the ${kind(ref)} '${ref.name}' this cms makes`);
  return { schemaVersion, missing: migrations.length - level };
}

/** The cmsVersion marker, read only from a table that is one (the newer-cms message names it). */
function markerOf(snap: Db): string | undefined {
  try {
    const row = snap.prepare(`SELECT sql FROM sqlite_master WHERE name = 'sandbox_snapshot' AND type = 'table'`).pluck().get() as string | undefined;
    if (!row || row !== referenceMarker()) return undefined;
    return snap.prepare(`SELECT value FROM sandbox_snapshot WHERE key = 'cmsVersion'`).pluck().get() as string | undefined;
  } catch {
    return undefined;
  }
}

const sameRow = (a: SchemaRow, b: SchemaRow) => a.type === b.type && a.tbl_name === b.tbl_name && a.sql === b.sql;
const kind = (r: SchemaRow) => (r.type === 'table' && /^CREATE VIRTUAL TABLE/i.test(r.sql ?? '') ? 'virtual table' : r.type);
const printable = (name: string) => name.replace(/[^\x20-\x7e]/g, '?').slice(0, 80);
const describe = (r: SchemaRow, what: string, before = false) => (before ? `it holds a ${kind(r)} '${printable(r.name)}' ${what}` : `its ${kind(r)} '${printable(r.name)}' ${what}`);

/** An SQL identifier, quoted (names come from this cms's own schema, quoted all the same). */
export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Schemas this cms makes, by migration list and level: built once each (a few ms for the whole list). */
const references = new WeakMap<readonly Migration[], Map<number, Map<string, SchemaRow>>>();

/**
 * The schema (sqlite_master rows, by name) a snapshot of the first `level` migrations holds: those
 * migrations' SQL applied to an empty in-memory database (their seeds write rows, not schema),
 * plus the marker table.
 */
function referenceSchema(migrations: readonly Migration[], level: number): Map<string, SchemaRow> {
  let levels = references.get(migrations);
  if (!levels) references.set(migrations, (levels = new Map()));
  let schema = levels.get(level);
  if (!schema) {
    const db = openDatabase({ migrations: migrations.slice(0, level).map(({ id, sql }) => ({ id, sql })) });
    try {
      db.exec(MARKER_DDL);
      schema = new Map((db.prepare('SELECT type, name, tbl_name, sql FROM sqlite_master').all() as SchemaRow[]).map((r) => [r.name, r]));
    } finally {
      db.close();
    }
    levels.set(level, schema);
  }
  return schema;
}

let markerSql: string | undefined;
/** The marker table's DDL as SQLite records it. */
function referenceMarker(): string {
  if (markerSql === undefined) {
    const db = openDatabase({ migrations: null });
    try {
      db.exec(MARKER_DDL);
      markerSql = db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'sandbox_snapshot'`).pluck().get() as string;
    } finally {
      db.close();
    }
  }
  return markerSql;
}

/**
 * Replaces everything in `db` with the snapshot's content in one transaction (readers see the
 * old state or the new, never a mix). The file is copied first to a private place, and that copy
 * is what is checked, migrated (a snapshot from an older cms) and read: nothing beside the file
 * (a journal) and no change to it after the check reaches the sandbox. Tables are copied row for
 * row with SQL (ATTACH, DELETE, INSERT … SELECT): the database stays the same file, so other
 * processes on the data directory see the change as any other commit.
 */
export function restoreSnapshot(db: Db, file: string, migrations: readonly Migration[]): SnapshotInfo {
  statSnapshot(file);
  const dir = mkdtempSync(join(tmpdir(), 'cms-restore-'));
  const source = join(dir, 'snapshot.db');
  try {
    try {
      copyFileSync(file, source);
      chmodSync(source, 0o600);
    } catch (err) {
      throw new SnapshotError(`Cannot read ${file}: ${(err as Error).message}`);
    }
    const { info, missing } = inspect(source, file, migrations);
    if (missing > 0) {
      try {
        openDatabase({ file: source, migrations, journal: 'DELETE' }).close();
      } catch (err) {
        throw new SnapshotError(`${file} could not be migrated to this cms: ${(err as Error).message}`);
      }
    }
    try {
      copyInto(db, source, referenceSchema(migrations, migrations.length));
    } catch (err) {
      const code = (err as { code?: string }).code ?? '';
      if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CONSTRAINT')) throw new SnapshotError(`${file} is damaged: ${(err as Error).message}`);
      throw err;
    }
    return info;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Copies every table of the (checked) snapshot at `file` into `db`; `schema` is this cms's own. */
function copyInto(db: Db, file: string, schema: Map<string, SchemaRow>): void {
  stmt(db, 'ATTACH DATABASE ? AS snap').run(file);
  // Foreign keys are whole again once every table is copied; checking each row on the way costs
  // most of a restore (the pragma only changes outside a transaction).
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  // Shadow tables are read-only in better-sqlite3's default defensive mode; unsafe mode lifts it
  // for this copy only.
  db.unsafeMode(true);
  try {
    db.transaction(() => {
      // A trigger or view planted in the sandbox's own database (by a snapshot an earlier cms
      // restored) goes: cms makes none.
      for (const r of stmt(db, `SELECT type, name FROM main.sqlite_master WHERE type IN ('trigger', 'view')`).all() as { type: string; name: string }[]) {
        db.exec(`DROP ${r.type === 'view' ? 'VIEW' : 'TRIGGER'} IF EXISTS main.${quoteIdent(r.name)}`);
      }
      const tables = [...schema.values()].filter((t) => t.type === 'table' && t.name !== 'migrations' && t.name !== 'sandbox_snapshot');
      const virtual = (t: SchemaRow) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? '');
      // Virtual tables (the search index) are dropped and created again from this cms's DDL,
      // then their shadow tables copied as any other: writing shadow tables under a live virtual
      // table would leave it reading the structure it cached.
      for (const v of tables.filter(virtual)) {
        db.exec(`DROP TABLE IF EXISTS main.${quoteIdent(v.name)}`);
        db.exec(v.sql!);
      }
      for (const t of tables) {
        if (virtual(t)) continue;
        const name = quoteIdent(t.name);
        db.exec(`DELETE FROM main.${name}`);
        const cols = (stmt(db, `SELECT name FROM pragma_table_info(?, 'main')`).pluck().all(t.name) as string[]).map(quoteIdent).join(', ');
        db.exec(`INSERT INTO main.${name} (${cols}) SELECT ${cols} FROM snap.${name}`);
      }
    }).immediate();
  } finally {
    db.unsafeMode(false);
    db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
    stmt(db, 'DETACH DATABASE snap').run();
  }
}
