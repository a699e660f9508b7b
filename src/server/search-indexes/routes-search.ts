import { ok, type RequestContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import { pageOf, pageRequest } from '../core/hal.js';
import { loadHub } from '../hubs/index.js';
import { renderItem } from '../items/index.js';
import type { PageRequest } from '../core/collection.js';
import { compileSearch, type CompiledSearch } from './search-query.js';
import { ItemSelection, SEARCH_SORTABLE } from './search-select.js';
import { buildFacet, type Facet } from './search-facets.js';
import { sql } from './search-sql.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas-search.js';

// Text search and facets over a hub's content items (see search/query.ts for the syntax).

/** GET /hubs/{hubId}/content-items/find?query=...: a page of matching items, best first. */
export function find(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const text = ctx.query.get('query');
  if (!text?.trim()) throw badRequest("Query parameter 'query' is required: the text to search for", { code: 'INVALID_QUERY', property: 'query', invalidValue: text });
  const search = compileSearch(text);
  const req = pageRequest(ctx, SEARCH_SORTABLE);
  const selection = new ItemSelection(hub.id).search(search);
  if (!search.namesStatus) selection.where(ACTIVE_ONLY);
  return ok(pageOf(ctx, 'content-items', selection.page(ctx.db, req), req, (item) => renderItem(ctx, item)));
}

/**
 * POST /hubs/{hubId}/content-items/facet: the items every facet filter (and the optional text
 * query) lets through, in the basic projection, with `_facets` counted over all of them.
 */
export function facet(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const input = ctx.body<Input<typeof bodies.facet>>();
  const req = facetPageRequest(ctx);
  const facets = input.fields.map((spec) => buildFacet(spec, ctx.now()));
  const text = ctx.query.get('query');
  const search: CompiledSearch | null = text?.trim() ? compileSearch(text) : null;

  const selection = new ItemSelection(hub.id);
  if (search) selection.search(search);
  if (!search?.namesStatus && !facets.some((f) => f.field === 'status')) selection.where(ACTIVE_ONLY);
  for (const f of facets) if (f.filter) selection.where(f.filter);

  const result = input.returnEntities ? selection.page(ctx.db, req) : { items: [], total: selection.count(ctx.db) };
  const page = pageOf(ctx, 'content-items', result, req, (item) => renderItem(ctx, item, 'basic'));
  return ok({ ...page, _facets: facetCounts(ctx, facets, selection) });
}

/** Searches and facets cover active items unless the request names a status itself. */
const ACTIVE_ONLY = sql`ci.status = ${'ACTIVE'}`;

/** Paging of facets: `sort` as usual; else `createdDate.dir` (asc or desc) sorts by creation. */
function facetPageRequest(ctx: RequestContext): PageRequest {
  const req = pageRequest(ctx, SEARCH_SORTABLE);
  const dir = ctx.query.get('createdDate.dir');
  if (dir === null || dir === '') return req;
  const direction = dir.toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') {
    throw badRequest(`Query parameter 'createdDate.dir' must be asc or desc`, { property: 'createdDate.dir', invalidValue: dir });
  }
  return req.sort.length ? req : { ...req, sort: [{ field: 'createdDate', dir: direction }] };
}

function facetCounts(ctx: RequestContext, facets: Facet[], selection: ItemSelection) {
  return Object.fromEntries(facets.map((f) => [f.key, f.counts(ctx.db, selection)]));
}
