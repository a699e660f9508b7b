// Date ranges of DATE facets, in the syntax the hosted service's clients send
// (range {start: 'NOW', end: '-7:DAYS'}, filter values ['-7:DAYS,NOW']):
//
//   bound  NOW                      the sandbox clock
//          -7:DAYS, +2:HOURS        relative to NOW: MINUTES, HOURS, DAYS, WEEKS, MONTHS or YEARS
//                                   (singular too, any case)
//          2024-05-01               a whole day (UTC)
//          2024-05-01T10:30:00Z     an instant (ISO 8601 with Z or an offset)
//   range  <bound>,<bound>          between the two, both ends included, in either order;
//                                   one side may be empty for an open end (",NOW")
//          <day>:<day>              shorthand in whole days: NOW, NOW-7, NOW+1 or -7, +1
//                                   (-7:NOW is -7:DAYS,NOW; -30:-7 is -30:DAYS,-7:DAYS)

export interface Span {
  from: number;
  to: number;
}

/** A bound of a range: the span it stands for at a given time (a point, or a whole day). */
export type Bound = (nowMs: number) => Span;

/** A range resolved at a time: ISO instants, an absent end is open. */
export interface ResolvedRange {
  from?: string;
  to?: string;
}

const UNITS = ['MINUTE', 'HOUR', 'DAY', 'WEEK', 'MONTH', 'YEAR'] as const;
type Unit = (typeof UNITS)[number];
const FIXED_MS: Partial<Record<Unit, number>> = { MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000, WEEK: 604_800_000 };
const DAY_MS = 86_400_000;
/** Years 0..9999: ISO strings keep the stored format there, so they compare as text. */
const MIN_MS = Date.parse('0000-01-01T00:00:00.000Z');
const MAX_MS = Date.parse('9999-12-31T23:59:59.999Z');

const RELATIVE = /^([+-]?\d{1,6}):([A-Za-z]+?)S?$/i;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/i;

export function parseBound(text: string): Bound | null {
  const t = text.trim();
  if (/^NOW$/i.test(t)) return (now) => ({ from: now, to: now });
  const rel = RELATIVE.exec(t);
  if (rel) {
    const unit = rel[2]!.toUpperCase() as Unit;
    if (!UNITS.includes(unit)) return null;
    const amount = Number(rel[1]);
    return (now) => point(shift(now, amount, unit));
  }
  if (DATE_ONLY.test(t) && isCalendarDay(t)) {
    const start = Date.parse(`${t}T00:00:00Z`);
    return inRange(start) ? () => ({ from: start, to: start + DAY_MS - 1 }) : null;
  }
  if (DATE_TIME.test(t) && isCalendarDay(t)) {
    const at = Date.parse(t);
    return inRange(at) ? () => point(at) : null;
  }
  return null;
}

/** Whether the YYYY-MM-DD a text starts with exists (Date.parse takes 2024-02-31 as March 2). */
function isCalendarDay(text: string): boolean {
  const [y, m, d] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** `<bound>,<bound>` (either side may be empty, not both) or `<day>:<day>`; null otherwise. */
export function parseRangeText(text: string): [Bound | null, Bound | null] | null {
  const days = DAY_RANGE.exec(text.trim());
  if (days) return [dayBound(days[1]!), dayBound(days[2]!)];
  const parts = text.split(',');
  if (parts.length !== 2) return null;
  return boundPair(parts[0]!, parts[1]!);
}

const DAY = '(NOW(?:[+-]\\d{1,6})?|[+-]?\\d{1,6})';
const DAY_RANGE = new RegExp(`^${DAY}:${DAY}$`, 'i');

/** NOW, NOW-7, NOW+1, -7 or +1: whole days from now. */
function dayBound(text: string): Bound {
  const offset = Number(text.replace(/^NOW/i, '') || 0);
  return (now) => point(shift(now, offset, 'DAY'));
}

/** The bounds of a {start, end} range object, each optional; null when one is not a bound. */
export function parseRangeObject(range: { start?: string; end?: string }): [Bound | null, Bound | null] | null {
  return boundPair(range.start ?? '', range.end ?? '', true);
}

/** Resolves a pair of bounds at a time: the earliest start to the latest end. */
export function resolveRange([a, b]: [Bound | null, Bound | null], nowMs: number): ResolvedRange {
  const spans = [a, b].filter((x): x is Bound => x !== null).map((bound) => bound(nowMs));
  if (spans.length < 2) {
    // One bound: it closes the side it was written on (start..., or ...end).
    const only = spans[0];
    if (!only) return {};
    return a ? { from: iso(only.from) } : { to: iso(only.to) };
  }
  return { from: iso(Math.min(...spans.map((s) => s.from))), to: iso(Math.max(...spans.map((s) => s.to))) };
}

function boundPair(first: string, second: string, bothMayBeEmpty = false): [Bound | null, Bound | null] | null {
  const a = first.trim() ? parseBound(first) : null;
  const b = second.trim() ? parseBound(second) : null;
  if ((first.trim() && !a) || (second.trim() && !b)) return null;
  if (!a && !b && !bothMayBeEmpty) return null;
  return [a, b];
}

/** now moved by amount units; far moves stop at the ends of the representable years. */
function shift(now: number, amount: number, unit: Unit): number {
  const fixed = FIXED_MS[unit];
  let ms: number;
  if (fixed) ms = now + amount * fixed;
  else {
    const d = new Date(now);
    if (unit === 'MONTH') d.setUTCMonth(d.getUTCMonth() + amount);
    else d.setUTCFullYear(d.getUTCFullYear() + amount);
    ms = d.getTime();
  }
  if (!Number.isFinite(ms)) return amount < 0 ? MIN_MS : MAX_MS;
  return Math.min(Math.max(ms, MIN_MS), MAX_MS);
}

const point = (ms: number): Span => ({ from: ms, to: ms });

const inRange = (ms: number): boolean => Number.isFinite(ms) && ms >= MIN_MS && ms <= MAX_MS;
const iso = (ms: number): string => new Date(ms).toISOString();
