// The text people read after a declarative run (hub clone, schema/type apply): one line per step
// with its differences indented below, counts, notes and failures. JSON output carries the same
// data as the summary object.

import { cellWidth, padCells } from '../../output/text-table.js';

/** An item (or step) a run could not do, and why. */
export interface Failure {
  id: string;
  reason: string;
  /** The file the failed unit came from (an import's item file, an apply's definition), when it came from one. */
  file?: string;
}

export interface ReportRow {
  action: string;
  resource: string;
  label?: string;
  changes?: string[];
}

/** Plan rows, then the field differences of each indented beneath it. */
export function stepLines(rows: readonly ReportRow[]): string[] {
  // A row per step, so a fold: spread into Math.max, 130,000 rows overflow the stack.
  const actionWidth = rows.reduce((w, r) => Math.max(w, cellWidth(r.action)), 6);
  const resourceWidth = rows.reduce((w, r) => Math.max(w, cellWidth(r.resource)), 8);
  const lines: string[] = [];
  for (const r of rows) {
    lines.push(`${padCells(r.action, actionWidth)}  ${padCells(r.resource, resourceWidth)}  ${r.label ?? ''}`.trimEnd());
    for (const change of r.changes ?? []) lines.push(`${' '.repeat(actionWidth + 4)}${change}`);
  }
  return lines;
}

/** `2 create, 1 update, 3 unchanged` from counts by action. */
export function countLine(counts: Record<string, number>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([action, n]) => `${n} ${action}`);
  return parts.length ? parts.join(', ') : 'nothing';
}

export function countActions(rows: readonly { action: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const r of rows) counts[r.action] = (counts[r.action] ?? 0) + 1;
  return counts;
}

export function failureLines(failures: readonly Failure[]): string[] {
  if (!failures.length) return [];
  return ['', 'FAILED', ...failures.map((f) => `  ${f.id}: ${f.reason}`)];
}

/**
 * Rows as tab-separated lines without a header, like every piped table: a cell never holds a
 * tab, a line break or another control character (each becomes a space).
 */
export function tsv(rows: readonly (readonly unknown[])[]): string {
  // Only what would break the row (tabs, line breaks) becomes a space; every other control
  // character is escaped visibly by the output chokepoint (src/cli/io.ts), as in any table.
  const cell = (v: unknown) => String(v ?? '').replace(/[\t\n\r\u2028\u2029]/g, ' ');
  let out = '';
  for (const r of rows) out += `${r.map(cell).join('\t')}\n`;
  return out;
}

export function noteLines(notes: readonly string[]): string[] {
  return notes.length ? ['', 'NOTES', ...notes.map((n) => `  - ${n}`)] : [];
}
