// Content links inside item bodies: objects whose _meta.schema is the core content-link or
// content-reference definition, carrying the linked item's id. Any schema host matches.

export const LINK_SCHEMA = /\/cms\/schema\/v1\/core#\/definitions\/(content-link|content-reference)$/;

export interface ContentLink {
  id: string;
  contentType?: string;
  kind: 'content-link' | 'content-reference';
}

export function isContentLink(value: unknown): value is { id: string; contentType?: string; _meta: { schema: string } } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as { id?: unknown; _meta?: { schema?: unknown } };
  return typeof v.id === 'string' && typeof v._meta?.schema === 'string' && LINK_SCHEMA.test(v._meta.schema);
}

/** Every content link in a body, in document order, without duplicates. */
export function findLinks(body: unknown): ContentLink[] {
  const found = new Map<string, ContentLink>();
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      if (isContentLink(value)) {
        if (!found.has(value.id)) found.set(value.id, { id: value.id, contentType: value.contentType, kind: LINK_SCHEMA.exec(value._meta.schema)![1] as ContentLink['kind'] });
        return;
      }
      for (const v of Object.values(value)) walk(v);
    }
  };
  walk(body);
  return [...found.values()];
}

/** A copy of the body with every link id replaced through `map` (ids not in the map stay). */
export function rewriteLinks<T>(body: T, map: ReadonlyMap<string, string>): T {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      if (isContentLink(value)) return { ...value, id: map.get(value.id) ?? value.id };
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    }
    return value;
  };
  return walk(body) as T;
}
