import { unique, type Api } from './server.js';

// Content type schemas and types for tests: documents in the service dialect, and one-call setup.

export const DIALECT = 'http://bigcontent.io/cms/schema/v1/schema#';
export const CORE = 'http://bigcontent.io/cms/schema/v1/core';
export const CONTENT_REF = `${CORE}#/definitions/content`;
export const IMAGE_REF = `${CORE}#/definitions/image-link`;

/** A unique schema id URL. */
export const schemaUri = (name = 'type') => `https://schema.example.com/${unique(name)}.json`;

/** A valid content type schema document with a title property; `extra` is merged on top. */
export function schemaDoc(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    $schema: DIALECT,
    id,
    title: 'Test type',
    description: 'A type for tests',
    allOf: [{ $ref: CONTENT_REF }],
    type: 'object',
    properties: { title: { type: 'string', minLength: 1 } },
    ...extra,
  };
}

/** Creates a schema (body sent as a string, as clients do) and returns it; throws unless 201. */
export async function createSchema(api: Api, hubId: string, id = schemaUri(), doc: Record<string, unknown> = schemaDoc(id), validationLevel = 'CONTENT_TYPE'): Promise<any> {
  const res = await api.post(`/hubs/${hubId}/content-type-schemas`, { schemaId: id, body: JSON.stringify(doc), validationLevel });
  if (res.status !== 201) throw new Error(`schema create failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Creates a schema and registers it as a content type; returns the type. */
export async function createType(api: Api, hubId: string, label = 'Test type', id = schemaUri()): Promise<any> {
  await createSchema(api, hubId, id);
  const res = await api.post(`/hubs/${hubId}/content-types`, { contentTypeUri: id, settings: { label } });
  if (res.status !== 201) throw new Error(`type register failed: ${res.status} ${res.text}`);
  return res.body;
}
