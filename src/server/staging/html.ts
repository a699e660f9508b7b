import { isContentLink } from '../content-links.js';
import type { Delivered, StagedContent } from './delivery.js';

// The default rendering of staged content: each field a term with its value, content links
// replaced by the linked item's own rendering. Every inserted value is escaped.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

interface Walk {
  linked: ReadonlyMap<string, Delivered>;
  /** Items being rendered around this point: a link back to one of them is not expanded again. */
  path: ReadonlySet<string>;
  depth: number;
}

function itemHtml(d: Delivered, walk: Walk): string {
  const { _meta, ...fields } = d.json;
  const inner: Walk = { ...walk, path: new Set([...walk.path, d.id]), depth: Math.min(walk.depth + 1, 6) };
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
    if (target && !walk.path.has(value.id)) return itemHtml(target, walk);
    return `<span class="content-link" data-id="${escapeHtml(value.id)}">${escapeHtml(target?.label ?? value.id)}</span>`;
  }
  if (Array.isArray(value)) return `<ol>${value.map((v) => `<li>${valueHtml(v, walk)}</li>`).join('')}</ol>`;
  if (value !== null && typeof value === 'object') return fieldsHtml(value as Record<string, unknown>, walk);
  return escapeHtml(value === null || value === undefined ? '' : String(value));
}

/** The staged item as an HTML fragment. */
export function contentHtml(staged: StagedContent): string {
  return itemHtml(staged.root, { linked: staged.linked, path: new Set(), depth: 1 });
}
