import { randomBytes, timingSafeEqual } from 'node:crypto';
import { ok, type RequestContext } from '../core/context.js';
import { badRequest, forbidden, notFound, unauthorized } from '../core/errors.js';
import { parse, type Input } from '../core/validate.js';
import * as bodies from './schemas.js';
import { FilterSyntaxError, matchesText, parseFacetFilters, parseFilters, passes, searchablePaths, type AnyOf } from './matching.js';
import { tokens } from '../items/index.js';
import { queryById, recordEvent, recordQuery, type FilterUse } from './records.js';
import { allObjects, searchIndexes, type SearchIndex } from './store.js';

// The sandbox's stand-in for the search provider's query API (see search-indexes/matching.ts
// for how records match). Every query and event is recorded for analytics. Callers present the
// index's API key in X-Search-Api-Key, or a bearer token whose client may read the hub's indexes.
// The body is parsed here (zod comes with this family) because GET takes the same fields.

const API_KEY_HEADER = 'x-search-api-key';
const DEFAULT_HITS_PER_PAGE = 20;

type QueryInput = Input<typeof bodies.query>;

/**
 * POST (JSON body) or GET (query parameters) /__sandbox/search-indexes/{id}/query. The route is
 * async so even a GET runs in a write transaction: it records the query, and a read transaction
 * could not take the write lock later if another process wrote meanwhile.
 */
export function query(ctx: RequestContext) {
  return ctx.db.transaction(() => answerQuery(ctx)).immediate();
}

function answerQuery(ctx: RequestContext) {
  const index = authorizeSearch(ctx);
  const input = parse(bodies.query.schema, ctx.req.method === 'GET' ? fromQueryString(ctx.query) : (ctx.json() ?? {}), bodies.query.entity);
  const groups = conditions(input);
  const started = performance.now();
  // Query words follow the content search's rules: letters and digits, case and accents folded.
  const queryWords = tokens(input.query);
  const paths = searchablePaths(index.settings);
  const matched = allObjects(ctx.db, index.id).filter((o) => matchesText(o, queryWords, paths) && passes(o, groups));
  const hitsPerPage = input.hitsPerPage ?? settingsHitsPerPage(index) ?? DEFAULT_HITS_PER_PAGE;
  const hits = matched.slice(input.page * hitsPerPage, (input.page + 1) * hitsPerPage);
  const processingTimeMS = Math.round(performance.now() - started);
  const queryID = input.clickAnalytics ? randomBytes(16).toString('hex') : null;
  recordQuery(ctx.db, {
    indexId: index.id,
    at: ctx.now(),
    queryID,
    query: input.query,
    nbHits: matched.length,
    userToken: input.userToken ?? null,
    tags: input.analyticsTags,
    filters: groups.flat().map(({ attribute, operator, value }): FilterUse => ({ attribute, operator, value })),
    clickAnalytics: input.clickAnalytics,
    analytics: input.analytics,
    hits: hits.map((h) => h.objectID),
    offset: input.page * hitsPerPage,
    processingTimeMS,
  });
  return ok({
    hits,
    nbHits: matched.length,
    page: input.page,
    nbPages: Math.ceil(matched.length / hitsPerPage),
    hitsPerPage,
    query: input.query,
    index: index.name,
    ...(queryID ? { queryID } : {}),
    processingTimeMS,
  });
}

/** POST /__sandbox/search-indexes/{id}/events: a click or conversion on hits of a tracked query. */
export function event(ctx: RequestContext) {
  const index = authorizeSearch(ctx);
  const input = parse(bodies.event.schema, ctx.json() ?? {}, bodies.event.entity);
  const tracked = queryById(ctx.db, input.queryID);
  if (!tracked || tracked.indexId !== index.id) {
    throw badRequest(`No query of ${index.name} with queryID ${input.queryID}; queryIDs come from queries sent with clickAnalytics=true`, {
      code: 'UNKNOWN_QUERY_ID',
      entity: 'SearchEvent',
      property: 'queryID',
      invalidValue: input.queryID,
    });
  }
  recordEvent(ctx.db, {
    indexId: index.id,
    queryID: input.queryID,
    at: ctx.now(),
    eventType: input.eventType,
    objectIDs: input.objectIDs,
    positions: input.eventType === 'click' ? input.positions! : null,
    userToken: input.userToken ?? tracked.userToken,
  });
  return ok({ status: 200, message: 'OK', eventType: input.eventType, queryID: input.queryID });
}

/**
 * The index's own API key grants search on that index alone; otherwise the bearer token's client
 * needs what reading the index needs (404 when it cannot see the hub at all, 403 otherwise).
 */
function authorizeSearch(ctx: RequestContext): SearchIndex {
  const id = ctx.params.indexId!;
  const key = ctx.req.header(API_KEY_HEADER);
  if (key !== null) {
    const index = searchIndexes(ctx.db).get(id);
    if (!index) throw notFound('SearchIndex', id);
    if (!sameSecret(key, index.apiKey.key)) throw unauthorized(`The ${API_KEY_HEADER} header does not hold this index's API key`);
    return index;
  }
  ctx.service.authenticate(ctx);
  const index = searchIndexes(ctx.db).get(id);
  if (!index) throw notFound('SearchIndex', id);
  const readRoute = ctx.service.routeByOp('searchIndexes.get')!;
  ctx.authorize({ hubId: index.hubId }, 'SearchIndex', id, readRoute);
  if (!ctx.can(readRoute.op, { hubId: index.hubId })) {
    throw forbidden(`Access denied: searching needs ${readRoute.fn!.join(', ')} and Hub - READ, or the index's API key`, { code: 'ACCESS_DENIED', entity: 'SearchIndex' });
  }
  return index;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function conditions(input: QueryInput): AnyOf[] {
  const filters = input.filters ? checked('filters', input.filters, () => parseFilters(input.filters!).map((c) => [c])) : [];
  const facets = input.facetFilters ? checked('facetFilters', input.facetFilters, () => parseFacetFilters(input.facetFilters!)) : [];
  return [...filters, ...facets];
}

/** Runs a filter parser; its syntax error becomes a 400 naming the property. */
function checked<T>(property: string, value: unknown, run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof FilterSyntaxError) throw badRequest(`${property}: ${err.message}`, { code: 'INVALID_FILTERS', entity: 'SearchQuery', property, invalidValue: value });
    throw err;
  }
}

/** The settings' hitsPerPage, when set to a usable number, is the default page size. */
function settingsHitsPerPage(index: SearchIndex): number | null {
  const n = index.settings.hitsPerPage;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 1000 ? n : null;
}

/**
 * GET parameters as the body's fields: numbers and booleans converted when they are written as
 * such (anything else is left for validation to reject), analyticsTags and facetFilters as
 * comma lists or JSON.
 */
function fromQueryString(q: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['query', 'filters', 'userToken']) if (q.has(key)) out[key] = q.get(key);
  for (const key of ['hitsPerPage', 'page']) if (q.has(key)) out[key] = /^\d+$/.test(q.get(key)!) ? Number(q.get(key)) : q.get(key);
  for (const key of ['clickAnalytics', 'analytics']) if (q.has(key)) out[key] = q.get(key) === 'true' ? true : q.get(key) === 'false' ? false : q.get(key);
  if (q.has('analyticsTags')) out.analyticsTags = q.getAll('analyticsTags').flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  if (q.has('facetFilters')) out.facetFilters = jsonOr(q.get('facetFilters')!, q.getAll('facetFilters'));
  return out;
}

function jsonOr(raw: string, fallback: unknown): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return fallback;
  }
}
