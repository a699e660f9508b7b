import { created, ok, type Reply, type RequestContext } from '../context.js';
import { badRequest, conflict, notFound, ServiceError } from '../errors.js';
import { intParam, link, pageOf, pageRequest, statusList } from '../hal.js';
import { loadItem, loadRepository } from '../load.js';
import { descendants, itemVersion, itemVersions, items, newItem, saveItem, saveVersion, type ContentItem } from '../store/items.js';
import { repositories, type Repository } from '../store/repositories.js';
import { folders } from '../store/folders.js';
import { workflowStates } from '../store/workflow-states.js';
import { itemChanged, renderItem } from '../resources/item.js';
import {
  assignedType,
  authorizeAs,
  checkActive,
  checkBody,
  checkDeliveryKey,
  checkFolder,
  checkLocale,
  checkVersion,
  requestedDeliveryKey,
  withDeliveryKey,
} from '../item-rules.js';
import type { Input } from '../validate.js';
import type * as bodies from '../schemas/items.js';

const SORTABLE = ['createdDate', 'lastModifiedDate', 'label', 'version', 'status'] as const;
const NEWEST_FIRST = [{ field: 'createdDate', dir: 'desc' as const }];

/** POST on a repository's items: a new item, or a copy when ?sourceContentItemId= names one. */
export function create(ctx: RequestContext) {
  const sourceId = ctx.query.get('sourceContentItemId');
  if (sourceId) return copy(ctx, sourceId);
  const repo = loadRepository(ctx);
  const input = ctx.validate<Input<typeof bodies.create>>('items.create', ctx.json());
  const type = assignedType(ctx, repo, input.body._meta.schema);
  checkBody(ctx, type, input.body);
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
 * destination and read rights on the source; the copy never carries the delivery key.
 */
function copy(ctx: RequestContext, sourceId: string) {
  const repo = loadRepository(ctx);
  const input = ctx.validate<Input<typeof bodies.copy>>('items.copy', ctx.json());
  const source = items(ctx.db).get(sourceId);
  if (!source) throw notFound('ContentItem', sourceId);
  authorizeAs(ctx, 'items.get', { hubId: source.hubId, repoId: source.contentRepositoryId }, 'ContentItem', sourceId);
  const from = input.version === 'latest' ? source : itemVersion(ctx.db, source.id, input.version);
  if (!from) throw badRequest(`Content item ${sourceId} has no version ${input.version}`, { code: 'VERSION_NOT_FOUND', entity: 'ContentItem', property: 'version', invalidValue: input.version });
  const base = input.body ?? from.body;
  const body = input.name === undefined ? base : { ...base, _meta: { ...base._meta, name: input.name } };
  checkBody(ctx, assignedType(ctx, repo, body._meta.schema), body);
  // The source's locale comes along when the destination accepts it.
  const locale = input.locale !== undefined ? input.locale : from.locale && acceptsLocale(repo, from.locale) ? from.locale : null;
  checkLocale(repo, locale);
  checkFolder(ctx, repo, input.folderId);
  const item = newItem(repo, { body, label: input.label, folderId: input.folderId ?? null, locale, assignees: [] }, ctx.createdStamp());
  return answerCreated(ctx, saveItem(ctx.db, withDeliveryKey(item, null), 'COPY', true));
}

const acceptsLocale = (repo: Repository, locale: string) => !repo.itemLocales.length || repo.itemLocales.includes(locale);

function answerCreated(ctx: RequestContext, item: ContentItem): Reply {
  return created(renderItem(ctx, item), ctx.href(`/content-items/${item.id}`));
}

/** One item; ?version= reads an earlier version. */
export function get(ctx: RequestContext) {
  const item = loadItem(ctx);
  const version = ctx.query.get('version');
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
  return itemChanged(ctx, applyUpdate(ctx, item, ctx.body<Input<typeof bodies.update>>()));
}

type UpdateInput = Input<typeof bodies.update> | Input<typeof bodies.bulkEntry>;

/**
 * The one update path (single and bulk): current version only, nothing changes on any
 * problem, and every update makes a new version. Only fields that change are checked, since
 * clients send whole fetched items back.
 */
function applyUpdate(ctx: RequestContext, item: ContentItem, input: UpdateInput): ContentItem {
  checkActive(item);
  checkVersion(item, input.version);
  const repo = repositories(ctx.db).get(item.contentRepositoryId)!;
  const changes: Partial<ContentItem> = {};
  if (input.body) {
    checkBody(ctx, assignedType(ctx, repo, input.body._meta.schema), input.body);
    changes.body = input.body;
  }
  if (input.label !== undefined) changes.label = input.label;
  if (input.folderId !== undefined && input.folderId !== item.folderId) {
    checkFolder(ctx, repo, input.folderId);
    changes.folderId = input.folderId;
  }
  if ('locale' in input && input.locale !== undefined && input.locale !== item.locale) {
    checkLocale(repo, input.locale);
    changes.locale = input.locale;
  }
  if (input.assignees) Object.assign(changes, assignment(ctx, item, input.assignees));
  const key = requestedDeliveryKey(item.deliveryKey, input.body, 'deliveryKey' in input ? input.deliveryKey : undefined);
  if (key !== null && key !== item.deliveryKey) checkDeliveryKey(ctx.db, item.hubId, item.id, key, input.body?._meta.deliveryKey === key ? 'body._meta.deliveryKey' : 'deliveryKey');
  const next = withDeliveryKey({ ...item, ...changes }, key);
  return saveVersion(ctx.db, item, next, ctx.modifiedStamp(), 'UPDATE');
}

/** Assignees, with the date they were last assigned when the list changes to someone. */
function assignment(ctx: RequestContext, item: ContentItem, assignees: string[]): Partial<ContentItem> {
  const same = assignees.length === item.assignees.length && assignees.every((a, i) => a === item.assignees[i]);
  return same || !assignees.length ? { assignees } : { assignees, assignedDate: ctx.nowIso() };
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
      applyUpdate(ctx, loadItem(ctx, input.id), input);
    })();
    return { id, status: 200, code: 'SUCCESS', level: 'INFO', message: null };
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    const first = err.entries[0]!;
    return { id, status: err.status, code: first.code, level: 'ERROR', message: first.message };
  }
}

export const archive = (ctx: RequestContext) => changeStatus(ctx, 'ARCHIVED');
export const unarchive = (ctx: RequestContext) => changeStatus(ctx, 'ACTIVE');

function changeStatus(ctx: RequestContext, to: ContentItem['status']) {
  const item = loadItem(ctx);
  const { version } = ctx.body<Input<typeof bodies.version>>();
  if (item.status === to) {
    throw conflict(`Content item ${item.id} is already ${to.toLowerCase()}`, { code: to === 'ARCHIVED' ? 'ITEM_ARCHIVED' : 'ITEM_NOT_ARCHIVED', entity: 'ContentItem', property: 'status', invalidValue: item.status });
  }
  checkVersion(item, version);
  return itemChanged(ctx, saveVersion(ctx.db, item, { status: to }, ctx.modifiedStamp(), to === 'ARCHIVED' ? 'ARCHIVE' : 'UNARCHIVE'));
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
  const input = ctx.body<Input<typeof bodies.workflow>>();
  checkActive(item);
  checkVersion(item, input.version);
  if (input.state !== null && workflowStates(ctx.db).get(input.state)?.hubId !== item.hubId) {
    throw badRequest(`No workflow state ${input.state} in this hub`, { code: 'WORKFLOW_STATE_NOT_FOUND', entity: 'ContentItem', property: 'state', invalidValue: input.state });
  }
  const { workflow: _old, ...rest } = item;
  const next: ContentItem = input.state === null ? rest : { ...rest, workflow: { state: input.state } };
  return itemChanged(ctx, saveVersion(ctx.db, rest, next, ctx.modifiedStamp(), 'WORKFLOW'));
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
function slotAssociations(_ctx: RequestContext, _item: ContentItem): unknown[] {
  return [];
}

export function editionSlotAssociations(ctx: RequestContext) {
  const item = loadItem(ctx);
  return ok({ _embedded: { 'edition-slot-associations': slotAssociations(ctx, item) }, _links: { self: link(ctx.href(`/content-items/${item.id}/edition-slot-associations`)) } });
}

/** The version of the item that is the candidate for publishing at ?epoch= or ?time= (default now). */
export function planned(ctx: RequestContext) {
  const item = loadItem(ctx);
  return ok(renderItem(ctx, plannedVersion(ctx, item, plannedTime(ctx))));
}

/**
 * Seam for the editions issue: until editions exist nothing is planned ahead, so the candidate at
 * any time is the latest version. Editions will answer the version their snapshot holds when one
 * is scheduled to publish by `_at`.
 */
function plannedVersion(_ctx: RequestContext, item: ContentItem, _at: number): ContentItem {
  return item;
}

/** ?epoch= (seconds, or milliseconds when that large) or ?time= (ISO 8601), default now. */
function plannedTime(ctx: RequestContext): number {
  const epoch = ctx.query.get('epoch');
  const time = ctx.query.get('time');
  if (epoch !== null && epoch !== '') {
    const n = Number(epoch);
    if (!Number.isFinite(n) || n < 0) throw badRequest("Query parameter 'epoch' must be a number of seconds (or milliseconds) since 1970", { property: 'epoch', invalidValue: epoch });
    return n < 1e11 ? n * 1000 : n;
  }
  if (time !== null && time !== '') {
    const t = Date.parse(time);
    if (Number.isNaN(t)) throw badRequest("Query parameter 'time' must be an ISO 8601 date-time", { property: 'time', invalidValue: time });
    return t;
  }
  return ctx.now();
}
