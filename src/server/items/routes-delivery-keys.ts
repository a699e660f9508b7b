import { ok, type RequestContext } from '../core/context.js';
import { badRequest, notFound } from '../core/errors.js';
import { pageOf, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE } from '../core/hal.js';
import { loadHub } from '../hubs/index.js';
import { loadItem } from './load.js';
import { items, saveVersion } from './store.js';
import { itemChanged, renderItem } from './render.js';
import { checkActive, checkDeliveryKey, checkVersion, withDeliveryKey } from './rules.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

// Delivery keys (Content Delivery 2): set one on an item, find an item by key, filter by collection.

/** Sets (or with null removes) an item's key; a stale version is 400 here, as the description says. */
export function set(ctx: RequestContext) {
  const item = loadItem(ctx);
  const input = ctx.body<Input<typeof bodies.deliveryKey>>();
  checkActive(item);
  checkVersion(item, input.version, 400);
  if (input.deliveryKey !== null) checkDeliveryKey(ctx.db, item.hubId, item.id, input.deliveryKey);
  return itemChanged(ctx, saveVersion(ctx.db, item, withDeliveryKey(item, input.deliveryKey), ctx.modifiedStamp(), 'DELIVERY_KEY'));
}

/** The item holding ?key= in the hub (also served at the SDK's /delivery-keys/content-item path). */
export function find(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const key = ctx.query.get('key');
  if (!key) throw badRequest("Query parameter 'key' is required", { property: 'key', invalidValue: key });
  const item = items(ctx.db).find({ where: 'hub_id = ? AND delivery_key = ?', params: [hub.id, key] });
  if (!item) throw notFound('ContentItem', key);
  return ok(renderItem(ctx, item));
}

const FILTER_SORT = ['createdDate', 'lastModifiedDate', 'label', 'deliveryKey', 'version'];

/**
 * Active items of a collection: those whose delivery key is `<collectionKey>/...` or whose
 * body._meta.collectionKey is the collection key. Paging and sorting come in the body.
 */
export function filterByCollectionKey(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const input = ctx.body<Input<typeof bodies.filter>>();
  const prefix = `${input.collectionKey}/`;
  const sort = input.sortBy ?? { key: 'createdDate', order: 'DESC' };
  if (!FILTER_SORT.includes(sort.key)) {
    throw badRequest(`Cannot sort by '${sort.key}'; use one of ${FILTER_SORT.join(', ')}`, { property: 'sortBy.key', invalidValue: sort.key });
  }
  const req = {
    page: input.page?.number ?? 0,
    size: Math.min(input.page?.size ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    sort: [{ field: sort.key, dir: sort.order.toLowerCase() as 'asc' | 'desc' }],
  };
  // substr, not LIKE: keys may hold '_', a LIKE wildcard.
  const filter = {
    where: "hub_id = ? AND status = 'ACTIVE' AND (substr(delivery_key, 1, ?) = ? OR json_extract(data, '$.body._meta.collectionKey') = ?)",
    params: [hub.id, prefix.length, prefix, input.collectionKey],
  };
  return ok(pageOf(ctx, 'content-items', items(ctx.db).page(filter, req), req, (i) => renderItem(ctx, i)));
}
