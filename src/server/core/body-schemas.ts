import type { BodySchema } from './validate.js';

type SchemaFamily = Record<string, BodySchema>;
type Parse = typeof import('./validate.js').parse;

// Body schemas (and zod with them) load only when a request with a body needs them.
export const schemaFamilies: Record<string, () => Promise<SchemaFamily>> = {
  auth: () => import('./auth/schemas.js'),
  sandbox: () => import('../sandbox/schemas.js'),
  hubs: () => import('../hubs/schemas.js'),
  repositories: () => import('../repositories/schemas.js'),
  schemas: () => import('../schemas/schemas.js'),
  contentTypes: () => import('../content-types/schemas.js'),
  folders: () => import('../folders/schemas.js'),
  items: () => import('../items/schemas.js'),
  search: () => import('../search-indexes/schemas-search.js'),
  workflowStates: () => import('../workflow-states/schemas.js'),
  events: () => import('../events/schemas.js'),
  editions: () => import('../editions/schemas.js'),
  snapshots: () => import('../snapshots/schemas.js'),
  webhooks: () => import('../webhooks/schemas.js'),
  bulkJobs: () => import('../bulk-jobs/schemas.js'),
  extensions: () => import('../extensions/schemas.js'),
  searchIndexes: () => import('../search-indexes/schemas.js'),
  integrations: () => import('../integrations/schemas.js'),
};

const loaded = new Map<string, SchemaFamily>();
let parse: Parse | null = null;

/** Validates a request body against the named schema (`<family>.<schema>`); throws a 400 with every problem. */
export async function validateBody(name: string, value: unknown): Promise<unknown> {
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
