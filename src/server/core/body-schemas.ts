import type { BodySchema } from './validate.js';

type SchemaFamily = Record<string, BodySchema>;
/** Body schema families by name, each loaded on first use (families.ts lists them). */
export type SchemaFamilies = Record<string, () => Promise<SchemaFamily>>;
type Parse = typeof import('./validate.js').parse;


const loaded = new Map<string, SchemaFamily>();
let parse: Parse | null = null;

/** Validates a request body against the named schema (`<family>.<schema>`); throws a 400 with every problem. */
export async function validateBody(schemaFamilies: SchemaFamilies, name: string, value: unknown): Promise<unknown> {
  const family = name.split('.')[0]!;
  if (!loaded.has(family)) loaded.set(family, await schemaFamilies[family]!());
  parse ??= (await import('./validate.js')).parse;
  return validateNow(name, value);
}

/**
 * Validates synchronously against a schema of a family the route's own body schema already
 * loaded (for parts of a body: one bulk entry, create versus copy).
 */
export function validateNow(name: string, value: unknown): unknown {
  const [family, key] = name.split('.') as [string, string];
  const schema = loaded.get(family)?.[key];
  if (!schema || !parse) throw new Error(`body schema ${name} is not loaded: declare a body schema of family '${family}' on the route`);
  return parse(schema.schema, value, schema.entity);
}
