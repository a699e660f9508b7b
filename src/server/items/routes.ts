import { created, ok, type Reply, type RequestContext } from '../core/context.js';
import { badRequest, notFound, ServiceError } from '../core/errors.js';
import { intParam, link, pageOf, pageRequest, statusList } from '../core/hal.js';
import { loadItem } from './load.js';
import { loadRepository } from '../repositories/index.js';
import { editionSlotAssociations as slotAssociations, plannedVersion as plannedVersionAt } from '../editions/index.js';
import { descendants, itemVersion, itemVersions, items, newItem, saveItem, saveVersion, type ContentItem } from './store.js';
import { repositories } from '../repositories/index.js';
import { folders } from '../folders/index.js';
import { changeStatus, copyItem, setWorkflow as setItemWorkflow, updateItem } from './operations.js';
import { itemChanged, renderedItem, renderItem, renderRowJson } from './render.js';
import { cachedItemRow } from './row-cache.js';
import {
  assignedType,
  authorizeAs,
  checkActive,
  checkBody,
  checkDeliveryKey,
  checkFolder,
  checkLocale,
  checkVersion,
  withDeliveryKey,
} from './rules.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

const SORTABLE = ['createdDate', 'lastModifiedDate', 'label', 'version', 'status'] as const;
const NEWEST_FIRST = [{ field: 'createdDate', dir: 'desc' as const }];

/** POST on a repository's items: a new item, or a copy when ?sourceContentItemId= names one. */
export function create(ctx: RequestContext) {
  const sourceId = ctx.query.get('sourceContentItemId');
  if (sourceId) return copy(ctx, sourceId);
  const repo = loadRepository(ctx);
  const input = ctx.validate<Input<typeof bodies.create>>('items.create', ctx.json());
  const type = assignedType(ctx, repo, input.body._meta.schema);
  checkBody(ctx, repo, type, input.body);
  checkLocale(repo, input.locale);
  checkFolder(ctx, repo, input.folderId);
  const fields = { body: input.body, label: input.label, folderId: input.folderId ?? null, locale: input.locale ?? null, assignees: input.assignees ?? [] };
  const item = newItem(repo, fields, ctx.createdStamp());
  const key = input.body._meta.deliveryKey ?? null;
  if (key !== null) checkDeliveryKey(ctx.db, repo.hubId, item.id, key, 'body._meta.deliveryKey');
  return answerCreated(ctx, saveItem(ctx.db, withDeliveryKey(item, key), 'CREATE', true));
}

/**
 * Copies a version of an item into this repository. The caller needs the route's rights on the
 * destination and read rights on the source.
 */
function copy(ctx: RequestContext, sourceId: string) {
  const repo = loadRepository(ctx);
  const input = ctx.validate<Input<typeof bodies.copy>>('items.copy', ctx.json());
  const source = items(ctx.db).get(sourceId);
  if (!source) throw notFound('ContentItem', sourceId);
  authorizeAs(ctx, 'items.get', { hubId: source.hubId, repoId: source.contentRepositoryId }, 'ContentItem', sourceId);
  return answerCreated(ctx, copyItem(ctx, repo, source, input));
}

function answerCreated(ctx: RequestContext, item: ContentItem): Reply {
  return { ...created(null, ctx.href(`/content-items/${item.id}`)), ...renderedItem(ctx, item) };
}

/** One item; ?version= reads an earlier version. */
export function get(ctx: RequestContext) {
  const version = ctx.query.get('version');
  if (version === null && ctx.query.get('projection') !== 'basic') {
    // The hot path: access and links from indexed columns; the stored JSON is sent as it is.
    const id = ctx.params.itemId!;
    const row = cachedItemRow(ctx.service, id);
    if (!row) throw notFound('ContentItem', id);
    ctx.authorize({ hubId: row.keys.hubId, repoId: row.keys.contentRepositoryId }, 'ContentItem', id);
    return { status: 200, json: renderRowJson(ctx, row) };
  }
  const item = loadItem(ctx);
  return ok(renderItem(ctx, version === null ? item : versionOf(ctx, item, version)));
}

function versionOf(ctx: RequestContext, item: ContentItem, raw: string): ContentItem {
  const version = intParam(raw, 'version', item.version, 1, Number.MAX_SAFE_INTEGER);
  const found = itemVersion(ctx.db, item.id, version);
  if (!found) throw notFound('ContentItem version', `${item.id}/${version}`);
  return found;
}

export function list(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  const where = ['repo_id = ?'];
  const params: unknown[] = [repo.id];
  const folderId = ctx.query.get('folderId');
  if (folderId) {
    where.push('folder_id = ?');
    params.push(folderId);
  }
  const statuses = statusList(ctx, ['ACTIVE', 'ARCHIVED']);
  if (statuses) {
    where.push(`status IN (${statuses.map(() => '?').join(', ')})`);
    params.push(...statuses);
  }
  // Hierarchy children name their parent in the body; only roots and plain items remain.
  if (ctx.query.get('excludeHierarchicalChildren') === 'true') where.push("json_extract(data, '$.body._meta.hierarchy.parentId') IS NULL");
  const req = pageRequest(ctx, SORTABLE, NEWEST_FIRST);
  const page = items(ctx.db).page({ where: where.join(' AND '), params }, req);
  return ok(pageOf(ctx, 'content-items', page, req, (i) => renderItem(ctx, i)));
}

export function update(ctx: RequestContext) {
  const item = loadItem(ctx);
  return itemChanged(ctx, updateItem(ctx, item, ctx.body<Input<typeof bodies.update>>()));
}

/**
 * PATCH /content-items with 1..100 entries: 207 with one result per entry. Each entry runs in its
 * own savepoint and fails alone (missing, stale, invalid, forbidden, archived).
 */
export function bulkUpdate(ctx: RequestContext): Reply {
  // Each entry applies the route's ACLs to its own item (loadItem); one that fails earlier never reaches it.
  ctx.aclChecked = true;
  const results = ctx.body<unknown[]>().map((entry) => bulkResult(ctx, entry));
  return { status: 207, body: { results } };
}

function bulkResult(ctx: RequestContext, entry: unknown) {
  const rawId = (entry as { id?: unknown } | null)?.id;
  const id = typeof rawId === 'string' ? rawId : null;
  try {
    ctx.db.transaction(() => {
      const input = ctx.validate<Input<typeof bodies.bulkEntry>>('items.bulkEntry', entry);
      updateItem(ctx, loadItem(ctx, input.id), input);
    })();
    return { id, status: 200, code: 'SUCCESS', level: 'INFO', message: null };
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    const first = err.entries[0]!;
    return { id, status: err.status, code: first.code, level: 'ERROR', message: first.message };
  }
}

export const archive = (ctx: RequestContext) => changeStatusOf(ctx, 'ARCHIVED');
export const unarchive = (ctx: RequestContext) => changeStatusOf(ctx, 'ACTIVE');

function changeStatusOf(ctx: RequestContext, to: ContentItem['status']) {
  const item = loadItem(ctx);
  return itemChanged(ctx, changeStatus(ctx, item, to, ctx.body<Input<typeof bodies.version>>().version));
}

/** Every version, newest first unless sort=version,asc; each as the item was then. */
export function versions(ctx: RequestContext) {
  const item = loadItem(ctx);
  const req = pageRequest(ctx, ['version'], [{ field: 'version', dir: 'desc' }]);
  const { rows, total } = itemVersions(ctx.db, item.id, req.page, req.size, req.sort[0]!.dir === 'asc');
  return ok(pageOf(ctx, 'content-items', { items: rows.map((r) => r.item), total }, req, (v) => renderItem(ctx, v)));
}

export function version(ctx: RequestContext) {
  return ok(renderItem(ctx, versionOf(ctx, loadItem(ctx), ctx.params.version!)));
}

/** What each version recorded: which change made it, by whom and when (key `history`). */
export function history(ctx: RequestContext) {
  const item = loadItem(ctx);
  const req = pageRequest(ctx, ['version'], [{ field: 'version', dir: 'desc' }]);
  const { rows, total } = itemVersions(ctx.db, item.id, req.page, req.size, req.sort[0]!.dir === 'asc');
  const entry = (r: (typeof rows)[number]) => ({
    version: r.meta.version,
    action: r.meta.action,
    user: r.meta.createdBy,
    date: r.meta.createdDate,
    _links: { 'content-item-version': link(ctx.href(`/content-items/${item.id}/versions/${r.meta.version}`)) },
  });
  return ok(pageOf(ctx, 'history', { items: rows, total }, req, entry));
}

/** A new version holding the body, label, folder and locale of an earlier one; the delivery key stays. */
export function restore(ctx: RequestContext) {
  const item = loadItem(ctx);
  const input = ctx.body<Input<typeof bodies.restore>>();
  checkActive(item);
  checkVersion(item, input.version);
  const old = itemVersion(ctx.db, item.id, input.restoreVersion);
  if (!old) throw badRequest(`Content item ${item.id} has no version ${input.restoreVersion}`, { code: 'VERSION_NOT_FOUND', entity: 'ContentItem', property: 'restoreVersion', invalidValue: input.restoreVersion });
  // A folder deleted since then cannot hold the item again: it returns to the repository root.
  const folderId = old.folderId && folders(ctx.db).get(old.folderId) ? old.folderId : null;
  const next = withDeliveryKey({ ...item, body: old.body, label: old.label, folderId, locale: old.locale }, item.deliveryKey);
  return itemChanged(ctx, saveVersion(ctx.db, item, next, ctx.modifiedStamp(), 'RESTORE'));
}

export function setLocale(ctx: RequestContext) {
  const item = loadItem(ctx);
  const input = ctx.body<Input<typeof bodies.locale>>();
  checkActive(item);
  checkVersion(item, input.version);
  checkLocale(repositories(ctx.db).get(item.contentRepositoryId)!, input.locale);
  return itemChanged(ctx, saveVersion(ctx.db, item, { locale: input.locale }, ctx.modifiedStamp(), 'LOCALE'));
}

/** Assigns a workflow state of the item's hub; state null removes the workflow field altogether. */
export function setWorkflow(ctx: RequestContext) {
  const item = loadItem(ctx);
  return itemChanged(ctx, setItemWorkflow(ctx, item, ctx.body<Input<typeof bodies.workflow>>()));
}

/** The item and every item reachable through its content links, root first. */
export function withChildren(ctx: RequestContext) {
  const id = ctx.query.get('id');
  if (!id) throw badRequest("Query parameter 'id' is required", { property: 'id', invalidValue: null });
  const root = loadItem(ctx, id);
  const store = items(ctx.db);
  const graph = descendants(ctx.db, root.id)
    .map((i) => store.get(i))
    .filter((i): i is ContentItem => i?.hubId === root.hubId);
  return ok({ _embedded: { 'content-items': graph.map((i) => renderItem(ctx, i)) }, _links: { self: link(ctx.url.href) } });
}

/**
 * Edition slots that hold this item. Seam for the editions issue: until editions exist no slot
 * can hold an item, so the list is empty; replace this with the edition-slot query then.
 */
export function editionSlotAssociations(ctx: RequestContext) {
  const item = loadItem(ctx);
  return ok({ _embedded: { 'edition-slot-associations': slotAssociations(ctx.db, item.id) }, _links: { self: link(ctx.href(`/content-items/${item.id}/edition-slot-associations`)) } });
}

/** The version of the item that is the candidate for publishing at ?epoch= or ?time= (default now). */
export function planned(ctx: RequestContext) {
  const item = loadItem(ctx);
  return ok(renderItem(ctx, plannedVersion(ctx, item, plannedTime(ctx))));
}

/**
 * What is live at a time: the snapshot version of the latest-starting scheduled or published
 * edition that publishes the item by then, else the last published version; with neither, the
 * item as it is now is the candidate.
 */
function plannedVersion(ctx: RequestContext, item: ContentItem, at: number): ContentItem {
  const version = plannedVersionAt(ctx.db, item.id, at);
  return version === null ? item : (itemVersion(ctx.db, item.id, version) ?? item);
}

/** ?epoch= (seconds, or milliseconds when that large) or ?time= (ISO 8601), default now. */
function plannedTime(ctx: RequestContext): number {
  const epoch = ctx.query.get('epoch');
  const time = ctx.query.get('time');
  if (epoch !== null && epoch !== '') {
    const n = Number(epoch);
    const ms = n < 1e11 ? n * 1000 : n;
    // Beyond the last instant a date can hold (+275760), the time cannot be shown or compared.
    if (!Number.isFinite(n) || n < 0 || Number.isNaN(new Date(ms).getTime())) {
      throw badRequest("Query parameter 'epoch' must be a number of seconds (or milliseconds) since 1970", { property: 'epoch', invalidValue: epoch });
    }
    return ms;
  }
  if (time !== null && time !== '') {
    const t = Date.parse(time);
    if (Number.isNaN(t)) throw badRequest("Query parameter 'time' must be an ISO 8601 date-time", { property: 'time', invalidValue: time });
    return t;
  }
  return ctx.now();
}
