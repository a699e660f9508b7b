import type { ApiClient } from '../core/client.js';
import { UsageError } from '../core/errors.js';
import { parseDuration } from '../server/core/clock.js';

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
 * A date flag: `now`, `today 09:00`, `tomorrow 09:00`, +<duration> / -<duration> from the
 * service's now (+90m, +2h, +1d12h), or an ISO 8601 date-time. A date-time without an offset
 * (and a bare date) is local time: TZ, the machine's zone, or UTC with --utc. Returns an ISO
 * string with milliseconds.
 */
export async function resolveDate(client: ApiClient, value: string, flag: string): Promise<string> {
  const needsNow = /^(now|today|tomorrow)\b|^[+-]/i.test(value.trim());
  checkDate(value, flag);
  return new Date(parseDateInput(value, needsNow ? await serviceNow(client) : Date.now())!).toISOString();
}

/** A usage error unless `value` is a date flag's value: for checks before any request is sent. */
export function checkDate(value: string, flag: string): void {
  impossibleDay(value, flag);
  if (parseDateInput(value, Date.now()) !== null) return;
  throw new UsageError(
    `${flag} '${value}' is not a date`,
    'Use now, today 09:00, tomorrow 09:00, a duration from now (+2h, +1d), or a date-time (2026-12-24T09:00, local time; 2026-12-24T09:00:00Z, UTC).',
  );
}

/** The instant a date flag names, relative to `now` (ms), or null when it is not a date. */
export function parseDateInput(value: string, now: number): number | null {
  // A negative duration on the command line arrives with U+2212 (see protectNegativeDurations).
  const text = value.trim().replace(/^\u2212/, '-');
  if (/^now$/i.test(text)) return now;
  if (/^[+-]/.test(text)) return relative(text, now);
  const day = /^(today|tomorrow)(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/i.exec(text);
  if (day) {
    const d = new Date(now);
    const at = new Date(d.getFullYear(), d.getMonth(), d.getDate() + (day[1]!.toLowerCase() === 'tomorrow' ? 1 : 0), Number(day[2] ?? 0), Number(day[3] ?? 0), Number(day[4] ?? 0));
    return validClock(day[2], day[3], day[4]) ? at.getTime() : null;
  }
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i.exec(text);
  if (!iso) return null;
  const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = '0', zone] = iso;
  if (!validClock(h, mi, sec) || !dayExists(Number(y), Number(mo), Number(d))) return null;
  const ms = Number(frac.padEnd(3, '0'));
  if (zone) {
    const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec), ms);
    if (zone.toUpperCase() === 'Z') return utc;
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    return utc - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(sec), ms).getTime();
}

/** Whether the calendar has this day (2026-02-30, 2026-04-31 are not days: Date would roll them into the next month). */
export function dayExists(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * A usage error naming a date that looks like one but is not in the calendar (2026-02-30):
 * said as such, rather than the general "not a date" (or, as before, a date moved into March).
 */
export function impossibleDay(value: string, flag: string): void {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!m || dayExists(Number(m[1]), Number(m[2]), Number(m[3]))) return;
  const [, y, mo, d] = m;
  const last = Number(mo) >= 1 && Number(mo) <= 12 ? new Date(Date.UTC(Number(y), Number(mo), 0)).getUTCDate() : undefined;
  throw new UsageError(
    `${flag} '${value}': the date ${y}-${mo}-${d} does not exist`,
    last ? `${y}-${mo} has ${last} days; the last is ${y}-${mo}-${last}.` : 'A month is 01 to 12.',
  );
}

/** A calendar day flag (YYYY-MM-DD) that the service reads as it is (analytics ranges): checked, not parsed. */
export function checkDay(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value.trim())) throw new UsageError(`${flag} '${value}' is not a date`, 'Use YYYY-MM-DD, e.g. 2031-05-01.');
  impossibleDay(value, flag);
  return value.trim();
}

function relative(text: string, now: number): number | null {
  const ms = parseDuration(text.startsWith('+') ? text.slice(1) : text);
  return ms === null ? null : now + ms;
}

function validClock(h?: string, m?: string, s?: string): boolean {
  return Number(h ?? 0) <= 23 && Number(m ?? 0) <= 59 && Number(s ?? 0) <= 59;
}

/** An instant as people read it: local date and time with the zone's offset (2026-12-24 09:00:00 +01:00). */
export function localStamp(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  const offset = -d.getTimezoneOffset();
  const zone = `${offset < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())} ${zone}`;
}
