import type { IO } from '../cli/io.js';
import { UsageError } from '../core/errors.js';
import type { Column, Output } from './result.js';

import type { Format } from './formats.js';

export type { Format } from './formats.js';

export interface RenderOptions {
  format: Format;
  query?: string;
}

/**
 * The one renderer. Data goes to stdout: a table with headers and colour on a terminal, plain
 * tab-separated rows without a header when piped, or JSON / NDJSON / YAML on request. Resources
 * print as plain JSON (no _links). --query applies a JMESPath expression to that plain JSON.
 */
export async function render(out: Output | void, opts: RenderOptions, io: IO): Promise<void> {
  if (!out) return;
  if (out.kind === 'text') {
    io.out(out.text.endsWith('\n') ? out.text : `${out.text}\n`);
    return;
  }
  if (out.kind === 'done') {
    if (out.data !== undefined && (opts.format !== 'table' || opts.query)) return renderValue(plain(out.data), opts, io, undefined, false);
    io.note(out.message);
    return;
  }
  if (out.kind === 'item' && out.raw) {
    // Raw answers print as JSON in table mode; a --query result follows the usual rules.
    const format = opts.format === 'table' && !opts.query ? 'json' : opts.format;
    return renderValue(out.data, { ...opts, format }, io, undefined, false);
  }
  if (out.kind === 'item') return renderValue(plain(out.data), opts, io, out.columns, false);

  // Lists: NDJSON streams item by item; everything else needs the whole (limited) list.
  if (opts.format === 'ndjson' && !opts.query) {
    for await (const row of limited(out.items, out.limit)) io.out(`${JSON.stringify(plain(row))}\n`);
    return;
  }
  const rows: unknown[] = [];
  for await (const row of limited(out.items, out.limit)) rows.push(plain(row));
  return renderValue(rows, opts, io, out.columns, true);
}

async function renderValue(value: unknown, opts: RenderOptions, io: IO, columns: Column[] | undefined, isList: boolean): Promise<void> {
  if (opts.query) {
    value = await applyQuery(value, opts.query);
    if (opts.format === 'table') return printQueryResult(value, io);
  }
  switch (opts.format) {
    case 'json':
      io.out(`${JSON.stringify(value, null, 2)}\n`);
      return;
    case 'ndjson':
      for (const row of Array.isArray(value) ? value : [value]) io.out(`${JSON.stringify(row)}\n`);
      return;
    case 'yaml': {
      const { stringify } = await import('yaml');
      io.out(stringify(value));
      return;
    }
    default:
      if (isList) return printTable(value as unknown[], columns ?? [], io);
      return printRecord(value, columns, io);
  }
}

async function* limited<T>(items: AsyncIterable<T> | Iterable<T>, limit?: number): AsyncGenerator<T> {
  let n = 0;
  for await (const item of items) {
    if (limit && n >= limit) return;
    n++;
    yield item;
  }
}

/** The resource without HAL plumbing: `_links` removed at every level. */
export function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (k !== '_links') out[k] = plain(v);
    return out;
  }
  return value;
}

async function applyQuery(value: unknown, expression: string): Promise<unknown> {
  const { default: jmespath } = await import('jmespath');
  try {
    return jmespath.search(value as never, expression);
  } catch (err) {
    throw new UsageError(`Invalid --query expression: ${(err as Error).message}`, 'See https://jmespath.org for the syntax, e.g. --query "[].id"');
  }
}

/** --query results: strings raw (one per line for arrays of scalars), anything else as JSON. */
function printQueryResult(value: unknown, io: IO): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    for (const v of value) io.out(`${v ?? ''}\n`);
  } else if (typeof value === 'object') io.out(`${JSON.stringify(value, null, 2)}\n`);
  else io.out(`${value}\n`);
}

export function cell(row: unknown, column: Column): string {
  const v = typeof column.value === 'function' ? column.value(row) : path(row, column.value);
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

function path(row: unknown, dotted: string): unknown {
  let v: unknown = row;
  for (const key of dotted.split('.')) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

async function printTable(rows: unknown[], columns: Column[], io: IO): Promise<void> {
  if (!columns.length) columns = inferColumns(rows);
  if (!io.isTTY) {
    // Piped: stable, headerless, tab-separated; tabs and newlines inside values become spaces.
    for (const row of rows) io.out(`${columns.map((c) => cell(row, c).replace(/[\t\n\r]+/g, ' ')).join('\t')}\n`);
    return;
  }
  if (!rows.length) {
    io.note('No results');
    return;
  }
  const { default: Table } = await import('cli-table3');
  const paint = await io.colors();
  const maxWidth = Math.max(12, Math.floor((io.columns - 3 * columns.length) / columns.length));
  const table = new Table({
    head: columns.map((c) => paint.bold(c.header)),
    style: { head: [], border: [], compact: true },
    chars: { top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '', left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ' },
  });
  for (const row of rows) table.push(columns.map((c) => colourStatus(truncate(cell(row, c), maxWidth), paint)));
  io.out(`${table.toString()}\n`);
}

async function printRecord(value: unknown, columns: Column[] | undefined, io: IO): Promise<void> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    io.out(`${typeof value === 'string' ? value : JSON.stringify(value, null, 2)}\n`);
    return;
  }
  const fields: Column[] = columns ?? Object.keys(value).map((k) => ({ header: k, value: k }));
  if (!io.isTTY) {
    for (const c of fields) io.out(`${c.header}\t${cell(value, c).replace(/[\t\n\r]+/g, ' ')}\n`);
    return;
  }
  const paint = await io.colors();
  const width = Math.max(...fields.map((c) => c.header.length));
  for (const c of fields) io.out(`${paint.bold(c.header.padEnd(width))}  ${colourStatus(truncate(cell(value, c), Math.max(20, io.columns - width - 2)), paint)}\n`);
}

function inferColumns(rows: unknown[]): Column[] {
  const first = rows.find((r) => r && typeof r === 'object') as Record<string, unknown> | undefined;
  if (!first) return [{ header: 'VALUE', value: (r: unknown) => r }];
  return Object.keys(first)
    .filter((k) => !k.startsWith('_'))
    .slice(0, 6)
    .map((k) => ({ header: k.toUpperCase(), value: k }));
}

function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, Math.max(1, max - 1))}…` : s;
}

const GREEN = new Set(['ACTIVE', 'PUBLISHED', 'COMPLETED', 'VALID', 'SUCCESS', 'SCHEDULED']);
const YELLOW = new Set(['DRAFT', 'SCHEDULING', 'PUBLISHING', 'IN_PROGRESS', 'CREATED', 'WAITING', 'PREPARING', 'UNSCHEDULING']);
const RED = new Set(['ARCHIVED', 'FAILED', 'CANCELLED', 'INVALID', 'DELETED']);

function colourStatus(s: string, paint: Paint): string {
  if (GREEN.has(s)) return paint.green(s);
  if (YELLOW.has(s)) return paint.yellow(s);
  if (RED.has(s)) return paint.red(s);
  return s;
}

export interface Paint {
  bold(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
  dim(s: string): string;
}
