import Handlebars from 'handlebars';
import type { Db } from '../core/db.js';
import { deliveredContent, itemResponse, snapshotPins } from '../delivery/index.js';
import { items } from '../items/index.js';

// Custom payloads and handler URLs are Handlebars templates, as on the hosted service (its docs:
// "Customizable webhooks", "The withDeliveryContentItem helper"). The Handlebars library itself
// renders them, in an environment of its own with the service's helpers and nothing that reaches
// files or the console (`log` removed, no partials, no decorators, no prototype access). Every
// template is bounded: its size and number of tags when it is saved (Handlebars' parser and
// compiler take about half a millisecond per tag), and when it renders the block iterations,
// the characters written, the delivered items read and the time taken.

export const TEMPLATE_LIMITS = {
  /** Characters of a template (the webhook body schema's own cap). */
  chars: 100_000,
  /** `{{` tags of a template: what the parser and compiler cost grows with. */
  tags: 2_000,
  /** Blocks open inside one another. */
  depth: 64,
  /** Block bodies rendered (each iteration of #each, every #if/#with/helper block) per render. */
  steps: 100_000,
  /** Characters written by blocks and helpers per render (nested output counts at each level). */
  chars_written: 8 * 1024 * 1024,
  /** Characters of the rendered template. */
  output: 1024 * 1024,
  /** withDeliveryContentItem calls per render. */
  deliveredItems: 20,
  /** Wall-clock time of one render. */
  ms: 1_000,
} as const;

/** A template the service would refuse: the message names the line. */
export class TemplateCompileError extends Error {}
/** A render cut off by a bound, or failed (a missing helper): the delivery is recorded failed with it. */
export class TemplateRenderError extends Error {}

/** What a template reads besides the event: the webhook's hub, as delivery serves it. */
export interface TemplateHost {
  db: Db;
  hubId: string;
  nowMs: number;
}

/** Why `source` cannot be a template (naming the line), or null when it compiles. */
export function templateProblem(source: string): string | null {
  try {
    compiled(source);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Renders a template against the event document ({id, name, hubId, createdDate, payload}). */
export function renderTemplate(source: string, event: unknown, host: TemplateHost): string {
  const template = compiled(source);
  const previous = current;
  current = new Budget(host);
  let out: string;
  try {
    out = template(event, { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false });
  } catch (err) {
    if (err instanceof TemplateRenderError) throw err;
    if (err instanceof RangeError) throw new TemplateRenderError('the template nests too deeply to render');
    throw new TemplateRenderError(`the template failed: ${clip((err as Error).message)}`);
  } finally {
    current = previous;
  }
  if (out.length > TEMPLATE_LIMITS.output) throw new TemplateRenderError(`the template wrote more than ${TEMPLATE_LIMITS.output} characters`);
  return out;
}

const clip = (s: string) => (s.length > 300 ? `${s.slice(0, 300)}…` : s).replace(/\s*\n\s*/g, ' ');

/** Counts what one render does; throws TemplateRenderError past a bound. */
class Budget {
  steps = 0;
  written = 0;
  delivered = 0;
  private readonly deadline = Date.now() + TEMPLATE_LIMITS.ms;
  constructor(readonly host: TemplateHost) {}

  step(): void {
    if (++this.steps > TEMPLATE_LIMITS.steps) throw new TemplateRenderError(`the template rendered more than ${TEMPLATE_LIMITS.steps} blocks: cut off`);
    if ((this.steps & 255) === 0 && Date.now() > this.deadline) throw new TemplateRenderError(`the template took more than ${TEMPLATE_LIMITS.ms} ms to render: cut off`);
  }

  wrote(text: unknown): void {
    if (typeof text !== 'string') return;
    this.written += text.length;
    if (this.written > TEMPLATE_LIMITS.chars_written) throw new TemplateRenderError(`the template wrote more than ${TEMPLATE_LIMITS.chars_written} characters: cut off`);
  }
}

type Options = Handlebars.HelperOptions;

/** The render under way: rendering is synchronous, so one at a time (helpers reach it here, as Handlebars' own `unless` passes `if` no data). */
let current: Budget | null = null;

function budgetOf(_options?: Options): Budget {
  if (!current) throw new TemplateRenderError('template rendered without its bounds');
  return current;
}

/** A block helper's fn/inverse, counted: each body rendered is a step, and what it writes counts. */
function counted(options: Options): Options {
  const budget = budgetOf(options);
  const wrap = (f: Handlebars.TemplateDelegate | undefined) =>
    f &&
    ((ctx: unknown, o?: unknown) => {
      budget.step();
      const out = f(ctx, o as never);
      budget.wrote(out);
      return out;
    });
  return { ...options, fn: wrap(options.fn)!, inverse: wrap(options.inverse)! } as Options;
}

/** Helper outputs count against the bound on characters written. */
function output<T>(options: Options, value: T): T {
  budgetOf(options).wrote(value);
  return value;
}

const env = Handlebars.create();
env.unregisterHelper('log');
const builtins = { ...env.helpers } as Record<string, Handlebars.HelperDelegate>;
for (const name of ['each', 'if', 'unless', 'with']) {
  const original = builtins[name]!;
  env.registerHelper(name, function (this: unknown, ...args: unknown[]) {
    const options = args.pop() as Options;
    return original.call(this, ...args, counted(options));
  });
}
// {{#path}}…{{/path}} on a value (not a helper) iterates or tests it: the same bound.
{
  const original = builtins.blockHelperMissing!;
  env.registerHelper('blockHelperMissing', function (this: unknown, context: unknown, options: Options) {
    return original.call(this, context, counted(options));
  });
}

/** `{{default value fallback}}`: the value, or the fallback when it is null or undefined. */
env.registerHelper('default', function (value: unknown, fallback: unknown, options: Options) {
  return output(options, value === undefined || value === null ? fallback : value);
});

/** `{{{JSONstringify value}}}`: the value as JSON (nothing for undefined, as JSON.stringify says). */
env.registerHelper('JSONstringify', function (value: unknown, options: Options) {
  const budget = budgetOf(options);
  const json = JSON.stringify(value) as string | undefined;
  budget.wrote(json);
  return json === undefined ? '' : new Handlebars.SafeString(json);
});

/** `{{moment date format="X"}}`: a date formatted (UTC), moment's default format without one. */
env.registerHelper('moment', function (this: unknown, ...args: unknown[]) {
  const options = args.pop() as Options;
  const budget = budgetOf(options);
  const given = args.length ? args[0] : undefined;
  const format = typeof options.hash?.format === 'string' ? options.hash.format : undefined;
  return output(options, formatMoment(given === undefined ? budget.host.nowMs : given, format));
});

/**
 * `{{#withDeliveryContentItem contentItemId=… account=… stagingEnvironment=… snapshotId=…}}`:
 * the block's context is the item as delivery answers it (depth all, inlined): published
 * content, or the latest with `stagingEnvironment`, or the snapshot's versions with `snapshotId`.
 * Only the webhook's own hub is read, whatever `account` names. No such item: the inverse block
 * (`{{else}}`), empty without one.
 */
env.registerHelper('withDeliveryContentItem', function (this: unknown, options: Options) {
  const o = counted(options);
  const budget = budgetOf(options);
  if (++budget.delivered > TEMPLATE_LIMITS.deliveredItems) throw new TemplateRenderError(`withDeliveryContentItem read more than ${TEMPLATE_LIMITS.deliveredItems} items: cut off`);
  const hash = (options.hash ?? {}) as Record<string, unknown>;
  const content = deliveredItem(budget.host, hash);
  if (!content) return o.inverse ? o.inverse(this) : '';
  budget.wrote(JSON.stringify(content));
  return o.fn(content);
});

function deliveredItem(host: TemplateHost, hash: Record<string, unknown>): Record<string, unknown> | null {
  const id = hash.contentItemId;
  if (typeof id !== 'string' || !id) return null;
  const item = items(host.db).get(id);
  if (!item || item.hubId !== host.hubId) return null;
  const snapshotId = typeof hash.snapshotId === 'string' && hash.snapshotId ? hash.snapshotId : undefined;
  const staging = typeof hash.stagingEnvironment === 'string' && hash.stagingEnvironment !== '';
  let staged;
  try {
    if (snapshotId !== undefined) {
      const pins = snapshotPins(host.db, snapshotId, host.hubId);
      if (!pins) return null;
      staged = deliveredContent(host.db, item, host.nowMs, 'latest', true, pins);
    } else {
      staged = deliveredContent(host.db, item, host.nowMs, staging ? 'latest' : 'published', true);
    }
    return staged ? itemResponse(staged, { depth: 'all', format: 'inlined' }).content : null;
  } catch (err) {
    // Delivery's own bounds (graph size) refuse the item as delivery would: the render fails with why.
    throw new TemplateRenderError(`withDeliveryContentItem ${id}: ${clip((err as Error).message)}`);
  }
}

// Compiled templates, by source: a webhook's template is compiled once, not per delivery.
const cache = new Map<string, Handlebars.TemplateDelegate>();
const CACHE_SIZE = 200;

function compiled(source: string): Handlebars.TemplateDelegate {
  const hit = cache.get(source);
  if (hit) {
    cache.delete(source);
    cache.set(source, hit);
    return hit;
  }
  prescan(source);
  let template: Handlebars.TemplateDelegate;
  try {
    const ast = Handlebars.parse(source);
    refuseUnavailable(ast);
    // Block mismatches are found by the parser; compile() itself is lazy (it runs on first render).
    template = env.compile(ast, { strict: false, noEscape: false, knownHelpersOnly: false });
  } catch (err) {
    if (err instanceof TemplateCompileError) throw err;
    if (err instanceof RangeError) throw new TemplateCompileError('the template nests too deeply');
    throw new TemplateCompileError(compileMessage(err as Error & { lineNumber?: number }));
  }
  cache.set(source, template);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return template;
}

/** Bounds the parser's work before it starts: characters, tags, nesting (linear, no regex backtracking). */
function prescan(source: string): void {
  if (source.length > TEMPLATE_LIMITS.chars) throw new TemplateCompileError(`the template is longer than ${TEMPLATE_LIMITS.chars} characters`);
  let tags = 0;
  let depth = 0;
  let line = 1;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 10) line++;
    if (c !== 123 || source.charCodeAt(i + 1) !== 123) continue;
    if (++tags > TEMPLATE_LIMITS.tags) throw new TemplateCompileError(`the template has more than ${TEMPLATE_LIMITS.tags} {{…}} tags (line ${line})`);
    let j = i + 2;
    while (source[j] === '{' || source[j] === '~' || source[j] === ' ') j++;
    const kind = source[j];
    if (kind === '#' || (kind === '^' && /[\w.@/[(]/.test(source[j + 1] ?? ''))) {
      if (++depth > TEMPLATE_LIMITS.depth) throw new TemplateCompileError(`the template nests blocks more than ${TEMPLATE_LIMITS.depth} deep (line ${line})`);
    } else if (kind === '/') depth = Math.max(0, depth - 1);
    i = j - 1;
  }
}

/** Partials and decorators read what the service has not registered: refused when saved. */
function refuseUnavailable(node: unknown): void {
  const stack: unknown[] = [node];
  while (stack.length) {
    const n = stack.pop() as Record<string, unknown> | null;
    if (!n || typeof n !== 'object') continue;
    const type = n.type as string | undefined;
    if (type === 'PartialStatement' || type === 'PartialBlockStatement' || type === 'Decorator' || type === 'DecoratorBlock') {
      const loc = n.loc as { start?: { line?: number } } | undefined;
      throw new TemplateCompileError(`${type.startsWith('Partial') ? 'partials' : 'decorators'} are not available in webhook templates (line ${loc?.start?.line ?? '?'})`);
    }
    for (const v of Object.values(n)) if (v && typeof v === 'object') stack.push(v);
  }
}

/** Handlebars' own message, with the line first: "Parse error on line 3: …" or "… - 3:5". */
function compileMessage(err: Error & { lineNumber?: number }): string {
  const msg = err.message ?? String(err);
  const parse = /^Parse error on line (\d+):\n[\s\S]*?\n-*\^\n([\s\S]*)$/.exec(msg);
  if (parse) return `line ${parse[1]}: ${clip(parse[2]!)}`;
  const at = / - (\d+):(\d+)$/.exec(msg);
  if (at) return `line ${at[1]}: ${clip(msg.slice(0, at.index))}`;
  return err.lineNumber ? `line ${err.lineNumber}: ${clip(msg)}` : clip(msg);
}

// moment's formats, in UTC (the service's clock), without moment.js: the tokens the vendor's
// templates use (X: unix seconds, x: milliseconds) and the usual date and time tokens.
const TOKENS = /\[([^\]]*)\]|YYYY|YY|MM|M|DD|D|HH|H|hh|h|mm|m|ss|s|SSS|A|a|ZZ|Z|X|x/g;

export function formatMoment(value: unknown, format: string | undefined): string {
  const ms = typeof value === 'number' ? value : value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) return 'Invalid date';
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return 'Invalid date';
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const h = d.getUTCHours();
  return (format ?? 'YYYY-MM-DDTHH:mm:ssZ').replace(TOKENS, (token, literal?: string) => {
    if (literal !== undefined) return literal;
    switch (token) {
      case 'YYYY': return pad(d.getUTCFullYear(), 4);
      case 'YY': return pad(d.getUTCFullYear() % 100);
      case 'MM': return pad(d.getUTCMonth() + 1);
      case 'M': return String(d.getUTCMonth() + 1);
      case 'DD': return pad(d.getUTCDate());
      case 'D': return String(d.getUTCDate());
      case 'HH': return pad(h);
      case 'H': return String(h);
      case 'hh': return pad(h % 12 || 12);
      case 'h': return String(h % 12 || 12);
      case 'mm': return pad(d.getUTCMinutes());
      case 'm': return String(d.getUTCMinutes());
      case 'ss': return pad(d.getUTCSeconds());
      case 's': return String(d.getUTCSeconds());
      case 'SSS': return pad(d.getUTCMilliseconds(), 3);
      case 'A': return h < 12 ? 'AM' : 'PM';
      case 'a': return h < 12 ? 'am' : 'pm';
      case 'Z': return '+00:00';
      case 'ZZ': return '+0000';
      case 'X': return String(Math.floor(ms / 1000));
      case 'x': return String(ms);
      default: return token;
    }
  });
}
