import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { SCHEMA_HOST } from '../../helpers/content.js';
import { createSlot, slotSchemaDocument, slotSetup, type SlotSetup } from '../../helpers/editions.js';
import { checkSlotSampleData, isSlotType } from '../../../src/server/content-types/slot-rules.js';
import { ServiceError } from '../../../src/server/core/errors.js';
import { contentTypes } from '../../../src/server/content-types/store.js';
import { repositories } from '../../../src/server/repositories/store.js';

// Slot schemas (validation level SLOT), slot types, slots repositories and slot items.

describe('slots', () => {
  let server: TestServer;
  let api: Api;
  let setup: SlotSetup;

  beforeAll(async () => {
    server = await startServer();
    api = await new Api(server.url).login();
    setup = await slotSetup(api);
  });
  afterAll(() => server.stop());

  const db = () => server.sandbox.service.db;
  const errorOf = (fn: () => void): ServiceError | undefined => {
    try {
      fn();
    } catch (err) {
      return err as ServiceError;
    }
    return undefined;
  };
  /** The sample-data rule as item create applies it, on the stored repository and type. */
  const sampleDataCheck = (repoId: string, typeId: string, body: Record<string, unknown>) => () =>
    checkSlotSampleData({ db: db() }, repositories(db()).get(repoId)!, contentTypes(db()).get(typeId)!, body);

  it('a slot schema is created with validationLevel SLOT; image and video choosers are refused in one', async () => {
    const uri = `${SCHEMA_HOST}/${unique('slot')}.json`;
    const res = await api.post(`/hubs/${setup.hubId}/content-type-schemas`, { schemaId: uri, body: JSON.stringify(slotSchemaDocument(uri, [setup.uri])), validationLevel: 'SLOT' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ schemaId: uri, validationLevel: 'SLOT' });
    const withImage = slotSchemaDocument(`${uri}-img`, [setup.uri]) as { id: string; properties: Record<string, unknown> };
    withImage.properties.picture = { allOf: [{ $ref: `${SCHEMA_HOST}/cms/schema/v1/core#/definitions/image-link` }] };
    const refused = await api.post(`/hubs/${setup.hubId}/content-type-schemas`, { schemaId: withImage.id, body: JSON.stringify(withImage), validationLevel: 'SLOT' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].property).toBe('body.properties.picture');
  });

  it('the slot type is registered like a content type and assigned to a repository with the slots feature', async () => {
    const type = (await api.get(`/content-types/${setup.slotTypeId}`)).body;
    expect(type).toMatchObject({ contentTypeUri: setup.slotUri, status: 'ACTIVE', settings: { label: 'Test slot' } });
    const repo = (await api.get(`/content-repositories/${setup.slotRepoId}`)).body;
    expect(repo.features).toEqual(['slots']);
    expect(repo.contentTypes).toEqual([{ hubContentTypeId: setup.slotTypeId, contentTypeUri: setup.slotUri }]);
    const found = await api.get(`/hubs/${setup.hubId}/content-repositories/search/findByFeaturesContaining?feature=slots`);
    expect(found.body._embedded['content-repositories'].map((r: { id: string }) => r.id)).toEqual([setup.slotRepoId]);
    expect(isSlotType(db(), contentTypes(db()).get(setup.slotTypeId)!)).toBe(true);
    expect(isSlotType(db(), contentTypes(db()).get(setup.typeId)!)).toBe(false);
  });

  it('slot items are created in the slots repository with sample data, validated against the slot schema', async () => {
    const slot = await createSlot(api, setup, 'Home hero');
    expect(slot).toMatchObject({ label: 'Home hero', version: 1, status: 'ACTIVE', body: { _meta: { schema: setup.slotUri }, title: 'Sample' } });
    const withLinks = await api.post(`/content-repositories/${setup.slotRepoId}/content-items`, {
      label: 'Too many links',
      body: { _meta: { schema: setup.slotUri }, slotContent: Array.from({ length: 6 }, () => ({ _meta: { schema: `${SCHEMA_HOST}/cms/schema/v1/core#/definitions/content-link` }, contentType: setup.uri, id: slot.id })) },
    });
    expect(withLinks.status).toBe(400);
    expect(withLinks.body.errors[0].property).toMatch(/^body\.slotContent/);
    const list = await api.get(`/content-repositories/${setup.slotRepoId}/content-items`);
    expect(list.body._embedded['content-items'].map((i: { id: string }) => i.id)).toContain(slot.id);
  });

  it('sample data is required: a slot body with nothing but _meta (or only empty values) is refused with SLOT_SAMPLE_DATA_REQUIRED', () => {
    const meta = { _meta: { schema: setup.slotUri, name: 'slot' } };
    for (const body of [meta, { ...meta, title: '  ', slotContent: [], slot: {} }]) {
      const err = errorOf(sampleDataCheck(setup.slotRepoId, setup.slotTypeId, body));
      expect(err).toBeInstanceOf(ServiceError);
      expect(err!.status).toBe(400);
      expect(err!.entries[0]).toMatchObject({ code: 'SLOT_SAMPLE_DATA_REQUIRED', property: 'body' });
    }
    expect(sampleDataCheck(setup.slotRepoId, setup.slotTypeId, { ...meta, title: 'Sample' })).not.toThrow();
    expect(sampleDataCheck(setup.slotRepoId, setup.slotTypeId, { ...meta, slotContent: [{ id: 'x' }] })).not.toThrow();
    // Items of other content types may be saved without data.
    expect(sampleDataCheck(setup.repoId, setup.typeId, { _meta: { schema: setup.uri } })).not.toThrow();
  });

  it('over HTTP: a slot item without sample data is refused with 400 SLOT_SAMPLE_DATA_REQUIRED, even with schema validation skipped', async () => {
    for (const query of ['', '?ignoreSchemaValidation=true']) {
      const res = await api.post(`/content-repositories/${setup.slotRepoId}/content-items${query}`, { label: 'Empty slot', body: { _meta: { schema: setup.slotUri, name: 'slot' } } });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ code: 'SLOT_SAMPLE_DATA_REQUIRED', property: 'body' });
    }
  });
});
