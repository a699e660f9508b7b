// The order of a bulk import: an item is written after the items it links to, so its links can
// name their target ids. Items in a cycle (A -> B -> C -> A) cannot all wait for each other:
// they are written in a first pass without their links to the not-yet-written members, and
// completed in a second pass once every member exists.

export interface Component {
  index: number;
  ids: string[];
  /** More than one member, or an item that links to itself. */
  cyclic: boolean;
  /** Components this one links to (all come earlier in the order). */
  deps: number[];
}

/**
 * Strongly connected components of the link graph (Tarjan, iterative: a chain of 100,000 items
 * must not overflow the stack), in dependency order: a component comes after every component it
 * links to. Links to ids outside `links` are ignored.
 */
export function components(links: ReadonlyMap<string, readonly string[]>): Component[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const out: Component[] = [];
  const compOf = new Map<string, number>();
  let counter = 0;

  const edges = (id: string) => (links.get(id) ?? []).filter((to) => links.has(to));
  for (const root of links.keys()) {
    if (index.has(root)) continue;
    // Each frame: a node and how far through its edges the walk is.
    const frames: { id: string; edges: string[]; next: number }[] = [];
    const visit = (id: string) => {
      index.set(id, counter);
      low.set(id, counter++);
      stack.push(id);
      onStack.add(id);
      frames.push({ id, edges: edges(id), next: 0 });
    };
    visit(root);
    while (frames.length) {
      const frame = frames[frames.length - 1]!;
      if (frame.next < frame.edges.length) {
        const to = frame.edges[frame.next++]!;
        if (!index.has(to)) visit(to);
        else if (onStack.has(to)) low.set(frame.id, Math.min(low.get(frame.id)!, index.get(to)!));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.id, Math.min(low.get(parent.id)!, low.get(frame.id)!));
      if (low.get(frame.id) !== index.get(frame.id)) continue;
      const ids: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        ids.push(member);
        compOf.set(member, out.length);
      } while (member !== frame.id);
      ids.reverse();
      out.push({ index: out.length, ids, cyclic: ids.length > 1 || edges(frame.id).includes(frame.id), deps: [] });
    }
  }
  for (const comp of out) {
    const deps = new Set<number>();
    for (const id of comp.ids) for (const to of edges(id)) if (compOf.get(to) !== comp.index) deps.add(compOf.get(to)!);
    comp.deps = [...deps];
  }
  return out;
}

/** One unit of work: write an item, or complete the links of an item written without some. */
export interface Unit {
  phase: 'item' | 'links';
  id: string;
}

/**
 * Hands out units as they become ready: the members of a component once every component it
 * links to is finished, then the second pass of the members that needed one. Failed units
 * finish too (what links to them is told by the importer, not held back forever).
 */
export class WorkGraph {
  readonly components: Component[];
  private readonly waitingOn: number[];
  private readonly dependents: number[][];
  private readonly pending: number[];
  private readonly secondPass: string[][];
  private readonly compOf = new Map<string, number>();
  private doneCount = 0;

  constructor(links: ReadonlyMap<string, readonly string[]>) {
    this.components = components(links);
    this.waitingOn = this.components.map((c) => c.deps.length);
    this.dependents = this.components.map(() => []);
    for (const c of this.components) {
      for (const d of c.deps) this.dependents[d]!.push(c.index);
      for (const id of c.ids) this.compOf.set(id, c.index);
    }
    this.pending = this.components.map((c) => c.ids.length);
    this.secondPass = this.components.map(() => []);
  }

  get size(): number {
    return this.compOf.size;
  }

  get finished(): boolean {
    return this.doneCount === this.components.length;
  }

  component(id: string): Component | undefined {
    const i = this.compOf.get(id);
    return i === undefined ? undefined : this.components[i];
  }

  /** The units ready at the start: components that link to nothing else in the set. */
  start(): Unit[] {
    return this.components.filter((c) => c.deps.length === 0).flatMap((c) => this.itemUnits(c));
  }

  /** A unit finished; `needsLinks`: it was written with links left out. Returns the units now ready. */
  finish(unit: Unit, needsLinks = false): Unit[] {
    const c = this.compOf.get(unit.id);
    if (c === undefined) throw new Error(`unknown item ${unit.id}`);
    if (unit.phase === 'item' && needsLinks) this.secondPass[c]!.push(unit.id);
    if (--this.pending[c]! > 0) return [];
    const second = this.secondPass[c]!;
    if (unit.phase === 'item' && second.length) {
      this.pending[c] = second.length;
      return second.map((id) => ({ phase: 'links', id }));
    }
    return this.componentDone(c);
  }

  private componentDone(c: number): Unit[] {
    this.doneCount++;
    const ready: Unit[] = [];
    for (const d of this.dependents[c]!) if (--this.waitingOn[d]! === 0) ready.push(...this.itemUnits(this.components[d]!));
    return ready;
  }

  private itemUnits(c: Component): Unit[] {
    return c.ids.map((id) => ({ phase: 'item', id }));
  }
}
