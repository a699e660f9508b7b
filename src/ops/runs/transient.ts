import { ApiError, CliError } from '../../core/errors.js';
import { isNetworkError } from '../../core/retry.js';

/**
 * A unit of a bulk run that failed only because the service or the network refused it for now
 * (429, 5xx, unreachable, no answer in time), after the client's own retries: worth another try
 * later in the same run. Anything the service decided (400, 403, 404, 409) is final.
 */
export function isTransient(err: unknown): boolean {
  if (err instanceof ApiError) return err.status === 429 || err.status >= 500;
  if (err instanceof CliError) return err.errorCode === 'UNREACHABLE' || /^No complete answer from /.test(err.message);
  return isNetworkError(err);
}

/** How many more times a unit that failed transiently is tried, and the most the retries add to a run. */
export const TRANSIENT_ROUNDS = 3;
export const TRANSIENT_WINDOW_MS = 10 * 60_000;

/**
 * The units a run tries again: each at most TRANSIENT_ROUNDS more times, each after a pause that
 * grows with its round (the service had just refused it six times), and none once the window
 * since the first such failure has passed. What it refuses, the run reports as failed.
 */
export class TransientRetries {
  private readonly rounds = new Map<string, number>();
  private firstAt = 0;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly pauseMs = (round: number) => 1_000 * 2 ** round,
  ) {}

  /** Schedules `retry` when `err` is transient and the unit has rounds left; false when the failure stands. */
  later(key: string, err: unknown, retry: () => void, signal?: AbortSignal): boolean {
    if (signal?.aborted || !isTransient(err)) return false;
    const round = this.rounds.get(key) ?? 0;
    if (round >= TRANSIENT_ROUNDS) return false;
    if (!this.firstAt) this.firstAt = this.now();
    if (this.now() - this.firstAt > TRANSIENT_WINDOW_MS) return false;
    this.rounds.set(key, round + 1);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!signal?.aborted) retry();
    }, this.pauseMs(round));
    this.timers.add(timer);
    return true;
  }

  /** Units that needed another try (for the summary). */
  get retried(): number {
    return this.rounds.size;
  }

  /** Stops every pending retry (the run was aborted). */
  cancel(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
