import type { IO, Paint } from '../cli/io.js';
import type { PageInfo } from '../core/client.js';
import { CliError, ExitCode, UsageError } from '../core/errors.js';
import { localStamp } from '../cli/dates.js';
import { hasHidden, visible } from './visible.js';
import { similar } from '../cli/suggest.js';
import type { Column, Output, PathOracle } from './result.js';

import type { Format } from './formats.js';

export type { Format } from './formats.js';

export interface RenderOptions {
  format: Format;
  query?: string;
  /** --columns a,b,c: headers of the kind's columns or dotted paths into the resource. */
  columns?: string;
  /** --no-headers: tables without their header row. */
  headers?: boolean;
  /** -q/--quiet: only ids, one per line (for xargs). */
  quiet?: boolean;
  /** Tables and records show UTC stamps as local time (a terminal or TZ set, and no --utc). */
  localTime?: boolean;
}

/**
 * The one renderer. Data goes to stdout: a table with headers and colour on a terminal, plain
 * tab-separated rows without a header when piped, or JSON / NDJSON / YAML on request. Resources
 * print as plain JSON (no _links). --query applies a JMESPath expression to that plain JSON.
 * A list cut by --limit says so on stderr, whatever stdout is.
 */
export async function render(out: Output | void, opts: RenderOptions, io: IO): Promise<void> {
  if (!out) return;
  if (out.kind === 'text') {
    const t = out.text.endsWith('\n') ? out.text : `${out.text}\n`;
    if (out.html) io.outHtml(t);
    else io.out(t);
    return;
  }
  if (opts.quiet && !opts.query) return printIds(out, io);
  if (out.kind === 'done') {
    if (out.data !== undefined && (!isTable(opts.format) || opts.query)) return renderValue(plain(out.data), opts, io, undefined, false);
    io.note(out.message);
    return;
  }
  if (out.kind === 'item' && out.raw) {
    // Raw answers print as JSON in table mode; a --query result follows the usual rules.
    const format = isTable(opts.format) && !opts.query ? 'json' : opts.format;
    return renderValue(out.data, { ...opts, format }, io, undefined, false);
  }
  if (out.kind === 'item') return renderValue(plain(out.data), opts, io, out.columns, false, out.paths);

  // Lists: NDJSON streams item by item; everything else needs the whole (limited) list.
  const rows: unknown[] = [];
  const streaming = opts.format === 'ndjson' && !opts.query;
  const cut = await take(out.items, out.limit, (row) => (streaming ? io.outJson(`${JSON.stringify(plain(row))}\n`) : rows.push(plain(row))));
  if (!streaming) await renderValue(rows, opts, io, out.columns, true, out.paths);
  if (cut.cut) noteCut(io, out.limit!, cut.total);
}

const isTable = (format: Format) => format === 'table' || format === 'wide';

/** Items up to the limit, and whether more were left (asked of the paged stream, or by reading one more). */
async function take(items: AsyncIterable<unknown> | Iterable<unknown>, limit: number | undefined, onRow: (row: unknown) => void): Promise<{ cut: boolean; total?: number }> {
  const iterator: AsyncIterator<unknown> | Iterator<unknown> = Symbol.asyncIterator in items ? (items as AsyncIterable<unknown>)[Symbol.asyncIterator]() : (items as Iterable<unknown>)[Symbol.iterator]();
  let n = 0;
  try {
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      if (limit && n >= limit) return { cut: true, total: pageInfo(items)?.total };
      n++;
      onRow(next.value);
    }
  } finally {
    await iterator.return?.();
  }
  const info = pageInfo(items);
  return { cut: Boolean(info?.more), total: info?.total };
}

function pageInfo(items: unknown): PageInfo | undefined {
  return (items as { info?: PageInfo }).info;
}

function noteCut(io: IO, limit: number, total: number | undefined): void {
  const of = total !== undefined && total > limit ? ` of ${total}` : '';
  io.err(`note: showing the first ${limit}${of}; use --all (or --limit 0) for every result, or --limit <n>\n`);
}

/**
 * -q: the id of each resource, one per line, for `| xargs cms ...`. An id a pipe would split
 * (whitespace), take for an option (a leading -), that holds control or invisible characters
 * (printed escaped, they would reach xargs as a backslash and a word), or that xargs
 * would rewrite (its quotes and backslashes: `'--x'` and `\-\-x` become `--x`) is not printed:
 * the command then fails (exit 1), saying how many were left out.
 */
async function printIds(out: Output, io: IO): Promise<void> {
  let unsafe = 0;
  const print = (value: unknown) => {
    const id = idOf(value);
    if (id === undefined) return;
    if (PIPE_SAFE_ID.test(id) && !hasHidden(id)) io.out(`${id}\n`);
    else unsafe++;
  };
  if (out.kind === 'list') {
    const cut = await take(out.items, out.limit, print);
    if (cut.cut) noteCut(io, out.limit!, cut.total);
  } else if (out.kind === 'item' || out.kind === 'done') print(out.data);
  if (unsafe) throw new CliError(`${unsafe} ${unsafe === 1 ? 'id was' : 'ids were'} not printed: they hold whitespace, quotes, backslashes, control or invisible characters, or start with '-'`, ExitCode.FAILURE, 'Use -o json to see them as they are.');
}

const PIPE_SAFE_ID = /^[^\s\x00-\x1f\x7f-\x9f'"\\-][^\s\x00-\x1f\x7f-\x9f'"\\]*$/;

function idOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object') return String(value);
  const v = value as Record<string, unknown>;
  const id = v.id ?? v.runId ?? v.contentTypeUri ?? v.schemaId ?? v.name;
  return id === undefined || id === null ? undefined : String(id);
}

async function renderValue(value: unknown, opts: RenderOptions, io: IO, columns: Column[] | undefined, isList: boolean, paths?: PathOracle): Promise<void> {
  if (opts.query) {
    value = await applyQuery(value, opts.query);
    if (isTable(opts.format)) return printQueryResult(value, io);
  }
  switch (opts.format) {
    case 'json':
      io.outJson(`${JSON.stringify(value, null, 2)}\n`);
      return;
    case 'ndjson':
      for (const row of Array.isArray(value) ? value : [value]) io.outJson(`${JSON.stringify(row)}\n`);
      return;
    case 'yaml':
      io.out(await yamlText(value));
      return;
    default: {
      const wide = opts.format === 'wide';
      if (isList) {
        const rows = value as unknown[];
        return printTable(rows, await chooseColumns(rows, columns, opts.columns, wide, io, undefined, paths), io, { wide, headers: opts.headers !== false, show: shown(opts) });
      }
      // One record is often what a write answered (create, update): by now the write is done, so an
      // unknown name is said on stderr and left out, not an exit 2 that invites running it again.
      return printRecord(value, opts.columns ? await chooseColumns([value], columns, opts.columns, false, io, (err) => io.warn(`${err.message}\n  ${err.hint ?? ''}`), paths) : columns, io, Boolean(opts.columns), shown(opts));
    }
  }
}

/**
 * YAML whose escapes read back: a string (or key) holding a character the output chokepoint
 * escapes is written double-quoted, where YAML reads \u202e or \x9b as the character itself
 * (in a plain scalar it would read back as the six characters).
 */
async function yamlText(value: unknown): Promise<string> {
  const { Document, visit } = await import('yaml');
  const doc = new Document(value);
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && hasHidden(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString();
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
    for (const v of value) io.out(`${visible(String(v ?? ''))}\n`);
  } else if (typeof value === 'object') io.outJson(`${JSON.stringify(value, null, 2)}\n`);
  else io.out(`${visible(String(value))}\n`);
}

/** A cell's text; on a terminal, a number of a column that says how it reads is rounded and grouped (figure). */
export function cell(row: unknown, column: Column, terminal = false): string {
  const v = typeof column.value === 'function' ? column.value(row) : path(row, column.value);
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  if (terminal && column.number && typeof v === 'number' && Number.isFinite(v)) return figure(v, column.number);
  return String(v);
}

// Fixed separators (',' for thousands, '.' for decimals) whatever the locale: one spelling in
// every terminal, docs and bug report.
const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });
const ONE_DECIMAL = new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** The one rule for figures on a terminal: counts grouped (1,234,567), rates as percentages (33.3%), averages to one decimal (2.7). */
function figure(v: number, kind: NonNullable<Column['number']>): string {
  if (kind === 'count') return GROUPED.format(v);
  if (kind === 'rate') return `${ONE_DECIMAL.format(v * 100)}%`;
  return ONE_DECIMAL.format(v);
}

function path(row: unknown, dotted: string): unknown {
  let v: unknown = row;
  for (const key of dotted.split('.')) {
    // Own fields only: `constructor` or `toString` is in every object, not in the data.
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/**
 * The columns to show: --columns names (a kind's header, case-insensitive, or a dotted path),
 * else the kind's own; -o wide adds every other top-level scalar field of the rows.
 */
async function chooseColumns(rows: unknown[], columns: Column[] | undefined, named: string | undefined, wide: boolean, io: IO, warn?: (err: UsageError) => void, paths?: PathOracle): Promise<Column[]> {
  const own = columns?.length ? columns : inferColumns(rows, 6);
  if (named) return namedColumns(rows, own, named, io, warn, paths);
  if (!wide) return own;
  const shown = new Set(own.map((c) => (typeof c.value === 'string' ? c.value.split('.')[0] : '')));
  return [...own, ...inferColumns(rows, Infinity).filter((c) => !shown.has(c.value as string))];
}

/**
 * --columns names: a header of the kind's columns, a header -o wide would show (a field's, e.g.
 * "created date"), a field, or a dotted path into a field. A name that is none of these is a
 * usage error naming what there is, rather than a column that is empty on every row. A dotted
 * path is a column whatever the rows hold (empty where a row lacks it: which rows came back must
 * not decide whether the command works); only one that no schema of the resources could have
 * (`paths`, e.g. item bodies by their content types) is worth a warning. A list with no rows has
 * no fields to check: names then pass (there is nothing to show either way).
 */
async function namedColumns(rows: unknown[], own: Column[], named: string, io: IO, warn?: (err: UsageError) => void, paths?: PathOracle): Promise<Column[]> {
  const fields = fieldsOf(rows);
  const unknown: string[] = [];
  const chosen: Column[] = [];
  for (const n of named.split(',').map((x) => x.trim()).filter(Boolean)) {
    const lower = n.toLowerCase();
    const header = own.find((c) => c.header.toLowerCase() === lower);
    if (header) {
      chosen.push(header);
      continue;
    }
    const field = fields.find((f) => headerFor(f).toLowerCase() === lower);
    if (field !== undefined) {
      chosen.push({ header: headerFor(field), value: field });
      continue;
    }
    if (rows.length && !fields.includes(n.split('.')[0]!)) unknown.push(n);
    else if (n.includes('.')) {
      const verdict = paths ? await paths(n) : null;
      if (verdict) {
        const close = similar(n, verdict.near);
        io.warn(`no schema has '${oneLine(n)}': the column stays empty${close.length ? `; did you mean ${close.map((c) => `'${oneLine(c)}'`).join(' or ')}?` : ''}`);
      }
    }
    chosen.push({ header: n.toUpperCase(), value: n });
  }
  if (!unknown.length) return chosen;
  if (!warn) throw unknownColumns(unknown, own, fields, rows);
  warn(unknownColumns(unknown, own, fields, rows));
  return chosen.filter((c) => !unknown.includes(c.value as string));
}

/** The top-level fields of the rows (every row's, in the order first seen), without `_` plumbing. */
function fieldsOf(rows: unknown[]): string[] {
  const seen = new Set<string>();
  for (const row of rows) {
    if (row && typeof row === 'object' && !Array.isArray(row)) for (const k of Object.keys(row)) if (!k.startsWith('_')) seen.add(k);
  }
  return [...seen];
}

function unknownColumns(unknown: string[], own: Column[], fields: string[], rows: unknown[]): UsageError {
  const headers = own.map((c) => c.header.toLowerCase());
  const candidates = [...new Set([...headers, ...fields])];
  const quoted = unknown.map((n) => `'${oneLine(n)}'`).join(', ');
  const lines: string[] = [];
  for (const n of unknown) {
    const close = fields.includes(n.split('.')[0]!) ? similar(n, siblingPaths(rows, n)) : similar(n.split('.')[0]!, candidates);
    if (close.length) lines.push(`'${oneLine(n)}': did you mean ${close.map((c) => `'${oneLine(c)}'`).join(' or ')}?`);
  }
  const more = fields.filter((f) => !headers.includes(f.toLowerCase()));
  const list = (names: string[]) => (names.length > 40 ? [...names.slice(0, 40), '…'] : names).map(oneLine).join(', ');
  lines.push(`Columns: ${list(headers)}`);
  if (more.length) lines.push(`Fields: ${list(more)}`);
  const example = pathExample(rows, fields);
  lines.push(`Or a dotted path into a field${example ? `, e.g. ${oneLine(example)}` : ''}.`);
  return new UsageError(`Unknown column${unknown.length === 1 ? '' : 's'} ${quoted} in --columns`, lines.join('\n  '));
}

/** The paths beside a dotted path that leads nowhere (`body.titel`: `body.title`, `body.tags`, ...), from every row. */
function siblingPaths(rows: unknown[], dotted: string): string[] {
  const parent = dotted.slice(0, dotted.lastIndexOf('.'));
  const found = new Set<string>();
  for (const row of rows) {
    const v = path(row, parent);
    if (v && typeof v === 'object' && !Array.isArray(v)) for (const k of Object.keys(v)) found.add(`${parent}.${k}`);
  }
  return [...found];
}

/** `field.key` for the first field that holds an object with a key, to show what a path looks like. */
function pathExample(rows: unknown[], fields: string[]): string | undefined {
  for (const f of fields) {
    for (const row of rows) {
      const v = (row as Record<string, unknown> | null)?.[f];
      if (v && typeof v === 'object' && !Array.isArray(v)) {
        const key = Object.keys(v).find((k) => !k.startsWith('_'));
        if (key) return `${f}.${key}`;
      }
    }
  }
  return undefined;
}

/** How a cell's text is shown: UTC stamps in local time when asked. */
type Show = (text: string) => string;

const UTC_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const shown = (opts: RenderOptions): Show => (opts.localTime ? (t) => (UTC_STAMP.test(t) ? localStamp(Date.parse(t)) : t) : (t) => t);

async function printTable(rows: unknown[], columns: Column[], io: IO, opts: { wide: boolean; headers: boolean; show: Show }): Promise<void> {
  if (!io.isTTY) {
    // Piped: stable, headerless, tab-separated; tabs and newlines inside values become spaces.
    for (const row of rows) io.out(`${columns.map((c) => opts.show(oneLine(cell(row, c)))).join('\t')}\n`);
    return;
  }
  if (!rows.length) {
    io.note('No results');
    return;
  }
  // Loaded only here: piped output, JSON and records never pay for the table library.
  const [paint, { default: Table }, { cellWidth: width }] = await Promise.all([io.colors(), import('cli-table3'), import('./text-table.js')]);
  const all = rows.map((row) => columns.map((c) => opts.show(oneLine(cell(row, c, true)))));
  // An optional column no row fills gives its room to the others.
  const kept = columns.map((c, i) => !c.optional || all.some((r) => r[i] !== ''));
  const cells = all.map((r) => r.filter((_, i) => kept[i]));
  columns = columns.filter((_, i) => kept[i]);
  const heads = columns.map((c) => c.header);
  const natural = columns.map((_, i) => Math.max(opts.headers ? width(heads[i]!) : 1, ...cells.map((r) => width(r[i]!))));
  const ids = columns.map((c, i) => Boolean(c.whole) || isIdColumn(c.header, cells.map((r) => r[i]!)));
  // Our width policy (ids whole, free text shrinks first) chooses the widths; cli-table3 lays out
  // the cells in them, measuring in terminal cells (CJK and emoji take two).
  const widths = opts.wide ? natural : fitWidths(natural, ids, heads.map(width), io.columns - GAP.length * (columns.length - 1));
  // The widths are fixed, so tables of TABLE_CHUNK rows each line up as one: cli-table3's layout
  // grows with the square of its rows (20,000 rows: 249 s in one table, 19 s in chunks), and the
  // first rows show at once.
  for (let at = 0; at < cells.length; at += TABLE_CHUNK) {
    const table = new Table({
      ...(opts.headers && at === 0 ? { head: heads.map((h, i) => paint.bold(truncate(h, widths[i]!, width))) } : {}),
      colWidths: widths,
      wordWrap: false,
      chars: NO_BORDERS,
      style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0, compact: true },
    });
    for (const r of cells.slice(at, at + TABLE_CHUNK)) table.push(r.map((v, i) => colourStatus(truncate(v, widths[i]!, width), paint)));
    io.out(`${table.toString().split('\n').map((line) => line.trimEnd()).join('\n')}\n`);
  }
}

const TABLE_CHUNK = 200;

/** cli-table3 without its box: columns apart by GAP, as `kubectl get` and `gh` lay out lists. */
const NO_BORDERS = {
  top: '',
  'top-mid': '',
  'top-left': '',
  'top-right': '',
  bottom: '',
  'bottom-mid': '',
  'bottom-left': '',
  'bottom-right': '',
  left: '',
  'left-mid': '',
  mid: '',
  'mid-mid': '',
  right: '',
  'right-mid': '',
  middle: '  ',
};

const GAP = '  ';
// Service ids (24 hex, UUIDs) and run ids (20250101-120000-a1b2c3).
const ID_VALUE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$|^[0-9a-f]{24}$|^\d{8}-\d{6}-[0-9a-f]{6}$/i;

/** An id column is never cut: its header says ID, or every value looks like an id. */
function isIdColumn(header: string, values: string[]): boolean {
  if (/(^|[\s_])ID$/i.test(header)) return true;
  return values.some((v) => v !== '') && values.every((v) => v === '' || ID_VALUE.test(v));
}

/**
 * Widths that fit `available` characters: ids keep their natural width, the other columns
 * shrink, widest first (each to no less than its header, at most 8, at least 4), until the line fits.
 */
export function fitWidths(natural: number[], ids: boolean[], headers: number[], available: number): number[] {
  const sum = (ws: number[]) => ws.reduce((a, b) => a + b, 0);
  if (sum(natural) <= available) return natural;
  const floor = natural.map((n, i) => (ids[i] ? n : Math.min(n, Math.max(4, Math.min(8, headers[i]!)))));
  const at = (cap: number) => natural.map((n, i) => (ids[i] ? n : Math.min(n, Math.max(floor[i]!, cap))));
  // The largest cap at which the shrunk columns fit (binary search; at(0) is the floor).
  let lo = 0;
  let hi = Math.max(...natural);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (sum(at(mid)) <= available) lo = mid;
    else hi = mid - 1;
  }
  return at(lo);
}

/**
 * One resource: its kind's important fields first, then every other field; nested values as an
 * indented YAML block under their name, so a body is readable. Piped: `field<TAB>value` lines.
 */
async function printRecord(value: unknown, columns: Column[] | undefined, io: IO, only: boolean, show: Show): Promise<void> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (typeof value === 'string') io.out(`${value}\n`);
    else io.outJson(`${JSON.stringify(value, null, 2)}\n`);
    return;
  }
  // A computed column named like a field (RESULTS for `results`) stands for it: each name once.
  const shown = new Set((columns ?? []).map((c) => (typeof c.value === 'string' ? c.value : c.header.toLowerCase().replace(/ ([a-z0-9])/g, (_, x: string) => x.toUpperCase()))));
  const keys = Object.keys(value).filter((k) => !k.startsWith('_') && !shown.has(k));
  const rank = (k: string) => (FIRST_FIELDS.includes(k) ? FIRST_FIELDS.indexOf(k) : FIRST_FIELDS.length);
  const rest: Column[] = only ? [] : keys.sort((a, b) => rank(a) - rank(b)).map((k) => ({ header: headerFor(k), value: k }));
  const fields = [...(columns ?? []), ...rest];
  if (!io.isTTY) {
    // Piped: field names (what -o json and --query call them), one per line.
    for (const c of fields) io.out(`${typeof c.value === 'string' ? oneLine(c.value) : c.header.toLowerCase()}\t${show(oneLine(cell(value, c)))}\n`);
    return;
  }
  const paint = await io.colors();
  const { stringify } = await import('yaml');
  const filled = fields.filter((c) => !c.optional || cell(value, c) !== '');
  const pad = Math.max(...filled.map((c) => c.header.length));
  for (const c of filled) {
    const v = typeof c.value === 'function' ? c.value(value) : path(value, c.value);
    if (v && typeof v === 'object' && Object.keys(v).length) {
      const block = visible(stringify(v).trimEnd()).split('\n').map((l: string) => `  ${l}`).join('\n');
      io.out(`${paint.bold(c.header)}\n${block}\n`);
    } else {
      io.out(`${paint.bold(c.header.padEnd(pad))}  ${colourStatus(show(oneLine(cell(value, c, true))), paint)}\n`);
    }
  }
}

/** Fields that lead when a kind names no columns of its own (sort is stable: the rest keep their order). */
const FIRST_FIELDS = ['id', 'name', 'label', 'status', 'publishingStatus', 'state', 'version'];

/** `lastModifiedDate` -> `LAST MODIFIED DATE`, like the kinds' own column headers. */
function headerFor(key: string): string {
  // Keys come from the service: a header never carries a control character either.
  return oneLine(key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toUpperCase());
}

function inferColumns(rows: unknown[], max: number): Column[] {
  const first = rows.find((r) => r && typeof r === 'object') as Record<string, unknown> | undefined;
  if (!first) return [{ header: 'VALUE', value: (r: unknown) => r }];
  return Object.keys(first)
    .filter((k) => !k.startsWith('_') && (first[k] === null || typeof first[k] !== 'object'))
    .slice(0, max)
    .map((k) => ({ header: headerFor(k), value: k }));
}

/** A cell on one line, with no control character left (tables, piped rows, records). */
const oneLine = (s: string) => visible(s.replace(/[\t\n\r]+/g, ' '));
/**
 * Text cut to `max` terminal cells, between graphemes (a family emoji or an accented letter is
 * never split), with … at the end when cut.
 */
function truncate(s: string, max: number, width: (s: string) => number): string {
  if (width(s) <= max) return s;
  let out = '';
  let used = 0;
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)) {
    const w = width(segment);
    if (used + w > Math.max(1, max - 1)) break;
    out += segment;
    used += w;
  }
  // A joiner ends its grapheme: kept between letters, it would be escaped before the ellipsis
  // by the output chokepoint after the layout, and widen the cell.
  return `${out.replace(/[\u200c\u200d]+$/, '')}…`;
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

export type { Paint } from '../cli/io.js';
