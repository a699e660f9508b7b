// The order of a bulk import: an item is written after the items it links to, so its links can
// name their target ids. Items in a cycle (A -> B -> C -> A) cannot all wait for each other:
// they are written in a first pass without their links to the not-yet-written members, and
// completed in a second pass once every member exists.
//
// An import of 100,000 items keeps this graph for the whole run, so it is held as integers in
// typed arrays (item i is ids[i], and a unit of work carries its i) rather than as an object and a
// few arrays per item: about 40 bytes an item instead of about 600.

export interface Component {
  index: number;
  ids: string[];
  /** More than one member, or an item that links to itself. */
  cyclic: boolean;
  /** Components this one links to (all come earlier in the order). */
  deps: number[];
}

/**
 * The strongly connected components of a link graph, in dependency order, as integers: the
 * members of component c are ids[members[start[c]]] .. ids[members[start[c + 1] - 1]].
 */
interface Condensed {
  ids: string[];
  /** Item index -> component index. */
  compOf: Int32Array;
  start: Int32Array;
  members: Int32Array;
  cyclic: Uint8Array;
  /** The components c links to: deps[depStart[c]] .. deps[depStart[c + 1] - 1]. */
  depStart: Int32Array;
  deps: Int32Array;
}

/** What WorkGraph and components() take: id -> the ids it links to, or anything with those as `links` (an import's refs). */
type Links = ReadonlyMap<string, readonly string[] | { readonly links: readonly string[] }>;

/** Item i's links, as item indices: to[from[i]] .. to[from[i + 1] - 1]. Links outside the set are dropped. */
function indexLinks(items: Links) {
  const ids = [...items.keys()];
  const indexOf = new Map<string, number>();
  ids.forEach((id, i) => indexOf.set(id, i));
  const from = new Int32Array(ids.length + 1);
  const to: number[] = [];
  let i = 0;
  for (const value of items.values()) {
    for (const link of Array.isArray(value) ? value : (value as { links: readonly string[] }).links) {
      const j = indexOf.get(link);
      if (j !== undefined) to.push(j);
    }
    from[++i] = to.length;
  }
  return { ids, from, to: Int32Array.from(to) };
}

/**
 * Strongly connected components (Tarjan, iterative: a chain of 100,000 items must not overflow
 * the stack), each emitted after every component it links to.
 */
function condense(ids: string[], from: Int32Array, to: Int32Array): Condensed {
  const n = ids.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  // The walk's frames: a node and how far through its edges the walk is.
  const frameNode = new Int32Array(n);
  const frameNext = new Int32Array(n);
  const compOf = new Int32Array(n);
  const members = new Int32Array(n);
  const start = new Int32Array(n + 1);
  const cyclic = new Uint8Array(n);
  let sp = 0;
  let fp = 0;
  let counter = 0;
  let count = 0;
  let placed = 0;
  const visit = (v: number) => {
    index[v] = low[v] = counter++;
    stack[sp++] = v;
    onStack[v] = 1;
    frameNode[fp] = v;
    frameNext[fp++] = from[v]!;
  };
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    visit(root);
    while (fp) {
      const v = frameNode[fp - 1]!;
      const next = frameNext[fp - 1]!;
      if (next < from[v + 1]!) {
        frameNext[fp - 1] = next + 1;
        const w = to[next]!;
        if (index[w] === -1) visit(w);
        else if (onStack[w]) low[v] = Math.min(low[v]!, index[w]!);
        continue;
      }
      fp--;
      if (fp) low[frameNode[fp - 1]!] = Math.min(low[frameNode[fp - 1]!]!, low[v]!);
      if (low[v] !== index[v]) continue;
      // v is the root of a component: its members are on the stack down to v, in visiting order.
      let bottom = sp;
      while (stack[--bottom] !== v);
      for (let k = bottom; k < sp; k++) {
        const m = stack[k]!;
        onStack[m] = 0;
        compOf[m] = count;
        members[placed++] = m;
      }
      cyclic[count] = sp - bottom > 1 || linksTo(from, to, v, v) ? 1 : 0;
      sp = bottom;
      start[++count] = placed;
    }
  }
  const { depStart, deps } = componentDeps(count, start, members, compOf, from, to);
  return { ids, compOf, start: start.slice(0, count + 1), members, cyclic: cyclic.slice(0, count), depStart, deps };
}

function linksTo(from: Int32Array, to: Int32Array, v: number, w: number): boolean {
  for (let e = from[v]!; e < from[v + 1]!; e++) if (to[e] === w) return true;
  return false;
}

/** Each component's links to other components, each named once. */
function componentDeps(count: number, start: Int32Array, members: Int32Array, compOf: Int32Array, from: Int32Array, to: Int32Array) {
  const depStart = new Int32Array(count + 1);
  const deps: number[] = [];
  // The last component that listed each component: a dependency is listed once per component.
  const seenBy = new Int32Array(count).fill(-1);
  for (let c = 0; c < count; c++) {
    for (let k = start[c]!; k < start[c + 1]!; k++) {
      const v = members[k]!;
      for (let e = from[v]!; e < from[v + 1]!; e++) {
        const d = compOf[to[e]!]!;
        if (d === c || seenBy[d] === c) continue;
        seenBy[d] = c;
        deps.push(d);
      }
    }
    depStart[c + 1] = deps.length;
  }
  return { depStart, deps: Int32Array.from(deps) };
}

/**
 * Strongly connected components of the link graph in dependency order: a component comes after
 * every component it links to. Links to ids outside `links` are ignored. (The import itself keeps
 * them as integers, in WorkGraph; this is their readable form.)
 */
export function components(links: Links): Component[] {
  const { ids, from, to } = indexLinks(links);
  const g = condense(ids, from, to);
  const out: Component[] = [];
  for (let c = 0; c + 1 < g.start.length; c++) {
    out.push({
      index: c,
      ids: [...g.members.subarray(g.start[c], g.start[c + 1])].map((m) => ids[m]!),
      cyclic: g.cyclic[c] === 1,
      deps: [...g.deps.subarray(g.depStart[c], g.depStart[c + 1])],
    });
  }
  return out;
}

/** One unit of work: write an item, or complete the links of an item written without some. */
export interface Unit {
  phase: 'item' | 'links';
  id: string;
  /** The item's number in the graph (what finish() looks it up by). */
  n: number;
}

/**
 * Hands out units as they become ready: the members of a component once every component it
 * links to is finished, then the second pass of the members that needed one. Failed units
 * finish too (what links to them is told by the importer, not held back forever).
 */
export class WorkGraph {
  private readonly graph: Condensed;
  /** Per component: how many of the components it links to are not finished. */
  private readonly waitingOn: Int32Array;
  /** The components that link to component c: dependents[dependentStart[c]] .. */
  private readonly dependentStart: Int32Array;
  private readonly dependents: Int32Array;
  /** Per component: units handed out and not finished, in its current pass. */
  private readonly pending: Int32Array;
  /** Members written with links left out, by component (only cycles have any). */
  private readonly secondPass = new Map<number, number[]>();
  private doneCount = 0;

  constructor(items: Links) {
    const { ids, from, to } = indexLinks(items);
    this.graph = condense(ids, from, to);
    const { start, depStart, deps } = this.graph;
    const count = start.length - 1;
    this.waitingOn = new Int32Array(count);
    this.pending = new Int32Array(count);
    const counts = new Int32Array(count + 1);
    for (let c = 0; c < count; c++) {
      this.waitingOn[c] = depStart[c + 1]! - depStart[c]!;
      this.pending[c] = start[c + 1]! - start[c]!;
      for (let e = depStart[c]!; e < depStart[c + 1]!; e++) counts[deps[e]! + 1]!++;
    }
    for (let c = 0; c < count; c++) counts[c + 1]! += counts[c]!;
    this.dependentStart = counts.slice();
    this.dependents = new Int32Array(deps.length);
    for (let c = 0; c < count; c++) for (let e = depStart[c]!; e < depStart[c + 1]!; e++) this.dependents[counts[deps[e]!]!++] = c;
  }

  get size(): number {
    return this.graph.ids.length;
  }

  get finished(): boolean {
    return this.doneCount === this.pending.length;
  }

  /** The units ready at the start: components that link to nothing else in the set. */
  start(): Unit[] {
    const ready: Unit[] = [];
    for (let c = 0; c < this.pending.length; c++) if (this.waitingOn[c] === 0) this.itemUnits(c, ready);
    return ready;
  }

  /** A unit finished; `needsLinks`: it was written with links left out. Returns the units now ready. */
  finish(unit: Unit, needsLinks = false): Unit[] {
    if (this.graph.ids[unit.n] !== unit.id) throw new Error(`unknown item ${unit.id}`);
    const c = this.graph.compOf[unit.n]!;
    if (unit.phase === 'item' && needsLinks) (this.secondPass.get(c) ?? this.secondPass.set(c, []).get(c)!).push(unit.n);
    if (--this.pending[c]! > 0) return [];
    const second = this.secondPass.get(c);
    if (unit.phase === 'item' && second) {
      this.pending[c] = second.length;
      return second.map((n) => ({ phase: 'links', id: this.graph.ids[n]!, n }));
    }
    this.secondPass.delete(c);
    return this.componentDone(c);
  }

  private componentDone(c: number): Unit[] {
    this.doneCount++;
    const ready: Unit[] = [];
    for (let e = this.dependentStart[c]!; e < this.dependentStart[c + 1]!; e++) {
      const d = this.dependents[e]!;
      if (--this.waitingOn[d]! === 0) this.itemUnits(d, ready);
    }
    return ready;
  }

  private itemUnits(c: number, into: Unit[]): void {
    const { ids, members, start } = this.graph;
    for (let k = start[c]!; k < start[c + 1]!; k++) into.push({ phase: 'item', id: ids[members[k]!]!, n: members[k]! });
  }
}
