import { findLinks, type ContentLink } from '../core/content-links.js';
import { serviceError } from '../core/errors.js';

// The items reachable from a root through content links, as the delivery side answers them: a
// graph, each item once per answer, reached breadth-first. Linked content is public on the
// delivery side, so one request must not be able to make the answer (or the work) grow without
// bound: past the limits the answer is a 400 that says which limit, never a partial graph.

export interface GraphLimits {
  /** Link hops from the root. */
  depth: number;
  /** Linked items (the root not counted). */
  items: number;
  /** JSON characters of all items together, root included. */
  chars: number;
}

export const GRAPH_LIMITS: GraphLimits = { depth: 32, items: 1_000, chars: 16 * 1024 * 1024 };

/** Content links are followed; content references are not (delivery leaves them as references). */
const followed = (json: unknown): string[] => findLinks(json).flatMap((l: ContentLink) => (l.kind === 'content-link' ? [l.id] : []));

export interface GraphNode {
  id: string;
  json: unknown;
}

function tooLarge(rootId: string, what: string, limit: number) {
  return serviceError(400, {
    code: 'CONTENT_GRAPH_TOO_LARGE',
    entity: 'ContentItem',
    property: 'id',
    invalidValue: rootId,
    message: `The content linked from item ${rootId} exceeds ${limit} ${what}; delivery answers at most ${GRAPH_LIMITS.depth} link hops, ${GRAPH_LIMITS.items} linked items and ${GRAPH_LIMITS.chars} characters`,
  });
}

/**
 * The nodes linked from `root`, by id, in breadth-first order (the root excluded). `load` answers
 * a node for an id, or undefined for one that is not delivered (missing, another hub). `sizes`
 * receives each node's JSON length (the root's too), so callers need not encode nodes again.
 */
export function linkedGraph<T extends GraphNode>(root: T, load: (id: string) => T | undefined, limits: GraphLimits = GRAPH_LIMITS, sizes?: Map<string, number>): Map<string, T> {
  const found = new Map<string, T>();
  const seen = new Set<string>([root.id]);
  let chars = JSON.stringify(root.json).length;
  sizes?.set(root.id, chars);
  if (chars > limits.chars) throw tooLarge(root.id, 'characters', limits.chars);
  let level = followed(root.json);
  for (let depth = 1; level.length; depth++) {
    const next: string[] = [];
    for (const id of level) {
      if (seen.has(id)) continue;
      seen.add(id);
      const node = load(id);
      if (!node) continue;
      if (depth > limits.depth) throw tooLarge(root.id, 'link hops', limits.depth);
      if (found.size >= limits.items) throw tooLarge(root.id, 'linked items', limits.items);
      const size = JSON.stringify(node.json).length;
      sizes?.set(id, size);
      chars += size;
      if (chars > limits.chars) throw tooLarge(root.id, 'characters', limits.chars);
      found.set(id, node);
      next.push(...followed(node.json));
    }
    level = next;
  }
  return found;
}
