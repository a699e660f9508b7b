import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, ok, startServer, unique, type Reply, type TestServer } from '../../helpers/server.js';
import { expectError } from '../../helpers/assert.js';
import { SCHEMA_HOST, createContentRepo, createContentType, itemBody } from '../../helpers/content.js';
import { FN } from '../../../src/server/core/auth/permissions.js';

// Facets (POST /hubs/{hubId}/content-items/facet): ENUM and DATE facets, their filters and
// ranges, counts over every matching item, returnEntities, paging and errors. Items get chosen
// dates from the sandbox clock, frozen and set before each is created.

const NOW = '2024-06-30T12:00:00.000Z';

let srv: TestServer;
let admin: Api;
let hubId: string;
let fruitUri: string;
let recipeUri: string;
let fruitRepo: string;
let recipeRepo: string;
let todo: string;
let done: string;

async function setClock(iso: string): Promise<void> {
  const res = await admin.post('/__sandbox/clock', { set: iso });
  if (res.status !== 200) throw new Error(`clock set failed: ${res.status} ${res.text}`);
}

interface Seed {
  created: string;
  repo?: 'fruit' | 'recipe';
  locale?: string;
  assignees?: string[];
  fields?: Record<string, unknown>;
  workflow?: () => string;
  modified?: string;
  archived?: boolean;
}

async function seed(label: string, s: Seed): Promise<void> {
  await setClock(s.created);
  const recipe = s.repo === 'recipe';
  let item = await ok(
    admin.post(`/content-repositories/${recipe ? recipeRepo : fruitRepo}/content-items`, {
      label,
      body: itemBody(recipe ? recipeUri : fruitUri, s.fields ?? {}),
      ...(s.locale ? { locale: s.locale } : {}),
      ...(s.assignees ? { assignees: s.assignees } : {}),
    }),
  );
  if (s.workflow) item = await ok(admin.patch(`/content-items/${item.id}/workflow`, { version: item.version, state: s.workflow() }));
  if (s.archived) item = await ok(admin.post(`/content-items/${item.id}/archive`, { version: item.version }));
  if (s.modified) {
    await setClock(s.modified);
    await ok(admin.patch(`/content-items/${item.id}`, { label, version: item.version }));
  }
}

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  hubId = (await createHub(admin)).id;
  const fruit = await createContentType(admin, hubId, `${SCHEMA_HOST}/${unique('fruit')}.json`);
  const recipe = await createContentType(admin, hubId, `${SCHEMA_HOST}/${unique('recipe')}.json`);
  fruitUri = fruit.uri;
  recipeUri = recipe.uri;
  fruitRepo = (await createContentRepo(admin, hubId, fruit.id, ['en-GB', 'fr-FR'])).id;
  recipeRepo = (await createContentRepo(admin, hubId, recipe.id)).id;
  todo = (await ok(admin.post(`/hubs/${hubId}/workflow-states`, { label: 'Todo', color: 'rgb(1,2,3)' }))).id;
  done = (await ok(admin.post(`/hubs/${hubId}/workflow-states`, { label: 'Done', color: 'rgb(4,5,6)' }))).id;

  await ok(admin.post('/__sandbox/clock', { freeze: true }));
  await seed('Old apple', { created: '2023-01-15T10:00:00.000Z', locale: 'en-GB', assignees: ['u1'], modified: '2024-06-29T00:00:00.000Z' });
  await seed('Spring pear', { created: '2024-04-10T09:00:00.000Z', locale: 'fr-FR', assignees: ['u1', 'u2'], fields: { tags: ['green', 'sweet'] }, workflow: () => todo });
  await seed('June plum', { created: '2024-06-05T08:00:00.000Z', locale: 'en-GB', fields: { tags: ['sweet'] }, workflow: () => done });
  await seed('Archived fig', { created: '2024-06-20T00:00:00.000Z', locale: 'en-GB', archived: true });
  await seed('Recent cake', { created: '2024-06-25T12:00:00.000Z', repo: 'recipe', assignees: ['u2'], fields: { tags: ['sweet'], count: 3 } });
  await seed('Today pie', { created: '2024-06-30T11:00:00.000Z', repo: 'recipe', workflow: () => todo });
  await setClock(NOW);

  // Another hub's item must never be counted.
  const otherHub = (await createHub(admin)).id;
  const otherType = await createContentType(admin, otherHub);
  const otherRepo = await createContentRepo(admin, otherHub, otherType.id);
  await ok(admin.post(`/content-repositories/${otherRepo.id}/content-items`, { label: 'Elsewhere', body: itemBody(otherType.uri, { tags: ['sweet'] }) }));
});

afterAll(async () => {
  await srv?.stop();
});

type FacetField = Record<string, unknown>;

const facet = (fields: FacetField[], opts: { returnEntities?: boolean; params?: Record<string, string>; api?: Api } = {}) =>
  (opts.api ?? admin).post(`/hubs/${hubId}/content-items/facet?${new URLSearchParams(opts.params ?? {})}`, { fields, returnEntities: opts.returnEntities ?? false });

/** The answer's facet counts and page, after checking the status. */
async function run(fields: FacetField[], opts: Parameters<typeof facet>[1] = {}) {
  const res = await facet(fields, opts);
  expect(res.status, res.text).toBe(200);
  return res.body as { _facets: Record<string, { _id: string; count: number }[]>; page: { totalElements: number; size: number; totalPages: number; number: number }; _embedded: { 'content-items': any[] }; _links: any };
}

const total = async (fields: FacetField[], params?: Record<string, string>) => (await run(fields, { params })).page.totalElements;
const labels = async (fields: FacetField[], params: Record<string, string> = {}) =>
  (await run(fields, { returnEntities: true, params: { size: '50', ...params } }))._embedded['content-items'].map((i) => i.label);
const enumFacet = (field: string, filter?: Record<string, unknown>, name?: string): FacetField => ({ facetAs: 'ENUM', field, ...(filter ? { filter } : {}), ...(name ? { name } : {}) });
const dateFilter = (field: string, values: string[], extra: Record<string, unknown> = {}): FacetField => ({ facetAs: 'DATE', field, filter: { type: 'DATE', values, ...extra } });

describe('ENUM facets count items per value, over every active item of the hub', () => {
  it.each<[string, { _id: () => string; count: number }[]]>([
    ['schema', [{ _id: () => fruitUri, count: 3 }, { _id: () => recipeUri, count: 2 }]],
    ['locale', [{ _id: () => 'en-GB', count: 2 }, { _id: () => 'fr-FR', count: 1 }]],
    ['assignees', [{ _id: () => 'u1', count: 2 }, { _id: () => 'u2', count: 2 }]],
    ['contentRepositoryId', [{ _id: () => fruitRepo, count: 3 }, { _id: () => recipeRepo, count: 2 }]],
    ['workflow.state', [{ _id: () => todo, count: 2 }, { _id: () => done, count: 1 }]],
    ['publishingStatus', [{ _id: () => 'NONE', count: 5 }]],
    ['folderId', []],
    ['body.tags', [{ _id: () => 'sweet', count: 3 }, { _id: () => 'green', count: 1 }]],
    ['body.count', [{ _id: () => '3', count: 1 }]],
    ['body._meta.schema', [{ _id: () => fruitUri, count: 3 }, { _id: () => recipeUri, count: 2 }]],
  ])('%s', async (field, expected) => {
    const body = await run([enumFacet(field)]);
    expect(body._facets[field]).toEqual(expected.map((e) => ({ _id: e._id(), count: e.count })).sort((a, b) => b.count - a.count || (a._id < b._id ? -1 : 1)));
    expect(body.page.totalElements).toBe(5);
  });

  it('a status facet counts every status (it lifts the active-only default)', async () => {
    expect((await run([enumFacet('status')]))._facets.status).toEqual([
      { _id: 'ACTIVE', count: 5 },
      { _id: 'ARCHIVED', count: 1 },
    ]);
  });

  it('several facets answer under their names (or fields)', async () => {
    const body = await run([enumFacet('schema', undefined, 'types'), enumFacet('locale')]);
    expect(Object.keys(body._facets).sort()).toEqual(['locale', 'types']);
    expect(body._facets.types).toHaveLength(2);
  });
});

describe('ENUM filters restrict the items, and every count follows', () => {
  it.each<[string, Record<string, unknown>, string, string[]]>([
    ['IN', { type: 'IN', values: ['en-GB'] }, 'locale', ['Old apple', 'June plum']],
    ['IN with missing', { type: 'IN', values: ['en-GB'], includeWithMissingField: true }, 'locale', ['Old apple', 'June plum', 'Recent cake', 'Today pie']],
    ['EQ', { type: 'EQ', values: ['fr-FR'] }, 'locale', ['Spring pear']],
    ['EXCLUDES keeps items without the field', { type: 'EXCLUDES', values: ['fr-FR'] }, 'locale', ['Old apple', 'June plum', 'Recent cake', 'Today pie']],
    ['EXCLUDES without missing', { type: 'EXCLUDES', values: ['fr-FR'], includeWithMissingField: false }, 'locale', ['Old apple', 'June plum']],
    ['IN on an array field', { type: 'IN', values: ['u2'] }, 'assignees', ['Spring pear', 'Recent cake']],
    ['IN with two values', { type: 'IN', values: ['u1', 'u2'] }, 'assignees', ['Old apple', 'Spring pear', 'Recent cake']],
    ['EXCLUDES on an array field', { type: 'EXCLUDES', values: ['u1'] }, 'assignees', ['June plum', 'Recent cake', 'Today pie']],
    ['IN on workflow.state', { type: 'IN', values: ['TODO_ID'] }, 'workflow.state', ['Spring pear', 'Today pie']],
    ['IN on a body array', { type: 'IN', values: ['sweet'] }, 'body.tags', ['Spring pear', 'June plum', 'Recent cake']],
    ['IN on a body number', { type: 'IN', values: ['3'] }, 'body.count', ['Recent cake']],
    ['IN on status finds archived items', { type: 'IN', values: ['ARCHIVED'] }, 'status', ['Archived fig']],
  ])('%s', async (_name, filter, field, expected) => {
    const values = (filter.values as string[]).map((v) => (v === 'TODO_ID' ? todo : v));
    expect((await labels([enumFacet(field, { ...filter, values })], { 'createdDate.dir': 'asc' }))).toEqual(expected);
  });

  it('counts are taken after every filter, across all facets', async () => {
    const body = await run([enumFacet('schema', { type: 'IN', values: [fruitUri] }), enumFacet('assignees', { type: 'IN', values: ['u1'] }), enumFacet('locale')]);
    expect(body.page.totalElements).toBe(2);
    expect(body._facets.schema).toEqual([{ _id: fruitUri, count: 2 }]);
    expect(body._facets.assignees).toEqual([
      { _id: 'u1', count: 2 },
      { _id: 'u2', count: 1 },
    ]);
    expect(body._facets.locale).toEqual([
      { _id: 'en-GB', count: 1 },
      { _id: 'fr-FR', count: 1 },
    ]);
  });
});

describe('DATE facets count items per range, on the sandbox clock', () => {
  it('a filter value "-7:DAYS,NOW" keeps the last 7 days and counts them', async () => {
    const body = await run([dateFilter('createdDate', ['-7:DAYS,NOW'])], { returnEntities: true });
    expect(body._facets.createdDate).toEqual([{ _id: '-7:DAYS,NOW', count: 2 }]);
    expect(body._embedded['content-items'].map((i) => i.label).sort()).toEqual(['Recent cake', 'Today pie']);
  });

  it('a range counts without filtering ({start: NOW, end: -30:DAYS}, as hosted clients send it)', async () => {
    const body = await run([{ facetAs: 'DATE', field: 'createdDate', name: 'createdDate:Last 30 days', range: { start: 'NOW', end: '-30:DAYS' } }]);
    expect(body._facets['createdDate:Last 30 days']).toEqual([{ _id: 'NOW,-30:DAYS', count: 3 }]);
    expect(body.page.totalElements).toBe(5);
  });

  it('several ranges: one count each, items in any of them', async () => {
    const body = await run([dateFilter('createdDate', ['-7:DAYS,NOW', '-30:DAYS,-7:DAYS', '-100:YEARS,-30:DAYS'])]);
    expect(body._facets.createdDate).toEqual([
      { _id: '-7:DAYS,NOW', count: 2 },
      { _id: '-30:DAYS,-7:DAYS', count: 1 },
      { _id: '-100:YEARS,-30:DAYS', count: 2 },
    ]);
    expect(body.page.totalElements).toBe(5);
  });

  it.each<[string, string[], number]>([
    ['ISO dates, a whole day at each end', ['2024-04-01,2024-04-30'], 1],
    ['one day', ['2024-06-05,2024-06-05'], 1],
    ['instants', ['2024-06-25T12:00:00Z,2024-06-30T11:00:00Z'], 2],
    ['an open start', [',2024-01-01'], 1],
    ['an open end', ['2024-06-01,'], 3],
    ['years', ['-1:YEARS,NOW'], 4],
    ['months', ['-3:MONTHS,NOW'], 4],
    ['hours, either order', ['NOW,-2:HOURS'], 1],
    ['singular units and lower case', ['-1:week,now'], 2],
    ['the day shorthand -7:NOW', ['-7:NOW'], 2],
    ['the day shorthand -30:-7', ['-30:-7'], 1],
    ['the day shorthand NOW-1:NOW+1', ['NOW-1:NOW+1'], 1],
  ])('%s: %j', async (_name, values, count) => {
    const body = await run([dateFilter('createdDate', values)]);
    expect(body.page.totalElements).toBe(count);
    expect(body._facets.createdDate[0]!.count).toBe(count);
  });

  it('lastModifiedDate follows changes: an old item modified yesterday is recent', async () => {
    expect(await labels([dateFilter('lastModifiedDate', ['-7:DAYS,NOW'])], { 'createdDate.dir': 'asc' })).toEqual(['Old apple', 'Recent cake', 'Today pie']);
  });

  it('includeWithMissingField keeps items without the date (nothing is published)', async () => {
    expect(await total([dateFilter('lastPublishedDate', ['-7:DAYS,NOW'])])).toBe(0);
    expect(await total([dateFilter('lastPublishedDate', ['-7:DAYS,NOW'], { includeWithMissingField: true })])).toBe(5);
  });

  it('DATE and ENUM filters combine', async () => {
    const body = await run([dateFilter('createdDate', ['-30:DAYS,NOW']), enumFacet('schema', { type: 'IN', values: [recipeUri] }), enumFacet('assignees')]);
    expect(body.page.totalElements).toBe(2);
    expect(body._facets.assignees).toEqual([{ _id: 'u2', count: 1 }]);
  });
});

describe('the answer', () => {
  it('without returnEntities: an empty page of content-items with the full counts', async () => {
    const body = await run([enumFacet('schema')], { params: { size: '2' } });
    expect(body._embedded['content-items']).toEqual([]);
    expect(body.page).toEqual({ size: 2, totalElements: 5, totalPages: 3, number: 0 });
    expect(body._links.self.href).toContain(`/hubs/${hubId}/content-items/facet`);
  });

  it('with returnEntities: items in the basic projection (no body, with schema)', async () => {
    const [first] = (await run([enumFacet('schema')], { returnEntities: true, params: { size: '1', 'createdDate.dir': 'asc' } }))._embedded['content-items'];
    expect(first.label).toBe('Old apple');
    expect(first).not.toHaveProperty('body');
    expect(first.schema).toBe(fruitUri);
    expect(first._links.self.href).toBe(`${admin.base}/content-items/${first.id}`);
  });

  it('pages the items; counts always cover every match', async () => {
    const page0 = await run([enumFacet('schema')], { returnEntities: true, params: { size: '2', 'createdDate.dir': 'asc' } });
    const page2 = await run([enumFacet('schema')], { returnEntities: true, params: { size: '2', page: '2', 'createdDate.dir': 'asc' } });
    expect(page0._embedded['content-items'].map((i) => i.label)).toEqual(['Old apple', 'Spring pear']);
    expect(page2._embedded['content-items'].map((i) => i.label)).toEqual(['Today pie']);
    expect(page2._facets).toEqual(page0._facets);
    expect(page0._links.next.href).toContain('page=1');
    expect(page2._links).not.toHaveProperty('next');
  });

  it('createdDate.dir and sort order the items', async () => {
    expect(await labels([], { 'createdDate.dir': 'desc' })).toEqual(['Today pie', 'Recent cake', 'June plum', 'Spring pear', 'Old apple']);
    expect(await labels([], { sort: 'label,asc' })).toEqual(['June plum', 'Old apple', 'Recent cake', 'Spring pear', 'Today pie']);
    expect(await labels([], { sort: 'lastModifiedDate,desc' })).toEqual(['Today pie', 'Old apple', 'Recent cake', 'June plum', 'Spring pear']);
  });

  it('the query parameter applies the text search first', async () => {
    const body = await run([enumFacet('schema')], { returnEntities: true, params: { query: 'sweet' } });
    expect(body._embedded['content-items'].map((i) => i.label).sort()).toEqual(['June plum', 'Recent cake', 'Spring pear']);
    expect(body._facets.schema).toEqual([
      { _id: fruitUri, count: 2 },
      { _id: recipeUri, count: 1 },
    ]);
    expect(await total([enumFacet('schema')], { query: 'status:archived' })).toBe(1);
    expect(await total([enumFacet('schema')], { query: `contentRepositoryId:"${recipeRepo}"` })).toBe(2);
  });

  it('the hub link facet-content-items names the operation', async () => {
    const hub = (await admin.get(`/hubs/${hubId}`)).body;
    expect(hub._links['facet-content-items']).toEqual({ href: `${admin.base}/hubs/${hubId}/content-items/facet{?query,page,projection,size,sort,createdDate.dir}`, templated: true });
  });
});

describe('errors', () => {
  it.each<[string, unknown, string]>([
    ['fields missing', { returnEntities: true }, 'fields'],
    ['fields not an array', { fields: 'schema' }, 'fields'],
    ['an unknown facetAs', { fields: [{ facetAs: 'RANGE', field: 'schema' }] }, 'fields.0.facetAs'],
    ['an unknown ENUM field', { fields: [enumFacet('colour')] }, 'fields.0.field'],
    ['a body path with a quote', { fields: [enumFacet('body."x')] }, 'fields.0.field'],
    ['a body path with a control character', { fields: [enumFacet('body.a\u0000b')] }, 'fields.0.field'],
    ['a body path with an empty name', { fields: [enumFacet('body..x')] }, 'fields.0.field'],
    ['an unknown filter type', { fields: [enumFacet('locale', { type: 'LIKE', values: ['en'] })] }, 'fields.0.filter.type'],
    ['EQ with two values', { fields: [enumFacet('locale', { type: 'EQ', values: ['en-GB', 'fr-FR'] })] }, 'fields.0.filter.values'],
    ['no filter values', { fields: [enumFacet('locale', { type: 'IN', values: [] })] }, 'fields.0.filter.values'],
    ['an unknown DATE field', { fields: [dateFilter('publishDate', ['-7:DAYS,NOW'])] }, 'fields.0.field'],
    ['a DATE facet without range or filter', { fields: [{ facetAs: 'DATE', field: 'createdDate' }] }, 'fields.0'],
    ['a range value that is not a range', { fields: [dateFilter('createdDate', ['last week'])] }, 'fields.0.filter.values.0'],
    ['a range without a comma', { fields: [dateFilter('createdDate', ['NOW'])] }, 'fields.0.filter.values.0'],
    ['an unknown unit', { fields: [dateFilter('createdDate', ['-7:FORTNIGHTS,NOW'])] }, 'fields.0.filter.values.0'],
    ['a day that does not exist', { fields: [dateFilter('createdDate', ['2024-02-30,2024-03-01'])] }, 'fields.0.filter.values.0'],
    ['a date-time without a zone', { fields: [dateFilter('createdDate', ['2024-02-01T10:00,NOW'])] }, 'fields.0.filter.values.0'],
    ['a bad range bound', { fields: [{ facetAs: 'DATE', field: 'createdDate', range: { start: 'yesterday' } }] }, 'fields.0.range.start'],
    ['two facets with one name', { fields: [enumFacet('locale'), enumFacet('locale')] }, 'fields'],
  ])('%s is 400 naming the property', async (_name, body, property) => {
    const res = await admin.post(`/hubs/${hubId}/content-items/facet`, body);
    expect(expectError(res, 400).property).toBe(property);
  });

  it('a bad createdDate.dir, sort or query is 400', async () => {
    expect(expectError(await facet([], { params: { 'createdDate.dir': 'up' } }), 400).property).toBe('createdDate.dir');
    expect(expectError(await facet([], { params: { sort: 'version,asc' } }), 400).property).toBe('sort');
    expect(expectError(await facet([], { params: { query: ':x' } }), 400).property).toBe('query');
  });

  it('an unknown hub is 404', async () => {
    expectError(await admin.post('/hubs/000000000000000000000000/content-items/facet', { fields: [] }), 404);
  });

  it('a client without CONTENT:FUNCTIONAL:CONTENT_ITEM:READ gets 403; a reader gets the answer', async () => {
    const acl = [{ resource: 'hubs' as const, id: hubId, permissions: ['READ'] }];
    const noRead = await admin.client(unique('nofacet'), [FN('REPOSITORY', 'READ')], acl);
    expectError(await facet([enumFacet('schema')], { api: noRead }), 403);
    const reader = await admin.client(unique('facet'), [FN('CONTENT_ITEM', 'READ')], acl);
    expect((await facet([enumFacet('schema')], { api: reader })).status).toBe(200);
  });
});
