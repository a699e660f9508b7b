import { readConsistently, type Db } from '../core/db.js';
import type { PageRequest, PageResult, SortSpec } from '../core/collection.js';
import { itemFromRow, type ContentItem } from '../items/index.js';
import type { CompiledSearch } from './search-query.js';
import { joinSql, queryOne, queryRows, raw, sql, type Sql } from './search-sql.js';

// The items of one hub, narrowed by a text search and filters; counted, paged and faceted in
// SQL. With words to match, the full-text table joins in (rowid = content_items.seq) and ranks.

/** Sort fields of search answers and their columns. */
export const SEARCH_SORT_COLUMNS: Record<string, string> = {
  createdDate: 'ci.created_date',
  lastModifiedDate: 'ci.last_modified_date',
  label: 'ci.label',
};
export const SEARCH_SORTABLE = Object.keys(SEARCH_SORT_COLUMNS);

/** bm25 weights of the label, body and fields columns (parts, then whole words): a word in the label counts most. */
const RELEVANCE = 'bm25(content_search, 4.0, 1.0, 1.0, 4.0, 1.0, 1.0)';
const NEWEST_FIRST: SortSpec[] = [{ field: 'createdDate', dir: 'desc' }];

export class ItemSelection {
  private readonly conditions: Sql[];
  private match: string | null = null;

  constructor(hubId: string) {
    this.conditions = [sql`ci.hub_id = ${hubId}`];
  }

  where(condition: Sql): this {
    this.conditions.push(condition);
    return this;
  }

  search(compiled: CompiledSearch): this {
    this.match = compiled.match;
    compiled.conditions.forEach((c) => this.where(c));
    return this;
  }

  /** Whether items have a relevance (the query matched words). */
  get ranked(): boolean {
    return this.match !== null;
  }

  /** FROM part: items, joined to the full-text table when the query matches words. */
  from(): Sql {
    return this.match === null ? raw('content_items ci') : raw('content_search JOIN content_items ci ON ci.seq = content_search.rowid');
  }

  /** WHERE part (without the keyword). */
  filter(): Sql {
    const match = this.match === null ? [] : [sql`content_search MATCH ${this.match}`];
    return joinSql([...match, ...this.conditions], ' AND ');
  }

  count(db: Db): number {
    return queryOne<number>(db, sql`SELECT count(*) FROM ${this.from()} WHERE ${this.filter()}`);
  }

  /** One page: by the sort, then by relevance when ranked; newest first when neither applies. */
  page(db: Db, req: PageRequest): PageResult<ContentItem> {
    return readConsistently(db, () => {
      const total = this.count(db);
      if (total === 0 || req.page * req.size >= total) return { items: [], total };
      const query = sql`SELECT ci.data, ci.hub_id FROM ${this.from()} WHERE ${this.filter()} ${raw(this.orderBy(req.sort))} LIMIT ${req.size} OFFSET ${req.page * req.size}`;
      return { items: queryRows<{ data: string; hub_id: string }>(db, query).map(itemFromRow), total };
    });
  }

  private orderBy(sort: SortSpec[]): string {
    const specs = sort.length || this.ranked ? sort : NEWEST_FIRST;
    const parts = specs.map((s) => `${SEARCH_SORT_COLUMNS[s.field]} ${s.dir === 'desc' ? 'DESC' : 'ASC'}`);
    if (this.ranked) parts.push(RELEVANCE);
    // seq keeps pages stable when the sort keys tie.
    parts.push('ci.seq ASC');
    return `ORDER BY ${parts.join(', ')}`;
  }
}
