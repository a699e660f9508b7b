import { contentChanged, hubSchemas, parseDocument, referencesFirst, syncSchema, type HubSchema, type WantedSchema } from '../content-model.js';
import { matchTarget } from '../runs/reconcile.js';
import type { CloneContext } from './context.js';

// Step `schemas`: every content type schema (archived ones too), by schema id, referenced schemas
// first. A changed schema becomes a new version on the target.

export async function cloneSchemas(c: CloneContext): Promise<void> {
  const source = await hubSchemas(c.source.client, c.source.hubId);
  const target = await c.targetList<HubSchema>(`/hubs/${c.target.hubId}/content-type-schemas`, 'content-type-schemas', { status: 'ACTIVE,ARCHIVED' });
  c.progress(source.length, 'schemas');
  for (const schema of referencesFirst(source.map((s) => ({ ...s, text: s.body })))) {
    const want: WantedSchema = { schemaId: schema.schemaId, document: parseDocument(schema.body), validationLevel: schema.validationLevel, status: schema.status };
    const existing = matchTarget(c.ids, 'schema', schema.id, target, (t) => t.schemaId === schema.schemaId);
    const id = await syncSchema(c.sync, c.target.client, c.target.hubId, want, existing, { key: `schema:${schema.id}`, sourceId: schema.id, label: schema.schemaId });
    if (id && existing && contentChanged(existing, want)) c.changedSchemas.add(schema.schemaId);
  }
}
