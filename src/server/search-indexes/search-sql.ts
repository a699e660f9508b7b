import type { Db } from '../core/db.js';
import { stmt } from '../core/statements.js';

// SQL built from fragments: values become `?` parameters in the order they appear, so a
// statement assembled from many parts can never bind a parameter to the wrong placeholder.

export class Sql {
  constructor(
    readonly text: string,
    readonly params: readonly unknown[],
  ) {}
}

/** sql`a = ${value} AND ${otherFragment}`: values become parameters, fragments are inlined. */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  let text = strings[0]!;
  const params: unknown[] = [];
  values.forEach((value, i) => {
    if (value instanceof Sql) {
      text += value.text;
      params.push(...value.params);
    } else {
      text += '?';
      params.push(value);
    }
    text += strings[i + 1]!;
  });
  return new Sql(text, params);
}

/** Trusted SQL text (never user input). */
export const raw = (text: string): Sql => new Sql(text, []);

export function joinSql(parts: readonly Sql[], separator: string): Sql {
  return new Sql(
    parts.map((p) => p.text).join(separator),
    parts.flatMap((p) => p.params),
  );
}

// Statements are made once per query shape (stmt): the shapes are the code's, values are parameters.
// queryOne reads the first column itself: a shared statement's pluck() would reach queryRows.

export function queryOne<T>(db: Db, query: Sql): T {
  const row = stmt(db, query.text).pluck(false).get(...query.params) as Record<string, unknown> | undefined;
  return (row === undefined ? undefined : Object.values(row)[0]) as T;
}

export function queryRows<T>(db: Db, query: Sql): T[] {
  return stmt(db, query.text).pluck(false).all(...query.params) as T[];
}
