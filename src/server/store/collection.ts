import type { Db } from './db.js';
import { stmt } from './statements.js';

export interface SortSpec {
  field: string;
  dir: 'asc' | 'desc';
}

export interface PageRequest {
  page: number;
  size: number;
  sort: SortSpec[];
}

export interface Filter {
  where: string;
  params: unknown[];
}

export interface PageResult<T> {
  items: T[];
  total: number;
}

/**
 * A table of resources: indexed key columns plus the whole resource as JSON in `data`.
 * `columns` derives each key column from the resource; `sortColumns` maps API sort fields to
 * SQL (any other plain field sorts by its JSON value).
 */
export class Collection<T extends { id: string }> {
  private readonly columnNames: string[];
  constructor(
    private readonly db: Db,
    readonly table: string,
    private readonly columns: Record<string, (doc: T) => unknown> = {},
    private readonly sortColumns: Record<string, string> = {},
  ) {
    this.columnNames = Object.keys(columns);
  }

  get(id: string): T | undefined {
    const row = stmt(this.db, `SELECT data FROM ${this.table} WHERE id = ?`).get(id) as { data: string } | undefined;
    return row ? (JSON.parse(row.data) as T) : undefined;
  }

  find(filter: Filter): T | undefined {
    const row = stmt(this.db, `SELECT data FROM ${this.table} WHERE ${filter.where} LIMIT 1`).get(...filter.params) as
      | { data: string }
      | undefined;
    return row ? (JSON.parse(row.data) as T) : undefined;
  }

  insert(doc: T): T {
    const names = ['id', ...this.columnNames, 'data'];
    const sql = `INSERT INTO ${this.table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
    stmt(this.db, sql).run(doc.id, ...this.columnNames.map((c) => toSql(this.columns[c]!(doc))), JSON.stringify(doc));
    return doc;
  }

  update(doc: T): T {
    const sets = [...this.columnNames, 'data'].map((c) => `${c} = ?`).join(', ');
    stmt(this.db, `UPDATE ${this.table} SET ${sets} WHERE id = ?`).run(
      ...this.columnNames.map((c) => toSql(this.columns[c]!(doc))),
      JSON.stringify(doc),
      doc.id,
    );
    return doc;
  }

  delete(id: string): boolean {
    return stmt(this.db, `DELETE FROM ${this.table} WHERE id = ?`).run(id).changes > 0;
  }

  count(filter: Filter): number {
    return stmt(this.db, `SELECT count(*) FROM ${this.table} WHERE ${filter.where}`).pluck().get(...filter.params) as number;
  }

  all(filter: Filter, sort: SortSpec[] = []): T[] {
    const rows = stmt(this.db, `SELECT data FROM ${this.table} WHERE ${filter.where} ${this.orderBy(sort)}`)
      .pluck()
      .all(...filter.params) as string[];
    return rows.map((r) => JSON.parse(r) as T);
  }

  page(filter: Filter, req: PageRequest): PageResult<T> {
    const total = this.count(filter);
    if (total === 0 || req.page * req.size >= total) return { items: [], total };
    const rows = stmt(
      this.db,
      `SELECT data FROM ${this.table} WHERE ${filter.where} ${this.orderBy(req.sort)} LIMIT ? OFFSET ?`,
    )
      .pluck()
      .all(...filter.params, req.size, req.page * req.size) as string[];
    return { items: rows.map((r) => JSON.parse(r) as T), total };
  }

  private orderBy(sort: SortSpec[]): string {
    const parts = sort
      .map((s) => {
        const expr = this.sortColumns[s.field] ?? (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(s.field) ? `json_extract(data, '$.${s.field}')` : null);
        return expr ? `${expr} ${s.dir === 'desc' ? 'DESC' : 'ASC'}` : null;
      })
      .filter(Boolean);
    // rowid keeps pages stable when the sort keys tie.
    parts.push('rowid ASC');
    return `ORDER BY ${parts.join(', ')}`;
  }
}

function toSql(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}
