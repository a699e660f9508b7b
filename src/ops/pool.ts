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
    this.limit = max;
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

  async acquire(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      signal?.throwIfAborted();
      const wait = this.pausedUntil - Date.now();
      if (wait > 0) await sleep(wait, signal);
      else if (this.active < this.limit) break;
      else await new Promise<void>((resolve) => this.waiters.push(resolve));
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

  private wake(): void {
    while (this.waiters.length && this.active < this.limit) this.waiters.shift()!();
  }
}

/** Runs `worker` over every item with the governor's concurrency; stops taking work when aborted. */
export async function runPool<T>(items: AsyncIterable<T> | Iterable<T>, worker: (item: T) => Promise<void>, governor: Governor, signal?: AbortSignal): Promise<void> {
  const running = new Set<Promise<void>>();
  let failure: unknown = null;
  for await (const item of items) {
    if (failure) break;
    const release = await governor.acquire(signal);
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
  await Promise.all(running);
  if (failure) throw failure;
}

export { sleep };
