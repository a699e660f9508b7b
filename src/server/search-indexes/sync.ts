import type { Db } from '../core/db.js';
import { newId } from '../core/ids.js';
import { stmt } from '../core/statements.js';
import { webhooks, type Webhook, type WebhookFilter } from '../webhooks/index.js';
import { itemVersion, type ContentItem } from '../items/index.js';
import { assignedTypes, clearObjects, deleteObject, replicasOf, upsertObject, type AssignedContentType, type IndexObject, type SearchIndex } from './store.js';

// How an index stays current: each assigned content type owns two webhooks delivered inside the
// sandbox (sandbox://search-index/<indexId>): published items of the type are written to the
// index, archived ones removed. Every change to a primary's records applies to its replicas too.

export const RECEIVER = 'search-index';
export type WebhookKind = 'active' | 'archived';

const SCHEMA_PATH = '$.payload.body._meta.schema';

interface Stamp {
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

/** The webhook of one kind for an assigned content type (not yet stored). */
export function typeWebhook(index: SearchIndex, contentTypeUri: string, kind: WebhookKind, stamp: Stamp, nowMs: number): Webhook {
  const schemaFilter: WebhookFilter = { type: 'equal', arguments: [{ jsonPath: SCHEMA_PATH }, { value: contentTypeUri }] };
  const archivedFilter: WebhookFilter = { type: 'equal', arguments: [{ jsonPath: '$.payload.status' }, { value: 'ARCHIVED' }] };
  return {
    id: newId(nowMs),
    hubId: index.hubId,
    label: `${index.name} ${kind === 'active' ? 'active' : 'archived'} content: ${contentTypeUri}`,
    events: [kind === 'active' ? 'content-item.published' : 'content-item.updated'],
    handlers: [`sandbox://${RECEIVER}/${index.id}`],
    active: true,
    secret: null,
    method: 'POST',
    headers: [],
    filters: kind === 'active' ? [schemaFilter] : [schemaFilter, archivedFilter],
    customPayload: null,
    notifications: [],
    owner: { kind: RECEIVER, id: index.id },
    ...stamp,
  };
}

/** Creates both webhooks of an assigned type and returns their ids. */
export function createTypeWebhooks(db: Db, index: SearchIndex, contentTypeUri: string, stamp: Stamp, nowMs: number): AssignedContentType['webhooks'] {
  const table = webhooks(db);
  const active = table.insert(typeWebhook(index, contentTypeUri, 'active', stamp, nowMs));
  const archived = table.insert(typeWebhook(index, contentTypeUri, 'archived', stamp, nowMs));
  return { active: active.id, archived: archived.id };
}

export function deleteTypeWebhooks(db: Db, type: AssignedContentType): void {
  for (const id of [type.webhooks.active, type.webhooks.archived]) if (id) webhooks(db).delete(id);
}

/** Every webhook an index owns, whatever became of its assigned types. */
export function deleteOwnedWebhooks(db: Db, indexId: string): void {
  stmt(db, "DELETE FROM webhooks WHERE json_extract(data, '$.owner.kind') = ? AND json_extract(data, '$.owner.id') = ?").run(RECEIVER, indexId);
}

/** The index and its replicas: where a change to the primary's records goes. */
const family = (db: Db, index: SearchIndex): string[] => [index.id, ...replicasOf(db, index.id).map((r) => r.id)];

export function upsertEverywhere(db: Db, index: SearchIndex, object: IndexObject): void {
  for (const id of family(db, index)) upsertObject(db, id, object);
}

export function deleteEverywhere(db: Db, index: SearchIndex, objectId: string): boolean {
  let found = false;
  for (const id of family(db, index)) found = deleteObject(db, id, objectId) || found;
  return found;
}

export function clearEverywhere(db: Db, index: SearchIndex): void {
  for (const id of family(db, index)) clearObjects(db, id);
}

export function isAssigned(db: Db, indexId: string, contentTypeUri: unknown): boolean {
  return typeof contentTypeUri === 'string' && assignedTypes(db).count({ where: 'index_id = ? AND content_type_uri = ?', params: [indexId, contentTypeUri] }) > 0;
}

/** An item as a webhook event carries it (publication events add the published version). */
export type ItemPayload = Omit<ContentItem, 'hubId'> & { publishedVersion?: number };

/**
 * The record of a published item: its id as objectID, label, schema, locale, delivery key and
 * publication date, then the fields of the published body (without _meta).
 */
export function objectFor(db: Db, payload: ItemPayload): IndexObject {
  const published = payload.publishedVersion === undefined ? undefined : itemVersion(db, payload.id, payload.publishedVersion);
  const item = published ?? payload;
  const { _meta: meta, ...fields } = item.body;
  return {
    label: item.label,
    schema: meta.schema,
    locale: item.locale ?? null,
    deliveryKey: item.deliveryKey ?? meta.deliveryKey ?? null,
    lastPublishedDate: payload.lastPublishedDate ?? null,
    ...fields,
    objectID: payload.id,
  };
}
