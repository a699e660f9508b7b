import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';
import { HEX_ID, ISO_MILLIS, errorProperties, expectError } from '../../helpers/assert.js';
import { contentSetup, createContentType } from '../../helpers/content.js';
import { createIndex, enableSearchModule, indexesPath, publishItem, queryPath, search, searchSetup, waitForRecords, type SearchSetup } from '../../helpers/search-indexes.js';

// Search indexes (description "Search indexes (third-party search provider)", wire contract's
// search indexes row): every operation and validation rule. Records arrive through the index's
// webhooks when items of an assigned type are published.

let srv: TestServer;
let admin: Api;
let s: SearchSetup;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  s = await searchSetup(admin);
});

afterAll(async () => {
  await srv?.stop();
});

const FORBIDDEN = ['/', '~', ',', '\\', '`', '&', '|', ';', '$', '*'];
const REPORTS = ['top-searches', 'top-hits', 'searches-with-no-results', 'top-filters-no-result-search', 'users-count', 'searches-count', 'no-results-rate'];

const body = (fields: Record<string, unknown> = {}) => ({ suffix: unique('ix'), label: 'An index', type: 'STAGING', assignedContentTypes: [], ...fields });
const create = (fields: Record<string, unknown> = {}, hubId = s.hubId) => admin.post(indexesPath(hubId), body(fields));

describe('create', () => {
  it('needs the search index module on the hub (400 with a clear code until it is enabled)', async () => {
    const hub = await createHub(admin);
    const refused = await create({}, hub.id);
    expect(expectError(refused, 400)).toMatchObject({ code: 'SEARCH_INDEX_MODULE_DISABLED', entity: 'Hub' });
    expect((await admin.get(indexesPath(hub.id))).body._embedded.indexes).toEqual([]);
    await enableSearchModule(admin, hub.id);
    expect((await create({}, hub.id)).status).toBe(201);
  });

  it('answers 201 + Location with the index named <hubName>.<suffix>', async () => {
    const suffix = unique('products');
    const res = await create({ suffix, label: 'Products', type: 'PRODUCTION' });
    expect(res.status, res.text).toBe(201);
    const index = res.body;
    expect(res.headers.get('location')).toBe(index._links.self.href);
    expect(index).toMatchObject({ name: `${s.hubName}.${suffix}`, suffix, label: 'Products', type: 'PRODUCTION', status: 'ACTIVE', parentId: null, replicaCount: 0 });
    expect(index.id).toMatch(HEX_ID);
    expect(index.createdDate).toMatch(ISO_MILLIS);
    expect(index.lastModifiedDate).toBe(index.createdDate);
    expect(Object.keys(index).sort()).toEqual(['_links', 'createdDate', 'id', 'label', 'lastModifiedDate', 'name', 'parentId', 'replicaCount', 'status', 'suffix', 'type']);
  });

  it('links name every operation an active primary offers, templated where parameters go', async () => {
    const index = (await create()).body;
    const self = `${admin.base}${indexesPath(s.hubId)}/${index.id}`;
    const l = index._links;
    expect(l.self.href).toBe(self);
    expect(l.index.href).toBe(self);
    expect(l.hub.href).toBe(`${admin.base}/hubs/${s.hubId}`);
    expect(l.update.href).toBe(self);
    expect(l.delete.href).toBe(self);
    expect(l.archive.href).toBe(`${self}/archive`);
    expect(l.unarchive).toBeUndefined();
    expect(l.settings.href).toBe(`${self}/settings`);
    expect(l['update-settings']).toEqual({ href: `${self}/settings{?forwardToReplicas}`, templated: true });
    expect(l.stats).toEqual({ href: `${self}/stats{?period}`, templated: true });
    expect(l.clear.href).toBe(`${self}/clear`);
    expect(l['assigned-content-types'].href).toBe(`${self}/assigned-content-types`);
    expect(l['create-assigned-content-types'].href).toBe(`${self}/assigned-content-types`);
    expect(l['list-replicas']).toEqual({ href: `${admin.base}${indexesPath(s.hubId)}?parentId=${index.id}{&projection,page,size,sort}`, templated: true });
    expect(l['hub-search-key'].href).toMatch(new RegExp(`^${self}/keys/[0-9a-f]{24}$`));
    expect(l['top-searches']).toEqual({ href: `${self}/analytics/top-searches{?clickAnalytics,orderBy,direction,limit,offset,startDate,endDate,tags,includeReplicas}`, templated: true });
    expect(l['top-hits'].href).toBe(`${self}/analytics/top-hits{?search,limit,offset,startDate,endDate,tags,includeReplicas}`);
    expect(l['top-filters-no-result-search'].href).toBe(`${self}/analytics/top-filters-no-result-search{?search,limit,offset,startDate,endDate,tags,includeReplicas}`);
    for (const report of REPORTS) expect(l[report]?.templated, report).toBe(true);
  });

  it('the hub offers search-indexes and create-search-index', async () => {
    const hub = (await admin.get(`/hubs/${s.hubId}`)).body;
    expect(hub._links['search-indexes']).toEqual({ href: `${admin.base}${indexesPath(s.hubId)}{?parentId,projection,page,size,sort,status}`, templated: true });
    expect(hub._links['create-search-index'].href).toBe(`${admin.base}${indexesPath(s.hubId)}`);
  });

  it('settings answer 200 right after create', async () => {
    const index = (await create()).body;
    const res = await admin.get(index._links.settings.href);
    expect(res.status).toBe(200);
    expect(res.body.replicas).toEqual([]);
  });

  it('suffix: 3..63 characters', async () => {
    for (const suffix of ['ab', 'x'.repeat(64), '']) {
      const res = await create({ suffix });
      expect(expectError(res, 400).property, suffix).toBe('suffix');
    }
    expect((await create({ suffix: `a${unique('')}`.slice(0, 3) })).status).toBe(201);
    expect((await create({ suffix: unique('s').padEnd(63, 'z') })).status).toBe(201);
  });

  it.each(FORBIDDEN)('suffix must not contain %s', async (character) => {
    const res = await create({ suffix: `bad${character}suffix` });
    const error = expectError(res, 400);
    expect(error.property).toBe('suffix');
    expect(error.message).toContain(`'${character}'`);
  });

  // The description forbids exactly / ~ , \ ` & | ; $ *: whitespace is not among them.
  it.each([' ', '\t'])('suffix may contain whitespace (%j) and other punctuation', async (space) => {
    const res = await create({ suffix: unique(`a.b_c-d${space}e`) });
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe(`${s.hubName}.${res.body.suffix}`);
  });

  // Lengths count characters (code points), not UTF-16 units: an emoji is one character.
  it('suffix and label lengths count code points', async () => {
    const emoji = '\u{1F600}';
    expect(expectError(await create({ suffix: emoji.repeat(2) }), 400).property).toBe('suffix');
    expect(expectError(await create({ suffix: emoji.repeat(64) }), 400).property).toBe('suffix');
    const tag = unique('e'); // 63 characters in all, 40 of them emoji (80 UTF-16 units)
    const wide = await create({ suffix: emoji.repeat(40) + tag.padEnd(23, 'z'), label: emoji.repeat(63) });
    expect(wide.status, wide.text).toBe(201);
    expect(errorProperties(await create({ label: emoji.repeat(2) }))).toEqual(['label']);
    expect(errorProperties(await create({ label: emoji.repeat(64) }))).toEqual(['label']);
    const index = (await create()).body;
    expect((await admin.patch(`${indexesPath(s.hubId)}/${index.id}`, { label: emoji.repeat(3) })).body.label).toBe(emoji.repeat(3));
  });

  it('label: required, 3..63 characters, not blank', async () => {
    for (const label of ['ab', 'y'.repeat(64), '   ', undefined]) {
      expect(errorProperties(await create({ label }))).toContain('label');
    }
    expect((await create({ label: 'abc' })).status).toBe(201);
    expect((await create({ label: 'L'.repeat(63) })).status).toBe(201);
  });

  it('type: PRODUCTION or STAGING', async () => {
    expect(errorProperties(await create({ type: 'DEV' }))).toEqual(['type']);
    expect(errorProperties(await create({ type: undefined }))).toEqual(['type']);
    expect((await create({ type: 'STAGING' })).body.type).toBe('STAGING');
  });

  it('assignedContentTypes: required; each a content type of the hub, once', async () => {
    expect(errorProperties(await create({ assignedContentTypes: undefined }))).toEqual(['assignedContentTypes']);
    expect(errorProperties(await create({ assignedContentTypes: [{}] }))).toEqual(['assignedContentTypes.0.contentTypeUri']);
    const unknown = expectError(await create({ assignedContentTypes: [{ contentTypeUri: 'https://schemas.example.com/nope.json' }] }), 400);
    expect(unknown).toMatchObject({ code: 'CONTENT_TYPE_NOT_FOUND', property: 'assignedContentTypes.0.contentTypeUri' });
    const twice = expectError(await create({ assignedContentTypes: [{ contentTypeUri: s.uri }, { contentTypeUri: s.uri }] }), 400);
    expect(twice).toMatchObject({ code: 'DUPLICATE_CONTENT_TYPE', property: 'assignedContentTypes.1.contentTypeUri' });
  });

  it('names are unique in a hub (409), not across hubs', async () => {
    const suffix = unique('same');
    expect((await create({ suffix })).status).toBe(201);
    expect(expectError(await create({ suffix }), 409).code).toBe('DUPLICATE_INDEX_NAME');
    const other = await contentSetup(admin);
    await enableSearchModule(admin, other.hubId);
    expect((await create({ suffix }, other.hubId)).status).toBe(201);
  });

  it('a client with search index read only may not create, and sees no change links', async () => {
    const reader = await admin.client(unique('reader'), ['CONTENT:FUNCTIONAL:SEARCH_INDEX:READ'], [{ resource: 'hubs', id: s.hubId, permissions: ['READ'] }]);
    expect(expectError(await reader.post(indexesPath(s.hubId), body()), 403).code).toBe('ACCESS_DENIED');
    const seen = (await reader.get(`${indexesPath(s.hubId)}/${s.index.id}`)).body;
    expect(seen._links.self).toBeDefined();
    expect(seen._links['top-searches']).toBeDefined();
    for (const rel of ['update', 'delete', 'archive', 'clear', 'update-settings', 'create-assigned-content-types']) expect(seen._links[rel], rel).toBeUndefined();
    const stranger = await admin.client(unique('stranger'), ['CONTENT:FUNCTIONAL:SEARCH_INDEX:READ']);
    expectError(await stranger.get(`${indexesPath(s.hubId)}/${s.index.id}`), 404);
  });
});

describe('get, list and the SDK path', () => {
  it('get answers the index; another hub in the path is 404', async () => {
    const res = await admin.get(`${indexesPath(s.hubId)}/${s.index.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: s.index.id, name: s.index.name });
    const other = await createHub(admin);
    expectError(await admin.get(`${indexesPath(other.id)}/${s.index.id}`), 404);
    expectError(await admin.get(`${indexesPath(s.hubId)}/5f00000000000000000000ff`), 404);
  });

  it('the SDK reads an index at /algolia-search/{hubId}/indexes/{id}', async () => {
    const res = await admin.get(`/algolia-search/${s.hubId}/indexes/${s.index.id}`);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(s.index.id);
  });

  it('lists under `indexes`; parentId= gives primaries, parentId=<id> its replicas; status filters; withSettings embeds settings', async () => {
    const setup = await contentSetup(admin);
    await enableSearchModule(admin, setup.hubId);
    const hubName = (await admin.get(`/hubs/${setup.hubId}`)).body.name;
    const primary = await createIndex(admin, setup.hubId, { suffix: 'primary' });
    const other = await createIndex(admin, setup.hubId, { suffix: 'other' });
    await admin.patch(primary._links['update-settings'].href.replace('{?forwardToReplicas}', ''), { replicas: [`${hubName}.replica-a`], hitsPerPage: 7 });
    await admin.post(other._links.archive.href);

    const all = (await admin.get(indexesPath(setup.hubId))).body;
    expect(all._embedded.indexes.map((i: any) => i.suffix)).toEqual(['primary', 'other', 'replica-a']);
    expect(all.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });

    const primaries = (await admin.get(`${indexesPath(setup.hubId)}?parentId=`)).body._embedded.indexes;
    expect(primaries.map((i: any) => i.suffix)).toEqual(['primary', 'other']);
    expect(primaries[0].replicaCount).toBe(1);

    const replicas = (await admin.get(`${indexesPath(setup.hubId)}?parentId=${primary.id}&projection=withSettings`)).body._embedded.indexes;
    expect(replicas).toHaveLength(1);
    expect(replicas[0]).toMatchObject({ name: `${hubName}.replica-a`, parentId: primary.id, settings: { hitsPerPage: 7, primary: primary.name } });

    const archived = (await admin.get(`${indexesPath(setup.hubId)}?status=ARCHIVED`)).body._embedded.indexes;
    expect(archived.map((i: any) => i.suffix)).toEqual(['other']);
    expect((await admin.get(`${indexesPath(setup.hubId)}?status=ACTIVE%2CARCHIVED`)).body.page.totalElements).toBe(3);
    expect((await admin.get(`${indexesPath(setup.hubId)}`)).body._embedded.indexes[0].settings).toBeUndefined();

    const paged = (await admin.get(`${indexesPath(setup.hubId)}?size=2&page=1&sort=name,desc`)).body;
    expect(paged.page).toEqual({ size: 2, totalElements: 3, totalPages: 2, number: 1 });
    expect(paged._embedded.indexes.map((i: any) => i.suffix)).toEqual(['other']);

    expectError(await admin.get(`${indexesPath(setup.hubId)}?status=GONE`), 400);
    expectError(await admin.get(`${indexesPath(setup.hubId)}?projection=everything`), 400);
    expectError(await admin.get(`${indexesPath(setup.hubId)}?sort=secret,asc`), 400);
  });
});

describe('update', () => {
  it('changes the label; the rest of a sent-back index is ignored', async () => {
    const index = (await create({ label: 'Before' })).body;
    const res = await admin.patch(index._links.update.href, { ...index, label: 'After', suffix: 'changed', name: 'x.y', type: 'PRODUCTION', status: 'ARCHIVED', replicaCount: 9 });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('location')).toBe(index._links.self.href);
    expect(res.body).toMatchObject({ label: 'After', suffix: index.suffix, name: index.name, type: 'STAGING', status: 'ACTIVE', replicaCount: 0 });
    expect((await admin.get(index._links.self.href)).body.label).toBe('After');
  });

  it('label 3..63 characters', async () => {
    const index = (await create()).body;
    expect(errorProperties(await admin.patch(index._links.update.href, { label: 'no' }))).toEqual(['label']);
    expect(errorProperties(await admin.patch(index._links.update.href, { label: 'z'.repeat(64) }))).toEqual(['label']);
  });
});

describe('archive and unarchive', () => {
  it('move between ACTIVE and ARCHIVED with links per state and 409 from the wrong state', async () => {
    const index = (await create()).body;
    const archived = await admin.post(index._links.archive.href);
    expect(archived.status).toBe(200);
    expect(archived.body.status).toBe('ARCHIVED');
    const l = archived.body._links;
    expect(l.unarchive.href).toBe(`${index._links.self.href}/unarchive`);
    for (const rel of ['archive', 'update', 'update-settings', 'clear', 'create-assigned-content-types']) expect(l[rel], rel).toBeUndefined();
    expect(l.delete).toBeDefined();
    expect(l.settings).toBeDefined();

    expect(expectError(await admin.post(index._links.archive.href), 409).code).toBe('INDEX_ARCHIVED');
    expect(expectError(await admin.patch(index._links.update.href, { label: 'Nope' }), 409).code).toBe('INDEX_ARCHIVED');
    expect(expectError(await admin.patch(`${index._links.self.href}/settings`, { a: 1 }), 409).code).toBe('INDEX_ARCHIVED');
    expect(expectError(await admin.post(index._links.clear.href, {}), 409).code).toBe('INDEX_ARCHIVED');

    const active = await admin.post(l.unarchive.href);
    expect(active.status).toBe(200);
    expect(active.body.status).toBe('ACTIVE');
    expect(active.body._links.archive).toBeDefined();
    expect(active.body._links.unarchive).toBeUndefined();
    expect(expectError(await admin.post(l.unarchive.href), 409).code).toBe('INDEX_NOT_ARCHIVED');
  });

  it('replicas follow their primary (archiving one directly is 400)', async () => {
    const primary = (await create()).body;
    const replicaName = `${s.hubName}.${unique('rep')}`;
    await admin.patch(`${primary._links.self.href}/settings`, { replicas: [replicaName] });
    const replica = (await admin.get(`${indexesPath(s.hubId)}?parentId=${primary.id}`)).body._embedded.indexes[0];
    expect(replica._links.archive).toBeUndefined();
    expect(expectError(await admin.post(`${replica._links.self.href}/archive`), 400).code).toBe('REPLICA_INDEX');
    await admin.post(primary._links.archive.href);
    expect((await admin.get(replica._links.self.href)).body.status).toBe('ARCHIVED');
    await admin.post(`${primary._links.self.href}/unarchive`);
    expect((await admin.get(replica._links.self.href)).body.status).toBe('ACTIVE');
  });
});

describe('API key', () => {
  it('GET hub-search-key: {id, type HUB_SEARCH, key, applicationId}, random per index and stable', async () => {
    const a = (await create()).body;
    const b = (await create()).body;
    const keyA = await admin.get(a._links['hub-search-key'].href);
    expect(keyA.status).toBe(200);
    expect(keyA.body).toMatchObject({ type: 'HUB_SEARCH', id: a._links['hub-search-key'].href.split('/').pop() });
    expect(keyA.body.key).toMatch(/^[0-9a-f]{32}$/);
    expect(keyA.body.applicationId).toMatch(/^[A-Z0-9]{10}$/);
    expect(keyA.body._links.self.href).toBe(a._links['hub-search-key'].href);
    expect((await admin.get(a._links['hub-search-key'].href)).body.key).toBe(keyA.body.key);
    const keyB = (await admin.get(b._links['hub-search-key'].href)).body;
    expect(keyB.key).not.toBe(keyA.body.key);
    expect(keyB.applicationId).toBe(keyA.body.applicationId);
    expectError(await admin.get(`${a._links.self.href}/keys/5f00000000000000000000ff`), 404);
  });

  it('the key alone authorizes queries on its own index', async () => {
    const index = (await create()).body;
    const key = (await admin.get(index._links['hub-search-key'].href)).body.key;
    const other = (await create()).body;
    expect((await admin.post(queryPath(index.id), { query: '' }, { token: null, headers: { 'x-search-api-key': key } })).status).toBe(200);
    expectError(await admin.post(queryPath(other.id), { query: '' }, { token: null, headers: { 'x-search-api-key': key } }), 401);
    expectError(await admin.post(queryPath(index.id), { query: '' }, { token: null }), 401);
  });
});

describe('settings', () => {
  it('stores any settings verbatim: every key reads back deep-equal; PATCH keeps unsent keys', async () => {
    const index = (await create()).body;
    const settings = {
      searchableAttributes: ['title', 'unordered(description)'],
      attributesForFaceting: ['filterOnly(color)', 'searchable(brand)'],
      customRanking: ['desc(popularity)'],
      hitsPerPage: 12,
      typoTolerance: 'min',
      ranking: ['typo', 'geo', 'words'],
      nested: { deep: { list: [1, 'two', null, { three: true }] } },
      emptyObject: {},
      nothing: null,
    };
    const res = await admin.patch(`${index._links.self.href}/settings`, settings);
    expect(res.status, res.text).toBe(200);
    const read = (await admin.get(index._links.settings.href)).body;
    for (const [key, value] of Object.entries(settings)) expect(read[key], key).toEqual(value);
    expect(read._links.self.href).toBe(index._links.settings.href);

    await admin.patch(`${index._links.self.href}/settings`, { ...read, hitsPerPage: 30, _links: { bogus: true } });
    const again = (await admin.get(index._links.settings.href)).body;
    expect(again.hitsPerPage).toBe(30);
    expect(again.customRanking).toEqual(['desc(popularity)']);
    expect(again._links.bogus).toBeUndefined();
  });

  it('a settings body must be a JSON object', async () => {
    const index = (await create()).body;
    expectError(await admin.patch(`${index._links.self.href}/settings`, [1, 2]), 400);
    expect(errorProperties(await admin.patch(`${index._links.self.href}/settings`, { replicas: 'one' }))).toEqual(['replicas']);
  });

  it('replicas: creates managed replica indexes named exactly as given; dropping a name deletes its replica', async () => {
    const index = (await create({ type: 'PRODUCTION' })).body;
    const names = [`${s.hubName}.${unique('by-price')}`, `${s.hubName}.${unique('by-date')}`];
    const res = await admin.patch(`${index._links.self.href}/settings`, { replicas: names, hitsPerPage: 5 });
    expect(res.status).toBe(200);
    expect(res.body.replicas).toEqual(names);
    const replicas = (await admin.get(index._links['list-replicas'].href.replace('{&projection,page,size,sort}', ''))).body;
    expect(replicas.page.totalPages).toBe(1);
    expect(replicas._embedded.indexes.map((r: any) => r.name)).toEqual(names);
    for (const r of replicas._embedded.indexes) expect(r).toMatchObject({ parentId: index.id, type: 'PRODUCTION', status: 'ACTIVE', suffix: r.name.slice(s.hubName.length + 1), replicaCount: 0 });
    expect((await admin.get(index._links.self.href)).body.replicaCount).toBe(2);
    // A replica starts with its primary's settings (without replicas) and names its primary.
    const replicaSettings = (await admin.get(replicas._embedded.indexes[0]._links.settings.href)).body;
    expect(replicaSettings).toMatchObject({ hitsPerPage: 5, primary: index.name });
    expect(replicaSettings.replicas).toBeUndefined();

    await admin.patch(`${index._links.self.href}/settings`, { replicas: [names[1]] });
    expectError(await admin.get(replicas._embedded.indexes[0]._links.self.href), 404);
    expect((await admin.get(replicas._embedded.indexes[1]._links.self.href)).status).toBe(200);
    expect((await admin.get(index._links.settings.href)).body.replicas).toEqual([names[1]]);
  });

  it('replica names must be <hubName>.<name> with the suffix rules, listed once, not taken (409)', async () => {
    const index = (await create()).body;
    const patch = (replicas: string[]) => admin.patch(`${index._links.self.href}/settings`, { replicas });
    const cases = ['replica-without-hub', `other-hub.${unique('r')}`, `${s.hubName}.ab`, `${s.hubName}.bad/name`, `${s.hubName}.${'\u{1F600}'.repeat(64)}`, `${s.hubName}.${'r'.repeat(64)}`];
    for (const name of cases) {
      const error = expectError(await patch([name]), 400);
      expect(error, name).toMatchObject({ code: 'INVALID_REPLICA_NAME', property: 'replicas.0', invalidValue: name });
    }
    const name = `${s.hubName}.${unique('twice')}`;
    expect(expectError(await patch([name, name]), 400).property).toBe('replicas.1');
    expect(expectError(await patch([index.name]), 400).code).toBe('INVALID_REPLICA_NAME');
    const taken = (await create()).body;
    expect(expectError(await patch([taken.name]), 409).code).toBe('DUPLICATE_INDEX_NAME');
    expect((await admin.get(`${indexesPath(s.hubId)}?parentId=${index.id}`)).body.page.totalElements).toBe(0);
  });

  it('forwardToReplicas=true copies the other keys sent to every replica; false leaves replicas alone', async () => {
    const index = (await create()).body;
    const name = `${s.hubName}.${unique('fwd')}`;
    const settingsUrl = `${index._links.self.href}/settings`;
    await admin.patch(settingsUrl, { replicas: [name], customRanking: ['asc(price)'] });
    const replica = (await admin.get(`${indexesPath(s.hubId)}?parentId=${index.id}`)).body._embedded.indexes[0];
    await admin.patch(`${replica._links.self.href}/settings`, { ranking: ['custom'] });

    await admin.patch(`${settingsUrl}?forwardToReplicas=false`, { hitsPerPage: 3 });
    expect((await admin.get(replica._links.settings.href)).body.hitsPerPage).toBeUndefined();

    const res = await admin.patch(`${settingsUrl}?forwardToReplicas=true`, { hitsPerPage: 9, attributesToRetrieve: ['title'] });
    expect(res.status).toBe(200);
    const read = (await admin.get(replica._links.settings.href)).body;
    expect(read).toMatchObject({ hitsPerPage: 9, attributesToRetrieve: ['title'], ranking: ['custom'], customRanking: ['asc(price)'], primary: index.name });
    expect(read.replicas).toBeUndefined();
    expect(errorProperties(await admin.patch(`${settingsUrl}?forwardToReplicas=yes`, { a: 1 }))).toEqual(['forwardToReplicas']);
  });

  it('a replica cannot have replicas', async () => {
    const index = (await create()).body;
    await admin.patch(`${index._links.self.href}/settings`, { replicas: [`${s.hubName}.${unique('r1')}`] });
    const replica = (await admin.get(`${indexesPath(s.hubId)}?parentId=${index.id}`)).body._embedded.indexes[0];
    const res = await admin.patch(`${replica._links.self.href}/settings`, { replicas: [`${s.hubName}.${unique('r2')}`] });
    expect(expectError(res, 400).code).toBe('REPLICA_INDEX');
  });
});

describe('assigned content types', () => {
  it('create needs a content type of the hub; makes the active and archived webhooks; list is one page', async () => {
    const index = (await create()).body;
    const url = index._links['create-assigned-content-types'].href;
    expect(errorProperties(await admin.post(url, {}))).toEqual(['contentTypeUri']);
    expect(expectError(await admin.post(url, { contentTypeUri: 'https://schemas.example.com/missing.json' }), 400).code).toBe('CONTENT_TYPE_NOT_FOUND');

    const res = await admin.post(url, { contentTypeUri: s.uri });
    expect(res.status, res.text).toBe(201);
    const assigned = res.body;
    expect(res.headers.get('location')).toBe(assigned._links.self.href);
    expect(assigned).toMatchObject({ contentTypeUri: s.uri });
    expect(assigned.id).toMatch(HEX_ID);
    expect(assigned.createdDate).toMatch(ISO_MILLIS);
    const l = assigned._links;
    expect(l['assigned-content-type'].href).toBe(l.self.href);
    expect(l.unassign.href).toBe(l.self.href);
    expect(l['content-type'].href).toBe(`${admin.base}/content-types/${s.typeId}`);
    expect(l.webhook.href).toBe(l['active-content-webhook'].href);
    expect(l['recreate-webhook'].href).toBe(`${l.self.href}/recreate-webhook?type=active`);
    expect(l['recreate-active-content-webhook'].href).toBe(`${l.self.href}/recreate-webhook?type=active`);
    expect(l['recreate-archived-content-webhook'].href).toBe(`${l.self.href}/recreate-webhook?type=archived`);

    const active = (await admin.get(l['active-content-webhook'].href)).body;
    expect(l['active-content-webhook'].href).toMatch(new RegExp(`/hubs/${s.hubId}/webhooks/[0-9a-f]{24}$`));
    expect(active).toMatchObject({
      events: ['content-item.published'],
      handlers: [`sandbox://search-index/${index.id}`],
      active: true,
      owner: { kind: 'search-index', id: index.id },
      filters: [{ type: 'equal', arguments: [{ jsonPath: '$.payload.body._meta.schema' }, { value: s.uri }] }],
    });
    const archived = (await admin.get(l['archived-content-webhook'].href)).body;
    expect(archived).toMatchObject({
      events: ['content-item.updated'],
      handlers: [`sandbox://search-index/${index.id}`],
      filters: [
        { type: 'equal', arguments: [{ jsonPath: '$.payload.body._meta.schema' }, { value: s.uri }] },
        { type: 'equal', arguments: [{ jsonPath: '$.payload.status' }, { value: 'ARCHIVED' }] },
      ],
    });

    expect(expectError(await admin.post(url, { contentTypeUri: s.uri }), 409).code).toBe('DUPLICATE_ASSIGNED_CONTENT_TYPE');
    const second = await createContentType(admin, s.hubId);
    await admin.post(url, { contentTypeUri: second.uri });
    const list = (await admin.get(index._links['assigned-content-types'].href)).body;
    expect(list._embedded['assigned-content-types'].map((t: any) => t.contentTypeUri)).toEqual([s.uri, second.uri]);
    expect(list.page).toMatchObject({ totalElements: 2, totalPages: 1, number: 0 });

    const got = await admin.get(`${index._links.self.href}/assigned-content-types/${assigned.id}`);
    expect(got.body).toMatchObject({ id: assigned.id, contentTypeUri: s.uri });
  });

  it('index create assigns the listed types with their webhooks', async () => {
    const list = (await admin.get(s.index._links['assigned-content-types'].href)).body._embedded['assigned-content-types'];
    expect(list.map((t: any) => t.contentTypeUri)).toEqual([s.uri]);
    expect((await admin.get(list[0]._links.webhook.href)).body.handlers).toEqual([`sandbox://search-index/${s.index.id}`]);
  });

  it('delete removes the assignment and its webhooks', async () => {
    const index = (await create({ assignedContentTypes: [{ contentTypeUri: s.uri }] })).body;
    const assigned = (await admin.get(index._links['assigned-content-types'].href)).body._embedded['assigned-content-types'][0];
    const res = await admin.del(assigned._links.unassign.href);
    expect(res.status).toBe(204);
    expectError(await admin.get(assigned._links.self.href), 404);
    expectError(await admin.get(assigned._links['active-content-webhook'].href), 404);
    expectError(await admin.get(assigned._links['archived-content-webhook'].href), 404);
  });

  it('recreate-webhook needs type=active|archived and replaces that webhook (204)', async () => {
    const index = (await create({ assignedContentTypes: [{ contentTypeUri: s.uri }] })).body;
    const assigned = (await admin.get(index._links['assigned-content-types'].href)).body._embedded['assigned-content-types'][0];
    const base = `${assigned._links.self.href}/recreate-webhook`;
    expect(errorProperties(await admin.post(base))).toEqual(['type']);
    expect(errorProperties(await admin.post(`${base}?type=deleted`))).toEqual(['type']);

    const res = await admin.post(assigned._links['recreate-archived-content-webhook'].href);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = (await admin.get(assigned._links.self.href)).body._links;
    expect(after['archived-content-webhook'].href).not.toBe(assigned._links['archived-content-webhook'].href);
    expect(after['active-content-webhook'].href).toBe(assigned._links['active-content-webhook'].href);
    expectError(await admin.get(assigned._links['archived-content-webhook'].href), 404);
    expect((await admin.get(after['archived-content-webhook'].href)).body.events).toEqual(['content-item.updated']);
  });

  it('replicas take no assigned types', async () => {
    const index = (await create()).body;
    await admin.patch(`${index._links.self.href}/settings`, { replicas: [`${s.hubName}.${unique('r')}`] });
    const replica = (await admin.get(`${indexesPath(s.hubId)}?parentId=${index.id}`)).body._embedded.indexes[0];
    expect(replica._links['create-assigned-content-types']).toBeUndefined();
    expect(expectError(await admin.post(`${replica._links.self.href}/assigned-content-types`, { contentTypeUri: s.uri }), 400).code).toBe('REPLICA_INDEX');
  });
});

describe('records: objects, clear, stats', () => {
  let r: SearchSetup;
  let items: any[];
  let replica: any;

  beforeAll(async () => {
    r = await searchSetup(admin);
    await admin.patch(`${r.index._links.self.href}/settings`, { replicas: [`${r.hubName}.copy`] });
    replica = (await admin.get(`${indexesPath(r.hubId)}?parentId=${r.index.id}`)).body._embedded.indexes[0];
    items = [];
    for (const title of ['Alpha', 'Beta', 'Gamma']) items.push(await publishItem(admin, r, { title }));
    await waitForRecords(admin, r.index, 3);
    await waitForRecords(admin, replica, 3);
  });

  it('stats are computed from the stored records and the searches answered', async () => {
    const hits = (await search(admin, r.index.id, { query: '' })).hits;
    expect(hits.map((h: any) => h.title)).toEqual(['Alpha', 'Beta', 'Gamma']);
    await search(admin, r.index.id, { query: 'beta' });
    const stats = await admin.get(`${r.index._links.self.href}/stats`);
    expect(stats.status).toBe(200);
    const bytes = hits.map((h: any) => Buffer.byteLength(JSON.stringify(h))).reduce((a: number, b: number) => a + b, 0);
    expect(stats.body).toMatchObject({ totalRecords: 3, totalRecordSize: bytes, averageRecordSize: Math.round(bytes / 3), period: 'month' });
    expect(stats.body.usage.numberOfSearches).toEqual({ unit: 'searches', value: 2 });
    const time = stats.body.usage.averageResponseTime;
    expect(time.unit).toBe('ms');
    expect(time.value).toBe(time.duration / 2);
    expect((await admin.get(`${r.index._links.self.href}/stats?period=day`)).body.usage.numberOfSearches.value).toBe(2);
    expect(errorProperties(await admin.get(`${r.index._links.self.href}/stats?period=decade`))).toEqual(['period']);
    // The replica has its own figures: same records, no searches of its own.
    expect((await admin.get(`${replica._links.self.href}/stats`)).body).toMatchObject({ totalRecords: 3, totalRecordSize: bytes, usage: { numberOfSearches: { value: 0 } } });
  });

  it('delete one object: 204, from the replicas too; 404 when absent', async () => {
    const url = `${r.index._links.self.href}/objects/${items[0].id}`;
    expect((await admin.del(url)).status).toBe(204);
    expectError(await admin.del(url), 404);
    const left = (await search(admin, r.index.id, { query: '' })).hits.map((h: any) => h.objectID);
    expect(left).toEqual([items[1].id, items[2].id]);
    expect((await search(admin, replica.id, { query: '' })).hits.map((h: any) => h.objectID)).toEqual([items[1].id, items[2].id]);
    expect(expectError(await admin.del(`${replica._links.self.href}/objects/${items[1].id}`), 400).code).toBe('REPLICA_INDEX');
  });

  it('clear removes every record (replicas too) and answers 200 with the index', async () => {
    const res = await admin.post(r.index._links.clear.href, {});
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: r.index.id, name: r.index.name });
    expect(res.body._links.self.href).toBe(r.index._links.self.href);
    expect((await admin.get(`${r.index._links.self.href}/stats`)).body).toMatchObject({ totalRecords: 0, totalRecordSize: 0, averageRecordSize: 0 });
    expect((await admin.get(`${replica._links.self.href}/stats`)).body.totalRecords).toBe(0);
    expect(expectError(await admin.post(`${replica._links.self.href}/clear`, {}), 400).code).toBe('REPLICA_INDEX');
  });
});

describe('delete', () => {
  it('deletes the index, its replicas, records, assigned types and their webhooks', async () => {
    const index = (await create({ assignedContentTypes: [{ contentTypeUri: s.uri }] })).body;
    await admin.patch(`${index._links.self.href}/settings`, { replicas: [`${s.hubName}.${unique('gone')}`] });
    const replica = (await admin.get(`${indexesPath(s.hubId)}?parentId=${index.id}`)).body._embedded.indexes[0];
    const assigned = (await admin.get(index._links['assigned-content-types'].href)).body._embedded['assigned-content-types'][0];

    const res = await admin.del(index._links.delete.href);
    expect(res.status).toBe(204);
    expectError(await admin.get(index._links.self.href), 404);
    expectError(await admin.get(replica._links.self.href), 404);
    expectError(await admin.get(assigned._links['active-content-webhook'].href), 404);
    expectError(await admin.get(assigned._links['archived-content-webhook'].href), 404);
    const hooks = (await admin.get(`/hubs/${s.hubId}/webhooks?size=1000`)).body._embedded.webhooks;
    expect(hooks.filter((h: any) => h.owner?.id === index.id)).toEqual([]);
    expectError(await admin.del(index._links.delete.href), 404);
  });

  it('deleting a replica on its own takes its name out of the primary settings', async () => {
    const index = (await create()).body;
    const keep = `${s.hubName}.${unique('keep')}`;
    const drop = `${s.hubName}.${unique('drop')}`;
    await admin.patch(`${index._links.self.href}/settings`, { replicas: [keep, drop] });
    const replicas = (await admin.get(`${indexesPath(s.hubId)}?parentId=${index.id}`)).body._embedded.indexes;
    expect((await admin.del(replicas[1]._links.delete.href)).status).toBe(204);
    expect((await admin.get(index._links.settings.href)).body.replicas).toEqual([keep]);
    expect((await admin.get(index._links.self.href)).body.replicaCount).toBe(1);
  });
});
