import type { ServiceHost } from './context.js';
import { stmt } from './statements.js';
import type { Db } from './db.js';
import { SLOTTED_KINDS, type Task, type TaskKinds, type TaskModule } from './tasks.js';

export type { Task } from './tasks.js';

/** What the scheduler needs of the service besides what tasks get: its timer pass and error report. */
export interface SchedulerHost extends ServiceHost {
  tick(): Promise<void>;
  readonly options: ServiceHost['options'] & { onError?: (err: unknown, req: { method: string; url: string }) => void };
}

/** How long a process may hold an asynchronous task before another may take it over. */
const LEASE_MS = 60_000;
const BATCH = 200;
const MAX_ROUNDS = 50;
/** Slotted tasks (network deliveries) in flight at once; the rest wait, pending, for a free slot. */
export const MAX_INFLIGHT = 8;
const SLOTTED_SQL = SLOTTED_KINDS.map((k) => `'${k}'`).join(', ');

/**
 * Runs due tasks in order (due time, then creation). Synchronous tasks (publishing, localization,
 * bulk jobs) run inside one transaction each, before the request that found them due is answered.
 * Asynchronous ones (webhook deliveries) are claimed with a lease and finish in the background.
 * Slotted ones (deliveries over the network, SLOTTED_KINDS) share MAX_INFLIGHT slots fairly: a
 * free slot goes to the tenant (hub) with the fewest in flight, the one served longest ago on a
 * tie, and within it to the ref (webhook) likewise; so one hub's stalled receivers delay another
 * hub's delivery by at most one attempt's time, never by its whole backlog. Other asynchronous
 * kinds (deliveries inside the sandbox) take no slot.
 */
export class Scheduler {
  private pass: Promise<void> | null = null;
  /** When work is next due (sandbox time) and when a lease next expires (real time); null: unknown. */
  private next: { dueAt: number; leaseAt: number } | null = null;
  private readonly inflight = new Set<Promise<void>>();
  /** Slotted tasks in flight, by tenant and by ref; when each tenant and ref was last given a slot. */
  private readonly slotted = { count: 0, tenants: new Map<string, number>(), refs: new Map<string, number>() };
  private readonly servedAt = new Map<string, number>();
  private serveSeq = 0;
  private timer: NodeJS.Timeout | null = null;
  /** A pass left due deliveries pending for lack of a slot: a finishing one starts the next pass. */
  private deferred = false;

  constructor(
    private readonly service: SchedulerHost,
    private readonly taskKinds: TaskKinds,
  ) {}

  private get db(): Db {
    return this.service.db;
  }

  enqueue(kind: string, ref: string, dueAt: number, payload: unknown = {}): number {
    const info = stmt(this.db, 'INSERT INTO tasks (kind, ref, due_at, payload) VALUES (?, ?, ?, ?)').run(kind, ref, dueAt, JSON.stringify(payload));
    return Number(info.lastInsertRowid);
  }

  /** Cancels pending tasks of a kind for a reference (an unscheduled edition's publication). */
  cancel(kind: string, ref: string): number {
    return stmt(this.db, "UPDATE tasks SET state = 'cancelled' WHERE kind = ? AND ref = ? AND state = 'pending'").run(kind, ref).changes;
  }

  /** Asynchronous tasks (deliveries) are under way: they will write their outcome when they finish. */
  get busy(): boolean {
    return this.inflight.size > 0;
  }

  /** Forgets when work is next due: the tasks may have changed. */
  forgetNextDue(): void {
    this.next = null;
  }

  runDue(): Promise<void> {
    if (this.next && this.service.clock.now() < this.next.dueAt && Date.now() < this.next.leaseAt) return Promise.resolve();
    this.pass ??= this.runPass().finally(() => {
      this.pass = null;
    });
    return this.pass;
  }

  private async runPass(): Promise<void> {
    let ran = false;
    // Work can make more work due now (a publication enqueues its webhook deliveries): keep
    // going until nothing is due, with a bound so a task that re-enqueues itself cannot spin.
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const now = this.service.clock.now();
      // Slotted kinds are not read here: a backlog of them must not hide the work behind it.
      const due = stmt(
        this.db,
        `SELECT id, kind, ref, due_at, attempts, payload FROM tasks
         WHERE ((state = 'pending' AND due_at <= ?) OR (state = 'running' AND lease_until < ?)) AND kind NOT IN (${SLOTTED_SQL})
         ORDER BY due_at, id LIMIT ${BATCH}`,
      ).all(now, Date.now()) as Task[];
      let progressed = false;
      for (const task of due) {
        const mod = await this.taskKinds[task.kind]?.();
        if (!mod) {
          stmt(this.db, "UPDATE tasks SET state = 'failed', last_error = ? WHERE id = ?").run(`unknown task kind ${task.kind}`, task.id);
          continue;
        }
        progressed = true;
        if (mod.async) this.startAsync(task, mod);
        else this.runSync(task, mod);
      }
      if (await this.fillSlots(now)) progressed = true;
      if (!progressed) break;
      ran = true;
    }
    if (ran) this.service.markChanged();
    const dueAt = stmt(this.db, "SELECT min(due_at) FROM tasks WHERE state = 'pending'").pluck().get() as number | null;
    const leaseAt = stmt(this.db, "SELECT min(lease_until) FROM tasks WHERE state = 'running'").pluck().get() as number | null;
    this.next = { dueAt: dueAt ?? Infinity, leaseAt: leaseAt ?? Infinity };
  }

  /**
   * Gives free slots to due slotted tasks, fairly (see the class comment); true when one started.
   * Reads one task per (kind, ref) at a time, so a long backlog costs one row per webhook.
   */
  private async fillSlots(now: number): Promise<boolean> {
    const dueWhere = `((state = 'pending' AND due_at <= ?) OR (state = 'running' AND lease_until < ?))`;
    const heads = stmt(this.db, `SELECT kind, ref, min(id) AS id FROM tasks WHERE kind IN (${SLOTTED_SQL}) AND ${dueWhere} GROUP BY kind, ref`).all(now, Date.now()) as { kind: string; ref: string; id: number }[];
    if (!heads.length) return false;
    if (this.slotted.count >= MAX_INFLIGHT) {
      // At capacity, deliveries stay pending until one in flight finishes (it starts the next pass).
      this.deferred = true;
      return false;
    }
    const candidates: { kind: string; ref: string; id: number; tenant: string; mod: TaskModule }[] = [];
    for (const h of heads) {
      const mod = await this.taskKinds[h.kind]?.();
      if (!mod) {
        stmt(this.db, "UPDATE tasks SET state = 'failed', last_error = ? WHERE kind = ? AND ref = ? AND state = 'pending'").run(`unknown task kind ${h.kind}`, h.kind, h.ref);
        continue;
      }
      candidates.push({ ...h, tenant: mod.tenantOf?.(this.db, h.ref) ?? h.ref, mod });
    }
    const load = (m: Map<string, number>, k: string) => m.get(k) ?? 0;
    const served = (k: string) => this.servedAt.get(k) ?? -1;
    let started = false;
    while (this.slotted.count < MAX_INFLIGHT && candidates.length) {
      let best = 0;
      for (let i = 1; i < candidates.length; i++) {
        const a = candidates[i]!;
        const b = candidates[best]!;
        const byTenant = load(this.slotted.tenants, a.tenant) - load(this.slotted.tenants, b.tenant) || served(`t:${a.tenant}`) - served(`t:${b.tenant}`);
        const byRef = load(this.slotted.refs, a.ref) - load(this.slotted.refs, b.ref) || served(`r:${a.ref}`) - served(`r:${b.ref}`);
        if (byTenant < 0 || (byTenant === 0 && (byRef < 0 || (byRef === 0 && a.id < b.id)))) best = i;
      }
      const pick = candidates[best]!;
      const task = stmt(this.db, 'SELECT id, kind, ref, due_at, attempts, payload FROM tasks WHERE id = ?').get(pick.id) as Task | undefined;
      if (task && this.startAsync(task, pick.mod, { tenant: pick.tenant, ref: pick.ref })) {
        started = true;
        this.servedAt.set(`t:${pick.tenant}`, ++this.serveSeq);
        this.servedAt.set(`r:${pick.ref}`, this.serveSeq);
      }
      // The ref's next due task, if any, takes its place among the candidates.
      const next = stmt(this.db, `SELECT min(id) FROM tasks WHERE kind = ? AND ref = ? AND id > ? AND ${dueWhere}`).pluck().get(pick.kind, pick.ref, pick.id, now, Date.now()) as number | null;
      if (next === null) candidates.splice(best, 1);
      else pick.id = next;
    }
    if (candidates.length) this.deferred = true;
    // Tenants and refs with nothing in flight need no memory beyond the order they were served in.
    if (this.servedAt.size > 10_000) for (const k of [...this.servedAt.keys()].slice(0, 5_000)) this.servedAt.delete(k);
    return started;
  }

  private runSync(task: Task, mod: TaskModule): void {
    this.db
      .transaction(() => {
        // Another process may have run it between our read and this transaction.
        const claimed = stmt(this.db, "UPDATE tasks SET state = 'done', attempts = attempts + 1 WHERE id = ? AND state IN ('pending', 'running')").run(task.id);
        if (claimed.changes === 0) return;
        try {
          mod.run(this.service, task);
        } catch (err) {
          stmt(this.db, "UPDATE tasks SET state = 'failed', last_error = ? WHERE id = ?").run(String((err as Error)?.message ?? err), task.id);
        }
      })
      .immediate();
  }

  /** Starts an asynchronous task (holding a slot when `slot` is given); false when another process had claimed it. */
  private startAsync(task: Task, mod: TaskModule, slot?: { tenant: string; ref: string }): boolean {
    const claimed = stmt(this.db, "UPDATE tasks SET state = 'running', lease_until = ?, attempts = attempts + 1 WHERE id = ? AND (state = 'pending' OR (state = 'running' AND lease_until < ?))").run(
      Date.now() + LEASE_MS,
      task.id,
      Date.now(),
    );
    if (claimed.changes === 0) return false;
    const bump = (m: Map<string, number>, k: string, by: number) => {
      const n = (m.get(k) ?? 0) + by;
      if (n > 0) m.set(k, n);
      else m.delete(k);
    };
    if (slot) {
      this.slotted.count++;
      bump(this.slotted.tenants, slot.tenant, 1);
      bump(this.slotted.refs, slot.ref, 1);
    }
    const p = Promise.resolve()
      .then(() => mod.run(this.service, task))
      .then(
        () => void stmt(this.db, "UPDATE tasks SET state = 'done', lease_until = NULL WHERE id = ? AND state = 'running'").run(task.id),
        (err) => void stmt(this.db, "UPDATE tasks SET state = 'failed', last_error = ? WHERE id = ?").run(String((err as Error)?.message ?? err), task.id),
      )
      .catch(() => undefined)
      .finally(() => {
        this.inflight.delete(p);
        if (slot) {
          this.slotted.count--;
          bump(this.slotted.tenants, slot.tenant, -1);
          bump(this.slotted.refs, slot.ref, -1);
        }
        this.service.markChanged();
        if (this.deferred && this.db.open) {
          this.deferred = false;
          this.service.tick().catch((err) => this.service.options.onError?.(err, { method: 'TICK', url: 'scheduler' }));
        }
      });
    this.inflight.add(p);
    return true;
  }

  /** Runs due work every `intervalMs` (serve mode), re-reading the shared clock each time. */
  start(intervalMs = 250): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      if (!this.db.open) return;
      this.service.tick().catch((err) => this.service.options.onError?.(err, { method: 'TICK', url: 'scheduler' }));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Resolves when background work has settled, or after timeoutMs. */
  /** Waits for the work under way to finish, starting none (a sandbox being replaced). */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.inflight.size && Date.now() < deadline) {
      await Promise.race([Promise.race([...this.inflight]), new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())).unref())]);
    }
  }

  async idle(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    // Start whatever is due first: a CLI process must not exit with a delivery it could send
    // (more than MAX_INFLIGHT of them start as earlier ones finish).
    if (this.db.open) await this.service.tick();
    while (this.inflight.size && Date.now() < deadline) {
      await Promise.race([Promise.race([...this.inflight]), new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())).unref())]);
      if (this.db.open) await this.service.tick();
    }
  }
}
