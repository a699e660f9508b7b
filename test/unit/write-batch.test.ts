import Database from '../helpers/sqlite.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../src/server/core/db.js';
import { WriteBatch } from '../../src/server/core/write-batch.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A WAL database on disk, and a second connection to it: what another process sees. */
function world() {
  const dir = mkdtempSync(join(tmpdir(), 'cms-batch-'));
  dirs.push(dir);
  const db = new Database(join(dir, 'db')) as unknown as Db;
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (n INTEGER PRIMARY KEY, v TEXT NOT NULL CHECK (v <> \'bad\'))');
  const other = new Database(join(dir, 'db'), { readonly: true });
  const seen = () => other.prepare('SELECT n FROM t ORDER BY n').pluck().all() as number[];
  let undone = 0;
  const batch = new WriteBatch(db, () => undone++);
  // What a request's handler does: its own transaction, nested (a savepoint) inside the batch.
  const insert = db.transaction((n: number, v: string) => db.prepare('INSERT INTO t (n, v) VALUES (?, ?)').run(n, v).changes);
  return { db, batch, seen, insert, undone: () => undone };
}

describe('WriteBatch', () => {
  it('writes that arrive together commit together, and none is answered before that commit', async () => {
    const { batch, seen, insert } = world();
    const answered: number[] = [];
    const writes = [1, 2, 3].map((n) => batch.run(() => insert(n, 'ok')).then(() => answered.push(n) && seen()));
    // Ran, but not committed: another connection sees nothing and no one is answered.
    expect(seen()).toEqual([]);
    await Promise.resolve();
    expect(answered).toEqual([]);
    // Every answer comes after the one commit that holds all three.
    expect(await Promise.all(writes)).toEqual([[1, 2, 3], [1, 2, 3], [1, 2, 3]]);
    expect(answered).toEqual([1, 2, 3]);
  });

  it('a write that fails is undone alone and answered at once; the others commit', async () => {
    const { batch, seen, insert } = world();
    const first = batch.run(() => insert(1, 'ok'));
    expect(() => batch.run(() => insert(2, 'bad'))).toThrow(/CHECK constraint/);
    const third = batch.run(() => insert(3, 'ok'));
    await Promise.all([first, third]);
    expect(seen()).toEqual([1, 3]);
  });

  it('commit() (what a read does first) commits the open batch at once; a later write starts another', async () => {
    const { batch, seen, insert } = world();
    const first = batch.run(() => insert(1, 'ok'));
    batch.commit();
    expect(seen()).toEqual([1]);
    await first;
    const second = batch.run(() => insert(2, 'ok'));
    expect(seen()).toEqual([1]);
    await second;
    expect(seen()).toEqual([1, 2]);
  });

  it('when the database rolls the batch back, every write in it is refused and the caches are told', async () => {
    const { db, batch, seen, insert, undone } = world();
    const first = batch.run(() => insert(1, 'ok'));
    const second = batch.run(() => insert(2, 'ok'));
    // What SQLite does on some I/O errors: the whole transaction is gone.
    db.exec('ROLLBACK');
    await expect(first).rejects.toThrow(/rolled back/);
    await expect(second).rejects.toThrow(/rolled back/);
    expect(undone()).toBe(1);
    expect(seen()).toEqual([]);
    // The next write starts a new batch and commits.
    await batch.run(() => insert(3, 'ok'));
    expect(seen()).toEqual([3]);
  });

  it('two services of one process on one database (two profiles of the embedded sandbox): a write of one commits the other\'s open batch first instead of waiting on its lock', async () => {
    const { db, batch, seen, insert } = world();
    const second = new Database(db.name) as unknown as Db;
    // No busy wait: a write that found the other connection's transaction open would fail at once.
    second.pragma('busy_timeout = 0');
    const other = new WriteBatch(second, () => undefined);
    const insertThere = second.transaction((n: number) => second.prepare("INSERT INTO t (n, v) VALUES (?, 'ok')").run(n).changes);
    const first = batch.run(() => insert(1, 'ok'));
    const then = other.run(() => insertThere(2));
    const last = batch.run(() => insert(3, 'ok'));
    await Promise.all([first, then, last]);
    expect(seen()).toEqual([1, 2, 3]);
    second.close();
  });

  it('an answer that depends on the open batch (an Idempotency-Key replayed from it) waits for its commit, and fails with it', async () => {
    const { db, batch, insert } = world();
    expect(await batch.after('nothing open')).toBe('nothing open');
    const first = batch.run(() => insert(1, 'ok'));
    let answered = false;
    const replay = batch.after('replayed').then((v) => ((answered = true), v));
    await Promise.resolve();
    expect(answered).toBe(false);
    expect(await replay).toBe('replayed');
    await first;
    const second = batch.run(() => insert(2, 'ok'));
    const replayed = batch.after('replayed again');
    db.exec('ROLLBACK');
    await expect(second).rejects.toThrow(/rolled back/);
    await expect(replayed).rejects.toThrow(/rolled back/);
  });

  it('a failing COMMIT refuses every write of the batch (none answered as written)', async () => {
    const { db, batch, seen, insert, undone } = world();
    // A deferred foreign key fails only at COMMIT.
    db.exec('CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (p INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)');
    db.pragma('foreign_keys = ON');
    const first = batch.run(() => insert(1, 'ok'));
    const orphan = batch.run(() => db.prepare('INSERT INTO child (p) VALUES (42)').run());
    await expect(first).rejects.toThrow(/FOREIGN KEY/);
    await expect(orphan).rejects.toThrow(/FOREIGN KEY/);
    expect(undone()).toBe(1);
    expect(seen()).toEqual([]);
    expect(db.inTransaction).toBe(false);
  });
});
