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
