import type { PageRequest, PageResult, SortSpec } from './collection.js';
import { badRequest } from './errors.js';
import type { RequestContext } from './context.js';

export interface Link {
  href: string;
  templated?: boolean;
}
export type Links = Record<string, Link>;

export const link = (href: string): Link => ({ href });
/** An RFC 6570 templated link; every optional query parameter goes in one `{?a,b,c}`. */
export const templated = (href: string): Link => ({ href, templated: true });

/** Adds a link only when `allowed`; the link set of a resource follows state and permission. */
export function addIf(links: Links, allowed: boolean, rel: string, l: Link): void {
  if (allowed) links[rel] = l;
}

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 1000;

/** page (zero-based), size and sort from the query; sort fields limited to `sortable`. */
export function pageRequest(ctx: RequestContext, sortable: readonly string[], defaultSort: SortSpec[] = []): PageRequest {
  const q = ctx.query;
  const page = intParam(q.get('page'), 'page', 0, 0, Number.MAX_SAFE_INTEGER);
  const size = Math.min(intParam(q.get('size'), 'size', DEFAULT_PAGE_SIZE, 1, Number.MAX_SAFE_INTEGER), MAX_PAGE_SIZE);
  return { page, size, sort: sortParam(q.getAll('sort'), sortable, defaultSort) };
}

export function intParam(raw: string | null, name: string, fallback: number, min: number, max: number): number {
  if (raw === null || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw badRequest(`Query parameter '${name}' must be an integer between ${min} and ${max}`, { property: name, invalidValue: raw });
  }
  return n;
}

export function sortParam(values: string[], sortable: readonly string[], fallback: SortSpec[]): SortSpec[] {
  const specs: SortSpec[] = [];
  for (const value of values) {
    if (value === '') continue;
    const [field, dir = 'asc', ...rest] = value.split(',').map((s) => s.trim());
    const direction = dir.toLowerCase();
    if (!field || rest.length || !sortable.includes(field) || (direction !== 'asc' && direction !== 'desc')) {
      throw badRequest(`Cannot sort by '${value}'; use one of ${sortable.join(', ')} with ,asc or ,desc`, {
        property: 'sort',
        invalidValue: value,
      });
    }
    specs.push({ field, dir: direction });
  }
  return specs.length ? specs : fallback;
}

/** The paging envelope: _embedded.<key>, page {size, totalElements, totalPages, number}, page links. */
export function pageOf<T>(ctx: RequestContext, key: string, result: PageResult<T>, req: PageRequest, render: (item: T) => unknown) {
  const totalPages = Math.ceil(result.total / req.size);
  const pageUrl = (n: number) => {
    const u = new URL(ctx.url.href);
    u.searchParams.set('page', String(n));
    u.searchParams.set('size', String(req.size));
    return u.href;
  };
  const links: Links = {
    first: link(pageUrl(0)),
    self: link(pageUrl(req.page)),
    last: link(pageUrl(Math.max(totalPages - 1, 0))),
  };
  if (req.page + 1 < totalPages) links.next = link(pageUrl(req.page + 1));
  if (req.page > 0) links.prev = link(pageUrl(Math.min(req.page - 1, Math.max(totalPages - 1, 0))));
  return {
    _embedded: { [key]: result.items.map(render) },
    _links: links,
    page: { size: req.size, totalElements: result.total, totalPages, number: req.page },
  };
}

/** A status filter: a comma list such as ACTIVE,ARCHIVED, each value checked. */
export function statusList(ctx: RequestContext, allowed: readonly string[], name = 'status'): string[] | null {
  const raw = ctx.query.getAll(name).flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  if (!raw.length) return null;
  for (const s of raw) {
    if (!allowed.includes(s)) throw badRequest(`Unknown ${name} '${s}'; use ${allowed.join(', ')}`, { property: name, invalidValue: s });
  }
  return raw;
}

/**
 * Collects a resource's links: `add(op, rel, link)` keeps the link only when operation `op`
 * exists and the caller may run it on `scope`.
 */
export function linkSet(ctx: RequestContext, scope: { hubId: string; repoId?: string }, fixed: Links) {
  const links: Links = { ...fixed };
  const add = (op: string, rel: string, l: Link) => {
    if (ctx.can(op, scope)) links[rel] = l;
  };
  return { links, add };
}
