import { badRequest } from '../core/errors.js';
import { ORDER_BY, type OrderBy } from './analytics.js';
import { parseTags, TagSyntaxError, type TagExpression } from './tags.js';

// The query parameters of the analytics reports and their rules. A report reads only the
// parameters of its own link template; others are ignored like any unknown parameter.

export const REPORTS = ['top-searches', 'top-hits', 'searches-with-no-results', 'top-filters-no-result-search', 'users-count', 'searches-count', 'no-results-rate'] as const;
export type Report = (typeof REPORTS)[number];

const PERIOD = ['startDate', 'endDate', 'tags', 'includeReplicas'];
const LIST = ['limit', 'offset', ...PERIOD];

/** Each report's parameters, in the order of its link template. */
export const REPORT_PARAMS: Record<Report, readonly string[]> = {
  'top-searches': ['clickAnalytics', 'orderBy', 'direction', ...LIST],
  'top-hits': ['search', ...LIST],
  'searches-with-no-results': LIST,
  'top-filters-no-result-search': ['search', ...LIST],
  'users-count': PERIOD,
  'searches-count': PERIOD,
  'no-results-rate': PERIOD,
};

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 1000;
const DAY_MS = 86_400_000;
/** Longest period a report covers: its dates list has one entry per day. */
export const MAX_DAYS = 366;

export interface AnalyticsParams {
  /** First and last millisecond of the period (inclusive). */
  from: number;
  to: number;
  /** Every day of the period, YYYY-MM-DD. */
  days: string[];
  tags: TagExpression | null;
  includeReplicas: boolean;
  limit: number;
  offset: number;
  search: string | null;
  clickAnalytics: boolean;
  orderBy: OrderBy;
  direction: 'asc' | 'desc';
}

/** Reads and checks the report's parameters; `now` is the sandbox clock. Any rule broken: 400. */
export function analyticsParams(report: Report, query: URLSearchParams, now: number, isReplica: boolean): AnalyticsParams {
  const q = (name: string) => (REPORT_PARAMS[report].includes(name) ? query.get(name) : null);
  const includeReplicas = boolParam('includeReplicas', q('includeReplicas')) ?? false;
  if (includeReplicas && isReplica) {
    throw badRequest('includeReplicas is only allowed on a primary index; this index is a replica', { code: 'REPLICA_INDEX', property: 'includeReplicas', invalidValue: true });
  }
  const clickAnalytics = boolParam('clickAnalytics', q('clickAnalytics')) ?? false;
  const orderBy = (enumParam('orderBy', q('orderBy'), ORDER_BY) ?? 'searchCount') as OrderBy;
  if (orderBy !== 'searchCount' && !clickAnalytics) {
    throw badRequest(`orderBy=${orderBy} needs clickAnalytics=true`, { code: 'CLICK_ANALYTICS_REQUIRED', property: 'orderBy', invalidValue: orderBy });
  }
  const search = q('search');
  if (report === 'top-filters-no-result-search' && search === null) throw badRequest('The search parameter is required for this report', { code: 'SEARCH_REQUIRED', property: 'search', invalidValue: null });
  return {
    ...period(q('startDate'), q('endDate'), now),
    tags: tagsParam(q('tags')),
    includeReplicas,
    limit: intParam('limit', q('limit'), DEFAULT_LIMIT, MAX_LIMIT),
    offset: intParam('offset', q('offset'), 0, Number.MAX_SAFE_INTEGER),
    search,
    clickAnalytics,
    orderBy,
    direction: (enumParam('direction', q('direction'), ['asc', 'desc']) ?? 'desc') as 'asc' | 'desc',
  };
}

/** Whole UTC days from startDate (default 7 days before today) to endDate (default today), both included. */
function period(start: string | null, end: string | null, now: number): Pick<AnalyticsParams, 'from' | 'to' | 'days'> {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const from = dateParam('startDate', start) ?? today - 7 * DAY_MS;
  const to = (dateParam('endDate', end) ?? today) + DAY_MS - 1;
  if (from > to) throw badRequest(`startDate ${isoDay(from)} is after endDate ${isoDay(to)}`, { code: 'INVALID_DATE_RANGE', property: 'startDate', invalidValue: start });
  const dayCount = Math.round((to + 1 - from) / DAY_MS);
  if (dayCount > MAX_DAYS) throw badRequest(`A report covers at most ${MAX_DAYS} days; this period has ${dayCount}`, { code: 'INVALID_DATE_RANGE', property: 'endDate', invalidValue: end });
  return { from, to, days: Array.from({ length: dayCount }, (_, i) => isoDay(from + i * DAY_MS)) };
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** YYYY-MM-DD, a real calendar day; its first millisecond (UTC). */
function dateParam(name: string, raw: string | null): number | null {
  if (raw === null) return null;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || isoDay(ms) !== raw) throw badRequest(`${name} must be a date YYYY-MM-DD, got '${raw}'`, { code: 'INVALID_DATE', property: name, invalidValue: raw });
  return ms;
}

function boolParam(name: string, raw: string | null): boolean | null {
  if (raw === null) return null;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw badRequest(`${name} must be true or false, got '${raw}'`, { property: name, invalidValue: raw });
}

function intParam(name: string, raw: string | null, fallback: number, max: number): number {
  if (raw === null) return fallback;
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 0 || n > max) throw badRequest(`${name} must be an integer from 0 to ${max}, got '${raw}'`, { property: name, invalidValue: raw });
  return n;
}

function enumParam(name: string, raw: string | null, allowed: readonly string[]): string | null {
  if (raw === null) return null;
  if (!allowed.includes(raw)) throw badRequest(`${name} must be one of ${allowed.join(', ')}, got '${raw}'`, { property: name, invalidValue: raw });
  return raw;
}

function tagsParam(raw: string | null): TagExpression | null {
  if (raw === null || raw.trim() === '') return null;
  try {
    return parseTags(raw);
  } catch (err) {
    if (err instanceof TagSyntaxError) throw badRequest(`tags: ${err.message}`, { code: 'INVALID_TAGS', property: 'tags', invalidValue: raw });
    throw err;
  }
}
