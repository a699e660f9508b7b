import { describe, expect, it } from 'vitest';
import { WorkGraph, components, type Unit } from '../../src/ops/runs/item-graph.js';

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
    const ready = g.start();
    expect(ready.map((u) => u.id).sort()).toEqual(['a', 'b']);
    const unit = (id: string) => ready.find((u) => u.id === id)!;
    expect(g.finish(unit('b'))).toEqual([]);
    const next = g.finish(unit('a'));
    expect(next).toMatchObject([{ phase: 'item', id: 'c' }]);
    expect(g.finished).toBe(false);
    g.finish(next[0]!);
    expect(g.finished).toBe(true);
    expect(() => g.finish({ phase: 'item', id: 'zz', n: 0 })).toThrow(/unknown item zz/);
  });
});

describe('WorkGraph on a large random graph', () => {
  /** A seeded generator, so a failure can be replayed. */
  function random(seed: number) {
    return () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  }

  it('hands out every item once, after everything it links to outside its cycle, and each second pass once', () => {
    const rnd = random(7);
    const n = 5_000;
    const edges = new Map<string, string[]>();
    for (let i = 0; i < n; i++) {
      const links: string[] = [];
      const count = Math.floor(rnd() * 4);
      // Mostly links to earlier items, some to later ones (cycles), some to items not in the set.
      for (let k = 0; k < count; k++) links.push(rnd() < 0.05 ? `outside${k}` : `i${Math.floor(rnd() * n)}`);
      edges.set(`i${i}`, links);
    }
    const comps = components(edges);
    const compOf = new Map<string, number>();
    for (const c of comps) for (const id of c.ids) compOf.set(id, c.index);
    const g = new WorkGraph(edges);
    const needsLinks = (id: string) => comps[compOf.get(id)!]!.cyclic && edges.get(id)!.some((to) => compOf.get(to) === compOf.get(id));
    const finished = new Set<string>();
    const seen = new Map<string, number>();
    const queue: Unit[] = g.start();
    while (queue.length) {
      // Out of order, as a pool of workers finishes them.
      const unit = queue.splice(Math.floor(rnd() * queue.length), 1)[0]!;
      const key = `${unit.phase}:${unit.id}`;
      seen.set(key, (seen.get(key) ?? 0) + 1);
      for (const to of edges.get(unit.id)!) {
        if (!edges.has(to) || compOf.get(to) === compOf.get(unit.id)) continue;
        expect(finished.has(to), `${unit.id} before ${to}`).toBe(true);
      }
      const more = g.finish(unit, unit.phase === 'item' && needsLinks(unit.id));
      const comp = comps[compOf.get(unit.id)!]!;
      const passes = (id: string) => (needsLinks(id) ? ['item', 'links'] : ['item']);
      if (comp.ids.every((id) => passes(id).every((p) => seen.has(`${p}:${id}`)))) for (const id of comp.ids) finished.add(id);
      queue.push(...more);
    }
    expect(g.finished).toBe(true);
    expect(finished.size).toBe(n);
    expect([...seen.values()].every((times) => times === 1)).toBe(true);
    const secondPasses = [...seen.keys()].filter((k) => k.startsWith('links:')).length;
    expect(secondPasses).toBe([...edges.keys()].filter(needsLinks).length);
    expect(secondPasses).toBeGreaterThan(0);
  });
});
