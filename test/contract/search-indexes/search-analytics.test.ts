import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { errorProperties, expectError } from '../../helpers/assert.js';
import { createIndex, eventsPath, indexesPath, publishItem, queryPath, search, searchSetup, waitForRecords, type SearchSetup } from '../../helpers/search-indexes.js';

// Search queries against an index's records, click and conversion events, and the analytics
// reports computed from them, on a frozen sandbox clock. The searches below are chosen so every
// report has known figures:
//
//  when (UTC)            index    text     user  tags          filters                       hits   clickAnalytics / events
//  05-11 23:59:59        I        old      u7    -             -                             0
//  05-12 00:00:00        I        edge     u7    -             -                             0
//  05-18 10:00           I  q1    shoes    u1    web           -                             A,B    yes: click A@1, conversion A
//                        I  q2    shoes    u2    web,mobile    -                             A,B    yes: click B@2, click A@1
//                        I  q3    hat      u1    mobile        -                             C
//                        I  q4    boots    u3    web           -                             0
//                        I  q5    boots    u3    web           color:red                     0
//                        I  q6    shoes    u4    -             color:green                   0
//  05-19 09:00           I  q7    Shoes    u1    web           -                             A,B    yes: no events
//                        I  q8    boots    u5    mobile        brand:acme|brand:zeta, color:red  0
//                        I  q9    red      -     web           - (analytics: false)          A,C
//                        R  q10   red      u6    web           -                             A,C
//                        I  q11   boots    u2    web           color:red                     0
//  reports read at 05-19 15:00: the default period is 05-12 00:00:00 .. 05-19 23:59:59.

let srv: TestServer;
let admin: Api;
let s: SearchSetup;
/** The analytics index I, its replica R, and the index Q that query-matching tests use. */
let I: any;
let R: any;
let Q: any;
const items: Record<'A' | 'B' | 'C', any> = {} as never;
const queryIds: Record<string, string> = {};

async function setClock(at: string): Promise<void> {
  await admin.advanceClock({ set: at });
}

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  const frozen = await admin.post('/__sandbox/clock', { freeze: true });
  if (frozen.status !== 200) throw new Error(frozen.text);
  await setClock('2031-05-11T23:59:59.000Z');
  s = await searchSetup(admin);
  I = s.index;
  Q = await createIndex(admin, s.hubId, { assignedContentTypes: [{ contentTypeUri: s.uri }] });
  await admin.patch(`${I._links.self.href}/settings`, { replicas: [`${s.hubName}.by-price`] });
  R = (await admin.get(`${indexesPath(s.hubId)}?parentId=${I.id}`)).body._embedded.indexes[0];
  items.A = await publishItem(admin, s, { title: 'Red running shoes', color: 'red', brand: 'acme', price: 50 });
  items.B = await publishItem(admin, s, { title: 'Blue running shoes', color: 'blue', brand: 'acme', price: 80 });
  items.C = await publishItem(admin, s, { title: 'Red hat', color: 'red', brand: 'zeta', price: 20 });
  for (const index of [I, R, Q]) await waitForRecords(admin, index, 3);

  const q = async (name: string, index: any, body: Record<string, unknown>) => {
    const res = await search(admin, index.id, body);
    if (res.queryID) queryIds[name] = res.queryID;
    return res;
  };
  await q('old', I, { query: 'old', userToken: 'u7' });
  await setClock('2031-05-12T00:00:00.000Z');
  await q('edge', I, { query: 'edge', userToken: 'u7' });
  await setClock('2031-05-18T10:00:00.000Z');
  await q('q1', I, { query: 'shoes', userToken: 'u1', analyticsTags: ['web'], clickAnalytics: true });
  await q('q2', I, { query: 'shoes', userToken: 'u2', analyticsTags: ['web', 'mobile'], clickAnalytics: true });
  await q('q3', I, { query: 'hat', userToken: 'u1', analyticsTags: ['mobile'] });
  await q('q4', I, { query: 'boots', userToken: 'u3', analyticsTags: ['web'] });
  await q('q5', I, { query: 'boots', userToken: 'u3', analyticsTags: ['web'], filters: 'color:red' });
  await q('q6', I, { query: 'shoes', userToken: 'u4', filters: 'color:green' });
  await event({ eventType: 'click', queryID: queryIds.q1, objectIDs: [items.A.id], positions: [1] });
  await event({ eventType: 'conversion', queryID: queryIds.q1, objectIDs: [items.A.id] });
  await event({ eventType: 'click', queryID: queryIds.q2, objectIDs: [items.B.id], positions: [2] });
  await event({ eventType: 'click', queryID: queryIds.q2, objectIDs: [items.A.id], positions: [1] });
  await setClock('2031-05-19T09:00:00.000Z');
  await q('q7', I, { query: 'Shoes', userToken: 'u1', analyticsTags: ['web'], clickAnalytics: true });
  await q('q8', I, { query: 'boots', userToken: 'u5', analyticsTags: ['mobile'], facetFilters: [['brand:acme', 'brand:zeta'], 'color:red'] });
  await q('q9', I, { query: 'red', analyticsTags: ['web'], analytics: false });
  await q('q10', R, { query: 'red', userToken: 'u6', analyticsTags: ['web'] });
  await q('q11', I, { query: 'boots', userToken: 'u2', analyticsTags: ['web'], filters: 'color:red' });
  await setClock('2031-05-19T15:00:00.000Z');
});

afterAll(async () => {
  await srv?.stop();
});

async function event(body: Record<string, unknown>, index = I): Promise<void> {
  const res = await admin.post(eventsPath(index.id), body);
  if (res.status !== 200) throw new Error(`event failed: ${res.status} ${res.text}`);
}

const report = (name: string, query = '', index = I) => admin.get(`${index._links.self.href}/analytics/${name}${query ? `?${query}` : ''}`);
const entries = async (name: string, query = '', index = I) => {
  const res = await report(name, query, index);
  expect(res.status, res.text).toBe(200);
  return res.body._embedded[name];
};
const DAYS = ['2031-05-12', '2031-05-13', '2031-05-14', '2031-05-15', '2031-05-16', '2031-05-17', '2031-05-18', '2031-05-19'];
const perDay = (figures: Record<string, object>, empty: object) => DAYS.map((date) => ({ date, ...(figures[date] ?? empty) }));

describe('queries', () => {
  const hitsOf = async (body: Record<string, unknown>, index = Q) => (await search(admin, index.id, body)).hits.map((h: any) => h.title);

  it('answer {hits, nbHits, page, nbPages, hitsPerPage, query, processingTimeMS}; records carry the item and its body fields', async () => {
    const res = await search(admin, Q.id, { query: 'hat' });
    expect(res).toMatchObject({ nbHits: 1, page: 0, nbPages: 1, hitsPerPage: 20, query: 'hat' });
    expect(typeof res.processingTimeMS).toBe('number');
    expect(res.queryID).toBeUndefined();
    const item = (await admin.get(`/content-items/${items.C.id}`)).body;
    expect(res.hits).toEqual([
      {
        objectID: items.C.id,
        label: item.label,
        schema: s.uri,
        locale: null,
        deliveryKey: null,
        lastPublishedDate: item.lastPublishedDate,
        title: 'Red hat',
        color: 'red',
        brand: 'zeta',
        price: 20,
      },
    ]);
  });

  it('match every word, whole words, ignoring case and accents; an empty query matches everything in index order', async () => {
    expect(await hitsOf({ query: 'RED' })).toEqual(['Red running shoes', 'Red hat']);
    expect(await hitsOf({ query: 'shoes red' })).toEqual(['Red running shoes']);
    expect(await hitsOf({ query: 'réd, HAT!' })).toEqual(['Red hat']);
    expect(await hitsOf({ query: 'sho' })).toEqual([]);
    expect(await hitsOf({ query: 'shoes green' })).toEqual([]);
    expect(await hitsOf({ query: '' })).toEqual(['Red running shoes', 'Blue running shoes', 'Red hat']);
    expect(await hitsOf({})).toHaveLength(3);
  });

  it('filters narrow: attribute:value (quoted, any case) and numeric comparisons, joined by AND', async () => {
    expect(await hitsOf({ filters: 'brand:acme' })).toEqual(['Red running shoes', 'Blue running shoes']);
    expect(await hitsOf({ filters: 'brand:acme AND color:RED' })).toEqual(['Red running shoes']);
    expect(await hitsOf({ filters: 'brand:"acme"' })).toHaveLength(2);
    expect(await hitsOf({ filters: 'price < 60' })).toEqual(['Red running shoes', 'Red hat']);
    expect(await hitsOf({ filters: 'price>=80' })).toEqual(['Blue running shoes']);
    expect(await hitsOf({ filters: 'price != 50 AND color:red' })).toEqual(['Red hat']);
    expect(await hitsOf({ query: 'shoes', filters: 'color:red' })).toEqual(['Red running shoes']);
    for (const filters of ['color:red OR color:blue', '(color:red)', 'color', 'price < cheap', 'color:red AND']) {
      const error = expectError(await admin.post(queryPath(Q.id), { filters }), 400);
      expect(error, filters).toMatchObject({ code: 'INVALID_FILTERS', property: 'filters' });
    }
  });

  it('facetFilters: every entry must hold; an inner array holds when one of its values does', async () => {
    expect(await hitsOf({ facetFilters: ['color:red'] })).toEqual(['Red running shoes', 'Red hat']);
    expect(await hitsOf({ facetFilters: [['color:blue', 'brand:zeta']] })).toEqual(['Blue running shoes', 'Red hat']);
    expect(await hitsOf({ facetFilters: [['color:blue', 'brand:zeta'], 'color:red'] })).toEqual(['Red hat']);
    expect(await hitsOf({ facetFilters: 'color:blue' })).toEqual(['Blue running shoes']);
    expect(expectError(await admin.post(queryPath(Q.id), { facetFilters: ['color'] }), 400).property).toBe('facetFilters');
  });

  it('pages with hitsPerPage (default 20, or the settings hitsPerPage) and page', async () => {
    const first = await search(admin, Q.id, { hitsPerPage: 2 });
    expect(first).toMatchObject({ nbHits: 3, nbPages: 2, page: 0, hitsPerPage: 2 });
    expect(first.hits.map((h: any) => h.title)).toEqual(['Red running shoes', 'Blue running shoes']);
    expect((await search(admin, Q.id, { hitsPerPage: 2, page: 1 })).hits.map((h: any) => h.title)).toEqual(['Red hat']);
    expect((await search(admin, Q.id, { hitsPerPage: 2, page: 5 })).hits).toEqual([]);
    const other = await createIndex(admin, s.hubId, { assignedContentTypes: [{ contentTypeUri: s.uri }] });
    await admin.patch(`${other._links.self.href}/settings`, { hitsPerPage: 1 });
    const res = await search(admin, other.id, {});
    expect(res.hitsPerPage).toBe(1);
  });

  it('searchableAttributes in the settings limit which fields the words are looked for in', async () => {
    const index = await createIndex(admin, s.hubId);
    await admin.patch(`${index._links.self.href}/settings`, { replicas: [`${s.hubName}.${unique('sa')}`] });
    const replica = (await admin.get(`${indexesPath(s.hubId)}?parentId=${index.id}`)).body._embedded.indexes[0];
    await admin.post(`${index._links['create-assigned-content-types'].href}`, { contentTypeUri: s.uri });
    const p = await publishItem(admin, s, { title: 'Plain mug', brand: 'acme', color: 'white', price: 5 });
    await waitForRecords(admin, replica, 1);
    expect((await search(admin, replica.id, { query: 'acme' })).hits.map((h: any) => h.objectID)).toEqual([p.id]);
    await admin.patch(`${replica._links.self.href}/settings`, { searchableAttributes: ['title', 'unordered(color)'] });
    expect((await search(admin, replica.id, { query: 'acme' })).nbHits).toBe(0);
    expect((await search(admin, replica.id, { query: 'white mug' })).nbHits).toBe(1);
  });

  it('GET takes the same fields as query parameters', async () => {
    const res = await admin.get(`${queryPath(Q.id)}?query=red&hitsPerPage=1&page=1&clickAnalytics=true&analyticsTags=a,b`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.hits.map((h: any) => h.title)).toEqual(['Red hat']);
    expect(res.body.queryID).toMatch(/^[0-9a-f]{32}$/);
    const facets = await admin.get(`${queryPath(Q.id)}?facetFilters=${encodeURIComponent(JSON.stringify([['color:blue', 'brand:zeta']]))}`);
    expect(facets.body.nbHits).toBe(2);
    expect(errorProperties(await admin.get(`${queryPath(Q.id)}?hitsPerPage=many`))).toEqual(['hitsPerPage']);
  });

  it('reject invalid fields', async () => {
    expect(errorProperties(await admin.post(queryPath(Q.id), { hitsPerPage: 0 }))).toEqual(['hitsPerPage']);
    expect(errorProperties(await admin.post(queryPath(Q.id), { page: -1 }))).toEqual(['page']);
    expect(errorProperties(await admin.post(queryPath(Q.id), { clickAnalytics: 'yes' }))).toEqual(['clickAnalytics']);
    expect(errorProperties(await admin.post(queryPath(Q.id), { analyticsTags: 'web' }))).toEqual(['analyticsTags']);
    expectError(await admin.post(queryPath('5f00000000000000000000ff'), {}), 404);
  });

  it('need a token whose client may read the hub indexes, or the index API key', async () => {
    expectError(await admin.post(queryPath(Q.id), {}, { token: null }), 401);
    expectError(await admin.post(queryPath(Q.id), {}, { token: 'nonsense' }), 401);
    const hubRead = [{ resource: 'hubs' as const, id: s.hubId, permissions: ['READ'] }];
    const reader = await admin.client(unique('searcher'), ['CONTENT:FUNCTIONAL:SEARCH_INDEX:READ'], hubRead);
    expect((await reader.post(queryPath(Q.id), { query: 'red' })).body.nbHits).toBe(2);
    const noFunctional = await admin.client(unique('nofn'), [], hubRead);
    expect(expectError(await noFunctional.post(queryPath(Q.id), {}), 403).code).toBe('ACCESS_DENIED');
    const stranger = await admin.client(unique('stranger'), ['CONTENT:FUNCTIONAL:SEARCH_INDEX:READ']);
    expectError(await stranger.post(queryPath(Q.id), {}), 404);
    const key = (await admin.get(Q._links['hub-search-key'].href)).body.key;
    const withKey = await admin.post(queryPath(Q.id), { query: 'red', clickAnalytics: true }, { token: null, headers: { 'X-Search-Api-Key': key } });
    expect(withKey.body.nbHits).toBe(2);
    const clicked = await admin.post(eventsPath(Q.id), { eventType: 'click', queryID: withKey.body.queryID, objectIDs: [items.A.id], positions: [1] }, { token: null, headers: { 'X-Search-Api-Key': key } });
    expect(clicked.status).toBe(200);
    expectError(await admin.post(queryPath(Q.id), {}, { token: null, headers: { 'X-Search-Api-Key': 'wrong' } }), 401);
  });
});

describe('events', () => {
  it('need a queryID of this index from a clickAnalytics query, objectIDs, and positions for clicks', async () => {
    const tracked = await search(admin, Q.id, { query: 'red', clickAnalytics: true });
    const post = (body: Record<string, unknown>, index = Q) => admin.post(eventsPath(index.id), body);
    const ok = await post({ eventType: 'click', queryID: tracked.queryID, objectIDs: [items.A.id, items.C.id], positions: [1, 2] });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ eventType: 'click', queryID: tracked.queryID });
    expect((await post({ eventType: 'conversion', queryID: tracked.queryID, objectIDs: [items.C.id] })).status).toBe(200);

    expect(errorProperties(await post({ eventType: 'click', queryID: tracked.queryID, objectIDs: [items.A.id] }))).toEqual(['positions']);
    expect(errorProperties(await post({ eventType: 'click', queryID: tracked.queryID, objectIDs: [items.A.id], positions: [1, 2] }))).toEqual(['positions']);
    expect(errorProperties(await post({ eventType: 'view', queryID: tracked.queryID, objectIDs: [items.A.id] }))).toEqual(['eventType']);
    expect(errorProperties(await post({ eventType: 'conversion', queryID: tracked.queryID, objectIDs: [] }))).toEqual(['objectIDs']);
    expect(errorProperties(await post({ eventType: 'conversion', objectIDs: ['x'] }))).toEqual(['queryID']);
    expect(expectError(await post({ eventType: 'conversion', queryID: 'f'.repeat(32), objectIDs: ['x'] }), 400).code).toBe('UNKNOWN_QUERY_ID');
    expect(expectError(await post({ eventType: 'conversion', queryID: tracked.queryID, objectIDs: ['x'] }, I), 400).code).toBe('UNKNOWN_QUERY_ID');
  });
});

describe('counts', () => {
  it('searches-count: searches that stayed in analytics, per day over the default period (7 days ago to today)', async () => {
    const res = await report('searches-count');
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(10);
    expect(res.body.dates).toEqual(perDay({ '2031-05-12': { count: 1 }, '2031-05-18': { count: 6 }, '2031-05-19': { count: 3 } }, { count: 0 }));
    expect(res.body._links.self.href).toBe(`${I._links.self.href}/analytics/searches-count`);
  });

  it('users-count: distinct userTokens, over the period and per day', async () => {
    const res = await report('users-count');
    expect(res.body.count).toBe(6);
    expect(res.body.dates).toEqual(perDay({ '2031-05-12': { count: 1 }, '2031-05-18': { count: 4 }, '2031-05-19': { count: 3 } }, { count: 0 }));
  });

  it('no-results-rate: share of searches with no hits; rate null without searches', async () => {
    const res = await report('no-results-rate');
    expect(res.body).toMatchObject({ rate: 0.6, count: 10, noResultCount: 6 });
    expect(res.body.dates).toEqual(
      perDay(
        { '2031-05-12': { rate: 1, count: 1, noResultCount: 1 }, '2031-05-18': { rate: 0.5, count: 6, noResultCount: 3 }, '2031-05-19': { rate: 2 / 3, count: 3, noResultCount: 2 } },
        { rate: null, count: 0, noResultCount: 0 },
      ),
    );
    const empty = (await report('no-results-rate', 'startDate=2031-05-14&endDate=2031-05-15')).body;
    expect(empty).toMatchObject({ rate: null, count: 0, noResultCount: 0 });
  });
});

describe('top lists', () => {
  it('top-searches: by count, then text; the exact user input; nbHits of the latest such search', async () => {
    expect(await entries('top-searches')).toEqual([
      { search: 'boots', count: 4, nbHits: 0 },
      { search: 'shoes', count: 3, nbHits: 0 },
      { search: 'Shoes', count: 1, nbHits: 2 },
      { search: 'edge', count: 1, nbHits: 0 },
      { search: 'hat', count: 1, nbHits: 1 },
    ]);
  });

  it('top-searches with clickAnalytics=true: rates null without tracked searches, 0 until events, position null until a click', async () => {
    const list = await entries('top-searches', 'clickAnalytics=true');
    const none = { clickThroughRate: null, conversionRate: null, averageClickPosition: null, trackedSearchCount: 0, clickCount: 0, conversionCount: 0 };
    expect(list).toEqual([
      { search: 'boots', count: 4, nbHits: 0, ...none },
      { search: 'shoes', count: 3, nbHits: 0, clickThroughRate: 1, conversionRate: 0.5, averageClickPosition: 4 / 3, trackedSearchCount: 2, clickCount: 3, conversionCount: 1 },
      { search: 'Shoes', count: 1, nbHits: 2, clickThroughRate: 0, conversionRate: 0, averageClickPosition: null, trackedSearchCount: 1, clickCount: 0, conversionCount: 0 },
      { search: 'edge', count: 1, nbHits: 0, ...none },
      { search: 'hat', count: 1, nbHits: 1, ...none },
    ]);
    expect((await entries('top-searches', 'clickAnalytics=false'))[1]).toEqual({ search: 'shoes', count: 3, nbHits: 0 });
  });

  it('orderBy and direction; entries without a value come last either way', async () => {
    const texts = async (q: string) => (await entries('top-searches', q)).map((e: any) => e.search);
    expect(await texts('clickAnalytics=true&orderBy=clickThroughRate')).toEqual(['shoes', 'Shoes', 'boots', 'edge', 'hat']);
    expect(await texts('clickAnalytics=true&orderBy=clickThroughRate&direction=asc')).toEqual(['Shoes', 'shoes', 'boots', 'edge', 'hat']);
    expect(await texts('clickAnalytics=true&orderBy=conversionRate&direction=desc')).toEqual(['shoes', 'Shoes', 'boots', 'edge', 'hat']);
    expect(await texts('clickAnalytics=true&orderBy=averageClickPosition&direction=asc')).toEqual(['shoes', 'boots', 'Shoes', 'edge', 'hat']);
    expect(await texts('orderBy=searchCount&direction=asc')).toEqual(['Shoes', 'edge', 'hat', 'shoes', 'boots']);
    expect(await texts('limit=2&offset=1')).toEqual(['shoes', 'Shoes']);
    expect(await texts('limit=0')).toEqual([]);
    expect(await texts('offset=5')).toEqual([]);
  });

  it('top-hits: objects most often among the hits returned; search narrows to one exact text', async () => {
    const [first, second] = [items.A.id, items.B.id].sort();
    expect(await entries('top-hits')).toEqual([
      { hit: first, count: 3 },
      { hit: second, count: 3 },
      { hit: items.C.id, count: 1 },
    ]);
    expect(await entries('top-hits', 'search=shoes')).toEqual([
      { hit: first, count: 2 },
      { hit: second, count: 2 },
    ]);
    expect(await entries('top-hits', 'search=Shoes&limit=1')).toEqual([{ hit: first, count: 1 }]);
    expect(await entries('top-hits', 'search=boots')).toEqual([]);
  });

  it('searches-with-no-results: {search, count, withFilterCount}', async () => {
    expect(await entries('searches-with-no-results')).toEqual([
      { search: 'boots', count: 4, withFilterCount: 3 },
      { search: 'edge', count: 1, withFilterCount: 0 },
      { search: 'shoes', count: 1, withFilterCount: 1 },
    ]);
  });

  it('top-filters-no-result-search: the filter combinations of one no-result search (search required)', async () => {
    expect(await entries('top-filters-no-result-search', 'search=boots')).toEqual([
      { count: 2, values: [{ attribute: 'color', operator: ':', value: 'red' }] },
      {
        count: 1,
        values: [
          { attribute: 'brand', operator: ':', value: 'acme' },
          { attribute: 'brand', operator: ':', value: 'zeta' },
          { attribute: 'color', operator: ':', value: 'red' },
        ],
      },
    ]);
    expect(await entries('top-filters-no-result-search', 'search=shoes')).toEqual([{ count: 1, values: [{ attribute: 'color', operator: ':', value: 'green' }] }]);
    expect(await entries('top-filters-no-result-search', 'search=edge')).toEqual([]);
    expect(expectError(await report('top-filters-no-result-search'), 400)).toMatchObject({ code: 'SEARCH_REQUIRED', property: 'search' });
  });
});

describe('parameters', () => {
  const count = async (q: string, index = I) => {
    const res = await report('searches-count', q, index);
    expect(res.status, res.text).toBe(200);
    return res.body.count;
  };

  it('startDate / endDate: whole UTC days, inclusive; dates list every day', async () => {
    expect(await count('startDate=2031-05-11&endDate=2031-05-11')).toBe(1);
    expect(await count('startDate=2031-05-11')).toBe(11);
    expect(await count('endDate=2031-05-18')).toBe(7);
    expect(await count('startDate=2031-05-18&endDate=2031-05-18')).toBe(6);
    const res = await report('searches-count', 'startDate=2031-05-10&endDate=2031-05-12');
    expect(res.body.dates).toEqual([
      { date: '2031-05-10', count: 0 },
      { date: '2031-05-11', count: 1 },
      { date: '2031-05-12', count: 1 },
    ]);
  });

  it('invalid dates, a start after the end, or a period over 366 days: 400', async () => {
    for (const q of ['startDate=2031-5-1', 'startDate=2031-02-30', 'endDate=tomorrow', 'startDate=2031-05-19T00:00:00Z', 'startDate=']) {
      const error = expectError(await report('searches-count', q), 400);
      expect(error.code, q).toBe('INVALID_DATE');
    }
    expect(expectError(await report('searches-count', 'startDate=2031-05-19&endDate=2031-05-18'), 400)).toMatchObject({ code: 'INVALID_DATE_RANGE', property: 'startDate' });
    expect(expectError(await report('top-searches', 'startDate=2031-05-20'), 400).code).toBe('INVALID_DATE_RANGE');
    expect(await count('startDate=2030-05-19&endDate=2031-05-19')).toBe(11);
    expect(expectError(await report('searches-count', 'startDate=2030-05-18&endDate=2031-05-19'), 400).code).toBe('INVALID_DATE_RANGE');
  });

  it('tags: one tag, AND, OR, parentheses and quotes; URL-encoded', async () => {
    expect(await count('tags=web')).toBe(6);
    expect(await count('tags=mobile')).toBe(3);
    expect(await count(`tags=${encodeURIComponent('web AND mobile')}`)).toBe(1);
    expect(await count('tags=web+AND+mobile')).toBe(1);
    expect(await count(`tags=${encodeURIComponent('web OR mobile')}`)).toBe(8);
    expect(await count(`tags=${encodeURIComponent('mobile OR web AND mobile')}`)).toBe(3);
    expect(await count(`tags=${encodeURIComponent('(web OR mobile) AND mobile')}`)).toBe(3);
    expect(await count(`tags=${encodeURIComponent('"web"')}`)).toBe(6);
    expect(await count('tags=WEB')).toBe(0);
    expect(await count('tags=')).toBe(10);
    expect((await entries('top-searches', 'tags=web')).map((e: any) => [e.search, e.count])).toEqual([
      ['boots', 3],
      ['shoes', 2],
      ['Shoes', 1],
    ]);
    expect((await report('users-count', 'tags=mobile')).body.count).toBe(3);
    for (const tags of ['web AND', '(web', 'web mobile', 'AND web', 'web)', '"web']) {
      expect(expectError(await report('searches-count', `tags=${encodeURIComponent(tags)}`), 400), tags).toMatchObject({ code: 'INVALID_TAGS', property: 'tags' });
    }
  });

  it('includeReplicas: false by default; true adds the replicas searches; only on a primary', async () => {
    expect(await count('includeReplicas=false')).toBe(10);
    expect(await count('includeReplicas=true')).toBe(11);
    expect((await report('users-count', 'includeReplicas=true')).body.count).toBe(7);
    expect((await entries('top-searches', 'includeReplicas=true')).find((e: any) => e.search === 'red')).toEqual({ search: 'red', count: 1, nbHits: 2 });
    expect(await count('', R)).toBe(1);
    expect(await count('includeReplicas=false', R)).toBe(1);
    expect(expectError(await report('searches-count', 'includeReplicas=true', R), 400)).toMatchObject({ code: 'REPLICA_INDEX', property: 'includeReplicas' });
    expect(errorProperties(await report('searches-count', 'includeReplicas=yes'))).toEqual(['includeReplicas']);
  });

  it('limit (0..1000) and offset (>= 0) must be whole numbers', async () => {
    for (const q of ['limit=-1', 'limit=1001', 'limit=ten', 'limit=1.5', 'offset=-1', 'offset=x']) {
      expect(errorProperties(await report('top-searches', q)), q).toEqual([q.split('=')[0]]);
    }
    expect(await entries('top-searches', 'limit=1000')).toHaveLength(5);
  });

  it('clickAnalytics, orderBy, direction: allowed values; rate orders need clickAnalytics=true', async () => {
    expect(errorProperties(await report('top-searches', 'clickAnalytics=1'))).toEqual(['clickAnalytics']);
    expect(errorProperties(await report('top-searches', 'orderBy=popularity'))).toEqual(['orderBy']);
    expect(errorProperties(await report('top-searches', 'direction=up'))).toEqual(['direction']);
    for (const orderBy of ['clickThroughRate', 'conversionRate', 'averageClickPosition']) {
      expect(expectError(await report('top-searches', `orderBy=${orderBy}`), 400)).toMatchObject({ code: 'CLICK_ANALYTICS_REQUIRED', property: 'orderBy' });
    }
  });

  it('an unknown report is 404', async () => {
    expectError(await report('top-everything'), 404);
  });
});

describe('the 1000 entry cap of top lists', () => {
  it('only the 1000 most frequent entries exist; offset and limit page within them', async () => {
    const index = await createIndex(admin, s.hubId);
    const texts = Array.from({ length: 1001 }, (_, i) => `q-${String(i).padStart(4, '0')}`);
    const all = [...texts, 'q-0500', 'q-0500'];
    for (let i = 0; i < all.length; i += 25) await Promise.all(all.slice(i, i + 25).map((query) => search(admin, index.id, { query })));
    expect((await report('searches-count', '', index)).body.count).toBe(1003);
    expect(await entries('top-searches', 'limit=1', index)).toEqual([{ search: 'q-0500', count: 3, nbHits: 0 }]);
    expect((await entries('top-searches', 'limit=10&offset=999', index)).map((e: any) => e.search)).toEqual(['q-0999']);
    expect(await entries('top-searches', 'offset=1000', index)).toEqual([]);
    expect((await entries('top-searches', 'limit=1000', index)).some((e: any) => e.search === 'q-1000')).toBe(false);
    expect((await entries('top-searches', 'orderBy=searchCount&direction=asc&limit=1', index))[0].search).toBe('q-0000');
    expect((await entries('searches-with-no-results', 'limit=1000', index)).length).toBe(1000);
  });
});
