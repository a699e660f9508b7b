import type { Db } from '../core/db.js';
import type { ItemSelection } from './search-select.js';
import { parseRangeObject, parseRangeText, resolveRange, type ResolvedRange } from './search-dates.js';
import { joinSql, queryRows, raw, sql, type Sql } from './search-sql.js';

// Facets of the items a search selects: ENUM facets count items per value of a field, DATE
// facets count items per date range. Each facet may also filter the items; counts run in SQL
// over every selected item (all filters applied), never over a page.

export interface EnumFilter {
  type: 'IN' | 'EXCLUDES' | 'EQ';
  values: string[];
  includeWithMissingField?: boolean;
}

export interface DateFilter {
  type: 'DATE';
  values: string[];
  includeWithMissingField?: boolean;
}

export type FacetSpec =
  | { facetAs: 'ENUM'; field: string; name?: string; filter?: EnumFilter }
  | { facetAs: 'DATE'; field: string; name?: string; range?: { start?: string; end?: string }; filter?: DateFilter };

export interface FacetCount {
  _id: string;
  count: number;
}

/** A facet ready to run: its answer key, the filter it adds to the selection, its counts. */
export interface Facet {
  key: string;
  field: string;
  filter: Sql | null;
  counts(db: Db, selection: ItemSelection): FacetCount[];
}

/** ENUM fields and where their values are in the stored item. */
const ENUM_FIELD_PATHS: Record<string, string> = {
  schema: '$.body._meta.schema',
  status: '$.status',
  locale: '$.locale',
  folderId: '$.folderId',
  contentRepositoryId: '$.contentRepositoryId',
  'workflow.state': '$.workflow.state',
  assignees: '$.assignees',
  publishingStatus: '$.publishingStatus',
  validationState: '$.validationState',
  deliveryKey: '$.deliveryKey',
  createdBy: '$.createdBy',
  lastModifiedBy: '$.lastModifiedBy',
};
export const ENUM_FIELDS = Object.keys(ENUM_FIELD_PATHS);

/** DATE fields and their SQL (ISO 8601 text, so ranges compare as text). */
const DATE_FIELD_COLUMNS: Record<string, string> = {
  createdDate: 'ci.created_date',
  lastModifiedDate: 'ci.last_modified_date',
  lastPublishedDate: "json_extract(ci.data, '$.lastPublishedDate')",
};
export const DATE_FIELDS = Object.keys(DATE_FIELD_COLUMNS);

/**
 * The JSON path of an ENUM field: a known field, or body.<name>[.<name>...] (the value there
 * may be a scalar or an array of scalars). Null when the field is neither.
 */
export function enumFieldPath(field: string): string | null {
  if (Object.hasOwn(ENUM_FIELD_PATHS, field)) return ENUM_FIELD_PATHS[field]!;
  const names = field.split('.');
  // Names go into a quoted JSON path: quotes, brackets and control characters cannot.
  if (names[0] !== 'body' || names.length < 2 || names.some((n) => !n || /["[\]\p{Cc}]/u.test(n))) return null;
  return `$${names.map((n) => `."${n}"`).join('')}`;
}

export function buildFacet(spec: FacetSpec, nowMs: number): Facet {
  return spec.facetAs === 'ENUM' ? enumFacet(spec, enumFieldPath(spec.field)!) : dateFacet(spec, DATE_FIELD_COLUMNS[spec.field]!, nowMs);
}

// An item's values of an ENUM field, as text: the scalar at the path, or each scalar of the
// array there (one count per assignee). Booleans read 'true'/'false', numbers their digits.
const VALUE_TEXT = raw("CASE je.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' ELSE CAST(je.atom AS TEXT) END");
const scalarAt = (path: string): Sql => sql`je.type NOT IN ('object', 'array', 'null') AND json_type(ci.data, ${path}) <> 'object'`;

function enumFacet(spec: Extract<FacetSpec, { facetAs: 'ENUM' }>, path: string): Facet {
  return {
    key: spec.name || spec.field,
    field: spec.field,
    filter: spec.filter ? enumFilter(path, spec.filter) : null,
    counts(db, selection) {
      const query = sql`SELECT ${VALUE_TEXT} AS _id, count(DISTINCT ci.seq) AS count
        FROM ${selection.from()}, json_each(ci.data, ${path}) je
        WHERE ${selection.filter()} AND ${scalarAt(path)}
        GROUP BY 1 ORDER BY count DESC, _id ASC`;
      return queryRows<FacetCount>(db, query);
    },
  };
}

/**
 * IN and EQ keep items with one of the values, EXCLUDES items with none of them. Items without
 * the field fail IN/EQ and pass EXCLUDES, unless includeWithMissingField says otherwise.
 */
function enumFilter(path: string, filter: EnumFilter): Sql {
  const values = JSON.stringify(filter.values);
  const hasValue = sql`EXISTS (SELECT 1 FROM json_each(ci.data, ${path}) je WHERE ${scalarAt(path)} AND ${VALUE_TEXT} IN (SELECT value FROM json_each(${values})))`;
  const hasField = sql`EXISTS (SELECT 1 FROM json_each(ci.data, ${path}) je WHERE ${scalarAt(path)})`;
  if (filter.type === 'EXCLUDES') {
    return filter.includeWithMissingField === false ? sql`(NOT ${hasValue} AND ${hasField})` : sql`NOT ${hasValue}`;
  }
  return filter.includeWithMissingField ? sql`(${hasValue} OR NOT ${hasField})` : hasValue;
}

interface Bucket {
  id: string;
  range: ResolvedRange;
}

function dateFacet(spec: Extract<FacetSpec, { facetAs: 'DATE' }>, column: string, nowMs: number): Facet {
  const date = raw(column);
  const filterRanges = (spec.filter?.values ?? []).map((v) => ({ id: v, range: resolveRange(parseRangeText(v)!, nowMs) }));
  const buckets: Bucket[] = [];
  if (spec.range) buckets.push({ id: `${spec.range.start ?? ''},${spec.range.end ?? ''}`, range: resolveRange(parseRangeObject(spec.range)!, nowMs) });
  for (const b of filterRanges) if (!buckets.some((x) => x.id === b.id)) buckets.push(b);
  return {
    key: spec.name || spec.field,
    field: spec.field,
    filter: spec.filter ? dateFilter(date, filterRanges, spec.filter.includeWithMissingField === true) : null,
    counts(db, selection) {
      if (!buckets.length) return [];
      const columns = joinSql(
        buckets.map((b, i) => sql`count(CASE WHEN ${within(date, b.range)} THEN 1 END) AS ${raw(`b${i}`)}`),
        ', ',
      );
      const [row] = queryRows<Record<string, number>>(db, sql`SELECT ${columns} FROM ${selection.from()} WHERE ${selection.filter()}`);
      return buckets.map((b, i) => ({ _id: b.id, count: row?.[`b${i}`] ?? 0 }));
    },
  };
}

/** Items dated within any of the ranges (or undated, when asked). */
function dateFilter(date: Sql, buckets: Bucket[], includeUndated: boolean): Sql {
  const ranges = buckets.map((b) => within(date, b.range));
  if (includeUndated) ranges.push(sql`${date} IS NULL`);
  return sql`(${joinSql(ranges, ' OR ')})`;
}

function within(date: Sql, range: ResolvedRange): Sql {
  const parts = [sql`${date} IS NOT NULL`];
  if (range.from !== undefined) parts.push(sql`${date} >= ${range.from}`);
  if (range.to !== undefined) parts.push(sql`${date} <= ${range.to}`);
  return sql`(${joinSql(parts, ' AND ')})`;
}
