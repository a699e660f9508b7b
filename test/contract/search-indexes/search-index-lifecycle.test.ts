import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, type TestServer } from '../../helpers/server.js';
import { expectError } from '../../helpers/assert.js';
import { assignType, contentSetup, createContentType, createItem, itemBody, type ContentSetup } from '../../helpers/content.js';
import { archiveItem, indexesPath, publishItem, search, waitForRecords } from '../../helpers/search-indexes.js';

// End to end: enable the module, create an index with an assigned content type, publish items
// of that type and watch the index's webhooks bring them in (in the background), archive one and
// watch it go, query the index, and read analytics that reflect exactly those queries.

let srv: TestServer;
let admin: Api;
let c: ContentSetup;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  c = await contentSetup(admin);
});

afterAll(async () => {
  await srv?.stop();
});

describe('search index lifecycle', () => {
  let index: any;
  let replica: any;
  const published: Record<string, any> = {};

  const titles = async (target = index, query = '') => (await search(admin, target.id, { query, analytics: false })).hits.map((h: any) => h.title).sort();

  it('the module must be enabled before an index can be created', async () => {
    const body = { suffix: 'catalogue', label: 'Catalogue', type: 'PRODUCTION', assignedContentTypes: [{ contentTypeUri: c.uri }] };
    expect(expectError(await admin.post(indexesPath(c.hubId), body), 400).code).toBe('SEARCH_INDEX_MODULE_DISABLED');
    expect((await admin.post(`/admin/hubs/${c.hubId}/modules/search-index`)).status).toBe(204);
    const modules = (await admin.get(`/admin/hubs/${c.hubId}/modules`)).body.modules;
    expect(modules).toContainEqual({ name: 'SEARCH_INDEX', enabled: true });
    const res = await admin.post(indexesPath(c.hubId), body);
    expect(res.status, res.text).toBe(201);
    index = res.body;
    const hubName = (await admin.get(`/hubs/${c.hubId}`)).body.name;
    expect(index.name).toBe(`${hubName}.catalogue`);
    await admin.patch(`${index._links.self.href}/settings`, { replicas: [`${hubName}.catalogue-by-date`] });
    replica = (await admin.get(`${indexesPath(c.hubId)}?parentId=${index.id}`)).body._embedded.indexes[0];
  });

  it('publishing items of the assigned type brings them into the index and its replica', async () => {
    published.lamp = await publishItem(admin, c, { title: 'Desk lamp', count: 3 });
    published.chair = await publishItem(admin, c, { title: 'Office chair', count: 7 });
    // Created but never published: stays out.
    await createItem(admin, c.repoId, c.uri, { body: itemBody(c.uri, { title: 'Draft sofa' }) });
    await waitForRecords(admin, index, 2);
    await waitForRecords(admin, replica, 2);
    expect(await titles()).toEqual(['Desk lamp', 'Office chair']);
    expect(await titles(replica)).toEqual(['Desk lamp', 'Office chair']);

    const lamp = (await search(admin, index.id, { query: 'lamp', analytics: false })).hits[0];
    const item = (await admin.get(`/content-items/${published.lamp.id}`)).body;
    expect(lamp).toEqual({ objectID: item.id, label: item.label, schema: c.uri, locale: null, deliveryKey: null, lastPublishedDate: item.lastPublishedDate, title: 'Desk lamp', count: 3 });
  });

  it('the active content webhook records each delivery', async () => {
    const assigned = (await admin.get(index._links['assigned-content-types'].href)).body._embedded['assigned-content-types'][0];
    const hook = (await admin.get(assigned._links['active-content-webhook'].href)).body;
    const log = (await admin.get(`/hubs/${c.hubId}/webhooks/${hook.id}/requests`)).body._embedded.requests;
    expect(log).toHaveLength(2);
    for (const r of log) expect(r).toMatchObject({ eventName: 'content-item.published', responseStatus: 200, result: 200, url: `sandbox://search-index/${index.id}` });
    expect(log.map((r: any) => r.responseBody).sort()).toEqual([`indexed ${published.chair.id}`, `indexed ${published.lamp.id}`].sort());
  });

  it('a new version reaches the index only when it is published', async () => {
    const item = (await admin.get(`/content-items/${published.chair.id}`)).body;
    const updated = await admin.patch(`/content-items/${item.id}`, { ...item, body: { ...item.body, title: 'Ergonomic chair' } });
    expect(updated.status, updated.text).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(await titles()).toEqual(['Desk lamp', 'Office chair']);
    expect((await admin.post(`/content-items/${item.id}/publish`, {})).status).toBe(204);
    const deadline = Date.now() + 10_000;
    while (!(await titles()).includes('Ergonomic chair') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await titles()).toEqual(['Desk lamp', 'Ergonomic chair']);
    expect(await titles(replica)).toEqual(['Desk lamp', 'Ergonomic chair']);
  });

  it('items of a type the index does not have stay out', async () => {
    const other = await createContentType(admin, c.hubId);
    await assignType(admin, c.repoId, other.id);
    const item = await createItem(admin, c.repoId, other.uri, { body: itemBody(other.uri, { title: 'Unrelated rug' }) });
    await admin.post(`/content-items/${item.id}/publish`, {});
    published.lamp2 = await publishItem(admin, c, { title: 'Floor lamp' });
    await waitForRecords(admin, index, 3);
    expect(await titles()).toEqual(['Desk lamp', 'Ergonomic chair', 'Floor lamp']);
  });

  it('archiving an item takes its record out of the index and the replica', async () => {
    await archiveItem(admin, published.lamp2.id);
    await waitForRecords(admin, index, 2);
    await waitForRecords(admin, replica, 2);
    expect(await titles()).toEqual(['Desk lamp', 'Ergonomic chair']);
  });

  it('queries on a frozen clock, then analytics that reflect exactly those queries', async () => {
    expect((await admin.post('/__sandbox/clock', { freeze: true })).status).toBe(200);
    await admin.advanceClock({ set: '2032-02-29T08:00:00.000Z' });
    const lamp = await search(admin, index.id, { query: 'lamp', userToken: 'ann', analyticsTags: ['site'], clickAnalytics: true });
    expect(lamp.hits.map((h: any) => h.title)).toEqual(['Desk lamp']);
    await search(admin, index.id, { query: 'lamp', userToken: 'bob', analyticsTags: ['app'] });
    await search(admin, index.id, { query: 'sofa', userToken: 'ann', analyticsTags: ['site'] });
    const click = await admin.post(`/__sandbox/search-indexes/${index.id}/events`, { eventType: 'click', queryID: lamp.queryID, objectIDs: [published.lamp.id], positions: [1] });
    expect(click.status).toBe(200);
    await admin.advanceClock({ set: '2032-03-01T12:00:00.000Z' });

    const a = `${index._links.self.href}/analytics`;
    const count = (await admin.get(`${a}/searches-count`)).body;
    expect(count.count).toBe(3);
    expect(count.dates.find((d: any) => d.date === '2032-02-29')).toEqual({ date: '2032-02-29', count: 3 });
    expect(count.dates.map((d: any) => d.date)).toEqual(['2032-02-23', '2032-02-24', '2032-02-25', '2032-02-26', '2032-02-27', '2032-02-28', '2032-02-29', '2032-03-01']);
    expect((await admin.get(`${a}/users-count`)).body.count).toBe(2);
    expect((await admin.get(`${a}/no-results-rate`)).body).toMatchObject({ rate: 1 / 3, count: 3, noResultCount: 1 });
    expect((await admin.get(`${a}/top-searches?clickAnalytics=true`)).body._embedded['top-searches']).toEqual([
      { search: 'lamp', count: 2, nbHits: 1, clickThroughRate: 1, conversionRate: 0, averageClickPosition: 1, trackedSearchCount: 1, clickCount: 1, conversionCount: 0 },
      { search: 'sofa', count: 1, nbHits: 0, clickThroughRate: null, conversionRate: null, averageClickPosition: null, trackedSearchCount: 0, clickCount: 0, conversionCount: 0 },
    ]);
    expect((await admin.get(`${a}/top-hits`)).body._embedded['top-hits']).toEqual([{ hit: published.lamp.id, count: 2 }]);
    expect((await admin.get(`${a}/searches-with-no-results?tags=site`)).body._embedded['searches-with-no-results']).toEqual([{ search: 'sofa', count: 1, withFilterCount: 0 }]);
    expect((await admin.get(`${a}/searches-count?tags=app`)).body.count).toBe(1);
    // Usage counts every search of the period (the last 24 hours, 7 days, ... on the sandbox clock).
    const week = (await admin.get(`${index._links.self.href}/stats?period=week`)).body;
    expect(week.totalRecords).toBe(2);
    expect(week.usage.numberOfSearches.value).toBe(3);
    expect((await admin.get(`${index._links.self.href}/stats?period=day`)).body.usage.numberOfSearches.value).toBe(0);
  });

  it('deleting the index removes its webhooks: later publications are not delivered to it', async () => {
    const types = (await admin.get(index._links['assigned-content-types'].href)).body._embedded['assigned-content-types'];
    expect((await admin.del(index._links.delete.href)).status).toBe(204);
    expectError(await admin.get(types[0]._links['active-content-webhook'].href), 404);
    expectError(await admin.get(replica._links.self.href), 404);
    const hooks = (await admin.get(`/hubs/${c.hubId}/webhooks`)).body._embedded.webhooks;
    expect(hooks.filter((h: any) => h.handlers.some((u: string) => u.includes(index.id)))).toEqual([]);
  });
});
