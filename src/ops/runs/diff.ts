import { canonicalJson } from '../files/content-files.js';

// A readable difference between two JSON values, for plans (`schema apply --dry-run`, `hub clone
// --dry-run`): one line per changed path, e.g. `~ body.properties.title.maxLength: 100 → 200`.

export interface FieldChange {
  /** Dotted path with [n] indexes, e.g. settings.icons[0].url. */
  path: string;
  op: 'add' | 'remove' | 'change';
  from?: unknown;
  to?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const same = (a: unknown, b: unknown) => canonicalJson(a) === canonicalJson(b);

/**
 * The changes that turn `from` into `to`. Objects are compared key by key; arrays of objects of
 * equal length element by element; anything else (a scalar, a list of names) as a whole.
 */
export function diff(from: unknown, to: unknown, path = ''): FieldChange[] {
  if (same(from, to)) return [];
  if (isObject(from) && isObject(to)) {
    const keys = [...new Set([...Object.keys(from), ...Object.keys(to)])].sort();
    return keys.flatMap((k) => {
      const at = join(path, k);
      if (from[k] === undefined) return [{ path: at, op: 'add' as const, to: to[k] }];
      if (to[k] === undefined) return [{ path: at, op: 'remove' as const, from: from[k] }];
      return diff(from[k], to[k], at);
    });
  }
  if (Array.isArray(from) && Array.isArray(to) && from.length === to.length && to.some(isObject)) {
    return from.flatMap((v, i) => diff(v, to[i], `${path}[${i}]`));
  }
  if (from === undefined) return [{ path, op: 'add', to }];
  if (to === undefined) return [{ path, op: 'remove', from }];
  return [{ path, op: 'change', from, to }];
}

/** Added and removed members of a set of names (repository assignments, features). */
export function setDiff(path: string, from: readonly string[], to: readonly string[]): FieldChange[] {
  const added = to.filter((n) => !from.includes(n)).map((n) => ({ path, op: 'add' as const, to: n }));
  const removed = from.filter((n) => !to.includes(n)).map((n) => ({ path, op: 'remove' as const, from: n }));
  return [...added, ...removed];
}

function join(path: string, key: string): string {
  const part = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : `[${JSON.stringify(key)}]`;
  return !path ? part : part.startsWith('[') ? `${path}${part}` : `${path}.${part}`;
}

const MAX_VALUE = 100;

function show(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** `+ path: value`, `- path: value` or `~ path: old → new`. */
export function formatChange(c: FieldChange): string {
  if (c.op === 'add') return `+ ${c.path}: ${show(c.to)}`;
  if (c.op === 'remove') return `- ${c.path}: ${show(c.from)}`;
  return `~ ${c.path}: ${show(c.from)} → ${show(c.to)}`;
}

type Op = { op: ' ' | '-' | '+'; line: string };

/**
 * Past this many removed and added lines, the changed block is shown replaced whole: finding the
 * fewest edits keeps a row of (2d + 1) numbers per edit d, so (MAX_EDITS + 1)^2 numbers (16 MB).
 */
const MAX_EDITS = 2_000;

/**
 * A unified diff of two texts, line by line (`@@ -a,b +c,d @@` hunks with `context` lines
 * around each change), for `cms item diff`. An item body can hold about 10 MB (hundreds of
 * thousands of lines), so time and memory grow with the lines and the edits, never with lines
 * times lines: the common head and tail are trimmed, then the fewest edits are found (Myers) up
 * to MAX_EDITS.
 */
export function unifiedDiff(fromText: string, toText: string, context = 3): string[] {
  const a = fromText.split('\n');
  const b = toText.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const ops: Op[] = a.slice(0, head).map((line) => ({ op: ' ', line }));
  for (const op of removalsFirst(fewestEdits(x, y, MAX_EDITS) ?? replaced(x, y))) ops.push(op);
  for (const line of a.slice(a.length - tail)) ops.push({ op: ' ', line });
  return hunks(ops, context);
}

/** Every line of x removed, then every line of y added. */
function replaced(x: string[], y: string[]): Op[] {
  return [...x.map((line) => ({ op: '-' as const, line })), ...y.map((line) => ({ op: '+' as const, line }))];
}

/** Myers' shortest edit script from x to y, or null when it takes more than maxEdits removals and additions. */
function fewestEdits(x: string[], y: string[], maxEdits: number): Op[] | null {
  const n = x.length;
  const m = y.length;
  const limit = Math.min(n + m, maxEdits);
  // v[k + offset]: the furthest x reached on diagonal k (x - y = k); trace[d]: v before edit d, diagonals -d-1..d+1.
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let i = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let j = i - k;
      while (i < n && j < m && x[i] === y[j]) i++, j++;
      v[offset + k] = i;
      if (i >= n && j >= m) return walkBack(trace, x, y, d);
    }
  }
  return null;
}

/** The edit script, read back from the end through the trace of the search. */
function walkBack(trace: Int32Array[], x: string[], y: string[], edits: number): Op[] {
  const ops: Op[] = [];
  let i = x.length;
  let j = y.length;
  for (let d = edits; d > 0; d--) {
    const before = trace[d]!;
    const at = (k: number) => before[k + d + 1]!;
    const k = i - j;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevI = at(down ? k + 1 : k - 1);
    const prevJ = prevI - (down ? k + 1 : k - 1);
    while (i > prevI + (down ? 0 : 1) && j > prevJ + (down ? 1 : 0)) ops.push({ op: ' ', line: x[--i]! }), j--;
    if (down) ops.push({ op: '+', line: y[--j]! });
    else ops.push({ op: '-', line: x[--i]! });
  }
  while (i > 0) ops.push({ op: ' ', line: x[--i]! }), j--;
  return ops.reverse();
}

/** Within each run of changed lines, the removals before the additions, as diff -u prints them. */
function removalsFirst(ops: Op[]): Op[] {
  const out: Op[] = [];
  const added: Op[] = [];
  for (const op of ops) {
    if (op.op === '+') added.push(op);
    else if (op.op === '-') out.push(op);
    else {
      for (const a of added.splice(0)) out.push(a);
      out.push(op);
    }
  }
  for (const a of added) out.push(a);
  return out;
}

/**
 * The hunks: from `context` lines before a change to `context` lines after the last change that
 * is no more than 2 * context lines from the previous one. Line numbers are counted as the scan
 * goes (one pass, however many hunks).
 */
function hunks(ops: Op[], context: number): string[] {
  const out: string[] = [];
  // fromLine[k], toLine[k]: the line numbers at ops[k] in each text.
  const fromLine = new Int32Array(ops.length + 1);
  const toLine = new Int32Array(ops.length + 1);
  fromLine[0] = toLine[0] = 1;
  for (let k = 0; k < ops.length; k++) {
    fromLine[k + 1] = fromLine[k]! + (ops[k]!.op !== '+' ? 1 : 0);
    toLine[k + 1] = toLine[k]! + (ops[k]!.op !== '-' ? 1 : 0);
  }
  let k = 0;
  while (k < ops.length) {
    if (ops[k]!.op === ' ') {
      k++;
      continue;
    }
    let end = k;
    for (let m = k; m < ops.length; m++) {
      if (ops[m]!.op !== ' ') end = m;
      else if (m - end > 2 * context) break;
    }
    const start = Math.max(0, k - context);
    const stop = Math.min(ops.length, end + context + 1);
    out.push(`@@ -${fromLine[start]},${fromLine[stop]! - fromLine[start]!} +${toLine[start]},${toLine[stop]! - toLine[start]!} @@`);
    for (let h = start; h < stop; h++) out.push(`${ops[h]!.op}${ops[h]!.line}`);
    k = stop;
  }
  return out;
}
