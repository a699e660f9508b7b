import type { ApiClient, RetryInfo } from '../core/client.js';
import { sleep } from '../core/retry.js';

/**
 * Bounded concurrency under a rate governor. Workers take a slot before each unit of work. The
 * governor halves the number of slots when the service pushes back (429, 5xx) and pauses every
 * worker until a Retry-After has passed; after a run of successes it lets one more in, up to
 * the configured concurrency (additive increase, multiplicative decrease).
 */
export class Governor {
  limit: number;
  private active = 0;
  private pausedUntil = 0;
  private successes = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(readonly max: number) {
    this.limit = Math.max(1, max);
  }

  /** The service pushed back: fewer slots, and no new work until `delayMs` has passed. */
  throttle(delayMs = 0): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.successes = 0;
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + delayMs);
  }

  success(): void {
    if (++this.successes >= this.limit * 4 && this.limit < this.max) {
      this.limit++;
      this.successes = 0;
      this.wake();
    }
  }

  /** Slows down whenever the client waits before a retry (429 with Retry-After, 5xx, resets). */
  watch(client: ApiClient): () => void {
    const listener = (info: RetryInfo) => this.throttle(info.retryAfterMs ?? 0);
    client.retryListeners.add(listener);
    return () => client.retryListeners.delete(listener);
  }

  get running(): number {
    return this.active;
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      signal?.throwIfAborted();
      const wait = this.pausedUntil - Date.now();
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

  push(...items: T[]): void {
    this.items.push(...items);
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
