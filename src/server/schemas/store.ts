import { readConsistently, type Db } from '../core/db.js';
import { Collection, type Filter } from '../core/collection.js';
import { stmt } from '../core/statements.js';

export type ValidationLevel = 'CONTENT_TYPE' | 'SLOT' | 'PARTIAL';

export interface ContentTypeSchema {
  id: string;
  hubId: string;
  /** The schema's own id URL. */
  schemaId: string;
  /** The JSON Schema document, as a string (as clients send and expect it). */
  body: string;
  version: number;
  validationLevel: ValidationLevel;
  status: 'ACTIVE' | 'ARCHIVED';
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

export const schemas = (db: Db) =>
  new Collection<ContentTypeSchema>(
    db,
    'schemas',
    { hub_id: (s) => s.hubId, schema_id: (s) => s.schemaId, status: (s) => s.status, created_date: (s) => s.createdDate },
    { createdDate: 'created_date', schemaId: 'schema_id', status: 'status' },
  );

/** Stores the schema and records this version of it. */
export function saveSchema(db: Db, schema: ContentTypeSchema, isNew: boolean): ContentTypeSchema {
  const table = schemas(db);
  if (isNew) table.insert(schema);
  else table.update(schema);
  stmt(db, 'INSERT OR REPLACE INTO schema_versions (schema_pk, version, data) VALUES (?, ?, ?)').run(schema.id, schema.version, JSON.stringify(schema));
  return schema;
}

export function schemaVersion(db: Db, id: string, version: number): ContentTypeSchema | undefined {
  const data = stmt(db, 'SELECT data FROM schema_versions WHERE schema_pk = ? AND version = ?').pluck().get(id, version) as string | undefined;
  return data ? (JSON.parse(data) as ContentTypeSchema) : undefined;
}

/** A page of a schema's versions, newest first unless `asc`. */
export function schemaVersions(db: Db, id: string, page: number, size: number, asc = false): { items: ContentTypeSchema[]; total: number } {
  const [total, rows] = readConsistently(db, () => [
    stmt(db, 'SELECT count(*) FROM schema_versions WHERE schema_pk = ?').pluck().get(id) as number,
    stmt(db, `SELECT data FROM schema_versions WHERE schema_pk = ? ORDER BY version ${asc ? 'ASC' : 'DESC'} LIMIT ? OFFSET ?`).pluck().all(id, size, page * size) as string[],
  ] as const);
  return { items: rows.map((r) => JSON.parse(r) as ContentTypeSchema), total };
}

/** The hub's schema with this id URL. */
export function schemaByUri(db: Db, hubId: string, schemaId: string): ContentTypeSchema | undefined {
  return schemas(db).find({ where: 'hub_id = ? AND schema_id = ?', params: [hubId, schemaId] });
}

/** The parsed document of the hub's schema with this id URL, for $refs between schemas. */
export function findSchemaDocument(db: Db, hubId: string, schemaId: string): object | undefined {
  const found = schemaByUri(db, hubId, schemaId);
  if (!found) return undefined;
  try {
    return JSON.parse(found.body) as object;
  } catch {
    return undefined;
  }
}

/** A hub's rows, only those whose status is in `statuses` when given (tables with hub_id and status: schemas, content types). */
export function hubStatusFilter(hubId: string, statuses: readonly string[] | null): Filter {
  if (!statuses) return { where: 'hub_id = ?', params: [hubId] };
  return { where: `hub_id = ? AND status IN (${statuses.map(() => '?').join(', ')})`, params: [hubId, ...statuses] };
}
