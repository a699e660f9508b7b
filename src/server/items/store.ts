import { readConsistently, type Db } from '../core/db.js';
import { Collection } from '../core/collection.js';
import { stmt } from '../core/statements.js';
import { findLinks } from '../core/content-links.js';
import { indexSearchRow } from './search-text.js';
import { enqueueEvent } from '../webhooks/index.js';
import { newUuid } from '../core/ids.js';
import { noteItemChanged } from './written.js';

export interface ItemMeta {
  schema: string;
  name?: string;
  deliveryKey?: string | null;
  [other: string]: unknown;
}

export interface ContentItem {
  id: string;
  hubId: string;
  contentRepositoryId: string;
  folderId: string | null;
  body: Record<string, unknown> & { _meta: ItemMeta };
  version: number;
  label: string;
  status: 'ACTIVE' | 'ARCHIVED';
  locale: string | null;
  assignees: string[];
  assignedDate?: string;
  deliveryKey: string | null;
  deliveryId: string;
  /** The body's `_meta.hierarchy` (root, parentId) as the management SDK's ContentItem.hierarchy; kept by saveItem. */
  hierarchy?: HierarchyMeta;
  workflow?: { state: string };
  /** NONE until published; LATEST when the latest version is published; EARLY when a newer version exists. */
  publishingStatus: 'NONE' | 'EARLY' | 'LATEST' | 'UNPUBLISHED';
  lastPublishedVersion?: number;
  lastPublishedDate?: string;
  /** Set by an unpublish: when, and the version taken out of publication. */
  lastUnpublishedVersion?: number;
  lastUnpublishedDate?: string;
  /** Items that are localizations of one another share this id (the original's id). */
  localizationGroupId?: string;
  validationState: 'VALID' | 'INVALID';
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

/** Where an item sits in a hierarchy: the management SDK's HierarchyMeta. */
export interface HierarchyMeta {
  root: boolean;
  parentId?: string;
}

/** The hierarchy a body declares (`_meta.hierarchy`), or undefined when it declares none. */
export function hierarchyOf(body: ContentItem['body']): HierarchyMeta | undefined {
  const h = body._meta.hierarchy as { root?: unknown; parentId?: unknown } | undefined;
  if (!h || typeof h !== 'object' || Array.isArray(h)) return undefined;
  return { root: h.root === true, ...(typeof h.parentId === 'string' ? { parentId: h.parentId } : {}) };
}

/**
 * Sets `hierarchy` from the body (one place, so every write keeps it). In place: callers render
 * the object they saved, and the field only ever follows the body being saved with it.
 */
function keepHierarchy(item: ContentItem): void {
  const h = hierarchyOf(item.body);
  if (h) item.hierarchy = h;
  else delete item.hierarchy;
}

/** The parent an item's latest body names, as migration 0013-hierarchies indexes it. */
const HIERARCHY_PARENT = "json_extract(data, '$.body._meta.hierarchy.parentId')";

/** The ACTIVE items of a hub whose latest body names `parentId` as parent, oldest first, at most `limit` (an index search). */
export function hierarchyChildren(db: Db, hubId: string, parentId: string, limit: number): ContentItem[] {
  const rows = stmt(db, `SELECT data, hub_id FROM content_items WHERE hub_id = ? AND ${HIERARCHY_PARENT} = ? AND status = 'ACTIVE' ORDER BY created_date, seq LIMIT ?`).all(hubId, parentId, limit);
  return (rows as { data: string; hub_id: string }[]).map(itemFromRow);
}

/** Whether any ACTIVE item of the hub names `parentId` as parent (an index search). */
export function hasHierarchyChildren(db: Db, hubId: string, parentId: string): boolean {
  return stmt(db, `SELECT 1 FROM content_items WHERE hub_id = ? AND ${HIERARCHY_PARENT} = ? AND status = 'ACTIVE' LIMIT 1`).get(hubId, parentId) !== undefined;
}

/** What a version records about the change that made it. */
export type ItemAction =
  | 'CREATE'
  | 'UPDATE'
  | 'ARCHIVE'
  | 'UNARCHIVE'
  | 'RESTORE'
  | 'LOCALE'
  | 'WORKFLOW'
  | 'DELIVERY_KEY'
  | 'ASSIGN'
  | 'COPY'
  | 'LOCALIZE';

export const ITEM_SORT_COLUMNS: Record<string, string> = {
  createdDate: 'created_date',
  lastModifiedDate: 'last_modified_date',
  label: 'label',
  version: 'version',
  status: 'status',
  locale: 'locale',
};

export const items = (db: Db) =>
  new Collection<ContentItem>(
    db,
    'content_items',
    {
      hub_id: (i) => i.hubId,
      repo_id: (i) => i.contentRepositoryId,
      folder_id: (i) => i.folderId,
      status: (i) => i.status,
      version: (i) => i.version,
      label: (i) => i.label,
      locale: (i) => i.locale,
      schema: (i) => i.body._meta.schema,
      delivery_key: (i) => i.deliveryKey,
      created_date: (i) => i.createdDate,
      last_modified_date: (i) => i.lastModifiedDate,
    },
    ITEM_SORT_COLUMNS,
    // The stored JSON is the item as shown; the hub it belongs to is only in its column.
    { hubId: 'hub_id' },
  );

/** What a new item takes from its creator; the rest starts at its defaults (version 1, ACTIVE, no key). */
export type NewItemFields = Pick<ContentItem, 'body' | 'label' | 'folderId' | 'locale' | 'assignees'> & Partial<Pick<ContentItem, 'localizationGroupId'>>;

export function newItem(
  repo: { id: string; hubId: string },
  fields: NewItemFields,
  stamp: { createdBy: string; createdDate: string; lastModifiedBy: string; lastModifiedDate: string },
  id = newUuid(),
): ContentItem {
  return {
    id,
    hubId: repo.hubId,
    contentRepositoryId: repo.id,
    ...fields,
    ...(fields.assignees.length ? { assignedDate: stamp.createdDate } : {}),
    version: 1,
    status: 'ACTIVE',
    deliveryKey: null,
    deliveryId: id,
    publishingStatus: 'NONE',
    validationState: 'VALID',
    ...stamp,
  };
}

/**
 * Writes an item and everything derived from it: the version row (each change makes one),
 * the outgoing content links, and the full-text row. Call inside the request's transaction.
 */
export function saveItem(db: Db, item: ContentItem, action: ItemAction, isNew: boolean): ContentItem {
  const table = items(db);
  const previous = isNew ? undefined : table.get(item.id);
  keepHierarchy(item);
  // A change after publication leaves the published version behind the latest one.
  if (item.publishingStatus === 'LATEST' && item.lastPublishedVersion !== undefined && item.version > item.lastPublishedVersion) {
    item = { ...item, publishingStatus: 'EARLY' };
  }
  // Serialized once: the item row, the version row and the event payloads all hold this JSON.
  const json = table.toData(item);
  if (isNew) table.insert(item, json);
  else table.update(item, json);
  stmt(db, 'INSERT OR REPLACE INTO content_item_versions (item_id, version, action, created_by, created_date, data) VALUES (?, ?, ?, ?, ?, ?)').run(
    item.id,
    item.version,
    action,
    item.lastModifiedBy,
    item.lastModifiedDate,
    withField(json, 'hubId', item.hubId),
  );
  stmt(db, 'DELETE FROM content_links WHERE from_id = ?').run(item.id);
  const insertLink = stmt(db, 'INSERT OR IGNORE INTO content_links (from_id, to_id) VALUES (?, ?)');
  for (const link of findLinks(item.body)) insertLink.run(item.id, link.id);
  if (!previous || searchTextChanged(previous, item)) indexItem(db, item);
  syncPublishedKey(db, item, previous);
  emitItemEvents(db, item, previous, json);
  noteItemChanged(db, item.id);
  saved.set(item, json);
  return item;
}

/** The stored JSON of items saveItem returned, so answers reuse it instead of encoding them again. */
const saved = new WeakMap<ContentItem, string>();

/** The JSON saveItem stored for this item (publicItem of it), if it came from saveItem. */
export function savedJson(item: ContentItem): string | undefined {
  return saved.get(item);
}

/** A JSON object's text with one more field at its end (the object has at least one field). */
function withField(json: string, name: string, value: unknown): string {
  return `${json.slice(0, -1)},${JSON.stringify(name)}:${JSON.stringify(value)}}`;
}

/** Whether the full-text row of an item (search-text.ts searchRow) would differ from its previous one. */
function searchTextChanged(previous: ContentItem, item: ContentItem): boolean {
  return (
    previous.label !== item.label ||
    previous.status !== item.status ||
    previous.locale !== item.locale ||
    previous.deliveryKey !== item.deliveryKey ||
    previous.contentRepositoryId !== item.contentRepositoryId ||
    previous.folderId !== item.folderId ||
    (previous.body !== item.body && JSON.stringify(previous.body) !== JSON.stringify(item.body))
  );
}

/** Webhook events of an item change: created or updated, plus assigned and workflow changes. */
function emitItemEvents(db: Db, item: ContentItem, previous: ContentItem | undefined, json: string): void {
  const now = Date.parse(item.lastModifiedDate);
  // The payload is the item as stored (publicItem), so its stored JSON goes into each delivery as it is.
  const payload = publicItem(item);
  enqueueEvent(db, item.hubId, previous ? 'content-item.updated' : 'content-item.created', payload, now, json);
  if (item.assignees.length && JSON.stringify(item.assignees) !== JSON.stringify(previous?.assignees ?? [])) enqueueEvent(db, item.hubId, 'content-item.assigned', payload, now, json);
  if (previous && item.workflow?.state !== previous.workflow?.state) enqueueEvent(db, item.hubId, 'content-item.workflow.updated', payload, now, json);
}

/** An item as events and other systems see it: no sandbox-internal fields. */
/** An item as clients see it (in answers and webhook payloads): every field but its hub. */
export function publicItem(item: ContentItem): Omit<ContentItem, 'hubId'> {
  const { hubId: _hub, ...fields } = item;
  return fields;
}

/** An item from a raw content_items row: the stored JSON plus the hub from its column. */
export function itemFromRow(row: { data: string; hub_id: string }): ContentItem {
  return { ...(JSON.parse(row.data) as ContentItem), hubId: row.hub_id };
}

/** The keys of an item that decide its access and links, read from indexed columns. */
export type ItemKeys = Pick<ContentItem, 'id' | 'hubId' | 'contentRepositoryId' | 'status' | 'folderId' | 'locale'>;

/** An item's keys and its stored JSON (already the item as shown). */
export interface ItemRow {
  keys: ItemKeys;
  json: string;
}

/** An item's keys and its stored JSON, without parsing it: the read hot path (cached by Service.itemRow). */
export function itemRow(db: Db, id: string): ItemRow | undefined {
  const row = stmt(db, 'SELECT id, hub_id, repo_id, status, folder_id, locale, data FROM content_items WHERE id = ?').get(id) as
    | { id: string; hub_id: string; repo_id: string; status: ContentItem['status']; folder_id: string | null; locale: string | null; data: string }
    | undefined;
  if (!row) return undefined;
  return { keys: { id: row.id, hubId: row.hub_id, contentRepositoryId: row.repo_id, status: row.status, folderId: row.folder_id, locale: row.locale }, json: row.data };
}

/** The next version of an item: `changes` applied, version + 1, stamped and saved with its action. */
export function saveVersion(db: Db, item: ContentItem, changes: Partial<ContentItem>, stamp: { lastModifiedBy: string; lastModifiedDate: string }, action: ItemAction): ContentItem {
  return saveItem(db, { ...item, ...changes, version: item.version + 1, ...stamp }, action, false);
}

/** Updates fields that are not a new version (publishing state): no version row, same index. */
export function touchItem(db: Db, item: ContentItem): ContentItem {
  const table = items(db);
  const previous = table.get(item.id);
  table.update(item);
  if (!previous || searchTextChanged(previous, item)) indexItem(db, item);
  syncPublishedKey(db, item, previous);
  noteItemChanged(db, item.id);
  return item;
}

/**
 * Whether Content Delivery 2 delivers an item: active and published (LATEST, or EARLY: edited
 * since). Its delivered version is lastPublishedVersion.
 */
export function isDelivered(item: ContentItem): item is ContentItem & { lastPublishedVersion: number } {
  return item.status === 'ACTIVE' && item.lastPublishedVersion !== undefined && (item.publishingStatus === 'LATEST' || item.publishingStatus === 'EARLY');
}

/**
 * The delivery key of the version Content Delivery 2 delivers (null: none, or not delivered).
 * A key set or moved in a later draft is not delivered until that draft is published.
 */
function publishedKey(db: Db, item: ContentItem, previous: ContentItem | undefined): string | null {
  if (!isDelivered(item)) return null;
  if (item.lastPublishedVersion === item.version) return item.deliveryKey;
  if (previous?.version === item.lastPublishedVersion) return previous.deliveryKey;
  return itemVersion(db, item.id, item.lastPublishedVersion)?.deliveryKey ?? null;
}

/**
 * Keeps content_items.published_delivery_key (indexed with the hub) in step with what is
 * published: CD2 finds items by it, staging by delivery_key (the latest key). Written only when
 * something it depends on changed, so an ordinary edit costs nothing.
 */
function syncPublishedKey(db: Db, item: ContentItem, previous: ContentItem | undefined): void {
  if (
    previous &&
    previous.status === item.status &&
    previous.publishingStatus === item.publishingStatus &&
    previous.lastPublishedVersion === item.lastPublishedVersion &&
    (item.lastPublishedVersion !== item.version || previous.deliveryKey === item.deliveryKey)
  )
    return;
  const key = publishedKey(db, item, previous);
  if (!previous && key === null) return;
  stmt(db, 'UPDATE content_items SET published_delivery_key = ? WHERE id = ?').run(key, item.id);
}

/** Fills published_delivery_key for every item (the migration that adds it). */
export function indexPublishedKeys(db: Db): void {
  const page = db.prepare('SELECT seq, data FROM content_items WHERE seq > ? ORDER BY seq LIMIT 500');
  for (let after = 0; ; ) {
    const rows = page.all(after) as { seq: number; data: string }[];
    if (!rows.length) return;
    for (const row of rows) {
      const item = JSON.parse(row.data) as ContentItem;
      const key = publishedKey(db, item, undefined);
      if (key !== null) stmt(db, 'UPDATE content_items SET published_delivery_key = ? WHERE seq = ?').run(key, row.seq);
    }
    after = rows[rows.length - 1]!.seq;
  }
}

/**
 * The item Content Delivery 2 delivers under a key in a hub: by the key of its published version
 * (an index lookup). Two items can hold one published key for a while (one moved its key away in
 * a draft, another took it and published): the later publication wins.
 */
export function itemByPublishedKey(db: Db, hubId: string, key: string): ContentItem | undefined {
  const row = stmt(db, "SELECT data, hub_id FROM content_items WHERE hub_id = ? AND published_delivery_key = ? ORDER BY json_extract(data, '$.lastPublishedDate') DESC LIMIT 1").get(hubId, key) as
    | { data: string; hub_id: string }
    | undefined;
  return row && itemFromRow(row);
}

function indexItem(db: Db, item: ContentItem): void {
  const seq = stmt(db, 'SELECT seq FROM content_items WHERE id = ?').pluck().get(item.id) as number;
  indexSearchRow(db, seq, item);
}

export function itemVersion(db: Db, id: string, version: number): ContentItem | undefined {
  const data = stmt(db, 'SELECT data FROM content_item_versions WHERE item_id = ? AND version = ?').pluck().get(id, version) as string | undefined;
  return data ? (JSON.parse(data) as ContentItem) : undefined;
}

export interface VersionRow {
  version: number;
  action: ItemAction;
  createdBy: string;
  createdDate: string;
}

/** A page of an item's versions (newest first unless asc): the rows and the total. */
export function itemVersions(db: Db, id: string, page: number, size: number, asc = false): { rows: { meta: VersionRow; item: ContentItem }[]; total: number } {
  const [total, rows] = readConsistently(db, () => [
    stmt(db, 'SELECT count(*) FROM content_item_versions WHERE item_id = ?').pluck().get(id) as number,
    stmt(db, `SELECT version, action, created_by, created_date, data FROM content_item_versions WHERE item_id = ? ORDER BY version ${asc ? 'ASC' : 'DESC'} LIMIT ? OFFSET ?`).all(id, size, page * size) as {
      version: number;
      action: ItemAction;
      created_by: string;
      created_date: string;
      data: string;
    }[],
  ] as const);
  return {
    total,
    rows: rows.map((r) => ({ meta: { version: r.version, action: r.action, createdBy: r.created_by, createdDate: r.created_date }, item: JSON.parse(r.data) as ContentItem })),
  };
}

/** The active item of a localization group in a locale, if the group has one. */
export function localizedVariant(db: Db, groupId: string, locale: string): ContentItem | undefined {
  return items(db).find({ where: "json_extract(data, '$.localizationGroupId') = ? AND locale = ? AND status = 'ACTIVE'", params: [groupId, locale] });
}

/** Ids of the items an item links to (directly), in the order its body holds them. */
export function linkedIds(db: Db, id: string): string[] {
  return stmt(db, 'SELECT to_id FROM content_links WHERE from_id = ? ORDER BY rowid').pluck().all(id) as string[];
}

/** Ids of the items that link to an item (directly). */
export function linkingIds(db: Db, id: string): string[] {
  return stmt(db, 'SELECT from_id FROM content_links WHERE to_id = ?').pluck().all(id) as string[];
}

/** An item and every item reachable through content links, root first, each once. */
export function descendants(db: Db, rootId: string): string[] {
  const order: string[] = [];
  const seen = new Set<string>();
  const queue = [rootId];
  while (queue.length) {
    const id = queue.shift()!;
    if (seen.has(id)) continue;
    seen.add(id);
    order.push(id);
    for (const linked of linkedIds(db, id)) queue.push(linked);
  }
  return order;
}
