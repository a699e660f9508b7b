// What a command returns; src/output/render.ts prints it. Commands never print data themselves.
import type { CliError } from '../core/errors.js';

export interface Column {
  header: string;
  /** Dotted path into the resource (`settings.label`) or a function of it. */
  value: string | ((row: any) => unknown);
  /**
   * How a number in it reads on a terminal (render.ts `figure`): a count with thousands
   * separators, a rate (a fraction) as a percentage to one decimal, an average to one decimal.
   * Piped rows, JSON and YAML keep the number as it is.
   */
  number?: 'count' | 'rate' | 'average';
  /** On a terminal, left out when no row has a value (room for the others); piped rows always keep it. */
  optional?: boolean;
  /** Never cut on a terminal, like an id (a short state, a name scripts copy). */
  whole?: boolean;
}

/**
 * What the resources' schemas say of a dotted --columns path: possible: false (with paths near
 * it) when none could have it; null when they cannot say (any path is then a column).
 */
export type PathOracle = (dotted: string) => Promise<{ possible: false; near: string[] } | null>;

export type Output = (
  /** raw: printed as the service sent it (with _links), as JSON even in table mode (cms api). */
  | { kind: 'item'; data: unknown; columns?: Column[]; raw?: boolean; paths?: PathOracle }
  | { kind: 'list'; items: AsyncIterable<unknown> | Iterable<unknown>; columns: Column[]; limit?: number; paths?: PathOracle }
  /** Text printed as it is (completion scripts, help); html: an HTML document (rendered items). */
  | { kind: 'text'; text: string; html?: boolean }
  /** A confirmation for people (stderr on a terminal, nothing when piped); data optional. */
  | { kind: 'done'; message: string; data?: unknown }
) & {
  /** Reported (and its exit code used) after the data is printed: a bulk run where some entries failed. */
  failure?: CliError;
};

export const item = (data: unknown, columns?: Column[]): Output => ({ kind: 'item', data, columns });
export const list = (items: AsyncIterable<unknown> | Iterable<unknown>, columns: Column[], limit?: number): Output => ({ kind: 'list', items, columns, limit });
export const text = (t: string): Output => ({ kind: 'text', text: t });
export const html = (t: string): Output => ({ kind: 'text', text: t, html: true });
export const done = (message: string, data?: unknown): Output => ({ kind: 'done', message, data });
/** Prints `out`, then fails with `failure` (its message on stderr, its exit code). */
export const failing = (out: Output, failure: CliError): Output => ({ ...out, failure });

/** Column shorthand: col('id'), col('Label', 'settings.label'), col('ctr', 'clickThroughRate', 'rate'). */
export function col(header: string, value?: Column['value'], number?: Column['number']): Column {
  return { header: header.toUpperCase(), value: value ?? header, ...(number ? { number } : {}) };
}
