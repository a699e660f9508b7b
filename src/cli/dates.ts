import type { ApiClient } from '../core/client.js';
import { UsageError } from '../core/errors.js';
import { parseDuration } from '../server/clock.js';

/** The service's idea of now: the sandbox clock when there is one, else this machine's time. */
export async function serviceNow(client: ApiClient): Promise<number> {
  try {
    const clock = await client.get<{ now: string }>('/__sandbox/clock');
    const at = Date.parse(clock.now);
    if (!Number.isNaN(at)) return at;
  } catch {
    // A remote service has no /__sandbox: its clock is real time.
  }
  return Date.now();
}

/**
 * A date flag: an ISO 8601 date-time, or +<duration> / -<duration> from the service's now
 * (+90m, +2h, +1d, +1d12h). Returns an ISO string with milliseconds.
 */
export async function resolveDate(client: ApiClient, value: string, flag: string): Promise<string> {
  const relative = /^[+-]/.test(value) ? parseDuration(value.startsWith('+') ? value.slice(1) : value) : null;
  if (relative !== null) return new Date((await serviceNow(client)) + relative).toISOString();
  const at = Date.parse(value);
  if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new UsageError(`${flag} '${value}' is not a date`, 'Use an ISO date-time (2026-12-24T09:00:00Z) or a duration from now (+2h, +1d).');
  }
  return new Date(at).toISOString();
}
