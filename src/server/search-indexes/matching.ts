// How the sandbox answers a search query against the stored records of an index.
//
// - Text: the query is split into words (letters and digits, case and accents ignored); a record
//   matches when every word equals a word of one of its string values (all of them, or only
//   those under the index settings' searchableAttributes). An empty query matches every record.
// - filters: conditions joined by AND. `attribute:value` (value quoted when it has spaces) holds
//   when the attribute, or one element of it when it is an array, equals the value (ignoring
//   case); `attribute <op> number` with <, <=, =, !=, >=, > compares numeric values.
// - facetFilters: ["a:x", ["b:y", "b:z"]]: every entry must hold; an inner array holds when one
//   of its conditions does.

import { tokens } from '../items/index.js';

export type Operator = ':' | '<' | '<=' | '=' | '!=' | '>=' | '>';

export interface Condition {
  attribute: string;
  operator: Operator;
  value: string;
}

/** Conditions of which one must hold (a facetFilters inner array; a single condition otherwise). */
export type AnyOf = Condition[];

export class FilterSyntaxError extends Error {}

const CONDITION = /\s*([A-Za-z0-9_.-]+)\s*(?::\s*("(?:[^"\\]|\\.)*"|[^\s"()]+)|(<=|>=|!=|<|>|=)\s*(-?\d+(?:\.\d+)?)(?![\w.]))\s*/y;
const AND = /AND(?=\s)\s*/y;

/** Parses a filters string: conditions joined by AND. */
export function parseFilters(text: string): Condition[] {
  const conditions: Condition[] = [];
  let at = 0;
  if (!text.trim()) return conditions;
  for (;;) {
    CONDITION.lastIndex = at;
    const m = CONDITION.exec(text);
    if (!m) throw new FilterSyntaxError(`expected attribute:value or attribute <op> number at character ${at + 1} of '${text}'`);
    conditions.push(m[2] !== undefined ? { attribute: m[1]!, operator: ':', value: unquote(m[2]) } : { attribute: m[1]!, operator: m[3] as Operator, value: m[4]! });
    at = CONDITION.lastIndex;
    if (at >= text.length) return conditions;
    AND.lastIndex = at;
    if (!AND.exec(text)) throw new FilterSyntaxError(`only conditions joined by AND are supported; unexpected '${text.slice(at)}'`);
    at = AND.lastIndex;
  }
}

function unquote(value: string): string {
  return value.startsWith('"') ? value.slice(1, -1).replace(/\\(.)/g, '$1') : value;
}

/** Parses facetFilters: a string, or an array of strings and arrays of strings (each `attribute:value`). */
export function parseFacetFilters(value: string | readonly (string | readonly string[])[]): AnyOf[] {
  const entries = typeof value === 'string' ? [value] : value;
  return entries.map((entry) => (typeof entry === 'string' ? [entry] : [...entry]).map(facetCondition));
}

function facetCondition(text: string): Condition {
  const colon = text.indexOf(':');
  if (colon <= 0) throw new FilterSyntaxError(`facet filter '${text}' must be attribute:value`);
  return { attribute: text.slice(0, colon).trim(), operator: ':', value: unquote(text.slice(colon + 1).trim()) };
}

/** The values at a dotted path; arrays along the way fan out. */
function valuesAt(node: unknown, path: readonly string[]): unknown[] {
  if (Array.isArray(node)) return node.flatMap((n) => valuesAt(n, path));
  if (!path.length) return [node];
  if (node === null || typeof node !== 'object') return [];
  return valuesAt((node as Record<string, unknown>)[path[0]!], path.slice(1));
}

function strings(node: unknown, out: string[] = []): string[] {
  if (typeof node === 'string') out.push(node);
  else if (Array.isArray(node)) for (const n of node) strings(n, out);
  else if (node !== null && typeof node === 'object') for (const v of Object.values(node)) strings(v, out);
  return out;
}

/** Attribute paths of searchableAttributes (`unordered(x)` and comma-joined entries included); null: all. */
export function searchablePaths(settings: Record<string, unknown>): string[][] | null {
  const list = settings.searchableAttributes;
  if (!Array.isArray(list) || !list.length) return null;
  return list
    .filter((a): a is string => typeof a === 'string')
    .flatMap((a) => a.split(','))
    .map((a) => a.trim().replace(/^unordered\((.*)\)$/, '$1'))
    .filter(Boolean)
    .map((a) => a.split('.'));
}

/** Whether every query word is a word of the record's searchable strings. */
export function matchesText(record: Record<string, unknown>, queryWords: readonly string[], paths: string[][] | null): boolean {
  if (!queryWords.length) return true;
  const { objectID: _id, ...fields } = record;
  const texts = paths ? paths.flatMap((p) => strings(valuesAt(fields, p))) : strings(fields);
  const vocabulary = new Set(texts.flatMap(tokens));
  return queryWords.every((w) => vocabulary.has(w));
}

export function holds(record: Record<string, unknown>, c: Condition): boolean {
  const values = valuesAt(record, c.attribute.split('.'));
  if (c.operator === ':') return values.some((v) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && String(v).toLowerCase() === c.value.toLowerCase());
  const target = Number(c.value);
  return values.some((v) => typeof v === 'number' && compare(v, c.operator, target));
}

function compare(a: number, op: Operator, b: number): boolean {
  switch (op) {
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '!=':
      return a !== b;
    default:
      return a === b;
  }
}

/** Whether every group has a condition that holds. */
export function passes(record: Record<string, unknown>, groups: readonly AnyOf[]): boolean {
  return groups.every((group) => group.some((c) => holds(record, c)));
}
