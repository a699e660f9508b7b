import { type Api, createRepo, unique } from './server.js';
import { SCHEMA_HOST, contentSetup, createItem, type ContentSetup } from './content.js';

// Editions and slots for tests: a hub with a content repository (contentSetup) plus a slot
// schema (validation level SLOT), its slot type and a repository with the slots feature.

const CORE = `http://bigcontent.io/cms/schema/v1/core#/definitions`;

/** A slot schema: `slot` holds one content link, `slotContent` a list of them, `title` is sample data. */
export function slotSchemaDocument(uri: string, linkedTypes: string[]): Record<string, unknown> {
  const linkTo = { allOf: [{ $ref: `${CORE}/content-link` }, { properties: { contentType: { enum: linkedTypes } } }] };
  return {
    $schema: `http://bigcontent.io/cms/schema/v1/schema#`,
    id: uri,
    title: 'Test slot',
    type: 'object',
    allOf: [{ $ref: `${CORE}/content` }],
    properties: {
      title: { type: 'string' },
      slot: linkTo,
      slotContent: { type: 'array', minItems: 0, maxItems: 5, items: linkTo },
    },
  };
}

export interface SlotSetup extends ContentSetup {
  slotRepoId: string;
  slotUri: string;
  slotTypeId: string;
}

async function expectStatus(res: { status: number; text: string }, status: number[], what: string) {
  if (!status.includes(res.status)) throw new Error(`${what} failed: ${res.status} ${res.text}`);
}

/** A hub with a content repository and type, and a slots repository with a slot type assigned. */
export async function slotSetup(api: Api): Promise<SlotSetup> {
  const content = await contentSetup(api);
  const slotUri = `${SCHEMA_HOST}/${unique('slot')}.json`;
  await expectStatus(
    await api.post(`/hubs/${content.hubId}/content-type-schemas`, { schemaId: slotUri, body: JSON.stringify(slotSchemaDocument(slotUri, [content.uri])), validationLevel: 'SLOT' }),
    [201],
    'slot schema create',
  );
  const type = await api.post(`/hubs/${content.hubId}/content-types`, { contentTypeUri: slotUri, settings: { label: 'Test slot' } });
  await expectStatus(type, [201], 'slot type register');
  const repo = await createRepo(api, content.hubId);
  await expectStatus(await api.post(`/content-repositories/${repo.id}/features?feature=slots`), [204], 'slots feature');
  await expectStatus(await api.post(`/content-repositories/${repo.id}/content-types`, { contentTypeId: type.body.id }), [200, 201], 'slot type assign');
  return { ...content, slotRepoId: repo.id, slotUri, slotTypeId: type.body.id };
}

/** A slot item (with sample data). */
export async function createSlot(api: Api, setup: SlotSetup, label = unique('slot')): Promise<any> {
  const res = await api.post(`/content-repositories/${setup.slotRepoId}/content-items`, { label, body: { _meta: { schema: setup.slotUri, name: 'slot' }, title: 'Sample' } });
  await expectStatus(res, [201], 'slot create');
  return res.body;
}

/** The sandbox clock's now, in milliseconds. */
export async function sandboxNow(api: Api): Promise<number> {
  return Date.parse((await api.get('/__sandbox/clock')).body.now);
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

/** An event spanning a year around the sandbox clock. */
export async function createEvent(api: Api, hubId: string): Promise<any> {
  const now = await sandboxNow(api);
  const res = await api.post(`/hubs/${hubId}/events`, { name: unique('event'), start: iso(now - 30 * DAY), end: iso(now + 365 * DAY) });
  await expectStatus(res, [201], 'event create');
  return res.body;
}

/** An edition of the event from `startInDays` to `endInDays` after the sandbox clock's now. */
export async function createEdition(api: Api, eventId: string, startInDays = 2, endInDays = 4): Promise<any> {
  const now = await sandboxNow(api);
  return createEditionAt(api, eventId, iso(now + startInDays * DAY), iso(now + endInDays * DAY));
}

/** An edition of the event with exact dates. */
export async function createEditionAt(api: Api, eventId: string, start: string, end: string): Promise<any> {
  const res = await api.post(`/events/${eventId}/editions`, { name: unique('edition'), start, end });
  await expectStatus(res, [201], 'edition create');
  return res.body;
}

export async function snapshotOf(api: Api, hubId: string, itemId: string): Promise<any> {
  const res = await api.post(`/hubs/${hubId}/snapshots`, { comment: 'for an edition', createdFrom: 'content-item', type: 'USER', contentRoot: itemId });
  await expectStatus(res, [201], 'snapshot create');
  return res.body;
}

/** A content item of the content type and a snapshot of it. */
export async function itemWithSnapshot(api: Api, setup: ContentSetup): Promise<{ item: any; snapshot: any }> {
  const item = await createItem(api, setup.repoId, setup.uri);
  return { item, snapshot: await snapshotOf(api, setup.hubId, item.id) };
}

/** Slot content whose `slot` property links a snapshot (or null). */
export function slotContent(setup: SlotSetup, snapshotId: string | null): Record<string, unknown> {
  return { body: { _meta: { schema: setup.slotUri, name: 'slot' }, slot: { _meta: { schema: `${CORE}/content-link` }, contentType: setup.uri, id: snapshotId } } };
}

/** Assigns slots to an edition; returns the created edition slots. */
export async function assignSlots(api: Api, editionId: string, slotIds: string[]): Promise<any[]> {
  const res = await api.post(`/editions/${editionId}/slots`, slotIds.map((slot) => ({ slot })));
  await expectStatus(res, [201], 'slot assign');
  return res.body._embedded['edition-slots'];
}

/** Puts slot content into an edition slot; returns the edition slot. */
export async function fillSlot(api: Api, editionId: string, editionSlotId: string, content: Record<string, unknown>): Promise<any> {
  const res = await api.put(`/editions/${editionId}/slots/${editionSlotId}/content`, content);
  await expectStatus(res, [200], 'slot content');
  return res.body;
}
