import type { RequestContext } from '../core/context.js';
import { link, linkSet, templated } from '../core/hal.js';
import { contentTypes } from '../content-types/index.js';
import { webhooks } from '../webhooks/index.js';
import { REPORTS, REPORT_PARAMS } from './params.js';
import { replicaCount, searchIndexes, type AssignedContentType, type IndexSettings, type SearchIndex } from './store.js';

export const indexPath = (index: { hubId: string; id: string }) => `/hubs/${index.hubId}/search-indexes/${index.id}`;

/**
 * A search index. Links follow state: an active index offers update, archive, update-settings,
 * and (on a primary) clear and create-assigned-content-types; an archived one offers unarchive.
 */
export function renderIndex(ctx: RequestContext, index: SearchIndex, opts: { withSettings?: boolean } = {}) {
  const base = ctx.href(indexPath(index));
  const hubBase = ctx.href(`/hubs/${index.hubId}`);
  const primary = index.parentId === null;
  const active = index.status === 'ACTIVE';
  const { links, add } = linkSet(ctx, { hubId: index.hubId }, { self: link(base), index: link(base) });
  add('hubs.get', 'hub', link(hubBase));
  add('searchIndexes.remove', 'delete', link(base));
  add('searchIndexes.getSettings', 'settings', link(`${base}/settings`));
  add('searchIndexes.stats', 'stats', templated(`${base}/stats{?period}`));
  add('searchIndexes.getKey', 'hub-search-key', link(`${base}/keys/${index.apiKey.id}`));
  add('searchIndexes.listAssigned', 'assigned-content-types', link(`${base}/assigned-content-types`));
  add('searchIndexes.list', 'list-replicas', templated(`${hubBase}/search-indexes?parentId=${index.id}{&projection,page,size,sort}`));
  if (active) {
    add('searchIndexes.update', 'update', link(base));
    add('searchIndexes.updateSettings', 'update-settings', templated(`${base}/settings{?forwardToReplicas}`));
    if (primary) {
      add('searchIndexes.archive', 'archive', link(`${base}/archive`));
      add('searchIndexes.clear', 'clear', link(`${base}/clear`));
      add('searchIndexes.createAssigned', 'create-assigned-content-types', link(`${base}/assigned-content-types`));
    }
  } else if (primary) add('searchIndexes.unarchive', 'unarchive', link(`${base}/unarchive`));
  for (const report of REPORTS) add('searchAnalytics.report', report, templated(`${base}/analytics/${report}{?${REPORT_PARAMS[report].join(',')}}`));

  return {
    id: index.id,
    name: index.name,
    suffix: index.suffix,
    label: index.label,
    type: index.type,
    status: index.status,
    parentId: index.parentId,
    replicaCount: primary ? replicaCount(ctx.db, index.id) : 0,
    createdDate: index.createdDate,
    lastModifiedDate: index.lastModifiedDate,
    ...(opts.withSettings ? { settings: settingsView(ctx, index) } : {}),
    _links: links,
  };
}

/**
 * Settings as stored, plus what the index's place decides: a primary's `replicas` (empty until
 * set), a replica's `primary` (its primary's name).
 */
export function settingsView(ctx: RequestContext, index: SearchIndex): IndexSettings {
  if (index.parentId === null) return { replicas: [], ...index.settings };
  return { ...index.settings, primary: searchIndexes(ctx.db).get(index.parentId)?.name ?? null };
}

export function renderSettings(ctx: RequestContext, index: SearchIndex) {
  const base = ctx.href(indexPath(index));
  const { links, add } = linkSet(ctx, { hubId: index.hubId }, { self: link(`${base}/settings`), settings: link(`${base}/settings`), index: link(base) });
  add('hubs.get', 'hub', link(ctx.href(`/hubs/${index.hubId}`)));
  if (index.status === 'ACTIVE') add('searchIndexes.updateSettings', 'update-settings', templated(`${base}/settings{?forwardToReplicas}`));
  return { ...settingsView(ctx, index), _links: links };
}

export function renderKey(ctx: RequestContext, index: SearchIndex) {
  const base = ctx.href(indexPath(index));
  return { ...index.apiKey, type: 'HUB_SEARCH', _links: { self: link(`${base}/keys/${index.apiKey.id}`), index: link(base) } };
}

/** An assigned content type; its webhook links point at the hub's webhooks. */
export function renderAssignedType(ctx: RequestContext, type: AssignedContentType) {
  const base = ctx.href(`/hubs/${type.hubId}/search-indexes/${type.indexId}/assigned-content-types/${type.id}`);
  const scope = { hubId: type.hubId };
  const { links, add } = linkSet(ctx, scope, { self: link(base), 'assigned-content-type': link(base) });
  const contentType = contentTypes(ctx.db).find({ where: 'hub_id = ? AND uri = ?', params: [type.hubId, type.contentTypeUri] });
  if (contentType) add('contentTypes.get', 'content-type', link(ctx.href(`/content-types/${contentType.id}`)));
  add('searchIndexes.removeAssigned', 'unassign', link(base));
  const webhookLink = (id: string | null) => (id && webhooks(ctx.db).get(id) ? link(ctx.href(`/hubs/${type.hubId}/webhooks/${id}`)) : null);
  const active = webhookLink(type.webhooks.active);
  const archived = webhookLink(type.webhooks.archived);
  if (active) add('webhooks.get', 'webhook', active);
  if (active) add('webhooks.get', 'active-content-webhook', active);
  if (archived) add('webhooks.get', 'archived-content-webhook', archived);
  add('searchIndexes.recreateWebhook', 'recreate-webhook', link(`${base}/recreate-webhook?type=active`));
  add('searchIndexes.recreateWebhook', 'recreate-active-content-webhook', link(`${base}/recreate-webhook?type=active`));
  add('searchIndexes.recreateWebhook', 'recreate-archived-content-webhook', link(`${base}/recreate-webhook?type=archived`));
  return { id: type.id, contentTypeUri: type.contentTypeUri, createdDate: type.createdDate, lastModifiedDate: type.lastModifiedDate, _links: links };
}
