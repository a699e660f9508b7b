import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, type ContentSetup } from '../../helpers/content.js';
import { createEdition, createEvent, itemWithSnapshot, snapshotOf } from '../../helpers/editions.js';

describe('edition content', () => {
  let server: TestServer;
  let api: Api;
  let setup: ContentSetup;
  let eventId: string;

  beforeAll(async () => {
    server = await startServer();
    api = await new Api(server.url).login();
    setup = await contentSetup(api);
    eventId = (await createEvent(api, setup.hubId)).id;
  });
  afterAll(() => server.stop());

  const newEdition = () => createEdition(api, eventId);
  const ids = (record: { content: { body: { contents: { id: string }[] } } }) => record.content.body.contents.map((c) => c.id);

  it('POST {} creates an empty record with its links; PATCH {body: {contents}} fills it (the SDK flow)', async () => {
    const edition = await newEdition();
    const res = await api.post(`/editions/${edition.id}/contents`, {});
    expect(res.status).toBe(201);
    const base = `${api.base}/editions/${edition.id}/contents/${res.body.id}`;
    expect(res.headers.get('location')).toBe(base);
    expect(res.body).toMatchObject({ editionId: edition.id, content: { body: { contents: [] } } });
    expect(res.body._links).toEqual({
      self: { href: base },
      'edition-content': { href: base },
      edition: { href: `${api.base}/editions/${edition.id}` },
      content: { href: base },
      update: { href: base },
      delete: { href: base },
    });
    const { item, snapshot } = await itemWithSnapshot(api, setup);
    const link = { _meta: { schema: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content-link', rootContentItemIds: [item.id], locked: false }, id: snapshot.id, contentType: setup.uri };
    const patched = await api.patch(res.body._links.content.href, { body: { contents: [link] } });
    expect(patched.status).toBe(200);
    expect(patched.body.content.body.contents).toEqual([link]);
    expect((await api.get(base)).body.content.body.contents).toEqual([link]);
  });

  it('create accepts {snapshot}, {id, contentType}, an array of them, and {body: {contents}}', async () => {
    const edition = await newEdition();
    const [a, b] = [await itemWithSnapshot(api, setup), await itemWithSnapshot(api, setup)];
    const bySnapshot = await api.post(`/editions/${edition.id}/contents`, { snapshot: a.snapshot.id });
    expect(bySnapshot.status).toBe(201);
    expect(bySnapshot.body.content.body.contents[0]).toMatchObject({ id: a.snapshot.id, contentType: setup.uri, _meta: { rootContentItemIds: [a.item.id], locked: false } });
    expect(bySnapshot.body.content.body.contents[0]._meta.schema).toMatch(/\/cms\/schema\/v1\/core#\/definitions\/content-link$/);
    const byId = await api.post(`/editions/${edition.id}/contents`, { id: b.snapshot.id, contentType: 'https://other.example.com/t.json' });
    expect(byId.body.content.body.contents[0]).toMatchObject({ id: b.snapshot.id, contentType: 'https://other.example.com/t.json' });
    const array = await api.post(`/editions/${edition.id}/contents`, [{ snapshot: a.snapshot.id }, { id: b.snapshot.id }]);
    expect(ids(array.body)).toEqual([a.snapshot.id, b.snapshot.id]);
    const wrapped = await api.post(`/editions/${edition.id}/contents`, { body: { contents: [{ id: b.snapshot.id }] } });
    expect(ids(wrapped.body)).toEqual([b.snapshot.id]);
  });

  it('every id must be a snapshot of the hub: an item id, an unknown id or another hub is 400 naming the entry', async () => {
    const edition = await newEdition();
    const item = await createItem(api, setup.repoId, setup.uri);
    const { snapshot } = await itemWithSnapshot(api, setup);
    const itemId = await api.post(`/editions/${edition.id}/contents`, { snapshot: item.id });
    expect(itemId.status).toBe(400);
    expect(itemId.body.errors[0]).toMatchObject({ code: 'SNAPSHOT_NOT_FOUND', property: 'id', invalidValue: item.id });
    const inList = await api.post(`/editions/${edition.id}/contents`, { body: { contents: [{ id: snapshot.id }, { id: 'ffffffffffffffffffffffff' }, {}] } });
    expect(inList.status).toBe(400);
    expect(inList.body.errors.map((e: { property: string }) => e.property)).toEqual(['body.contents[1].id', 'body.contents[2].id']);
    const foreignSetup = await contentSetup(api);
    const foreign = await snapshotOf(api, foreignSetup.hubId, (await createItem(api, foreignSetup.repoId, foreignSetup.uri)).id);
    expect((await api.post(`/editions/${edition.id}/contents`, [{ id: foreign.id }])).status).toBe(400);
    expect((await api.post(`/editions/${edition.id}/contents`, undefined, { raw: '"text"' })).status).toBe(400);
    expect((await api.get(`/editions/${edition.id}/contents`)).body.page.totalElements).toBe(0);
  });

  it('list (key edition-content) pages; get; PATCH with a whole record or {} ; delete', async () => {
    const edition = await newEdition();
    const [a, b] = [await itemWithSnapshot(api, setup), await itemWithSnapshot(api, setup)];
    const first = (await api.post(`/editions/${edition.id}/contents`, { snapshot: a.snapshot.id })).body;
    const second = (await api.post(`/editions/${edition.id}/contents`, { snapshot: b.snapshot.id })).body;
    const page = await api.get(`/editions/${edition.id}/contents?size=1`);
    expect(page.status).toBe(200);
    expect(page.body._embedded['edition-content'].map((c: { id: string }) => c.id)).toEqual([first.id]);
    expect(page.body.page).toEqual({ size: 1, totalElements: 2, totalPages: 2, number: 0 });
    expect((await api.get(`/editions/${edition.id}`)).body._links['edition-contents']).toMatchObject({ templated: true });

    // The SDK's update sends the whole record back, with its own id.
    const whole = await api.patch(`/editions/${edition.id}/contents/${first.id}`, { ...first, content: { body: { contents: [{ id: b.snapshot.id }] } } });
    expect(whole.status).toBe(200);
    expect(ids(whole.body)).toEqual([b.snapshot.id]);
    const unchanged = await api.patch(`/editions/${edition.id}/contents/${first.id}`, {});
    expect(ids(unchanged.body)).toEqual([b.snapshot.id]);

    expect((await api.del(`/editions/${edition.id}/contents/${second.id}`)).status).toBe(204);
    expect((await api.get(`/editions/${edition.id}/contents/${second.id}`)).status).toBe(404);
    const other = await newEdition();
    expect((await api.get(`/editions/${other.id}/contents/${first.id}`)).status).toBe(404);
  });

  it('changing content moves the edition lastModifiedDate; only a DRAFT edition changes (409)', async () => {
    const edition = await newEdition();
    const { snapshot } = await itemWithSnapshot(api, setup);
    const record = (await api.post(`/editions/${edition.id}/contents`, { snapshot: snapshot.id })).body;
    const after = (await api.get(`/editions/${edition.id}`)).body;
    expect(after.lastModifiedDate >= edition.lastModifiedDate).toBe(true);
    expect((await api.post(`/editions/${edition.id}/schedule`, { lastModifiedDate: after.lastModifiedDate })).status).toBe(200);
    for (const res of [
      await api.post(`/editions/${edition.id}/contents`, { snapshot: snapshot.id }),
      await api.patch(`/editions/${edition.id}/contents/${record.id}`, { snapshot: snapshot.id }),
      await api.del(`/editions/${edition.id}/contents/${record.id}`),
    ]) {
      expect(res.status).toBe(409);
      expect(res.body.errors[0].code).toBe('EDITION_NOT_DRAFT');
    }
    const links = (await api.get(`/editions/${edition.id}/contents/${record.id}`)).body._links;
    expect(links.update).toBeUndefined();
    expect(links.content).toBeUndefined();
    expect(links.edition).toBeDefined();
  });
});
