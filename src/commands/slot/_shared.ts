import type { ApiClient } from '../../core/client.js';
import { col } from '../../output/result.js';

export const SLOT_COLUMNS = [col('id'), col('label'), col('version'), col('status'), col('schema', (i: { body?: { _meta?: { schema?: string } } }) => i.body?._meta?.schema)];

/** The schema URIs of the hub's slot types: schemas created with validation level SLOT. */
export async function slotSchemaUris(client: ApiClient, hubId: string): Promise<Set<string>> {
  const uris = new Set<string>();
  for await (const schema of client.paginate<{ schemaId: string; validationLevel: string }>(`/hubs/${hubId}/content-type-schemas`, 'content-type-schemas')) {
    if (schema.validationLevel === 'SLOT') uris.add(schema.schemaId);
  }
  return uris;
}
