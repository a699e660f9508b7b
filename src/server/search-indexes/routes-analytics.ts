import { ok, type RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { link } from '../core/hal.js';
import { indexPath } from './render.js';
import { loadSearchIndex } from './access.js';
import { noResultsRate, searchesCount, searchesWithNoResults, topFiltersNoResultSearch, topHits, topSearches, usersCount } from './analytics.js';
import { analyticsParams, REPORTS, type AnalyticsParams, type Report } from './params.js';
import { eventsByQuery, queriesBetween, type QueryRecord } from './records.js';
import { replicasOf } from './store.js';
import { tagsMatch } from './tags.js';

/** GET …/analytics/{report}: figures computed from the searches recorded for the index. */
export function report(ctx: RequestContext) {
  const index = loadSearchIndex(ctx);
  const name = ctx.params.report as Report;
  if (!REPORTS.includes(name)) throw notFound('AnalyticsReport', name);
  const params = analyticsParams(name, ctx.query, ctx.now(), index.parentId !== null);
  const indexIds = params.includeReplicas ? [index.id, ...replicasOf(ctx.db, index.id).map((r) => r.id)] : [index.id];
  const searches = queriesBetween(ctx.db, indexIds, params.from, params.to).filter((s) => s.analytics && (!params.tags || tagsMatch(params.tags, s.tags)));
  const links = { self: link(ctx.url.href), index: link(ctx.href(indexPath(index))) };
  const figures = compute(name, searches, params, () => eventsByQuery(ctx.db, indexIds));
  return ok(Array.isArray(figures) ? { _embedded: { [name]: figures }, _links: links } : { ...figures, _links: links });
}

function compute(name: Report, searches: QueryRecord[], p: AnalyticsParams, events: () => ReturnType<typeof eventsByQuery>): unknown[] | Record<string, unknown> {
  switch (name) {
    case 'top-searches':
      return topSearches(searches, p.clickAnalytics ? events() : new Map(), p);
    case 'top-hits':
      return topHits(searches, p);
    case 'searches-with-no-results':
      return searchesWithNoResults(searches, p);
    case 'top-filters-no-result-search':
      return topFiltersNoResultSearch(searches, { ...p, search: p.search ?? '' });
    case 'users-count':
      return usersCount(searches, p.days);
    case 'searches-count':
      return searchesCount(searches, p.days);
    case 'no-results-rate':
      return noResultsRate(searches, p.days);
  }
}
