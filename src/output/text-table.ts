import stringWidth from 'string-width';

// The one measure of text on a terminal, for every table: the lists render.ts draws and the plain
// tables of run summaries and plans (import, copy, clone, apply). CJK characters and most emoji
// take two cells, a family emoji one grapheme of several code points (string-width, as
// cli-table3 measures).

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** A text's width in terminal cells; printable ASCII (most cells) is measured without string-width's regexes. */
export function cellWidth(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : stringWidth(text);
}

/** The text padded with spaces to `width` terminal cells. */
export function padCells(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - cellWidth(text)));
}

/**
 * Rows of a plain table (the first may be its header) as aligned lines: columns two spaces apart,
 * each as wide as its widest cell, at most `cap` (a longer cell runs over rather than being cut);
 * the last column is not padded. A fold, never a spread: plans hold a row per item.
 */
export function alignedLines(rows: readonly (readonly string[])[], cap = Number.POSITIVE_INFINITY): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, Math.min(cap, cellWidth(cell)))));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : padCells(cell, widths[i]!))).join('  ').trimEnd());
}
