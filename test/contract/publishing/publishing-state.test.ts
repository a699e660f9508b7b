import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, itemBody, type ContentSetup } from '../../helpers/content.js';

// Publishing state on items (issue 22.7, wire contract §6.7): publishingStatus NONE / LATEST /
// EARLY (edited since the last publish) / UNPUBLISHED, with lastPublishedDate/Version and
// lastUnpublishedDate/Version kept as the hosted service keeps them. A client that unpublishes
// waits until lastUnpublishedDate >= lastPublishedDate.

let srv: TestServer;
let api: Api;
let setup: ContentSetup;

beforeAll(async () => {
  srv = await startServer();
  api = await new Api(srv.url).login();
  setup = await contentSetup(api);
});
afterAll(() => srv?.stop());

const read = async (id: string) => (await api.get(`/content-items/${id}`)).body;

describe('publishing state on items', () => {
  it('NONE -> LATEST (publish) -> EARLY (edit) -> LATEST (publish) -> UNPUBLISHED (dates ordered) -> LATEST again', async () => {
    const item = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'v1' }) });
    const fresh = await read(item.id);
    expect(fresh.publishingStatus).toBe('NONE');
    for (const f of ['lastPublishedDate', 'lastPublishedVersion', 'lastUnpublishedDate', 'lastUnpublishedVersion']) expect(fresh[f], f).toBeUndefined();

    expect((await api.post(`/content-items/${item.id}/publish`, {})).status).toBe(204);
    const published = await read(item.id);
    expect(published).toMatchObject({ publishingStatus: 'LATEST', lastPublishedVersion: 1 });
    expect(Date.parse(published.lastPublishedDate)).not.toBeNaN();

    expect((await api.patch(`/content-items/${item.id}`, { version: 1, body: itemBody(setup.uri, { title: 'v2' }) })).status).toBe(200);
    expect(await read(item.id)).toMatchObject({ publishingStatus: 'EARLY', lastPublishedVersion: 1, version: 2 });

    expect((await api.post(`/content-items/${item.id}/publish`, {})).status).toBe(204);
    const again = await read(item.id);
    expect(again).toMatchObject({ publishingStatus: 'LATEST', lastPublishedVersion: 2 });

    expect((await api.post(`/content-items/${item.id}/unpublish`, {})).status).toBe(204);
    const unpublished = await read(item.id);
    expect(unpublished).toMatchObject({ publishingStatus: 'UNPUBLISHED', lastPublishedVersion: 2, lastUnpublishedVersion: 2 });
    // What a client waits for after an unpublish.
    expect(Date.parse(unpublished.lastUnpublishedDate)).toBeGreaterThanOrEqual(Date.parse(unpublished.lastPublishedDate));
    // Unpublishing makes no new version of the item.
    expect(unpublished.version).toBe(2);

    // An edit of an unpublished item leaves it unpublished; a publish brings it back.
    expect((await api.patch(`/content-items/${item.id}`, { version: 2, body: itemBody(setup.uri, { title: 'v3' }) })).status).toBe(200);
    expect((await read(item.id)).publishingStatus).toBe('UNPUBLISHED');
    await api.advanceClock({ advance: '1m' });
    expect((await api.post(`/content-items/${item.id}/publish`, {})).status).toBe(204);
    const back = await read(item.id);
    expect(back).toMatchObject({ publishingStatus: 'LATEST', lastPublishedVersion: 3, lastUnpublishedVersion: 2 });
    expect(Date.parse(back.lastPublishedDate)).toBeGreaterThan(Date.parse(back.lastUnpublishedDate));
  });

  it('unpublishing an archived or unknown item is refused; the list shows the same fields', async () => {
    expect((await api.post('/content-items/00000000-0000-4000-8000-000000000000/unpublish', {})).status).toBe(404);
    const item = await createItem(api, setup.repoId, setup.uri);
    expect((await api.post(`/content-items/${item.id}/publish`, {})).status).toBe(204);
    expect((await api.post(`/content-items/${item.id}/unpublish`, {})).status).toBe(204);
    const listed = (await api.get(`/content-repositories/${setup.repoId}/content-items?size=100`)).body._embedded['content-items'].find((i: any) => i.id === item.id);
    expect(listed).toMatchObject({ publishingStatus: 'UNPUBLISHED', lastUnpublishedVersion: 1 });
    expect(listed.lastUnpublishedDate).toBeDefined();
  });
});
