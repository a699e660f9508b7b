import { type Api, createHub, createRepo, ok, unique } from './server.js';

// Content for item tests: a schema, its content type and the type's assignment to a repository,
// then items of that type. Every request goes through the service like a client's would.

export const SCHEMA_HOST = 'https://schemas.example.com';
const CORE = `http://bigcontent.io/cms/schema/v1/core#/definitions`;

/**
 * A content type schema with a required `title` (at most 100 characters), an integer `count`
 * and `links`, an array of content links (what makes item graphs).
 */
export function schemaDocument(uri: string): Record<string, unknown> {
  return {
    $schema: `http://bigcontent.io/cms/schema/v1/schema#`,
    id: uri,
    title: 'Test type',
    type: 'object',
    allOf: [{ $ref: `${CORE}/content` }],
    properties: {
      title: { type: 'string', maxLength: 100 },
      count: { type: 'integer' },
      links: { type: 'array', items: { allOf: [{ $ref: `${CORE}/content-link` }] } },
    },
    required: ['title'],
  };
}

/** Registers a schema and its content type in a hub; returns the type id and URI. */
export async function createContentType(api: Api, hubId: string, uri = `${SCHEMA_HOST}/${unique('type')}.json`): Promise<{ id: string; uri: string }> {
  const schema = await api.post(`/hubs/${hubId}/content-type-schemas`, { schemaId: uri, body: JSON.stringify(schemaDocument(uri)), validationLevel: 'CONTENT_TYPE' });
  if (schema.status !== 201) throw new Error(`schema create failed: ${schema.status} ${schema.text}`);
  const type = await api.post(`/hubs/${hubId}/content-types`, { contentTypeUri: uri, settings: { label: 'Test type' } });
  if (type.status !== 201) throw new Error(`content type register failed: ${type.status} ${type.text}`);
  return { id: type.body.id, uri };
}

export async function assignType(api: Api, repoId: string, typeId: string): Promise<void> {
  const res = await api.post(`/content-repositories/${repoId}/content-types`, { contentTypeId: typeId });
  if (res.status !== 200 && res.status !== 201) throw new Error(`assign failed: ${res.status} ${res.text}`);
}

/** A repository of the hub with the type assigned (and item locales when given). */
export async function createContentRepo(api: Api, hubId: string, typeId: string, itemLocales: string[] = []): Promise<any> {
  const repo = await createRepo(api, hubId);
  await assignType(api, repo.id, typeId);
  if (itemLocales.length) {
    const res = await api.post(`/content-repositories/${repo.id}/item-locales`, { itemLocales });
    if (res.status >= 300) throw new Error(`item locales failed: ${res.status} ${res.text}`);
  }
  return repo;
}

export interface ContentSetup {
  hubId: string;
  repoId: string;
  typeId: string;
  uri: string;
}

/** A new hub with one repository that has a new content type assigned. */
export async function contentSetup(api: Api): Promise<ContentSetup> {
  const hubId = (await createHub(api)).id;
  const type = await createContentType(api, hubId);
  const repo = await createContentRepo(api, hubId, type.id);
  return { hubId, repoId: repo.id, typeId: type.id, uri: type.uri };
}

/** A body of the test type: `_meta.schema` plus the given fields (a title by default). */
export function itemBody(uri: string, fields: Record<string, unknown> = {}, meta: Record<string, unknown> = {}): Record<string, unknown> {
  return { _meta: { schema: uri, ...meta }, title: 'Hello', ...fields };
}

/** POSTs an item and returns it (throws unless 201). */
export async function createItem(api: Api, repoId: string, uri: string, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post(`/content-repositories/${repoId}/content-items`, { label: unique('item'), body: itemBody(uri), ...fields });
  if (res.status !== 201) throw new Error(`item create failed: ${res.status} ${res.text}`);
  return res.body;
}

/** A content link to an item of the type, as bodies hold it. */
export function contentLink(id: string, uri: string): Record<string, unknown> {
  return { _meta: { schema: `${CORE}/content-link` }, contentType: uri, id };
}

/** Enables the Content Delivery 2 module on a hub (delivery keys). */
export async function enableDeliveryKeys(api: Api, hubId: string): Promise<void> {
  const res = await api.post(`/admin/hubs/${hubId}/modules/content-delivery-2`);
  if (res.status !== 204) throw new Error(`enable CD2 failed: ${res.status} ${res.text}`);
}

/** A hub with delivery keys, the content type `uri`, and a repository named `content` that has it. */
export async function repoWithType(api: Api, hubName: string, uri: string): Promise<{ hubId: string; repoId: string }> {
  const hubId = (await createHub(api, hubName)).id;
  await enableDeliveryKeys(api, hubId);
  const type = await createContentType(api, hubId, uri);
  const repo = await createContentRepo(api, hubId, type.id);
  await ok(api.patch(`/content-repositories/${repo.id}`, { name: 'content' }));
  return { hubId, repoId: repo.id };
}
