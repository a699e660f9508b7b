import type { ApiClient } from '../core/client.js';
import { CliError, WaitTimeout } from '../core/errors.js';
import { sleep } from '../core/retry.js';
import type { IO } from '../cli/io.js';

const TERMINAL = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

export interface JobLike {
  id: string;
  state?: string;
  status?: string;
  scheduledDate?: string;
}

/**
 * Polls a job (publishing job `state`, bulk or localization job `status`) until it finishes.
 * COMPLETED returns it; FAILED or CANCELLED is an error (exit 1); still pending at the deadline
 * is a WaitTimeout (exit 8). Each change of state is noted on a terminal.
 */
export async function waitForJob<T extends JobLike>(client: ApiClient, url: string, opts: { timeoutMs: number; intervalMs: number; io: Pick<IO, 'note'>; signal?: AbortSignal; what?: string }): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  const what = opts.what ?? 'Job';
  let last = '';
  for (;;) {
    const job = await client.get<T>(url);
    const state = job.state ?? job.status ?? 'UNKNOWN';
    if (state !== last) {
      opts.io.note(`${new Date().toISOString().slice(11, 19)}  ${job.id}  ${state}${state === 'WAITING' && job.scheduledDate ? ` (scheduled for ${job.scheduledDate})` : ''}`);
      last = state;
    }
    if (TERMINAL.has(state)) {
      if (state === 'COMPLETED') return job;
      throw new CliError(`${what} ${job.id} ended ${state}`, 1);
    }
    if (Date.now() >= deadline) throw new WaitTimeout(`${what} ${job.id} is still ${state} when the wait timed out`);
    await sleep(Math.min(opts.intervalMs, Math.max(0, deadline - Date.now())), opts.signal);
  }
}
