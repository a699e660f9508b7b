import { createRequire } from 'node:module';

// Terminal cells, measured as the CLI's tables measure them (string-width, as cli-table3 does).

export const stringWidth = createRequire(import.meta.url)('string-width') as (s: string) => number;

/** The terminal cell at which `word` starts on each line that holds it. */
export const cellOf = (lines: string[], word: string) => lines.filter((l) => l.includes(word)).map((l) => stringWidth(l.slice(0, l.indexOf(word))));
