import type { EventRecord, FilterUse, QueryRecord } from './records.js';

// Analytics reports, computed from the recorded queries (already narrowed to the period, the
// indexes and the tags asked for) and the events sent for them.
//
// - A search is one recorded query; its text is the exact user input (case and spaces kept).
// - A search has no results when its nbHits was 0.
// - Tracked searches are those sent with clickAnalytics=true. Each objectID of a click event
//   is one click (at the position given for it), of a conversion event one conversion.
//   clickThroughRate = tracked searches with a click / tracked searches; conversionRate the
//   same with conversions; both null without tracked searches. averageClickPosition is the mean
//   position of all clicks, null until one arrives.
// - Top lists rank by count (most first, then text); only the 1000 most frequent entries exist,
//   and orderBy / direction / offset / limit apply to those.

export const TOP_LIST_CAP = 1000;
export const ORDER_BY = ['searchCount', 'clickThroughRate', 'conversionRate', 'averageClickPosition'] as const;
export type OrderBy = (typeof ORDER_BY)[number];

export interface Window {
  limit: number;
  offset: number;
}

export interface ClickFigures {
  clickThroughRate: number | null;
  conversionRate: number | null;
  averageClickPosition: number | null;
  trackedSearchCount: number;
  clickCount: number;
  conversionCount: number;
}

export interface TopSearch extends Partial<ClickFigures> {
  search: string;
  count: number;
  nbHits: number;
}

function groupBy<T>(list: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const t of list) {
    const k = key(t);
    const group = groups.get(k);
    if (group) group.push(t);
    else groups.set(k, [t]);
  }
  return groups;
}

/** The most frequent entries first (ties by key), at most TOP_LIST_CAP of them. */
function mostFrequent<T>(groups: Map<string, T[]>): [string, T[]][] {
  return [...groups.entries()].sort(([ka, a], [kb, b]) => b.length - a.length || (ka < kb ? -1 : ka > kb ? 1 : 0)).slice(0, TOP_LIST_CAP);
}

const page = <T>(list: readonly T[], w: Window): T[] => list.slice(w.offset, w.offset + w.limit);

export function clickFigures(searches: readonly QueryRecord[], events: Map<string, EventRecord[]>): ClickFigures {
  const tracked = searches.filter((s) => s.clickAnalytics && s.queryID);
  let clicked = 0;
  let converted = 0;
  let clickCount = 0;
  let conversionCount = 0;
  const positions: number[] = [];
  for (const search of tracked) {
    const own = events.get(search.queryID!) ?? [];
    const clicks = own.filter((e) => e.eventType === 'click');
    const conversions = own.filter((e) => e.eventType === 'conversion');
    if (clicks.length) clicked++;
    if (conversions.length) converted++;
    clickCount += clicks.reduce((n, e) => n + e.objectIDs.length, 0);
    conversionCount += conversions.reduce((n, e) => n + e.objectIDs.length, 0);
    for (const e of clicks) for (const p of e.positions ?? []) positions.push(p);
  }
  const n = tracked.length;
  return {
    clickThroughRate: n ? clicked / n : null,
    conversionRate: n ? converted / n : null,
    averageClickPosition: positions.length ? positions.reduce((a, b) => a + b, 0) / positions.length : null,
    trackedSearchCount: n,
    clickCount,
    conversionCount,
  };
}

const ORDER_FIELD: Record<OrderBy, keyof TopSearch> = {
  searchCount: 'count',
  clickThroughRate: 'clickThroughRate',
  conversionRate: 'conversionRate',
  averageClickPosition: 'averageClickPosition',
};

/** Sorts by one figure; entries without a value (null) come last in either direction. */
function orderEntries(entries: TopSearch[], orderBy: OrderBy, direction: 'asc' | 'desc'): TopSearch[] {
  const field = ORDER_FIELD[orderBy];
  const sign = direction === 'asc' ? 1 : -1;
  return [...entries].sort((a, b) => {
    const va = a[field] as number | null | undefined;
    const vb = b[field] as number | null | undefined;
    if (va == null || vb == null) return va == null && vb == null ? 0 : va == null ? 1 : -1;
    return (va - vb) * sign;
  });
}

export function topSearches(
  searches: readonly QueryRecord[],
  events: Map<string, EventRecord[]>,
  opts: Window & { clickAnalytics: boolean; orderBy: OrderBy; direction: 'asc' | 'desc' },
): TopSearch[] {
  const entries = mostFrequent(groupBy(searches, (s) => s.query)).map(([search, group]): TopSearch => ({
    search,
    count: group.length,
    // Results change as records come and go: report what the latest such search found.
    nbHits: group[group.length - 1]!.nbHits,
    ...(opts.clickAnalytics ? clickFigures(group, events) : {}),
  }));
  return page(orderEntries(entries, opts.orderBy, opts.direction), opts);
}

/** Objects most often among the hits a search returned (the page it returned), optionally for one search text. */
export function topHits(searches: readonly QueryRecord[], opts: Window & { search: string | null }): { hit: string; count: number }[] {
  const relevant = opts.search === null ? searches : searches.filter((s) => s.query === opts.search);
  const appearances = relevant.flatMap((s) => [...new Set(s.hits)].map((hit) => ({ hit })));
  return page(mostFrequent(groupBy(appearances, (a) => a.hit)), opts).map(([hit, group]) => ({ hit, count: group.length }));
}

export function searchesWithNoResults(searches: readonly QueryRecord[], opts: Window): { search: string; count: number; withFilterCount: number }[] {
  const empty = searches.filter((s) => s.nbHits === 0);
  return page(mostFrequent(groupBy(empty, (s) => s.query)), opts).map(([search, group]) => ({
    search,
    count: group.length,
    withFilterCount: group.filter((s) => s.filters.length > 0).length,
  }));
}

/** The filter combinations used by the no-result searches of one text, most used first. */
export function topFiltersNoResultSearch(searches: readonly QueryRecord[], opts: Window & { search: string }): { count: number; values: FilterUse[] }[] {
  const relevant = searches.filter((s) => s.query === opts.search && s.nbHits === 0 && s.filters.length > 0);
  const canonical = (s: QueryRecord) => JSON.stringify(sortedFilters(s.filters));
  return page(mostFrequent(groupBy(relevant, canonical)), opts).map(([key, group]) => ({ count: group.length, values: JSON.parse(key) as FilterUse[] }));
}

function sortedFilters(filters: readonly FilterUse[]): FilterUse[] {
  const key = (f: FilterUse) => `${f.attribute}\u0000${f.operator}\u0000${f.value}`;
  return [...new Map(filters.map((f) => [key(f), f])).values()].sort((a, b) => (key(a) < key(b) ? -1 : 1));
}

const dayOf = (at: number) => new Date(at).toISOString().slice(0, 10);

/** Per-day figures over every day of the period (days without searches included). */
function perDay<T>(searches: readonly QueryRecord[], days: readonly string[], figure: (group: QueryRecord[]) => T): (T & { date: string })[] {
  const byDay = groupBy(searches, (s) => dayOf(s.at));
  return days.map((date) => ({ date, ...figure(byDay.get(date) ?? []) }));
}

export function searchesCount(searches: readonly QueryRecord[], days: readonly string[]) {
  return { count: searches.length, dates: perDay(searches, days, (g) => ({ count: g.length })) };
}

/** Distinct userTokens; searches sent without one are not counted as users. */
export function usersCount(searches: readonly QueryRecord[], days: readonly string[]) {
  const users = (g: readonly QueryRecord[]) => new Set(g.map((s) => s.userToken).filter((u): u is string => !!u)).size;
  return { count: users(searches), dates: perDay(searches, days, (g) => ({ count: users(g) })) };
}

export function noResultsRate(searches: readonly QueryRecord[], days: readonly string[]) {
  const figures = (g: readonly QueryRecord[]) => {
    const noResultCount = g.filter((s) => s.nbHits === 0).length;
    return { rate: g.length ? noResultCount / g.length : null, count: g.length, noResultCount };
  };
  return { ...figures(searches), dates: perDay(searches, days, figures) };
}
