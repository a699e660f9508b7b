import { ok, type Reply, type RequestContext } from '../core/context.js';
import { link, linkSet, templated } from '../core/hal.js';
import { publicItem, savedJson, type ContentItem, type ItemKeys, type ItemRow } from './store.js';

/**
 * An item's links, following its state (archived or not, locale, folder) and the caller's
 * permissions on `scope` (the item's own hub and repository unless given).
 */
export function itemLinks(ctx: RequestContext, item: ItemKeys, scope: ItemKeys = item) {
  const base = ctx.href(`/content-items/${item.id}`);
  const { links, add } = linkSet(ctx, { hubId: scope.hubId, repoId: scope.contentRepositoryId }, { self: link(base) });
  links['content-item'] = templated(`${base}{?projection}`);
  add('items.planned', 'planned', templated(`${base}/planned{?epoch,time}`));
  add('items.withChildren', 'content-item-with-children', link(ctx.href(`/content-items/search/findByIdWithChildren?id=${item.id}`)));
  add('items.restore', 'restore-version', link(`${base}/restore`));
  add('repositories.get', 'content-repository', link(ctx.href(`/content-repositories/${item.contentRepositoryId}`)));
  add('items.version', 'content-item-version', templated(`${base}/versions{/version}`));
  add('items.versions', 'content-item-versions', templated(`${base}/versions{?page,size,sort}`));
  add('items.history', 'content-item-history', templated(`${base}/history{?page,size,sort}`));
  add('items.create', 'copy', templated(ctx.href(`/content-repositories/{id}/content-items?sourceContentItemId=${item.id}`)));
  if (item.folderId) add('folders.get', 'folder', link(ctx.href(`/folders/${item.folderId}`)));
  add('localization.localizations', 'localizations', templated(`${base}/localizations{?page,size,sort}`));
  add('localization.findByRoot', 'localization-jobs', templated(ctx.href(`/localization-jobs/search/findByRootContentItem?id=${item.id}{&page,size,sort}`)));
  add('items.editionSlotAssociations', 'edition-slot-associations', link(`${base}/edition-slot-associations`));
  if (item.status === 'ACTIVE') {
    add('items.update', 'update', templated(`${base}{?ignoreSchemaValidation}`));
    add('items.archive', 'archive', link(`${base}/archive`));
    add('items.setLocale', 'set-locale', link(`${base}/locale`));
    if (item.locale) add('localization.localize', 'create-localizations', link(`${base}/localize`));
    add('items.setWorkflow', 'edit-workflow', link(`${base}/workflow`));
    add('deliveryKeys.set', 'set-delivery-key', link(`${base}/delivery-key`));
    add('publishing.publishItem', 'publish', link(`${base}/publish`));
    add('publishing.unpublishItem', 'unpublish', link(`${base}/unpublish`));
  } else {
    add('items.unarchive', 'unarchive', link(`${base}/unarchive`));
  }
  return links;
}

/** An item as the service returns it; projection=basic omits the body and names its schema. */
export function renderItem(ctx: RequestContext, item: ContentItem, projection: string | null = ctx.query.get('projection')) {
  const fields = publicItem(item);
  const links = itemLinks(ctx, item);
  if (projection === 'basic') {
    const { body: _body, ...basic } = fields;
    return { ...basic, schema: item.body._meta.schema, _links: links };
  }
  return { ...fields, _links: links };
}

/** renderItem (full projection) from the stored JSON: `_links` spliced in, the body never parsed. */
export function renderItemJson(ctx: RequestContext, keys: ItemKeys, stored: string): string {
  return `${stored.slice(0, stored.lastIndexOf('}'))},"_links":${itemLinksJson(ctx, keys)}}`;
}

/**
 * The last answer rendered from a cached row (GET item, the hot read), by whom and on which
 * origin: reading the same item again sends it as it is. It goes with the row, which the row
 * cache drops when the item or anything else changes; principals are replaced whenever
 * permissions could have changed, so a new principal renders again.
 */
const lastRendered = new WeakMap<ItemRow, { principal: object; origin: string; json: string }>();

export function renderRowJson(ctx: RequestContext, row: ItemRow): string {
  const last = lastRendered.get(row);
  if (last && last.principal === ctx.principal && last.origin === ctx.origin) return last.json;
  const json = renderItemJson(ctx, row.keys, row.json);
  lastRendered.set(row, { principal: ctx.principal, origin: ctx.origin, json });
  return json;
}

// An item's link set depends on the origin, its state (archived, in a folder, with a locale) and
// what the caller may do there. Each such shape is serialized once, with placeholder ids, per
// principal: principals are replaced whenever permissions could have changed, so the cache goes
// with them. Placeholders survive JSON encoding unchanged and never occur in an id.
const ID = '@@item@@';
const REPO = '@@repository@@';
const FOLDER = '@@folder@@';
const MAX_SHAPES = 256;
const shapes = new WeakMap<object, Map<string, string>>();

function itemLinksJson(ctx: RequestContext, keys: ItemKeys): string {
  const where = ctx.principal.admin ? '' : `${keys.hubId}/${keys.contentRepositoryId}`;
  const key = `${ctx.origin}|${keys.status}|${keys.folderId ? 'f' : ''}|${keys.locale ? 'l' : ''}|${where}`;
  let forPrincipal = shapes.get(ctx.principal);
  if (!forPrincipal) shapes.set(ctx.principal, (forPrincipal = new Map()));
  let json = forPrincipal.get(key);
  if (json === undefined) {
    const placeholders: ItemKeys = { ...keys, id: ID, contentRepositoryId: REPO, folderId: keys.folderId ? FOLDER : null };
    json = JSON.stringify(itemLinks(ctx, placeholders, keys));
    if (forPrincipal.size >= MAX_SHAPES) forPrincipal.clear();
    forPrincipal.set(key, json);
  }
  return json.replaceAll(ID, keys.id).replaceAll(REPO, keys.contentRepositoryId).replaceAll(FOLDER, keys.folderId ?? '');
}

/** 200 with the changed item and its Location: how every item change answers. */
export function itemChanged(ctx: RequestContext, item: ContentItem): Reply {
  return { ...ok(null, ctx.href(`/content-items/${item.id}`)), ...renderedItem(ctx, item) };
}

/** The answer body of a written item: its stored JSON with links spliced in when saveItem just stored it. */
export function renderedItem(ctx: RequestContext, item: ContentItem): Pick<Reply, 'body' | 'json'> {
  const json = ctx.query.get('projection') === 'basic' ? undefined : savedJson(item);
  return json === undefined ? { body: renderItem(ctx, item) } : { body: undefined, json: renderItemJson(ctx, item, json) };
}
