import { LINK_SCHEMA } from '../core/content-links.js';

// The content of an edition slot: a body whose content links name snapshots (not items).
// A link may carry id null: planners placed it but chose nothing yet, so the slot is INVALID.

export interface SlotLink {
  /** Where the link sits, e.g. body.slot or body.slotContent[1]. */
  path: string;
  id: string | null;
}

function isLinkObject(value: unknown): value is { _meta: { schema: string }; id?: unknown } {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const schema = (value as { _meta?: { schema?: unknown } })._meta?.schema;
  return typeof schema === 'string' && LINK_SCHEMA.test(schema);
}

/** Every content link of a slot content, in document order, with its path. */
export function slotLinks(content: unknown, root = 'body'): SlotLink[] {
  const found: SlotLink[] = [];
  const walk = (value: unknown, path: string): void => {
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
    else if (isLinkObject(value)) found.push({ path, id: typeof value.id === 'string' && value.id ? value.id : null });
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, `${path}.${k}`);
  };
  walk((content as { body?: unknown } | null)?.body, root);
  return found;
}

/** The snapshot ids a slot content names, each once. */
export function slotSnapshotIds(content: unknown): string[] {
  return [...new Set(slotLinks(content).flatMap((l) => (l.id ? [l.id] : [])))];
}

/** VALID unless a link names nothing; empty when it has no link at all. */
export function slotState(links: readonly SlotLink[]): { status: 'VALID' | 'INVALID'; empty: boolean } {
  return { status: links.some((l) => l.id === null) ? 'INVALID' : 'VALID', empty: links.length === 0 };
}
