import { describe, expect, it } from 'vitest';
import { WorkGraph, components, type Unit } from '../../src/ops/item-graph.js';

const graph = (edges: Record<string, string[]>) => new Map(Object.entries(edges));

/** Runs the graph to the end, one unit at a time; the cycle's members say they need a second pass. */
function simulate(g: WorkGraph, needsLinks: (id: string) => boolean = () => false): string[] {
  const log: string[] = [];
  const queue: Unit[] = g.start();
  while (queue.length) {
    const unit = queue.shift()!;
    log.push(`${unit.phase}:${unit.id}`);
    queue.push(...g.finish(unit, unit.phase === 'item' && needsLinks(unit.id)));
  }
  return log;
}

describe('components (Tarjan)', () => {
  it('orders linked items first and finds the cycle A -> B -> C -> A with its tail', () => {
    // T links to A (the tail); D is linked from C; E links to nothing and nothing links to it.
    const comps = components(graph({ T: ['A'], A: ['B'], B: ['C'], C: ['A', 'D'], D: [], E: [] }));
    const index = (id: string) => comps.findIndex((c) => c.ids.includes(id));
    const cycle = comps[index('A')]!;
    expect(cycle.ids.sort()).toEqual(['A', 'B', 'C']);
    expect(cycle.cyclic).toBe(true);
    expect(index('D')).toBeLessThan(index('A'));
    expect(index('A')).toBeLessThan(index('T'));
    expect(comps[index('T')]!.cyclic).toBe(false);
    expect(comps[index('T')]!.deps).toEqual([index('A')]);
    expect(comps.map((c) => c.ids.length).reduce((a, b) => a + b)).toBe(6);
  });

  it('an item linking to itself is a cycle; links outside the set are ignored', () => {
    const comps = components(graph({ S: ['S', 'outside'], X: ['outside'] }));
    expect(comps.find((c) => c.ids[0] === 'S')!.cyclic).toBe(true);
    expect(comps.find((c) => c.ids[0] === 'X')).toMatchObject({ cyclic: false, deps: [] });
  });

  it('a chain of 100,000 items does not overflow the stack', () => {
    const edges = new Map<string, string[]>();
    for (let i = 0; i < 100_000; i++) edges.set(`i${i}`, i ? [`i${i - 1}`] : []);
    const comps = components(edges);
    expect(comps).toHaveLength(100_000);
    expect(comps[0]!.ids).toEqual(['i0']);
    expect(comps[99_999]!.ids).toEqual(['i99999']);
  });
});

describe('WorkGraph', () => {
  it('hands out an item only after what it links to; a cycle is written, completed, then its dependents go', () => {
    const g = new WorkGraph(graph({ T: ['A'], A: ['B'], B: ['C'], C: ['A', 'D'], D: [], E: [] }));
    const log = simulate(g, (id) => ['A', 'B', 'C'].includes(id));
    const at = (u: string) => log.indexOf(u);
    expect(log).toHaveLength(9);
    expect(at('item:D')).toBeLessThan(at('item:A'));
    for (const m of ['A', 'B', 'C']) {
      expect(at(`item:${m}`)).toBeLessThan(at('links:A'));
      expect(at(`links:${m}`)).toBeLessThan(at('item:T'));
    }
    expect(g.finished).toBe(true);
  });

  it('a cycle that needs no second pass (its members exist already) finishes after its first', () => {
    const g = new WorkGraph(graph({ A: ['B'], B: ['A'], T: ['B'] }));
    expect(simulate(g)).toEqual(expect.arrayContaining(['item:A', 'item:B', 'item:T']));
    expect(simulate(new WorkGraph(graph({ A: ['B'], B: ['A'] })))).toHaveLength(2);
  });

  it('independent items are all ready at once', () => {
    const g = new WorkGraph(graph({ a: [], b: [], c: ['a'] }));
    expect(g.start().map((u) => u.id).sort()).toEqual(['a', 'b']);
    expect(g.finish({ phase: 'item', id: 'b' })).toEqual([]);
    expect(g.finish({ phase: 'item', id: 'a' })).toEqual([{ phase: 'item', id: 'c' }]);
    expect(g.finished).toBe(false);
    g.finish({ phase: 'item', id: 'c' });
    expect(g.finished).toBe(true);
  });
});
