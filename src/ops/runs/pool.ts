import { appendFileSync } from 'node:fs';
import type { ApiClient, RetryInfo } from '../../core/client.js';
import { sleep } from '../../core/retry.js';

/** Without --concurrency: where a run starts, and how far the governor may let it grow. */
export const START_CONCURRENCY = 8;
export const MAX_CONCURRENCY = 64;
/** Pushback counts as sustained from this share of the recent answers (a rate limit, not a stray 429). */
const SUSTAINED = 0.25;
const WINDOW = 40;
const MIN_JUDGED = 10;
/** Answer times kept for the median, and how many make a median worth comparing. */
const TIMES = 20;
const MIN_TIMED = 5;

export interface GovernorOptions {
  /** The ceiling when the concurrency is not fixed (default MAX_CONCURRENCY): work holding much memory per unit sets a lower one. */
  max?: number;
  /** The clock (tests move their own). */
  now?: () => number;
  /** Appends one NDJSON line per change of the limit (CMS_GOVERNOR_LOG names the file). */
  log?: string;
}

/**
 * Bounded concurrency under a rate governor. Workers take a slot before each unit of work.
 *
 * Without a fixed concurrency a run starts at START_CONCURRENCY slots and grows while the
 * service keeps up: one more slot per success at first (doubling per round trip), and after the
 * first pushback or slow answer one more per `limit` successes in a row, up to
 * MAX_CONCURRENCY. It stops growing while answers take more than twice as long as when they were
 * fastest (median of the last 20): the service is queueing, more requests would only wait. `--concurrency N` fixes the ceiling at N
 * (start there, regrow there after a cut).
 *
 * Pushback (a wait before a retry: 429, 5xx, resets) ends the fast growth and restarts the count
 * of successes. When it is sustained (a quarter of the recent answers: a rate limit rather than a
 * stray refusal) the governor halves the slots and pauses new work until the Retry-After has
 * passed, once per episode. A stray refusal only delays its own request, by its Retry-After.
 */
export class Governor {
  limit: number;
  readonly max: number;
  private active = 0;
  private pausedUntil = 0;
  private successes = 0;
  private slowStart: boolean;
  /** How long the last answers took (ms); their median, and the lowest median seen. */
  private times: number[] = [];
  private medianMs = 0;
  private fastestMs = Infinity;
  /** The last answers, true for a pushback. */
  private recent: boolean[] = [];
  private cutUntil = -Infinity;
  private readonly waiters: (() => void)[] = [];
  private readonly now: () => number;
  private readonly log?: string;

  constructor(concurrency?: number, opts: GovernorOptions = {}) {
    this.max = Math.max(1, concurrency ?? opts.max ?? MAX_CONCURRENCY);
    this.limit = concurrency === undefined ? Math.min(START_CONCURRENCY, this.max) : this.max;
    this.slowStart = concurrency === undefined;
    this.now = opts.now ?? Date.now;
    this.log = opts.log ?? (process.env.CMS_GOVERNOR_LOG || undefined);
    this.record('start');
  }

  /** An answer that was not a pushback, and how long it took. */
  answered(ms: number): void {
    this.remember(false);
    this.times.push(ms);
    if (this.times.length > TIMES) this.times.shift();
    // Medians, not single answers: a busy machine delays some answers (and the first few) at random.
    const sorted = [...this.times].sort((a, b) => a - b);
    this.medianMs = sorted[sorted.length >> 1]!;
    if (this.times.length >= MIN_TIMED) this.fastestMs = Math.min(this.fastestMs, this.medianMs);
  }

  /** The service pushed back; `delayMs` is what the request waits before its retry. */
  pushback(delayMs = 0): void {
    this.remember(true);
    this.slowStart = false;
    this.successes = 0;
    const judged = this.recent.length;
    const refused = this.recent.filter(Boolean).length;
    if (judged >= MIN_JUDGED && refused >= judged * SUSTAINED && this.now() >= this.cutUntil) this.throttle(delayMs);
  }

  /** Fewer slots, and no new work until `delayMs` has passed. */
  throttle(delayMs = 0): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.successes = 0;
    this.slowStart = false;
    this.pausedUntil = Math.max(this.pausedUntil, this.now() + delayMs);
    // One cut per episode: the answers to requests already sent still carry the old pressure.
    this.cutUntil = this.now() + Math.max(delayMs, 2 * this.medianMs);
    this.recent = [];
    this.record('cut');
  }

  /** A unit of work succeeded. */
  success(): void {
    // Slots the run leaves idle (work waits on other work) say nothing about the service.
    if (this.limit >= this.max || this.active * 2 < this.limit || !this.keepingUp()) return;
    if (this.slowStart || ++this.successes >= this.limit) {
      this.limit++;
      this.successes = 0;
      this.record('grow');
      this.wake();
    }
  }

  /** Answers take at most twice as long as when they were fastest (plus a little for noise on fast links). */
  private keepingUp(): boolean {
    if (this.fastestMs === Infinity) return true;
    if (this.medianMs <= 2 * this.fastestMs + 5) return true;
    this.slowStart = false;
    return false;
  }

  private remember(pushback: boolean): void {
    this.recent.push(pushback);
    if (this.recent.length > WINDOW) this.recent.shift();
  }

  private record(event: string): void {
    if (!this.log) return;
    const line = { at: Date.now(), event, limit: this.limit, max: this.max, active: this.active, medianMs: Math.round(this.medianMs) };
    appendFileSync(this.log, `${JSON.stringify(line)}\n`);
  }

  /** Grows while answers stay fast, slows down whenever the client waits before a retry. */
  watch(client: ApiClient): () => void {
    const retried = (info: RetryInfo) => this.pushback(info.retryAfterMs ?? 0);
    const answered = (ms: number, status: number) => {
      if (status !== 429 && status < 500) this.answered(ms);
    };
    client.retryListeners.add(retried);
    client.answerListeners.add(answered);
    return () => {
      client.retryListeners.delete(retried);
      client.answerListeners.delete(answered);
    };
  }

  get running(): number {
    return this.active;
  }

  /** How long new work still waits for a pause the service asked for. */
  get pauseMs(): number {
    return Math.max(0, this.pausedUntil - this.now());
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      signal?.throwIfAborted();
      const wait = this.pausedUntil - this.now();
      if (wait > 0) await sleep(wait, signal);
      else if (this.active < this.limit) break;
      else await this.nextWake(signal);
    }
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.wake();
    };
  }

  private nextWake(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiters.indexOf(wake);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(signal!.reason);
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(wake);
    });
  }

  private wake(): void {
    while (this.waiters.length && this.active < this.limit) this.waiters.shift()!();
  }
}

/** Runs `worker` over every item with the governor's concurrency; stops taking work when aborted. */
export async function runPool<T>(items: AsyncIterable<T> | Iterable<T>, worker: (item: T) => Promise<void>, governor: Governor, signal?: AbortSignal): Promise<void> {
  const running = new Set<Promise<void>>();
  let failure: unknown = null;
  try {
    for await (const item of items) {
      if (failure) break;
      const release = await governor.acquire(signal);
      if (failure) {
        release();
        break;
      }
      const p = worker(item)
        .catch((err) => {
          failure ??= err;
        })
        .finally(() => {
          release();
          running.delete(p);
        });
      running.add(p);
    }
  } catch (err) {
    failure ??= err;
  }
  await Promise.all(running);
  if (failure) throw failure;
}

/**
 * Work that becomes known while other work runs (an item is ready once what it links to is
 * done): an async iterable that waits for pushes until closed. Aborting ends the wait.
 */
export class WorkQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  /** Index of the next item: shift() would copy the array on every take. */
  private head = 0;
  private closed = false;
  private waiting: { resolve: (r: IteratorResult<T>) => void; reject: (e: unknown) => void } | null = null;

  constructor(private readonly signal?: AbortSignal) {
    signal?.addEventListener('abort', () => this.waiting?.reject(signal.reason), { once: true });
  }

  /** Takes a list rather than arguments: a list as long as a run's items would overflow the stack as arguments. */
  push(items: readonly T[]): void {
    for (const item of items) this.items.push(item);
    this.flush();
  }

  close(): void {
    this.closed = true;
    this.flush();
  }

  get pending(): number {
    return this.items.length - this.head;
  }

  private shift(): T {
    const item = this.items[this.head++]!;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }

  private flush(): void {
    if (!this.waiting) return;
    if (this.pending) this.take({ value: this.shift(), done: false });
    else if (this.closed) this.take({ value: undefined, done: true });
  }

  private take(result: IteratorResult<T>): void {
    const w = this.waiting!;
    this.waiting = null;
    w.resolve(result);
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.signal?.aborted) return Promise.reject(this.signal.reason);
        if (this.pending) return Promise.resolve({ value: this.shift(), done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
      },
    };
  }
}

export { sleep };
