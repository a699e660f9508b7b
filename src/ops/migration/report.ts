import type { IO } from '../../cli/io.js';
import { formatChange, type FieldChange } from '../runs/diff.js';

// What a migration run says about each item, as it goes (never the whole run held for a
// terminal or a pipe): on a terminal a field-level diff per changed item, piped one row per
// changed field (tab-separated: action, id, path, change), with -o json the items are kept for
// the one JSON document at the end.

export type ItemAction = 'change' | 'unchanged' | 'skip' | 'fail' | 'invalid';

export interface ItemReport {
  id: string;
  label: string;
  action: ItemAction;
  changes?: FieldChange[];
  /** Schema problems of the migrated body (action invalid, or change with --ignore-schema-validation). */
  problems?: string[];
  reason?: string;
}

export interface Counts {
  read: number;
  changed: number;
  unchanged: number;
  skipped: number;
  failed: number;
  invalid: number;
  derived: number;
  archived: number;
  published: number;
}

export const emptyCounts = (): Counts => ({ read: 0, changed: 0, unchanged: 0, skipped: 0, failed: 0, invalid: 0, derived: 0, archived: 0, published: 0 });

/** Items -o json holds at most (the rest counted): memory stays flat; piped rows stream every item. */
export const JSON_ITEMS = 1000;

export class Reporter {
  /** Kept for -o json only, the first JSON_ITEMS. */
  readonly items: ItemReport[] = [];
  /** Items -o json left out past JSON_ITEMS. */
  omitted = 0;
  readonly counts = emptyCounts();

  constructor(
    private readonly io: IO,
    private readonly mode: 'terminal' | 'rows' | 'json',
    private readonly dryRun: boolean,
  ) {}

  item(r: ItemReport): void {
    this.counts.read++;
    if (r.action === 'change') this.counts.changed++;
    else if (r.action === 'unchanged') this.counts.unchanged++;
    else if (r.action === 'skip') this.counts.skipped++;
    else if (r.action === 'invalid') this.counts.invalid++;
    else this.counts.failed++;
    if (r.action === 'unchanged' || r.action === 'skip') return;
    if (this.mode === 'json') {
      if (this.items.length < JSON_ITEMS) this.items.push(r);
      else this.omitted++;
      return;
    }
    if (this.mode === 'rows') {
      const state = r.action === 'change' ? (this.dryRun ? 'would-change' : 'changed') : r.action === 'invalid' ? 'schema-invalid' : 'failed';
      for (const c of r.action === 'fail' ? [] : (r.changes ?? [])) this.io.out(`${state}\t${r.id}\t${c.path}\t${c.op}\t${json(c.from)}\t${json(c.to)}\n`);
      for (const p of r.action === 'change' ? [] : (r.problems ?? [r.reason ?? ''])) this.io.out(`${state}\t${r.id}\t\terror\t${p}\t\n`);
      return;
    }
    const head = r.action === 'change' ? `~ ${r.label} (${r.id})` : r.action === 'invalid' ? `! ${r.label} (${r.id}): the body does not match its schema` : `x ${r.label} (${r.id}): ${r.reason ?? ''}`;
    const lines = [head, ...(r.changes ?? []).map((c) => `    ${formatChange(c)}`), ...(r.problems ?? []).map((p) => `    schema: ${p}`)];
    this.io.out(`${lines.join('\n')}\n`);
  }

  /** Extra counts (derived items made, archived, published). */
  add(name: 'derived' | 'archived' | 'published', n = 1): void {
    this.counts[name] += n;
  }
}

/** A value in a row: JSON on one line, cut at 200 characters (the diff on a terminal and -o json are whole). */
function json(v: unknown): string {
  if (v === undefined) return '';
  const t = JSON.stringify(v);
  return t.length > 200 ? `${t.slice(0, 199)}…` : t;
}

/** The closing lines of a run on a terminal or a pipe. */
export function summaryText(head: string, counts: Counts, extra: string[] = []): string {
  const parts = [`${counts.read} read`, `${counts.changed} ${head.startsWith('Dry run') ? 'would change' : 'changed'}`, `${counts.unchanged} unchanged`];
  if (counts.skipped) parts.push(`${counts.skipped} not selected (where)`);
  if (counts.invalid) parts.push(`${counts.invalid} refused by their schema`);
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (counts.derived) parts.push(`${counts.derived} linked item(s) ${head.startsWith('Dry run') ? 'to create' : 'created'}`);
  if (counts.archived) parts.push(`${counts.archived} archived`);
  if (counts.published) parts.push(`${counts.published} published`);
  return [head, `  ${parts.join(', ')}`, ...extra].join('\n') + '\n';
}
