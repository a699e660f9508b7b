import type { Reply, RequestContext } from '../core/context.js';
import { ServiceError } from '../core/errors.js';
import { hubs, type Hub } from '../hubs/index.js';
import { itemByPublishedKey, items, type ContentItem } from '../items/index.js';
import { deliveryParams, itemResponse, type DeliveryParams, type ItemResponse } from './cd2.js';
import { localizeBody } from './locale.js';
import { DeliveryError, contentNotFound, invalidParameter } from './errors.js';
import { hubOfHost, parsePreview, previewDomain, stagingHub } from './host.js';
import { stagingViewPoint, type ViewPoint } from './preview.js';
import { deliveredContent, type DeliveryView } from './resolve.js';
import { editionSlots } from '../editions/index.js';
import { snapshots } from '../snapshots/index.js';

// Content Delivery 2, as the vendor's delivery SDK (hubName mode) calls it: GET content/id/{id},
// GET content/key/{key}, POST content/filter, POST content/fetch. Public like the hosted API (no
// token). At {origin}/cdn/{hubName} it serves the hub's published versions; on a hub's staging
// hostname (no prefix) the latest ones. Only what a public delivery API shows: delivered bodies,
// never drafts on the published side, nothing of another hub, no management data.

const JSON_TYPE = 'application/json; charset=utf-8';
const answer = (body: unknown): Reply => answerText(JSON.stringify(body));
const answerText = (text: string): Reply => ({ status: 200, raw: { contentType: JSON_TYPE, text } });

/**
 * Answers of GET by id or key, kept until the data changes (like a CDN's cache, and like the item
 * row cache of GET item): any write empties it, an item write included (an answer holds its
 * linked items too, so dropping one item's entries would not do). Only answers that do not depend
 * on the clock are kept: a root that no edition uses as a slot. Bounded by count and characters.
 */
class AnswerCache {
  private readonly answers = new Map<string, string>();
  private chars = 0;
  get(key: string): string | undefined {
    return this.answers.get(key);
  }
  set(key: string, text: string): void {
    if (text.length > 4 * 1024 * 1024) return;
    if (this.answers.size >= 1000 || this.chars + text.length > 32 * 1024 * 1024) this.clear();
    this.answers.set(key, text);
    this.chars += text.length;
  }
  clear(): void {
    this.answers.clear();
    this.chars = 0;
  }
  delete(): void {
    this.clear();
  }
}

const answers = (ctx: RequestContext) => ctx.service.caches.get('deliveryAnswers', () => new AnswerCache());
/** Named by what the request names (the hub name, or the staging host), so a hit needs no hub lookup; a rename is a write, which empties the cache. */
const cacheKey = (ctx: RequestContext, how: string, value: string, p: DeliveryParams) =>
  `${ctx.params.hubName !== undefined ? `cdn:${ctx.params.hubName}` : `host:${ctx.url.host}`}|${p.depth}|${p.format}|${p.locale ?? ''}|${how}|${value}`;
/** Whether the answer for this root is the same at any time: no edition uses it as a slot. */
const timeless = (ctx: RequestContext, rootId: string) => editionSlots(ctx.db).count({ where: 'slot_id = ?', params: [rootId] }) === 0;

/** A GET answer from the cache, or computed (and kept when it is timeless). */
function cachedGet(ctx: RequestContext, key: string, compute: () => ItemResponse | null, notFound: () => DeliveryError): Reply {
  const cache = answers(ctx);
  const hit = cache.get(key);
  if (hit !== undefined) return answerText(hit);
  const found = compute();
  if (!found) throw notFound();
  const text = JSON.stringify(found);
  const rootId = (found.content._meta as { deliveryId?: string }).deliveryId;
  if (rootId && timeless(ctx, rootId)) cache.set(key, text);
  return answerText(text);
}

interface Scope {
  hub: Hub;
  view: DeliveryView;
  /** On a staging host: the time and pinned versions it shows (a preview domain's, or now). */
  point?: ViewPoint;
}

function scope(ctx: RequestContext): Scope {
  const name = ctx.params.hubName;
  if (name !== undefined) {
    const hub = hubs(ctx.db).find({ where: 'name = ?', params: [name] });
    if (!hub) throw new DeliveryError(404, 'HUB_NOT_FOUND', `No hub named ${name}`, { hubName: name });
    return { hub, view: 'published' };
  }
  const hub = stagingHub(ctx.db, ctx.url);
  if (!hub) throw new DeliveryError(404, 'HUB_NOT_FOUND', `Content Delivery 2 answers at ${ctx.origin}/cdn/<hub name> (published) or on a hub's staging hostname (latest)`);
  return { hub, view: 'latest', point: stagingViewPoint(ctx.db, ctx.url, ctx.now(), hub.id) };
}

/** Runs a delivery handler; a graph over its limits (graph.ts) is answered in the delivery error shape. */
function delivering(handler: (ctx: RequestContext) => Reply) {
  return (ctx: RequestContext): Reply => {
    try {
      return handler(ctx);
    } catch (err) {
      if (err instanceof ServiceError && !(err instanceof DeliveryError) && err.entries[0]?.code === 'CONTENT_GRAPH_TOO_LARGE') throw invalidParameter(err.message, { deliveryId: err.entries[0].invalidValue });
      throw err;
    }
  };
}

function deliver(ctx: RequestContext, s: Scope, item: ContentItem | undefined, params: DeliveryParams): ItemResponse | null {
  if (!item || item.hubId !== s.hub.id) return null;
  const staged = deliveredContent(ctx.db, item, s.point?.atMs ?? ctx.now(), s.view, params.depth === 'all', s.point?.pins, params.locales);
  return staged && itemResponse(staged, params);
}

const DELIVERY_KEY = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*$/;

function byKeyItem(ctx: RequestContext, s: Scope, key: string, params: DeliveryParams): ItemResponse | null {
  if (key.length > 150 || !DELIVERY_KEY.test(key)) return null;
  // Published: the key of the published version (a key moved in a draft is not delivered until
  // published); latest: the item's current key. Both are index lookups.
  const holder = s.view === 'published' ? itemByPublishedKey(ctx.db, s.hub.id, key) : items(ctx.db).find({ where: 'hub_id = ? AND delivery_key = ?', params: [s.hub.id, key] });
  const found = deliver(ctx, s, holder, params);
  // The key of the root as delivered (a slot showing an edition keeps its own key).
  return found && (found.content._meta as { deliveryKey?: string }).deliveryKey === key ? found : null;
}

const queryParams = (ctx: RequestContext) => deliveryParams((name) => ctx.query.get(name) ?? undefined);

/** GET content/id/{id} */
export const byId = delivering((ctx) => {
  const id = ctx.params.id!;
  const params = queryParams(ctx);
  return cachedGet(ctx, cacheKey(ctx, 'id', id, params), () => {
    const s = scope(ctx);
    return deliver(ctx, s, items(ctx.db).get(id), params);
  }, () => contentNotFound({ deliveryId: id }));
});

/** GET content/key/{key}: the key arrives unencoded, slashes and all. */
export const byKey = delivering((ctx) => {
  const key = ctx.params.key!;
  const params = queryParams(ctx);
  return cachedGet(ctx, cacheKey(ctx, 'key', key, params), () => byKeyItem(ctx, scope(ctx), key, params), () => contentNotFound({ deliveryKey: key }));
});

function jsonBody(ctx: RequestContext): Record<string, unknown> {
  let body: unknown;
  try {
    body = JSON.parse(ctx.bodyText || 'null');
  } catch {
    throw invalidParameter('The request body is not JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalidParameter('The request body must be a JSON object');
  return body as Record<string, unknown>;
}

function bodyParams(body: Record<string, unknown>, defaults?: DeliveryParams): DeliveryParams {
  const p = body.parameters;
  if (p !== undefined && (!p || typeof p !== 'object' || Array.isArray(p))) throw invalidParameter('parameters must be an object of depth, format and locale');
  return deliveryParams((name) => (p as Record<string, unknown> | undefined)?.[name], defaults);
}

const MAX_FETCH = 12;

/** POST content/fetch {requests: [{id}|{key}], parameters}: one response per request, in order. */
export const fetch = delivering((ctx) => {
  const s = scope(ctx);
  const body = jsonBody(ctx);
  const params = bodyParams(body, { depth: 'all', format: 'inlined' });
  const requests = body.requests;
  if (!Array.isArray(requests) || requests.length < 1 || requests.length > MAX_FETCH) throw invalidParameter(`requests must be an array of 1 to ${MAX_FETCH} {"id"} or {"key"} objects`);
  const responses = requests.map((r, i) => {
    const req = r as { id?: unknown; key?: unknown } | null;
    const isId = typeof req?.id === 'string' && req.key === undefined;
    const isKey = typeof req?.key === 'string' && req.id === undefined;
    if (!isId && !isKey) throw invalidParameter(`requests[${i}] must be {"id": "<delivery id>"} or {"key": "<delivery key>"}`, { index: i });
    const found = isId ? deliver(ctx, s, items(ctx.db).get(req!.id as string), params) : byKeyItem(ctx, s, req!.key as string, params);
    if (found) return found;
    return { error: contentNotFound(isId ? { deliveryId: req!.id as string } : { deliveryKey: req!.key as string }).toBody().error };
  });
  return answer({ responses });
});

const MAX_FILTERS = 5;
const DEFAULT_PAGE = 12;
/** The vendor SDK's FilterBy.page: "page size maximum of 12". */
const MAX_PAGE = 12;
/** The one lookup the vendor SDK sends (lookUpByHierarchyDeliveryKey): children of the node holding a delivery key. */
const HIERARCHY_PARENT_KEY = 'HIERARCHY_PARENT_META_DELIVERY_KEY';
const PARENT_PATH = '/_meta/hierarchy/parentId';

type Scalar = string | number | boolean;
const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** A JSON pointer (`/_meta/schema`) read in a body; undefined when it leads nowhere. */
function pointer(body: unknown, path: string): unknown {
  let at = body;
  for (const raw of path.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!at || typeof at !== 'object' || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

interface Filter {
  path: string;
  value: Scalar;
}

/**
 * The filters of a body. A `{lookupBy: HIERARCHY_PARENT_META_DELIVERY_KEY, value: key}` becomes
 * the filter on /_meta/hierarchy/parentId by the id of the item delivered under that key
 * (`parentOf`); null when no item is (nothing matches then).
 */
function filters(body: Record<string, unknown>, parentOf: (key: string) => string | null): Filter[] | null {
  const list = body.filterBy;
  if (!Array.isArray(list) || list.length < 1 || list.length > MAX_FILTERS) throw invalidParameter(`filterBy must be an array of 1 to ${MAX_FILTERS} {"path", "value"} or {"lookupBy", "value"} filters`);
  let none = false;
  const out = list.map((f, i) => {
    const filter = f as { path?: unknown; value?: unknown; lookupBy?: unknown } | null;
    if (filter?.lookupBy !== undefined) {
      if (filter.lookupBy !== HIERARCHY_PARENT_KEY) throw invalidParameter(`filterBy[${i}].lookupBy must be ${HIERARCHY_PARENT_KEY}, not ${String(filter.lookupBy).slice(0, 64)}`, { index: i });
      if (typeof filter.value !== 'string' || filter.path !== undefined) throw invalidParameter(`filterBy[${i}]: a lookup is {"lookupBy", "value": "<delivery key>"}`, { index: i });
      const parentId = parentOf(filter.value);
      if (parentId === null) none = true;
      return { path: PARENT_PATH, value: parentId ?? '' };
    }
    if (typeof filter?.path !== 'string' || !filter.path.startsWith('/') || filter.path.length > 256) throw invalidParameter(`filterBy[${i}].path must be a JSON pointer such as /_meta/schema`, { index: i });
    if (!isScalar(filter.value)) throw invalidParameter(`filterBy[${i}].value must be a string, number or boolean`, { index: i });
    return { path: filter.path, value: filter.value };
  });
  return none ? null : out;
}

interface Sort {
  key: string;
  order: 'ASC' | 'DESC';
}

/** ASC or DESC read without regard to case (the vendor's SDK sends ASC, its storefront asc); null for anything else. */
function sortOrder(raw: unknown): Sort['order'] | null {
  if (typeof raw !== 'string' || raw.length > 4) return null;
  const order = raw.toUpperCase();
  return order === 'ASC' || order === 'DESC' ? order : null;
}

function sortOf(body: Record<string, unknown>): Sort | null {
  const s = body.sortBy as { key?: unknown; order?: unknown } | undefined;
  if (s === undefined) return null;
  if (!s || typeof s !== 'object' || typeof s.key !== 'string' || s.key.length < 1 || s.key.length > 256) throw invalidParameter('sortBy must be {"key": "<sort key>", "order": "ASC"|"DESC"}');
  const order = sortOrder(s.order ?? 'ASC');
  if (!order) throw invalidParameter('sortBy.order must be ASC or DESC (in any case)', { parameter: 'sortBy.order', value: typeof s.order === 'string' ? s.order.slice(0, 64) : null });
  return { key: s.key, order };
}

function pageOf(body: Record<string, unknown>): { size: number; offset: number } {
  const page = body.page as { size?: unknown; cursor?: unknown } | undefined;
  if (page === undefined) return { size: DEFAULT_PAGE, offset: 0 };
  if (!page || typeof page !== 'object') throw invalidParameter('page must be {"size", "cursor"}');
  const size = page.size ?? DEFAULT_PAGE;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > MAX_PAGE) throw invalidParameter(`page.size must be an integer from 1 to ${MAX_PAGE}`);
  if (page.cursor === undefined) return { size, offset: 0 };
  const offset = typeof page.cursor === 'string' ? decodeCursor(page.cursor) : null;
  if (offset === null) throw invalidParameter('page.cursor is not a cursor this API gave');
  return { size, offset };
}

const encodeCursor = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');
function decodeCursor(cursor: string): number | null {
  if (cursor.length > 64) return null;
  const m = /^o:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  return m ? Number(m[1]) : null;
}

/** The value an item sorts by: `default` is creation order; another key names a body field (or a pointer). */
function sortValue(content: Record<string, unknown>, key: string): unknown {
  return key.startsWith('/') ? pointer(content, key) : content[key];
}

function compare(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === undefined || a === null) return 1;
  if (b === undefined || b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : 1;
}

/** POST content/filter {filterBy, sortBy, page, parameters}: delivered items matching every filter, a page at a time. */
export const filter = delivering((ctx) => {
  const s = scope(ctx);
  const body = jsonBody(ctx);
  const root: DeliveryParams = { depth: 'root', format: 'inlined' };
  const wanted = filters(body, (key) => (byKeyItem(ctx, s, key, root)?.content._meta as { deliveryId?: string } | undefined)?.deliveryId ?? null);
  const sort = sortOf(body);
  const { size, offset } = pageOf(body);
  const params = bodyParams(body);
  if (!wanted) return answer({ responses: [], page: { responseCount: 0 } });
  // The content type filter narrows the rows read; every filter is then checked on the delivered body.
  const schema = wanted.find((f) => f.path === '/_meta/schema');
  const rows = items(ctx.db).all(
    schema ? { where: "hub_id = ? AND status = 'ACTIVE' AND schema = ?", params: [s.hub.id, schema.value] } : { where: "hub_id = ? AND status = 'ACTIVE'", params: [s.hub.id] },
    [{ field: 'createdDate', dir: 'asc' }],
  );
  // Matched on the delivered root alone; the linked content is read only for the page answered.
  const matched: { item: ContentItem; content: Record<string, unknown> }[] = [];
  for (const item of rows) {
    const found = deliver(ctx, s, item, root);
    if (found && wanted.every((f) => pointer(found.content, f.path) === f.value)) matched.push({ item, content: found.content });
  }
  if (sort && sort.key !== 'default') {
    const dir = sort.order === 'DESC' ? -1 : 1;
    matched.sort((a, b) => dir * compare(sortValue(a.content, sort.key), sortValue(b.content, sort.key)));
  } else if (sort?.order === 'DESC') matched.reverse();
  const responses = matched.slice(offset, offset + size).flatMap((m) => deliver(ctx, s, m.item, params) ?? []);
  const next = offset + size < matched.length ? encodeCursor(offset + size) : undefined;
  return answer({ responses, page: { responseCount: responses.length, ...(next ? { nextCursor: next } : {}) } });
});

/** Hierarchy levels below the root (sandbox's choice: the SDK names no limit, "the limits set by the delivery service"). */
const MAX_HIERARCHY_DEPTH = 14;
const DEFAULT_HIERARCHY_PAGE = 100;
const MAX_HIERARCHY_PAGE = 100;

/** An integer query parameter from min to max (the default when absent); 400 naming it otherwise. */
function intQuery(ctx: RequestContext, name: string, min: number, max: number, fallback: number): number {
  const raw = ctx.query.get(name);
  if (raw === null) return fallback;
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= min && n <= max)) throw invalidParameter(`${name} must be an integer from ${min} to ${max}`, { parameter: name, value: raw.slice(0, 64) });
  return n;
}

/**
 * GET content/hierarchies/descendants/{id|key}/{root}?hierarchyDepth&maxPageSize&pageCursor&sortByKey&sortByOrder
 * (the vendor SDK's getByHierarchy / getHierarchyByKey): the delivered descendants of the root,
 * level by level (siblings in creation order, or by sortByKey), each once, up to hierarchyDepth
 * levels, as `{responses: [{content}], page: {responseCount, cursor?}}`; the SDK follows `cursor`
 * and rebuilds the tree from `_meta.hierarchy.parentId`. The parent is read in the delivered
 * version (published at /cdn, latest on a staging host), so a move made in a draft is delivered
 * once published. Bounded: one pass over the hub's items (as filter), each node once.
 */
export const descendants = delivering((ctx) => {
  const s = scope(ctx);
  const root: DeliveryParams = { depth: 'root', format: 'inlined' };
  const depth = intQuery(ctx, 'hierarchyDepth', 1, MAX_HIERARCHY_DEPTH, MAX_HIERARCHY_DEPTH);
  const size = intQuery(ctx, 'maxPageSize', 1, MAX_HIERARCHY_PAGE, DEFAULT_HIERARCHY_PAGE);
  const cursor = ctx.query.get('pageCursor');
  const offset = cursor === null ? 0 : decodeCursor(cursor);
  if (offset === null) throw invalidParameter('pageCursor is not a cursor this API gave', { parameter: 'pageCursor' });
  const sortKey = ctx.query.get('sortByKey');
  const rawOrder = ctx.query.get('sortByOrder') ?? 'ASC';
  const order = sortOrder(rawOrder);
  if (!order) throw invalidParameter('sortByOrder must be ASC or DESC (in any case)', { parameter: 'sortByOrder', value: rawOrder.slice(0, 64) });
  if (sortKey !== null && (sortKey.length < 1 || sortKey.length > 256)) throw invalidParameter('sortByKey must be a sort key', { parameter: 'sortByKey' });
  // Nodes are read (and sorted) as stored; those answered have their localized fields resolved for `locale`.
  const { locales } = deliveryParams((name) => ctx.query.get(name) ?? undefined);

  const top = ctx.params.id !== undefined ? deliver(ctx, s, items(ctx.db).get(ctx.params.id), root) : byKeyItem(ctx, s, ctx.params.key!, root);
  if (!top) throw contentNotFound(ctx.params.id !== undefined ? { deliveryId: ctx.params.id } : { deliveryKey: ctx.params.key! });
  const rootId = (top.content._meta as { deliveryId: string }).deliveryId;

  // Children by parent, as delivered: one pass over the hub's items, in creation order.
  const byParent = new Map<string, Record<string, unknown>[]>();
  for (const item of items(ctx.db).all({ where: "hub_id = ? AND status = 'ACTIVE'", params: [s.hub.id] }, [{ field: 'createdDate', dir: 'asc' }])) {
    const found = deliver(ctx, s, item, root);
    const parentId = found && pointer(found.content, PARENT_PATH);
    if (typeof parentId !== 'string') continue;
    const siblings = byParent.get(parentId);
    if (siblings) siblings.push(found!.content);
    else byParent.set(parentId, [found!.content]);
  }
  if (sortKey !== null && sortKey !== 'default') {
    const dir = order === 'DESC' ? -1 : 1;
    for (const siblings of byParent.values()) siblings.sort((a, b) => dir * compare(sortValue(a, sortKey), sortValue(b, sortKey)));
  } else if (order === 'DESC') for (const siblings of byParent.values()) siblings.reverse();

  // Level by level from the root, each node once (data may hold a cycle).
  const found: Record<string, unknown>[] = [];
  const seen = new Set<string>([rootId]);
  let level = [rootId];
  for (let d = 1; d <= depth && level.length; d++) {
    const next: string[] = [];
    for (const parent of level) {
      for (const content of byParent.get(parent) ?? []) {
        const id = (content._meta as { deliveryId: string }).deliveryId;
        if (seen.has(id)) continue;
        seen.add(id);
        found.push(content);
        next.push(id);
      }
    }
    level = next;
  }
  const responses = found.slice(offset, offset + size).map((content) => ({ content: locales ? localizeBody(content, locales) : content }));
  const more = offset + size < found.length;
  return answer({ responses, page: { responseCount: responses.length, ...(more ? { cursor: encodeCursor(offset + size) } : {}) } });
});

const MAX_TIMESTAMP = 8.64e15;

/**
 * GET /domain/{staging hostname}?timestamp=<ms>&snapshotId=<id>: the virtual staging API the
 * vendor's StagingEnvironmentFactory.generateDomain calls (its `baseUrl` set to the sandbox's
 * origin). Answers, as text, a preview domain of the hostname (host.ts previewDomain) that the
 * sandbox serves like the hostname, at that time and/or with that snapshot's versions.
 */
export function domain(ctx: RequestContext): Reply {
  const hostname = ctx.params.host!.toLowerCase();
  const hub = parsePreview(hostname) ? undefined : hubOfHost(ctx.db, hostname);
  if (!hub) throw new DeliveryError(404, 'NOT_FOUND', `No hub has the staging environment ${hostname.slice(0, 200)}`, { stagingEnvironment: hostname.slice(0, 200) });
  const rawTime = ctx.query.get('timestamp');
  const snapshotId = ctx.query.get('snapshotId') ?? undefined;
  if (rawTime === null && snapshotId === undefined) throw invalidParameter('Give timestamp (milliseconds since the epoch) or snapshotId, or both');
  let at: number | undefined;
  if (rawTime !== null) {
    at = /^\d{1,16}$/.test(rawTime) ? Number(rawTime) : NaN;
    if (!(at <= MAX_TIMESTAMP)) throw invalidParameter('timestamp must be milliseconds since the epoch', { parameter: 'timestamp', value: rawTime.slice(0, 64) });
  }
  if (snapshotId !== undefined) {
    if (!/^[0-9a-f]{24}$/.test(snapshotId)) throw invalidParameter('snapshotId is not a snapshot id', { parameter: 'snapshotId', value: snapshotId.slice(0, 64) });
    const snapshot = snapshots(ctx.db).get(snapshotId);
    if (!snapshot || snapshot.hubId !== hub.id) throw new DeliveryError(404, 'NOT_FOUND', `No snapshot ${snapshotId} in the hub of ${hostname}`, { snapshotId });
  }
  return { status: 200, raw: { contentType: 'text/plain; charset=utf-8', text: previewDomain(hostname, { ...(at !== undefined ? { at } : {}), ...(snapshotId !== undefined ? { snapshotId } : {}) }) } };
}

