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
 * A table of resources: indexed key columns plus the resource as JSON in `data`.
 * `columns` derives each key column from the resource; `sortColumns` maps API sort fields to
 * SQL (any other plain field sorts by its JSON value). `hidden` fields live only in their
 * column (field -> column): they are kept out of `data`, so the stored JSON is exactly what is
 * shown, and put back on every read.
 */
export class Collection<T extends { id: string }> {
  private readonly columnNames: string[];
  private readonly hiddenFields: [field: string, column: string][];
  private readonly selected: string;

  constructor(
    private readonly db: Db,
    readonly table: string,
    private readonly columns: Record<string, (doc: T) => unknown> = {},
    private readonly sortColumns: Record<string, string> = {},
    hidden: Record<string, string> = {},
  ) {
    this.columnNames = Object.keys(columns);
    this.hiddenFields = Object.entries(hidden);
    this.selected = ['data', ...this.hiddenFields.map(([, c]) => c)].join(', ');
  }

  get(id: string): T | undefined {
    const row = stmt(this.db, `SELECT ${this.selected} FROM ${this.table} WHERE id = ?`).get(id) as Row | undefined;
    return row ? this.toDoc(row) : undefined;
  }

  find(filter: Filter): T | undefined {
    const row = stmt(this.db, `SELECT ${this.selected} FROM ${this.table} WHERE ${filter.where} LIMIT 1`).get(...filter.params) as Row | undefined;
    return row ? this.toDoc(row) : undefined;
  }

  /** Stores a new resource; `data` is its stored JSON when the caller has serialized it already (toData). */
  insert(doc: T, data = this.toData(doc)): T {
    const names = ['id', ...this.columnNames, 'data'];
    const sql = `INSERT INTO ${this.table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`;
    stmt(this.db, sql).run(doc.id, ...this.columnNames.map((c) => toSql(this.columns[c]!(doc))), data);
    return doc;
  }

  update(doc: T, data = this.toData(doc)): T {
    const sets = [...this.columnNames, 'data'].map((c) => `${c} = ?`).join(', ');
    stmt(this.db, `UPDATE ${this.table} SET ${sets} WHERE id = ?`).run(...this.columnNames.map((c) => toSql(this.columns[c]!(doc))), data, doc.id);
    return doc;
  }

  delete(id: string): boolean {
    return stmt(this.db, `DELETE FROM ${this.table} WHERE id = ?`).run(id).changes > 0;
  }

  count(filter: Filter): number {
    return stmt(this.db, `SELECT count(*) FROM ${this.table} WHERE ${filter.where}`).pluck().get(...filter.params) as number;
  }

  all(filter: Filter, sort: SortSpec[] = []): T[] {
    const rows = stmt(this.db, `SELECT ${this.selected} FROM ${this.table} WHERE ${filter.where} ${this.orderBy(sort)}`).all(...filter.params) as Row[];
    return rows.map((r) => this.toDoc(r));
  }

  /**
   * One page and the total, from one statement: both from the same snapshot of the table. The
   * total is a scalar subquery (evaluated once, from the index) rather than `count(*) OVER ()`,
   * which would materialize every matching row, bodies and all, for each page.
   * The page's rows are chosen by rowid first: a sort no index serves then holds keys and rowids,
   * not every matching body (which spilled to temporary files on disk at a few thousand items).
   */
  page(filter: Filter, req: PageRequest): PageResult<T> {
    const total = `(SELECT count(*) FROM ${this.table} WHERE ${filter.where}) AS total`;
    const order = this.orderBy(req.sort);
    const chosen = `rowid IN (SELECT rowid FROM ${this.table} WHERE ${filter.where} ${order} LIMIT ? OFFSET ?)`;
    const rows = stmt(this.db, `SELECT ${this.selected}, ${total} FROM ${this.table} WHERE ${chosen} ${order}`).all(
      ...filter.params,
      ...filter.params,
      req.size,
      req.page * req.size,
    ) as (Row & { total: number })[];
    // Past the last page there are no rows to carry the total.
    return { items: rows.map((r) => this.toDoc(r)), total: rows.length ? rows[0]!.total : req.page === 0 ? 0 : this.count(filter) };
  }

  /** The stored JSON of a resource: every field but the hidden ones. */
  toData(doc: T): string {
    if (!this.hiddenFields.length) return JSON.stringify(doc);
    const shown: Record<string, unknown> = { ...doc };
    for (const [field] of this.hiddenFields) delete shown[field];
    return JSON.stringify(shown);
  }

  private toDoc(row: Row): T {
    const doc = JSON.parse(row.data) as Record<string, unknown>;
    for (const [field, column] of this.hiddenFields) doc[field] = row[column];
    return doc as T;
  }

  private orderBy(sort: SortSpec[]): string {
    const parts = sort
      .map((s) => {
        const expr = this.sortColumns[s.field] ?? (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(s.field) ? `json_extract(data, '$.${s.field}')` : null);
        return expr ? `${expr} ${s.dir === 'desc' ? 'DESC' : 'ASC'}` : null;
      })
      .filter(Boolean);
    // rowid keeps pages stable when the sort keys tie. It runs the way the last key does, so an
    // index on the keys (which ends in rowid) serves the order either way without a sort.
    parts.push(`rowid ${sort.at(-1)?.dir === 'desc' ? 'DESC' : 'ASC'}`);
    return `ORDER BY ${parts.join(', ')}`;
  }
}

type Row = { data: string } & Record<string, unknown>;

function toSql(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}
