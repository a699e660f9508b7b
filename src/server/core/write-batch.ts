import type { Db } from './db.js';

/**
 * Group commit: the writes that arrive together share one transaction.
 *
 * A commit writes every page the transaction touched to the WAL; consecutive creates touch the
 * same table, index and full-text pages, so ten of them committed together write a fraction of
 * what ten commits do (a create alone wrote 22 pages). Each write still runs in its own savepoint
 * (a failing one undoes only itself), and none is answered before the commit that holds it: the
 * batch commits once the event loop has taken in the requests that were already waiting
 * (setImmediate). Anything else that reads or writes outside a batch (reads, async routes, the
 * scheduler's timer, close) commits the open batch first, so no one reads a write that might not
 * be committed.
 */
/**
 * The batches of this process with a transaction open. Two services of one process can share a
 * database (two profiles of the embedded sandbox): the second one's BEGIN would wait on the
 * first one's lock, and the first could not commit while the thread waits. So a batch commits
 * the others before it begins.
 */
const openBatches = new Set<WriteBatch>();

export class WriteBatch {
  private open = false;
  /** The batch is a savepoint inside a transaction held open around it (Service.hold), not a transaction of its own. */
  private nested = false;
  private waiting: { resolve(): void; reject(err: unknown): void }[] = [];

  constructor(
    private readonly db: Db,
    /** The commit failed and every write in the batch was undone: what was cached of them is wrong. */
    private readonly onUndone: () => void,
  ) {}

  /**
   * Runs `write` now, in the open batch (starting one), and resolves with what it returned once
   * the batch has committed. A write that throws is answered at once (its savepoint undone by the
   * caller's nested transaction); the others in the batch are unaffected.
   */
  run<T>(write: () => T): Promise<T> {
    this.begin();
    let result: T;
    try {
      result = write();
    } catch (err) {
      // Some errors (disk full, I/O) make SQLite roll the whole transaction back.
      if (!this.db.inTransaction) this.undone(err);
      throw err;
    }
    if (!this.db.inTransaction) {
      const err = new Error('The write was rolled back by the database');
      this.undone(err);
      return Promise.reject(err);
    }
    return this.after(result);
  }

  /**
   * `value` once the open batch has committed (at once when none is open): for an answer read
   * from the batch's writes, such as a reply replayed for an Idempotency-Key sent twice at once.
   */
  after<T>(value: T): Promise<T> {
    if (!this.open) return Promise.resolve(value);
    return new Promise<T>((resolve, reject) => this.waiting.push({ resolve: () => resolve(value), reject }));
  }

  /** Commits the open batches of the other services of this process: before anything here may take the write lock outside this batch. */
  commitOthers(): void {
    for (const other of openBatches) if (other !== this) other.commit();
  }

  /** Commits the open batch (if any) and answers its writes. */
  commit(): void {
    if (!this.open) return;
    if (!this.db.inTransaction) return this.undone(new Error('The batch was rolled back by the database'));
    const waiting = this.waiting;
    this.waiting = [];
    this.open = false;
    openBatches.delete(this);
    try {
      this.db.exec(this.nested ? 'RELEASE cms_batch' : 'COMMIT');
    } catch (err) {
      this.waiting = waiting;
      this.open = true;
      openBatches.add(this);
      return this.undone(err);
    }
    for (const w of waiting) w.resolve();
  }

  private begin(): void {
    if (this.open) return;
    this.commitOthers();
    this.nested = this.db.inTransaction;
    this.db.exec(this.nested ? 'SAVEPOINT cms_batch' : 'BEGIN IMMEDIATE');
    this.open = true;
    openBatches.add(this);
    setImmediate(() => this.commit());
  }

  private undone(err: unknown): void {
    const waiting = this.waiting;
    this.waiting = [];
    this.open = false;
    openBatches.delete(this);
    if (this.db.inTransaction) {
      try {
        // Nested: only the batch's own writes are undone (ROLLBACK TO keeps the savepoint; RELEASE ends it).
        this.db.exec(this.nested ? 'ROLLBACK TO cms_batch; RELEASE cms_batch' : 'ROLLBACK');
      } catch {
        // Rolled back already.
      }
    }
    this.onUndone();
    for (const w of waiting) w.reject(err);
  }
}
