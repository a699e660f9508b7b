import type { Db } from '../core/db.js';
import { stmt } from '../core/statements.js';

// What analytics are computed from: every search query an index answered and every click or
// conversion event sent for one of those queries.

/** One filter condition of a query as analytics report it (operator ':' or a numeric comparison). */
export interface FilterUse {
  attribute: string;
  operator: string;
  value: string;
}

export interface QueryRecord {
  indexId: string;
  /** Sandbox clock, epoch ms. */
  at: number;
  /** Set only when the query asked for clickAnalytics: events refer to it. */
  queryID: string | null;
  /** The exact text the user typed. */
  query: string;
  nbHits: number;
  userToken: string | null;
  tags: string[];
  filters: FilterUse[];
  clickAnalytics: boolean;
  /** false: the query asked to stay out of analytics (it still counts as usage). */
  analytics: boolean;
  /** objectIDs of the page of hits returned, in order. */
  hits: string[];
  /** Position of the first returned hit in the whole result list (page * hitsPerPage). */
  offset: number;
  processingTimeMS: number;
}

export type EventType = 'click' | 'conversion';

export interface EventRecord {
  indexId: string;
  queryID: string;
  at: number;
  eventType: EventType;
  objectIDs: string[];
  /** 1-based positions of the clicked objects in the result list (clicks only). */
  positions: number[] | null;
  userToken: string | null;
}

export function recordQuery(db: Db, record: QueryRecord): void {
  stmt(db, 'INSERT INTO search_queries (index_id, query_id, at, data) VALUES (?, ?, ?, ?)').run(record.indexId, record.queryID, record.at, JSON.stringify(record));
}

export function recordEvent(db: Db, record: EventRecord): void {
  stmt(db, 'INSERT INTO search_events (index_id, query_id, at, data) VALUES (?, ?, ?, ?)').run(record.indexId, record.queryID, record.at, JSON.stringify(record));
}

export function queryById(db: Db, queryID: string): QueryRecord | undefined {
  const data = stmt(db, 'SELECT data FROM search_queries WHERE query_id = ?').pluck().get(queryID) as string | undefined;
  return data ? (JSON.parse(data) as QueryRecord) : undefined;
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** Queries of the indexes answered in [from, to] (inclusive, epoch ms), oldest first. */
export function queriesBetween(db: Db, indexIds: readonly string[], from: number, to: number): QueryRecord[] {
  const rows = stmt(db, `SELECT data FROM search_queries WHERE index_id IN (${placeholders(indexIds.length)}) AND at BETWEEN ? AND ? ORDER BY seq`)
    .pluck()
    .all(...indexIds, from, to) as string[];
  return rows.map((r) => JSON.parse(r) as QueryRecord);
}

/** Events sent for the given queries, grouped by queryID. */
export function eventsByQuery(db: Db, indexIds: readonly string[]): Map<string, EventRecord[]> {
  const rows = stmt(db, `SELECT data FROM search_events WHERE index_id IN (${placeholders(indexIds.length)}) ORDER BY seq`)
    .pluck()
    .all(...indexIds) as string[];
  const byQuery = new Map<string, EventRecord[]>();
  for (const row of rows) {
    const event = JSON.parse(row) as EventRecord;
    byQuery.set(event.queryID, [...(byQuery.get(event.queryID) ?? []), event]);
  }
  return byQuery;
}

/** Usage of one index since a time: how many queries it answered and their total processing time. */
export function usageSince(db: Db, indexId: string, from: number): { searches: number; totalMs: number } {
  const row = stmt(
    db,
    "SELECT count(*) AS searches, coalesce(sum(json_extract(data, '$.processingTimeMS')), 0) AS totalMs FROM search_queries WHERE index_id = ? AND at >= ?",
  ).get(indexId, from) as { searches: number; totalMs: number };
  return row;
}
