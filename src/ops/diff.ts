import { canonicalJson } from './content-files.js';

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

/**
 * A unified diff of two texts, line by line (`@@ -a,b +c,d @@` hunks with `context` lines
 * around each change), for `cms item diff`. Longest common subsequence after trimming the common
 * head and tail: item bodies are small.
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
  // lcs[i][j]: length of the longest common subsequence of x[i..] and y[j..].
  const lcs = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--) for (let j = y.length - 1; j >= 0; j--) lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: { op: ' ' | '-' | '+'; line: string }[] = a.slice(0, head).map((line) => ({ op: ' ', line }));
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) ops.push({ op: ' ', line: x[i++]! }), j++;
    // Removals before additions, as diff -u prints them.
    else if (i < x.length && (j >= y.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ op: '-', line: x[i++]! });
    else ops.push({ op: '+', line: y[j++]! });
  }
  ops.push(...a.slice(a.length - tail).map((line) => ({ op: ' ' as const, line })));

  const out: string[] = [];
  let k = 0;
  while (k < ops.length) {
    if (ops[k]!.op === ' ') {
      k++;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` lines after the last change
    // that is no more than 2 * context lines from the previous one.
    let end = k;
    for (let m = k; m < ops.length; m++) {
      if (ops[m]!.op !== ' ') end = m;
      else if (m - end > 2 * context) break;
    }
    const start = Math.max(0, k - context);
    const stop = Math.min(ops.length, end + context + 1);
    const before = ops.slice(0, start);
    const fromStart = before.filter((o) => o.op !== '+').length + 1;
    const toStart = before.filter((o) => o.op !== '-').length + 1;
    const hunk = ops.slice(start, stop);
    const fromCount = hunk.filter((o) => o.op !== '+').length;
    const toCount = hunk.filter((o) => o.op !== '-').length;
    out.push(`@@ -${fromStart},${fromCount} +${toStart},${toCount} @@`, ...hunk.map((o) => `${o.op}${o.line}`));
    k = stop;
  }
  return out;
}
