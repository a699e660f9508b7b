import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { badRequest, conflict, notFound } from '../core/errors.js';
import { link, pageOf, pageRequest, statusList } from '../core/hal.js';
import { newId } from '../core/ids.js';
import { loadHub } from '../hubs/index.js';
import { HUB_MODULES, hubs, type Hub } from '../hubs/index.js';
import { contentTypes } from '../content-types/index.js';
import { webhooks } from '../webhooks/index.js';
import { indexPath, renderAssignedType, renderIndex, renderKey, renderSettings } from './render.js';
import { loadSearchIndex, requireActive, requirePrimary } from './access.js';
import { indexName, suffixProblem } from './naming.js';
import { usageSince } from './records.js';
import {
  INDEX_STATUSES,
  assignedTypes,
  copyObjects,
  indexByName,
  newApiKey,
  objectTotals,
  replicasOf,
  searchIndexes,
  type AssignedContentType,
  type SearchIndex,
} from './store.js';
import { clearEverywhere, createTypeWebhooks, deleteEverywhere, deleteOwnedWebhooks, deleteTypeWebhooks, typeWebhook, type WebhookKind } from './sync.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

const SORTABLE = ['createdDate', 'lastModifiedDate', 'name', 'label', 'suffix', 'type', 'status'] as const;

/** `parentId=` (empty) lists primaries, `parentId=<id>` the replicas of one; `status` is a comma list. */
export function list(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const req = pageRequest(ctx, SORTABLE, [{ field: 'createdDate', dir: 'asc' }]);
  const where = ['hub_id = ?'];
  const params: unknown[] = [hub.id];
  const parentId = ctx.query.get('parentId');
  if (parentId === '') where.push('parent_id IS NULL');
  else if (parentId !== null) {
    where.push('parent_id = ?');
    params.push(parentId);
  }
  const statuses = statusList(ctx, INDEX_STATUSES);
  if (statuses) {
    where.push(`status IN (${statuses.map(() => '?').join(', ')})`);
    params.push(...statuses);
  }
  const withSettings = projection(ctx);
  const result = searchIndexes(ctx.db).page({ where: where.join(' AND '), params }, req);
  return ok(pageOf(ctx, 'indexes', result, req, (i) => renderIndex(ctx, i, { withSettings })));
}

function projection(ctx: RequestContext): boolean {
  const value = ctx.query.get('projection');
  if (value === null || value === '') return false;
  if (value !== 'withSettings') throw badRequest(`Unknown projection '${value}'; use withSettings`, { property: 'projection', invalidValue: value });
  return true;
}

/** A primary index named `<hubName>.<suffix>`, with its assigned content types and their webhooks. */
export function create(ctx: RequestContext) {
  const hub = loadHub(ctx);
  requireModule(hub);
  const input = ctx.body<Input<typeof bodies.create>>();
  const name = indexName(hub.name, input.suffix);
  if (indexByName(ctx.db, hub.id, name)) throw duplicateName(name, 'suffix');
  const uris = input.assignedContentTypes.map((t) => t.contentTypeUri);
  uris.forEach((uri, i) => {
    if (uris.indexOf(uri) !== i) throw badRequest(`${uri} is listed twice`, { code: 'DUPLICATE_CONTENT_TYPE', entity: 'SearchIndex', property: `assignedContentTypes.${i}.contentTypeUri`, invalidValue: uri });
    requireContentType(ctx, hub.id, uri, `assignedContentTypes.${i}.contentTypeUri`);
  });
  const index = newIndex(ctx, { hubId: hub.id, name, suffix: input.suffix, label: input.label, type: input.type, status: 'ACTIVE', parentId: null, settings: {} });
  searchIndexes(ctx.db).insert(index);
  for (const uri of uris) assignType(ctx, index, uri);
  return created(renderIndex(ctx, index), ctx.href(indexPath(index)));
}

function requireModule(hub: Hub): void {
  if (!hub.modules.includes(HUB_MODULES['search-index'])) {
    throw badRequest(`The search index module is not enabled on hub ${hub.name} (an administrator enables it)`, {
      code: 'SEARCH_INDEX_MODULE_DISABLED',
      entity: 'Hub',
      property: 'modules',
      invalidValue: hub.modules,
    });
  }
}

function duplicateName(name: string, property: string) {
  return conflict(`A search index named ${name} already exists in this hub`, { code: 'DUPLICATE_INDEX_NAME', entity: 'SearchIndex', property, invalidValue: name });
}

function requireContentType(ctx: RequestContext, hubId: string, uri: string, property: string): void {
  if (!contentTypes(ctx.db).find({ where: 'hub_id = ? AND uri = ?', params: [hubId, uri] })) {
    throw badRequest(`No content type ${uri} is registered in this hub`, { code: 'CONTENT_TYPE_NOT_FOUND', entity: 'AssignedContentType', property, invalidValue: uri });
  }
}

function newIndex(ctx: RequestContext, fields: Omit<SearchIndex, 'id' | 'apiKey' | 'createdBy' | 'createdDate' | 'lastModifiedBy' | 'lastModifiedDate'>): SearchIndex {
  return { id: newId(ctx.now()), ...fields, apiKey: newApiKey(newId(ctx.now()), fields.hubId), ...ctx.createdStamp() };
}

export function get(ctx: RequestContext) {
  return ok(renderIndex(ctx, loadSearchIndex(ctx)));
}

/** Only the label changes; clients send back the whole index and the rest is ignored. */
export function update(ctx: RequestContext) {
  const index = loadSearchIndex(ctx);
  requireActive(index);
  const { label } = ctx.body<Input<typeof bodies.update>>();
  const next = label === undefined ? index : save(ctx, { ...index, label });
  return ok(renderIndex(ctx, next), ctx.href(indexPath(index)));
}

function save(ctx: RequestContext, index: SearchIndex): SearchIndex {
  return searchIndexes(ctx.db).update({ ...index, ...ctx.modifiedStamp() });
}

/** Deletes the index with its replicas, records, assigned types and their webhooks. */
export function remove(ctx: RequestContext) {
  const index = loadSearchIndex(ctx);
  if (index.parentId !== null) dropReplicaName(ctx, index);
  deleteOwnedWebhooks(ctx.db, index.id);
  searchIndexes(ctx.db).delete(index.id);
  return noContent();
}

/** A replica deleted on its own leaves its primary's replicas setting. */
function dropReplicaName(ctx: RequestContext, replica: SearchIndex): void {
  const primary = searchIndexes(ctx.db).get(replica.parentId!);
  const names = primary?.settings.replicas;
  if (!primary || !Array.isArray(names)) return;
  save(ctx, { ...primary, settings: { ...primary.settings, replicas: names.filter((n) => n !== replica.name) } });
}

export const archive = (ctx: RequestContext) => changeStatus(ctx, 'ACTIVE', 'ARCHIVED');
export const unarchive = (ctx: RequestContext) => changeStatus(ctx, 'ARCHIVED', 'ACTIVE');

/** Archive and unarchive apply to a primary and its replicas together. */
function changeStatus(ctx: RequestContext, from: SearchIndex['status'], to: SearchIndex['status']) {
  const index = loadSearchIndex(ctx);
  requirePrimary(index, `${to === 'ARCHIVED' ? 'archive' : 'unarchive'} it`);
  if (index.status !== from) {
    throw conflict(`Search index ${index.name} is already ${index.status}`, {
      code: to === 'ARCHIVED' ? 'INDEX_ARCHIVED' : 'INDEX_NOT_ARCHIVED',
      entity: 'SearchIndex',
      property: 'status',
      invalidValue: index.status,
    });
  }
  for (const replica of replicasOf(ctx.db, index.id)) save(ctx, { ...replica, status: to });
  return ok(renderIndex(ctx, save(ctx, { ...index, status: to })), ctx.href(indexPath(index)));
}

/** Removes every record (the replicas' too); answers the index. */
export function clear(ctx: RequestContext) {
  const index = loadSearchIndex(ctx);
  requirePrimary(index, 'clear');
  requireActive(index);
  clearEverywhere(ctx.db, index);
  return ok(renderIndex(ctx, index), ctx.href(indexPath(index)));
}

export function getKey(ctx: RequestContext) {
  const index = loadSearchIndex(ctx);
  if (ctx.params.keyId !== index.apiKey.id) throw notFound('SearchIndexKey', ctx.params.keyId);
  return ok(renderKey(ctx, index));
}

export function removeObject(ctx: RequestContext) {
  const index = loadSearchIndex(ctx);
  requirePrimary(index, 'delete records');
  requireActive(index);
  if (!deleteEverywhere(ctx.db, index, ctx.params.objectId!)) throw notFound('IndexObject', ctx.params.objectId);
  return noContent();
}

export function getSettings(ctx: RequestContext) {
  return ok(renderSettings(ctx, loadSearchIndex(ctx)));
}

/**
 * Stores the keys sent as they are (others keep their value). `replicas` makes the managed
 * replicas match the names given; with forwardToReplicas=true the other keys sent are copied
 * to every replica as well.
 */
export function updateSettings(ctx: RequestContext) {
  const index = loadSearchIndex(ctx);
  requireActive(index);
  const forward = forwardToReplicas(ctx);
  const { _links: _l, _embedded: _e, primary: _p, ...sent } = ctx.body<Input<typeof bodies.settings>>();
  const next = save(ctx, { ...index, settings: { ...index.settings, ...sent } });
  if (sent.replicas !== undefined) {
    requirePrimary(index, 'set replicas');
    syncReplicas(ctx, next, sent.replicas);
  }
  if (forward && index.parentId === null) {
    const { replicas: _r, ...forwarded } = sent;
    for (const replica of replicasOf(ctx.db, index.id)) save(ctx, { ...replica, settings: { ...replica.settings, ...forwarded } });
  }
  return ok(renderSettings(ctx, next), ctx.href(`${indexPath(index)}/settings`));
}

function forwardToReplicas(ctx: RequestContext): boolean {
  const raw = ctx.query.get('forwardToReplicas');
  if (raw === null || raw === '') return false;
  if (raw !== 'true' && raw !== 'false') throw badRequest(`forwardToReplicas must be true or false, got '${raw}'`, { property: 'forwardToReplicas', invalidValue: raw });
  return raw === 'true';
}

/**
 * Managed replicas are named `<hubName>.<replicaName>`: new names become replicas (same type,
 * a copy of the primary's updated settings and its records), replicas no longer named are deleted.
 */
function syncReplicas(ctx: RequestContext, primary: SearchIndex, names: string[]): void {
  const hub = hubs(ctx.db).get(primary.hubId)!;
  const prefix = `${hub.name}.`;
  names.forEach((name, i) => checkReplicaName(primary, prefix, name, i, names));
  const existing = replicasOf(ctx.db, primary.id);
  for (const replica of existing) if (!names.includes(replica.name)) searchIndexes(ctx.db).delete(replica.id);
  for (const [i, name] of names.entries()) {
    if (existing.some((r) => r.name === name)) continue;
    if (indexByName(ctx.db, hub.id, name)) throw duplicateName(name, `replicas.${i}`);
    const suffix = name.slice(prefix.length);
    const { replicas: _r, ...settings } = primary.settings;
    const replica = newIndex(ctx, { hubId: hub.id, name, suffix, label: suffix, type: primary.type, status: primary.status, parentId: primary.id, settings });
    searchIndexes(ctx.db).insert(replica);
    copyObjects(ctx.db, primary.id, replica.id);
  }
}

function checkReplicaName(primary: SearchIndex, prefix: string, name: string, i: number, names: string[]): void {
  const fail = (message: string) => badRequest(message, { code: 'INVALID_REPLICA_NAME', entity: 'SearchIndexSettings', property: `replicas.${i}`, invalidValue: name });
  if (!name.startsWith(prefix)) throw fail(`Replica name '${name}' must be '${prefix}<replicaName>'`);
  const problem = suffixProblem(name.slice(prefix.length));
  if (problem) throw fail(`Replica name '${name}': the part after '${prefix}' ${problem}`);
  if (name === primary.name) throw fail(`An index cannot be its own replica`);
  if (names.indexOf(name) !== i) throw fail(`Replica name '${name}' is listed twice`);
}

const PERIOD_DAYS: Record<string, number> = { day: 1, week: 7, month: 30, year: 365 };

/** Records held now, and usage (searches answered, response time) over the period (default month). */
export function stats(ctx: RequestContext) {
  const index = loadSearchIndex(ctx);
  const period = ctx.query.get('period') || 'month';
  const days = PERIOD_DAYS[period];
  if (days === undefined) throw badRequest(`Unknown period '${period}'; use ${Object.keys(PERIOD_DAYS).join(', ')}`, { property: 'period', invalidValue: period });
  const records = objectTotals(ctx.db, index.id);
  const usage = usageSince(ctx.db, index.id, ctx.now() - days * 86_400_000);
  const base = ctx.href(indexPath(index));
  return ok({
    totalRecords: records.count,
    totalRecordSize: records.bytes,
    averageRecordSize: records.count ? Math.round(records.bytes / records.count) : 0,
    usage: {
      numberOfSearches: { unit: 'searches', value: usage.searches },
      averageResponseTime: { unit: 'ms', duration: usage.totalMs, value: usage.searches ? usage.totalMs / usage.searches : 0 },
    },
    period,
    _links: { self: link(`${base}/stats?period=${period}`), index: link(base) },
  });
}

// Assigned content types

/** Every assigned type in one page: clients of this list never send paging. */
export function listAssigned(ctx: RequestContext) {
  const index = loadSearchIndex(ctx);
  const all = assignedTypes(ctx.db).all({ where: 'index_id = ?', params: [index.id] }, [{ field: 'createdDate', dir: 'asc' }]);
  const req = { page: 0, size: Math.max(all.length, 20), sort: [] };
  return ok(pageOf(ctx, 'assigned-content-types', { items: all, total: all.length }, req, (t) => renderAssignedType(ctx, t)));
}

export function createAssigned(ctx: RequestContext) {
  const index = loadSearchIndex(ctx);
  requirePrimary(index, 'assign content types');
  requireActive(index);
  const { contentTypeUri } = ctx.body<Input<typeof bodies.assign>>();
  requireContentType(ctx, index.hubId, contentTypeUri, 'contentTypeUri');
  const type = assignType(ctx, index, contentTypeUri);
  return created(renderAssignedType(ctx, type), ctx.href(`${indexPath(index)}/assigned-content-types/${type.id}`));
}

function assignType(ctx: RequestContext, index: SearchIndex, contentTypeUri: string): AssignedContentType {
  if (assignedTypes(ctx.db).count({ where: 'index_id = ? AND content_type_uri = ?', params: [index.id, contentTypeUri] })) {
    throw conflict(`${contentTypeUri} is already assigned to ${index.name}`, { code: 'DUPLICATE_ASSIGNED_CONTENT_TYPE', entity: 'AssignedContentType', property: 'contentTypeUri', invalidValue: contentTypeUri });
  }
  const stamp = ctx.createdStamp();
  const type: AssignedContentType = {
    id: newId(ctx.now()),
    hubId: index.hubId,
    indexId: index.id,
    contentTypeUri,
    webhooks: createTypeWebhooks(ctx.db, index, contentTypeUri, stamp, ctx.now()),
    createdDate: stamp.createdDate,
    lastModifiedDate: stamp.lastModifiedDate,
  };
  return assignedTypes(ctx.db).insert(type);
}

function loadAssigned(ctx: RequestContext): { index: SearchIndex; type: AssignedContentType } {
  const index = loadSearchIndex(ctx);
  const type = assignedTypes(ctx.db).get(ctx.params.assignedId!);
  if (!type || type.indexId !== index.id) throw notFound('AssignedContentType', ctx.params.assignedId);
  return { index, type };
}

export function getAssigned(ctx: RequestContext) {
  return ok(renderAssignedType(ctx, loadAssigned(ctx).type));
}

/** Unassigns the type and deletes its webhooks; records already in the index stay. */
export function removeAssigned(ctx: RequestContext) {
  const { type } = loadAssigned(ctx);
  deleteTypeWebhooks(ctx.db, type);
  assignedTypes(ctx.db).delete(type.id);
  return noContent();
}

/** Replaces the active or archived webhook of an assigned type with a fresh one. */
export function recreateWebhook(ctx: RequestContext) {
  const { index, type } = loadAssigned(ctx);
  const kind = ctx.query.get('type');
  if (kind !== 'active' && kind !== 'archived') throw badRequest(`The type parameter is required: active or archived${kind === null ? '' : `, got '${kind}'`}`, { property: 'type', invalidValue: kind });
  const old = type.webhooks[kind as WebhookKind];
  if (old) webhooks(ctx.db).delete(old);
  const hook = webhooks(ctx.db).insert(typeWebhook(index, type.contentTypeUri, kind, ctx.createdStamp(), ctx.now()));
  assignedTypes(ctx.db).update({ ...type, webhooks: { ...type.webhooks, [kind]: hook.id }, lastModifiedDate: ctx.nowIso() });
  return noContent();
}

