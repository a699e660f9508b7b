import { isContentLink } from '../core/content-links.js';
import { GRAPH_LIMITS } from './graph.js';
import { invalidParameter } from './errors.js';
import { parseLocaleList, type LocaleEntry } from './locale.js';
import type { Delivered, StagedContent } from './resolve.js';

// Content Delivery 2 answers (the shapes the vendor's delivery SDK reads): `{content}` for one
// item, with `linkedContent` in the linked format. depth `root` leaves links as links; depth `all`
// brings in every item linked (bounded, graph.ts). Inlined: a link is replaced by its item, except
// a link back to an item around it (a cycle stays a link, so each item appears once per path);
// what inlining writes is counted against the same character limit as the graph.

export interface DeliveryParams {
  depth: 'root' | 'all';
  format: 'inlined' | 'linked';
  /** The list as sent (it names cached answers) and as parsed. */
  locale?: string;
  locales?: readonly LocaleEntry[];
}

const DEPTHS = ['root', 'all'] as const;
const FORMATS = ['inlined', 'linked'] as const;

/** depth, format and locale from a query string or a body's `parameters`; 400 naming a bad one. */
export function deliveryParams(get: (name: string) => unknown, defaults: DeliveryParams = { depth: 'root', format: 'inlined' }): DeliveryParams {
  const depth = get('depth') ?? defaults.depth;
  const format = get('format') ?? defaults.format;
  const locale = get('locale') ?? undefined;
  if (!DEPTHS.includes(depth as never)) throw invalidParameter(`depth must be one of ${DEPTHS.join(', ')}`, { parameter: 'depth', value: depth });
  if (!FORMATS.includes(format as never)) throw invalidParameter(`format must be one of ${FORMATS.join(', ')}`, { parameter: 'format', value: format });
  // An empty locale is none: the vendor's storefront sends `locale=` when its site has no locale set.
  if (locale === undefined || locale === '') return { depth: depth as DeliveryParams['depth'], format: format as DeliveryParams['format'] };
  const list = parseLocaleList(locale);
  if ('problem' in list) throw invalidParameter(list.problem, { parameter: 'locale', value: typeof locale === 'string' ? locale.slice(0, 256) : null });
  return { depth: depth as DeliveryParams['depth'], format: format as DeliveryParams['format'], locale: locale as string, locales: list.entries };
}

export interface ItemResponse {
  content: Record<string, unknown>;
  linkedContent?: Record<string, unknown>[];
}

/** The answer for one delivered item in the requested form. */
export function itemResponse(staged: StagedContent, params: DeliveryParams): ItemResponse {
  if (params.depth === 'root') return { content: staged.root.json };
  if (params.format === 'linked') return { content: staged.root.json, linkedContent: [...staged.linked.values()].map((d) => d.json) };
  return { content: inline(staged.root, staged.linked, staged.sizes) };
}

function inline(root: Delivered, linked: ReadonlyMap<string, Delivered>, sizes = new Map<string, number>()): Record<string, unknown> {
  const sizeOf = (d: Delivered) => {
    let n = sizes.get(d.id);
    if (n === undefined) sizes.set(d.id, (n = JSON.stringify(d.json).length));
    return n;
  };
  let chars = sizeOf(root);
  const around = new Set<string>([root.id]);
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    if (isContentLink(value) && /content-link$/.test(value._meta.schema)) {
      const target = linked.get(value.id);
      if (!target || around.has(target.id)) return value;
      chars += sizeOf(target);
      if (chars > GRAPH_LIMITS.chars) throw invalidParameter(`The content linked from item ${root.id} exceeds ${GRAPH_LIMITS.chars} characters when inlined; read it with format=linked`, { deliveryId: root.id });
      around.add(target.id);
      const out = walk(target.json);
      around.delete(target.id);
      return out;
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = walk(v);
    return out;
  };
  return walk(root.json) as Record<string, unknown>;
}
