import { describe, expect, it } from 'vitest';
import { GRAPH_LIMITS, linkedGraph, type GraphNode } from '../../src/server/delivery/graph.js';
import { ServiceError } from '../../src/server/core/errors.js';

// The delivery graph of an item: linked items breadth-first, each once, within limits.

const LINK = 'https://x.example.com/cms/schema/v1/core#/definitions/content-link';
const node = (id: string, links: string[], extra: Record<string, unknown> = {}): GraphNode => ({
  id,
  json: { _meta: { schema: 'https://x.example.com/t.json' }, ...extra, links: links.map((l) => ({ _meta: { schema: LINK }, id: l })) },
});

/** Item i links to i-1 and i-2: exponentially many paths, linearly many items. */
function fibonacci(count: number): Map<string, GraphNode> {
  const all = new Map<string, GraphNode>();
  for (let i = 0; i < count; i++) all.set(`i${i}`, node(`i${i}`, [i - 1, i - 2].filter((n) => n >= 0).map((n) => `i${n}`)));
  return all;
}

function refusal(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ServiceError);
    expect((e as ServiceError).status).toBe(400);
    return (e as ServiceError).entries[0]!;
  }
  throw new Error('expected a refusal');
}

describe('linkedGraph', () => {
  it('reaches every linked item once, breadth-first, the root excluded, cycles and missing ids ignored', () => {
    const all = new Map([
      ['a', node('a', ['b', 'c', 'gone'])],
      ['b', node('b', ['c', 'a'])],
      ['c', node('c', ['d', 'b'])],
      ['d', node('d', ['a'])],
    ]);
    let loads = 0;
    const graph = linkedGraph(all.get('a')!, (id) => (loads++, all.get(id)));
    expect([...graph.keys()]).toEqual(['b', 'c', 'd']);
    expect(loads).toBe(4); // b, c, gone, d: each id looked up once
  });

  it('answers the 300-item i-1/i-2 chain with each item once when within depth', () => {
    const all = fibonacci(27);
    const graph = linkedGraph(all.get('i26')!, (id) => all.get(id));
    expect(graph.size).toBe(26);
  });

  it('refuses a graph deeper than the depth limit with CONTENT_GRAPH_TOO_LARGE', () => {
    const all = fibonacci(300);
    const e = refusal(() => linkedGraph(all.get('i299')!, (id) => all.get(id)));
    expect(e.code).toBe('CONTENT_GRAPH_TOO_LARGE');
    expect(e.message).toContain(`${GRAPH_LIMITS.depth} link hops`);
  });

  it('refuses more linked items, or more characters, than the limits', () => {
    const all = new Map<string, GraphNode>([['root', node('root', Array.from({ length: 20 }, (_, i) => `n${i}`))]]);
    for (let i = 0; i < 20; i++) all.set(`n${i}`, node(`n${i}`, [], { text: 'x'.repeat(100) }));
    expect(refusal(() => linkedGraph(all.get('root')!, (id) => all.get(id), { ...GRAPH_LIMITS, items: 19 })).message).toContain('19 linked items');
    expect(refusal(() => linkedGraph(all.get('root')!, (id) => all.get(id), { ...GRAPH_LIMITS, chars: 1_000 })).message).toContain('1000 characters');
    expect(linkedGraph(all.get('root')!, (id) => all.get(id), { ...GRAPH_LIMITS, items: 20 }).size).toBe(20);
  });
});
