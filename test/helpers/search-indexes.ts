import { type Api, unique } from './server.js';
import { contentSetup, createItem, itemBody, type ContentSetup } from './content.js';

// Search index tests: a hub with the search index module, an index with an assigned type, and
// published items of that type (the index's webhooks index them in the background).

export async function enableSearchModule(api: Api, hubId: string): Promise<void> {
  const res = await api.post(`/admin/hubs/${hubId}/modules/search-index`);
  if (res.status !== 204) throw new Error(`enable search-index module failed: ${res.status} ${res.text}`);
}

export const indexesPath = (hubId: string) => `/hubs/${hubId}/search-indexes`;

/** Creates an index (201 expected); `assignedContentTypes` defaults to none. */
export async function createIndex(api: Api, hubId: string, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post(indexesPath(hubId), { suffix: unique('idx'), label: 'Test index', type: 'PRODUCTION', assignedContentTypes: [], ...fields });
  if (res.status !== 201) throw new Error(`index create failed: ${res.status} ${res.text}`);
  return res.body;
}

export interface SearchSetup extends ContentSetup {
  hubName: string;
  index: any;
}

/** A hub with content, the module enabled and an index that has the content type assigned. */
export async function searchSetup(api: Api): Promise<SearchSetup> {
  const setup = await contentSetup(api);
  await enableSearchModule(api, setup.hubId);
  const hubName = (await api.get(`/hubs/${setup.hubId}`)).body.name;
  const index = await createIndex(api, setup.hubId, { assignedContentTypes: [{ contentTypeUri: setup.uri }] });
  return { ...setup, hubName, index };
}

/** Creates an item with the given body fields and publishes it (the job runs at once). */
export async function publishItem(api: Api, s: ContentSetup, fields: Record<string, unknown>, label = unique('item')): Promise<any> {
  const item = await createItem(api, s.repoId, s.uri, { label, body: itemBody(s.uri, fields) });
  const res = await api.post(`/content-items/${item.id}/publish`, {});
  if (res.status !== 204) throw new Error(`publish failed: ${res.status} ${res.text}`);
  return item;
}

export async function archiveItem(api: Api, itemId: string): Promise<void> {
  const item = (await api.get(`/content-items/${itemId}`)).body;
  const res = await api.post(`/content-items/${itemId}/archive`, { version: item.version });
  if (res.status !== 200) throw new Error(`archive failed: ${res.status} ${res.text}`);
}

/** Polls the index's stats until it holds `count` records (webhook deliveries run in the background). */
export async function waitForRecords(api: Api, index: { _links: { self: { href: string } } }, count: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const stats = await api.get(`${index._links.self.href}/stats`);
    if (stats.body?.totalRecords === count) return;
    if (Date.now() > deadline) throw new Error(`expected ${count} records, have ${stats.body?.totalRecords}: ${stats.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export const queryPath = (indexId: string) => `/__sandbox/search-indexes/${indexId}/query`;
export const eventsPath = (indexId: string) => `/__sandbox/search-indexes/${indexId}/events`;

/** Runs a search query (POST) and returns the answer body (200 expected). */
export async function search(api: Api, indexId: string, body: Record<string, unknown>): Promise<any> {
  const res = await api.post(queryPath(indexId), body);
  if (res.status !== 200) throw new Error(`query failed: ${res.status} ${res.text}`);
  return res.body;
}
