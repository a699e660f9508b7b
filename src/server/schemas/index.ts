import type { BodySchema } from '../validate.js';

type SchemaFamily = Record<string, BodySchema>;

// Body schemas (and zod with them) load only when a request with a body needs them.
export const schemaFamilies: Record<string, () => Promise<SchemaFamily>> = {
  auth: () => import('./auth.js'),
  sandbox: () => import('./sandbox.js'),
  hubs: () => import('./hubs.js'),
  repositories: () => import('./repositories.js'),
};

const loaded = new Map<string, BodySchema>();

/** Validates a request body against the named schema (`<family>.<schema>`); throws a 400 with every problem. */
export async function validateBody(name: string, value: unknown): Promise<unknown> {
  let schema = loaded.get(name);
  if (!schema) {
    const [family, key] = name.split('.') as [string, string];
    schema = (await schemaFamilies[family]!())[key];
    if (!schema) throw new Error(`no body schema ${name}`);
    loaded.set(name, schema);
  }
  const { parse } = await import('../validate.js');
  return parse(schema.schema, value, schema.entity);
}
