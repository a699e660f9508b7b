import { chmodSync, closeSync, copyFileSync, fsyncSync, openSync, readdirSync, readSync, renameSync, rmSync, statSync } from 'node:fs';
import { stmt } from './statements.js';
import { basename, dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { openDatabase, type Db, type Migration } from './db.js';

// Whole-sandbox snapshots (issue 25): one SQLite file holding every table (hubs, content,
// versions, clients, the signing key, the clock, pending tasks, the webhook queue), plus a
// `sandbox_snapshot` table that marks it as one. Saved with VACUUM INTO (one read transaction: a
// consistent copy while writes go on) into a temporary file renamed into place, so a crash or
// kill -9 mid-save leaves the previous file whole and at most a stray `*.tmp-*` file.

export const SNAPSHOT_FORMAT = 'cms-sandbox-snapshot';
const SQLITE_MAGIC = 'SQLite format 3\0';

/** A snapshot the sandbox cannot use: not one, truncated, from a newer cms. */
export class SnapshotError extends Error {}

export interface SnapshotInfo {
  createdDate: string;
  cmsVersion: string;
  /** Migrations applied in the snapshot (the database's user_version). */
  schemaVersion: number;
  counts: { hubs: number; items: number; clients: number };
  bytes: number;
}

/** Writes a snapshot of `db` to `file` (temporary file, fsync, rename). */
export function saveSnapshot(db: Db, file: string, cmsVersion: string, now: Date = new Date()): SnapshotInfo {
  refuseDirectory(file);
  removeStaleTemporaries(file);
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    stmt(db, 'VACUUM INTO ?').run(tmp);
    // It holds the signing key and every client's secret hash: private like the data directory.
    chmodSync(tmp, 0o600);
    const snap = openDatabase({ file: tmp, migrations: null });
    try {
      snap.pragma('journal_mode = DELETE');
      snap.exec(`CREATE TABLE IF NOT EXISTS sandbox_snapshot (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
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
  return inspectSnapshot(file, null).info;
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

/**
 * Checks that `file` is a whole snapshot this cms can read: a SQLite file (not another file), as
 * long as its header says (not truncated), marked as a snapshot, with no migration this cms does
 * not know (not from a newer cms). `migrations` null skips the version check.
 */
export function inspectSnapshot(file: string, migrations: readonly Migration[] | null): Inspected {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new SnapshotError(`${file} is not a file`);
    size = st.size;
  } catch (err) {
    if (err instanceof SnapshotError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new SnapshotError(`No snapshot at ${file}`);
    throw new SnapshotError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  const header = Buffer.alloc(100);
  const fd = openSync(file, 'r');
  let read: number;
  try {
    read = readSync(fd, header, 0, 100, 0);
  } finally {
    closeSync(fd);
  }
  if (read < 100 || header.toString('latin1', 0, 16) !== SQLITE_MAGIC) throw new SnapshotError(`${file} is not a sandbox snapshot (not a SQLite database)`);
  // Page size (1 means 65536) times the page count the header records: a shorter file lost its end.
  const pageSize = header.readUInt16BE(16) === 1 ? 65536 : header.readUInt16BE(16);
  const pages = header.readUInt32BE(28);
  if (pages > 0 && size < pageSize * pages) throw new SnapshotError(`${file} is truncated: ${size} bytes of the ${pageSize * pages} its header records`);
  let snap: Db;
  try {
    snap = openDatabase({ file, migrations: null, readonly: true });
  } catch (err) {
    throw new SnapshotError(`${file} is not a sandbox snapshot (${(err as Error).message})`);
  }
  try {
    const marker = (key: string): string | undefined => {
      try {
        return snap.prepare('SELECT value FROM sandbox_snapshot WHERE key = ?').pluck().get(key) as string | undefined;
      } catch {
        return undefined;
      }
    };
    if (marker('format') !== SNAPSHOT_FORMAT) throw new SnapshotError(`${file} is not a sandbox snapshot (a SQLite database without the snapshot marker)`);
    const schemaVersion = snap.pragma('user_version', { simple: true }) as number;
    let missing = 0;
    if (migrations) {
      const ids = snap.prepare('SELECT id FROM migrations').pluck().all() as string[];
      const known = new Set(migrations.map((m) => m.id));
      const unknown = ids.filter((id) => !known.has(id));
      if (unknown.length || schemaVersion > migrations.length) {
        throw new SnapshotError(
          `${file} was saved by a newer cms (${marker('cmsVersion') ?? 'unknown version'}, database schema ${schemaVersion}; this cms knows ${migrations.length}${unknown.length ? `, not ${unknown.slice(0, 3).join(', ')}` : ''}): upgrade cms to restore it`,
        );
      }
      missing = migrations.length - ids.length;
    }
    const count = (table: string) => {
      try {
        return snap.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
      } catch {
        return 0;
      }
    };
    const info: SnapshotInfo = {
      createdDate: marker('createdDate') ?? '',
      cmsVersion: marker('cmsVersion') ?? '',
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

/**
 * Replaces everything in `db` with the snapshot's content in one transaction (readers see the
 * old state or the new, never a mix). A snapshot from an older cms is migrated on a copy first.
 * Tables are copied row for row with SQL (ATTACH, DELETE, INSERT … SELECT): the database stays
 * the same file, so other processes on the data directory see the change as any other commit.
 */
export function restoreSnapshot(db: Db, file: string, migrations: readonly Migration[]): SnapshotInfo {
  const { info, missing } = inspectSnapshot(file, migrations);
  let source = file;
  if (missing > 0) {
    source = join(dirname(file), `.migrating-${process.pid}-${randomBytes(4).toString('hex')}`);
    try {
      copyFileSync(file, source);
      chmodSync(source, 0o600);
      openDatabase({ file: source, migrations, journal: 'DELETE' }).close();
    } catch (err) {
      rmSync(source, { force: true });
      throw new SnapshotError(`${file} could not be migrated to this cms: ${(err as Error).message}`);
    }
  }
  try {
    copyInto(db, source);
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith('SQLITE_CORRUPT') || (err as { code?: string }).code === 'SQLITE_NOTADB') {
      throw new SnapshotError(`${file} is damaged: ${(err as Error).message}`);
    }
    throw err;
  } finally {
    if (source !== file) rmSync(source, { force: true });
  }
  return info;
}

function copyInto(db: Db, file: string): void {
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
      const list = (schema: string) =>
        stmt(db, `SELECT name, sql FROM ${schema}.sqlite_master WHERE type = 'table' AND name NOT IN ('migrations', 'sandbox_snapshot')`).all() as { name: string; sql: string | null }[];
      // Virtual tables (the search index) are dropped and created again from the snapshot, then
      // their shadow tables copied as any other: writing shadow tables under a live virtual
      // table would leave it reading the structure it cached.
      for (const v of list('snap').filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql ?? ''))) {
        db.exec(`DROP TABLE IF EXISTS main."${v.name}"`);
        db.exec(v.sql!);
      }
      const inSnapshot = new Set(list('snap').map((t) => t.name));
      for (const t of list('main')) {
        if (/^CREATE VIRTUAL TABLE/i.test(t.sql ?? '')) continue;
        db.exec(`DELETE FROM main."${t.name}"`);
        if (!inSnapshot.has(t.name)) continue;
        const cols = (stmt(db, `SELECT name FROM pragma_table_info(?, 'main')`).pluck().all(t.name) as string[]).map((c) => `"${c}"`).join(', ');
        db.exec(`INSERT INTO main."${t.name}" (${cols}) SELECT ${cols} FROM snap."${t.name}"`);
      }
    }).immediate();
  } finally {
    db.unsafeMode(false);
    db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
    stmt(db, 'DETACH DATABASE snap').run();
  }
}
