import { randomBytes } from 'node:crypto';
import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';
import { stmt } from '../core/statements.js';

export const INDEX_TYPES = ['PRODUCTION', 'STAGING'] as const;
export const INDEX_STATUSES = ['ACTIVE', 'ARCHIVED'] as const;
export type IndexStatus = (typeof INDEX_STATUSES)[number];

/** Settings are stored as the client sent them (every key reads back deep-equal). */
export type IndexSettings = Record<string, unknown>;

export interface SearchIndex {
  id: string;
  hubId: string;
  /** `<hubName>.<suffix>`, unique in the hub. */
  name: string;
  suffix: string;
  label: string;
  type: (typeof INDEX_TYPES)[number];
  status: IndexStatus;
  /** The primary index of a replica; null for a primary. */
  parentId: string | null;
  settings: IndexSettings;
  /** The index's own search API key: random, stable for the index's life. */
  apiKey: { id: string; key: string; applicationId: string };
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

export interface AssignedContentType {
  id: string;
  hubId: string;
  indexId: string;
  contentTypeUri: string;
  /** The webhooks that keep the index current: published items in, archived items out. */
  webhooks: { active: string | null; archived: string | null };
  createdDate: string;
  lastModifiedDate: string;
}

export const INDEX_SORT_COLUMNS = { createdDate: 'created_date', name: 'name', status: 'status' };

export const searchIndexes = (db: Db) =>
  new Collection<SearchIndex>(
    db,
    'search_indexes',
    { hub_id: (i) => i.hubId, parent_id: (i) => i.parentId, name: (i) => i.name, status: (i) => i.status, created_date: (i) => i.createdDate },
    INDEX_SORT_COLUMNS,
  );

export const assignedTypes = (db: Db) =>
  new Collection<AssignedContentType>(
    db,
    'search_index_types',
    { index_id: (t) => t.indexId, content_type_uri: (t) => t.contentTypeUri, created_date: (t) => t.createdDate },
    { createdDate: 'created_date', contentTypeUri: 'content_type_uri' },
  );

/** A new index's API key: random, with the hub's search application id. */
export function newApiKey(keyId: string, hubId: string): SearchIndex['apiKey'] {
  return { id: keyId, key: randomBytes(16).toString('hex'), applicationId: `SBX${hubId.slice(-7).toUpperCase()}` };
}

export function replicasOf(db: Db, primaryId: string): SearchIndex[] {
  return searchIndexes(db).all({ where: 'parent_id = ?', params: [primaryId] }, [{ field: 'createdDate', dir: 'asc' }]);
}

export function replicaCount(db: Db, primaryId: string): number {
  return searchIndexes(db).count({ where: 'parent_id = ?', params: [primaryId] });
}

export function indexByName(db: Db, hubId: string, name: string): SearchIndex | undefined {
  return searchIndexes(db).find({ where: 'hub_id = ? AND name = ?', params: [hubId, name] });
}

// Objects (records) of an index.

export type IndexObject = Record<string, unknown> & { objectID: string };

/** Adds or replaces a record; a replaced record keeps its place in the index order. */
export function upsertObject(db: Db, indexId: string, object: IndexObject): void {
  const data = JSON.stringify(object);
  stmt(
    db,
    `INSERT INTO search_index_objects (index_id, object_id, size, data) VALUES (?, ?, ?, ?)
     ON CONFLICT (index_id, object_id) DO UPDATE SET size = excluded.size, data = excluded.data`,
  ).run(indexId, object.objectID, Buffer.byteLength(data), data);
}

export function deleteObject(db: Db, indexId: string, objectId: string): boolean {
  return stmt(db, 'DELETE FROM search_index_objects WHERE index_id = ? AND object_id = ?').run(indexId, objectId).changes > 0;
}

export function clearObjects(db: Db, indexId: string): void {
  stmt(db, 'DELETE FROM search_index_objects WHERE index_id = ?').run(indexId);
}

export function allObjects(db: Db, indexId: string): IndexObject[] {
  const rows = stmt(db, 'SELECT data FROM search_index_objects WHERE index_id = ? ORDER BY rowid').pluck().all(indexId) as string[];
  return rows.map((r) => JSON.parse(r) as IndexObject);
}

/** Copies every record of one index into another (a new replica starts with its primary's data). */
export function copyObjects(db: Db, fromId: string, toId: string): void {
  stmt(db, 'INSERT INTO search_index_objects (index_id, object_id, size, data) SELECT ?, object_id, size, data FROM search_index_objects WHERE index_id = ? ORDER BY rowid').run(toId, fromId);
}

export function objectTotals(db: Db, indexId: string): { count: number; bytes: number } {
  const row = stmt(db, 'SELECT count(*) AS count, coalesce(sum(size), 0) AS bytes FROM search_index_objects WHERE index_id = ?').get(indexId) as { count: number; bytes: number };
  return row;
}
