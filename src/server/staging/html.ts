import { isContentLink } from '../core/content-links.js';
import type { Delivered, StagedContent } from '../delivery/index.js';

// The default rendering of staged content: each field a term with its value, a content link
// replaced by the linked item's own rendering where the item first appears; later links to it
// (and links back to an item around them) show its label, as a link to a missing item does. Each item is rendered once,
// so the page grows with the graph, not with the paths through it. Every value is escaped.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

interface Walk {
  linked: ReadonlyMap<string, Delivered>;
  /** Items already rendered (or being rendered) on the page: a later link to one points at it. */
  rendered: Set<string>;
  depth: number;
}

function itemHtml(d: Delivered, walk: Walk): string {
  const { _meta, ...fields } = d.json;
  walk.rendered.add(d.id);
  const inner: Walk = { ...walk, depth: Math.min(walk.depth + 1, 6) };
  const schema = typeof _meta.schema === 'string' ? _meta.schema : '';
  return `<article class="content-item" data-id="${escapeHtml(d.id)}" data-schema="${escapeHtml(schema)}"><h${walk.depth}>${escapeHtml(d.label)}</h${walk.depth}>${fieldsHtml(fields, inner)}</article>`;
}

function fieldsHtml(fields: Record<string, unknown>, walk: Walk): string {
  const entries = Object.entries(fields);
  if (!entries.length) return '';
  return `<dl>${entries.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${valueHtml(v, walk)}</dd>`).join('')}</dl>`;
}

function valueHtml(value: unknown, walk: Walk): string {
  if (isContentLink(value)) {
    const target = walk.linked.get(value.id);
    if (target && !walk.rendered.has(value.id)) return itemHtml(target, walk);
    return `<span class="content-link" data-id="${escapeHtml(value.id)}">${escapeHtml(target?.label ?? value.id)}</span>`;
  }
  if (Array.isArray(value)) return `<ol>${value.map((v) => `<li>${valueHtml(v, walk)}</li>`).join('')}</ol>`;
  if (value !== null && typeof value === 'object') return fieldsHtml(value as Record<string, unknown>, walk);
  return escapeHtml(value === null || value === undefined ? '' : String(value));
}

/** The staged item as an HTML fragment. */
export function contentHtml(staged: StagedContent): string {
  return itemHtml(staged.root, { linked: staged.linked, rendered: new Set(), depth: 1 });
}

/**
 * Rendered pages are hub templates (raw HTML) served on the sandbox's origin: a sandboxing CSP
 * (no allow-same-origin) gives their script an opaque origin, so it cannot read the token
 * endpoint, the API or the console's storage; no framing by other origins; no type sniffing.
 */
export const RENDERED_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "sandbox allow-scripts allow-popups allow-forms; frame-ancestors 'self'",
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};
