import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, createRepo, startServer, unique, type Reply, type TestServer } from '../../helpers/server.js';
import { ISO_MILLIS, errorProperties, expectError } from '../../helpers/assert.js';
import { contentLink, contentSetup, createContentRepo, createContentType, createItem, itemBody, type ContentSetup } from '../../helpers/content.js';

// Content items: description "Content item" fields and links, "Content items" endpoints and
// the permission table rows for items.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING_ITEM = '00000000-0000-4000-8000-000000000000';

let srv: TestServer;
let admin: Api;
let s: ContentSetup;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  s = await contentSetup(admin);
});

afterAll(async () => {
  await srv?.stop();
});

const newItem = (fields: Record<string, unknown> = {}) => createItem(admin, s.repoId, s.uri, fields);
const itemIds = (res: Reply) => res.body._embedded['content-items'].map((i: { id: string }) => i.id);
const getItem = async (id: string) => (await admin.get(`/content-items/${id}`)).body;

describe('create', () => {
  it('answers 201 with version 1, ACTIVE, the body and label, a UUID id and deliveryId, and a Location', async () => {
    const body = itemBody(s.uri, { title: 'First' }, { name: 'first' });
    const res = await admin.post(`/content-repositories/${s.repoId}/content-items`, { label: 'First item', body });
    expect(res.status, res.text).toBe(201);
    const item = res.body;
    expect(item.id).toMatch(UUID);
    expect(item).toMatchObject({ label: 'First item', body, version: 1, status: 'ACTIVE', folderId: null, locale: null, assignees: [], deliveryKey: null, deliveryId: item.id, contentRepositoryId: s.repoId });
    expect(item.createdDate).toMatch(ISO_MILLIS);
    expect(item.createdBy).toBe('sandbox-admin');
    expect(item).not.toHaveProperty('workflow');
    expect(item).not.toHaveProperty('hubId');
    expect(res.headers.get('location')).toBe(`${admin.base}/content-items/${item.id}`);
  });

  it('links follow the description: active items offer update and archive, not unarchive', async () => {
    const item = await newItem({ locale: 'en-GB' });
    const self = `${admin.base}/content-items/${item.id}`;
    const l = item._links;
    expect(l.self.href).toBe(self);
    expect(l['content-item']).toEqual({ href: `${self}{?projection}`, templated: true });
    expect(l.update).toEqual({ href: `${self}{?ignoreSchemaValidation}`, templated: true });
    expect(l.archive.href).toBe(`${self}/archive`);
    expect(l).not.toHaveProperty('unarchive');
    expect(l['content-item-versions']).toEqual({ href: `${self}/versions{?page,size,sort}`, templated: true });
    expect(l['content-item-version']).toEqual({ href: `${self}/versions{/version}`, templated: true });
    expect(l['content-item-history']).toEqual({ href: `${self}/history{?page,size,sort}`, templated: true });
    expect(l['restore-version'].href).toBe(`${self}/restore`);
    expect(l['set-locale'].href).toBe(`${self}/locale`);
    expect(l['create-localizations'].href).toBe(`${self}/localize`);
    expect(l['edit-workflow'].href).toBe(`${self}/workflow`);
    expect(l.copy).toEqual({ href: `${admin.base}/content-repositories/{id}/content-items?sourceContentItemId=${item.id}`, templated: true });
    expect(l['content-item-with-children'].href).toBe(`${admin.base}/content-items/search/findByIdWithChildren?id=${item.id}`);
    expect(l['content-repository'].href).toBe(`${admin.base}/content-repositories/${s.repoId}`);
    expect(l['edition-slot-associations'].href).toBe(`${self}/edition-slot-associations`);
    expect(l.planned).toEqual({ href: `${self}/planned{?epoch,time}`, templated: true });
  });

  it.each([
    ['label', { body: { _meta: { schema: 'x' } } }],
    ['label', { label: '  ', body: { _meta: { schema: 'x' } } }],
    ['body', { label: 'L' }],
    ['body._meta', { label: 'L', body: { title: 'x' } }],
    ['body._meta.schema', { label: 'L', body: { _meta: {} } }],
    ['locale', { label: 'L', body: { _meta: { schema: 'x' } }, locale: 'not a locale' }],
  ])('a missing or malformed %s is 400 naming it', async (property, body) => {
    const res = await admin.post(`/content-repositories/${s.repoId}/content-items`, body);
    expectError(res, 400);
    expect(errorProperties(res)).toContain(property);
  });

  it('a content type not assigned to the repository is 400 CONTENT_TYPE_NOT_ASSIGNED', async () => {
    const other = await createContentType(admin, s.hubId);
    const err = expectError(await admin.post(`/content-repositories/${s.repoId}/content-items`, { label: 'L', body: itemBody(other.uri) }), 400);
    expect(err).toMatchObject({ code: 'CONTENT_TYPE_NOT_ASSIGNED', property: 'body._meta.schema' });
  });

  it('a body that breaks the type schema is 400 naming each property, unless ignoreSchemaValidation=true', async () => {
    const body = { _meta: { schema: s.uri }, title: 'x'.repeat(101), count: 'many' };
    const res = await admin.post(`/content-repositories/${s.repoId}/content-items`, { label: 'L', body });
    expectError(res, 400);
    expect(errorProperties(res).sort()).toEqual(['body.count', 'body.title']);
    const lax = await admin.post(`/content-repositories/${s.repoId}/content-items?ignoreSchemaValidation=true`, { label: 'L', body });
    expect(lax.status).toBe(201);
  });

  it('a locale outside the repository item locales is 400; one inside is kept', async () => {
    const repo = await createContentRepo(admin, s.hubId, s.typeId, ['en-GB', 'de-DE']);
    const err = expectError(await admin.post(`/content-repositories/${repo.id}/content-items`, { label: 'L', body: itemBody(s.uri), locale: 'fr-FR' }), 400);
    expect(err).toMatchObject({ code: 'LOCALE_NOT_ALLOWED', property: 'locale' });
    expect((await createItem(admin, repo.id, s.uri, { locale: 'de-DE' })).locale).toBe('de-DE');
  });

  it('a folder of another repository is 400 naming folderId', async () => {
    const other = await createRepo(admin, s.hubId);
    const folder = await admin.post(`/content-repositories/${other.id}/folders`, { name: 'elsewhere' });
    expect(folder.status).toBe(201);
    const err = expectError(await admin.post(`/content-repositories/${s.repoId}/content-items`, { label: 'L', body: itemBody(s.uri), folderId: folder.body.id }), 400);
    expect(err.property).toBe('folderId');
  });

  it('assignees are kept with the date of assignment', async () => {
    const item = await newItem({ assignees: ['alice'] });
    expect(item.assignees).toEqual(['alice']);
    expect(item.assignedDate).toBe(item.createdDate);
  });

  it('in an unknown repository is 404', async () => {
    expectError(await admin.post('/content-repositories/5f0000000000000000000000/content-items', { label: 'L', body: itemBody(s.uri) }), 404);
  });
});

describe('get', () => {
  it('returns the item as created; projection=basic omits the body and names the schema', async () => {
    const item = await newItem({ locale: 'en-GB' });
    const res = await admin.get(`/content-items/${item.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(item);
    const basic = (await admin.get(`/content-items/${item.id}?projection=basic`)).body;
    expect(basic).not.toHaveProperty('body');
    expect(basic).toMatchObject({ id: item.id, schema: s.uri, locale: 'en-GB', label: item.label });
  });

  it('?version= reads an earlier version; a version that does not exist is 404', async () => {
    const item = await newItem();
    await admin.patch(`/content-items/${item.id}`, { label: 'Changed', version: 1 });
    const v1 = await admin.get(`/content-items/${item.id}?version=1`);
    expect(v1.body).toMatchObject({ version: 1, label: item.label });
    expect((await admin.get(`/content-items/${item.id}`)).body).toMatchObject({ version: 2, label: 'Changed' });
    expectError(await admin.get(`/content-items/${item.id}?version=3`), 404);
    expectError(await admin.get(`/content-items/${item.id}?version=first`), 400);
  });

  it('an unknown item is 404 naming ContentItem', async () => {
    const err = expectError(await admin.get(`/content-items/${MISSING_ITEM}`), 404);
    expect(err.entity).toBe('ContentItem');
  });
});

describe('list', () => {
  let repo: any;
  let a: any;
  let b: any;
  let c: any;
  let folderId: string;

  beforeAll(async () => {
    repo = await createContentRepo(admin, s.hubId, s.typeId);
    folderId = (await admin.post(`/content-repositories/${repo.id}/folders`, { name: 'f' })).body.id;
    a = await createItem(admin, repo.id, s.uri, { label: 'b-alpha' });
    b = await createItem(admin, repo.id, s.uri, { label: 'a-beta', folderId });
    c = await createItem(admin, repo.id, s.uri, { label: 'c-gamma', body: itemBody(s.uri, {}, { hierarchy: { parentId: a.id, root: false } }) });
    await admin.post(`/content-items/${c.id}/archive`, { version: 1 });
  });

  it('pages the repository items under content-items, newest first by default', async () => {
    const res = await admin.get(`/content-repositories/${repo.id}/content-items`);
    expect(res.status).toBe(200);
    expect(itemIds(res).sort()).toEqual([a.id, b.id, c.id].sort());
    const dates = res.body._embedded['content-items'].map((i: { createdDate: string }) => i.createdDate);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(res.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    expect(res.body._embedded['content-items'][0]._links.self).toBeDefined();
  });

  it('sorts by label and pages', async () => {
    const res = await admin.get(`/content-repositories/${repo.id}/content-items?sort=label,asc&size=2&page=1`);
    expect(itemIds(res)).toEqual([c.id]);
    expect(res.body.page).toEqual({ size: 2, totalElements: 3, totalPages: 2, number: 1 });
    expect(itemIds(await admin.get(`/content-repositories/${repo.id}/content-items?sort=label%2Cdesc`))).toEqual([c.id, a.id, b.id]);
  });

  it('filters by status (a comma list), folder and hierarchy children', async () => {
    expect(itemIds(await admin.get(`/content-repositories/${repo.id}/content-items?status=ARCHIVED`))).toEqual([c.id]);
    expect(itemIds(await admin.get(`/content-repositories/${repo.id}/content-items?status=ACTIVE,ARCHIVED&sort=label,asc`))).toEqual([b.id, a.id, c.id]);
    expect(itemIds(await admin.get(`/content-repositories/${repo.id}/content-items?folderId=${folderId}`))).toEqual([b.id]);
    expect(itemIds(await admin.get(`/content-repositories/${repo.id}/content-items?excludeHierarchicalChildren=true&sort=label,asc`))).toEqual([b.id, a.id]);
  });

  it('projection=basic lists items without bodies', async () => {
    const res = await admin.get(`/content-repositories/${repo.id}/content-items?projection=basic`);
    for (const i of res.body._embedded['content-items']) {
      expect(i).not.toHaveProperty('body');
      expect(i.schema).toBe(s.uri);
    }
  });

  it('an unknown sort field or status is 400', async () => {
    expect(expectError(await admin.get(`/content-repositories/${repo.id}/content-items?sort=body,asc`), 400).property).toBe('sort');
    expect(expectError(await admin.get(`/content-repositories/${repo.id}/content-items?status=GONE`), 400).property).toBe('status');
  });

  it('an empty repository lists an empty page', async () => {
    const empty = await createRepo(admin, s.hubId);
    const res = await admin.get(`/content-repositories/${empty.id}/content-items`);
    expect(res.body._embedded['content-items']).toEqual([]);
    expect(res.body.page.totalElements).toBe(0);
  });
});

describe('update', () => {
  it('PATCHing the whole fetched item back makes version 2 with the changes; read-only and unknown fields are ignored', async () => {
    const item = await newItem();
    const sent = { ...item, label: 'Renamed', body: { ...item.body, title: 'New title' }, id: 'ignored', status: 'ARCHIVED', createdDate: '2000-01-01T00:00:00.000Z', deliveryId: 'x', _embedded: {}, unknownField: 1 };
    const res = await admin.patch(`/content-items/${item.id}`, sent);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('location')).toBe(`${admin.base}/content-items/${item.id}`);
    expect(res.body).toMatchObject({ id: item.id, version: 2, label: 'Renamed', status: 'ACTIVE', createdDate: item.createdDate, deliveryId: item.id, body: { title: 'New title' } });
    expect(res.body).not.toHaveProperty('unknownField');
    expect(await getItem(item.id)).toEqual(res.body);
  });

  it('every update makes a new version, even without a change', async () => {
    const item = await newItem();
    expect((await admin.patch(`/content-items/${item.id}`, { version: 1 })).body.version).toBe(2);
    expect((await admin.patch(`/content-items/${item.id}`, { version: 2, label: 'x' })).body.version).toBe(3);
  });

  it('a stale version is 409 and nothing changes', async () => {
    const item = await newItem();
    await admin.patch(`/content-items/${item.id}`, { version: 1, label: 'Second' });
    const err = expectError(await admin.patch(`/content-items/${item.id}`, { version: 1, label: 'Lost', body: itemBody(s.uri, { title: 'Lost' }) }), 409);
    expect(err).toMatchObject({ code: 'VERSION_CONFLICT', property: 'version', invalidValue: 1 });
    expect(await getItem(item.id)).toMatchObject({ version: 2, label: 'Second', body: { title: 'Hello' } });
  });

  it('a missing version is 400 naming it', async () => {
    const item = await newItem();
    expect(expectError(await admin.patch(`/content-items/${item.id}`, { label: 'x' }), 400).property).toBe('version');
  });

  it('the body is validated against the type schema (nothing changes), unless ?ignoreSchemaValidation=true', async () => {
    const item = await newItem();
    const bad = itemBody(s.uri, { title: 7 });
    const res = await admin.patch(`/content-items/${item.id}`, { version: 1, body: bad });
    expectError(res, 400);
    expect(errorProperties(res)).toEqual(['body.title']);
    expect((await getItem(item.id)).version).toBe(1);
    const lax = await admin.patch(`/content-items/${item.id}?ignoreSchemaValidation=true`, { version: 1, body: bad });
    expect(lax.body).toMatchObject({ version: 2, body: { title: 7 } });
  });

  it('an empty label, a foreign folder and a locale outside the item locales are 400', async () => {
    const repo = await createContentRepo(admin, s.hubId, s.typeId, ['en-GB']);
    const item = await createItem(admin, repo.id, s.uri);
    expect(expectError(await admin.patch(`/content-items/${item.id}`, { version: 1, label: '' }), 400).property).toBe('label');
    expect(expectError(await admin.patch(`/content-items/${item.id}`, { version: 1, locale: 'fr-FR' }), 400).property).toBe('locale');
    expect(expectError(await admin.patch(`/content-items/${item.id}`, { version: 1, folderId: '5f0000000000000000000000' }), 400).property).toBe('folderId');
    expect((await getItem(item.id)).version).toBe(1);
  });

  it('moves the item to a folder, changes locale and assignees', async () => {
    const item = await newItem();
    const folder = (await admin.post(`/content-repositories/${s.repoId}/folders`, { name: unique('folder') })).body;
    const res = await admin.patch(`/content-items/${item.id}`, { version: 1, folderId: folder.id, locale: 'it-IT', assignees: ['bob'] });
    expect(res.body).toMatchObject({ version: 2, folderId: folder.id, locale: 'it-IT', assignees: ['bob'] });
    expect(res.body.assignedDate).toMatch(ISO_MILLIS);
    expect(res.body._links.folder.href).toBe(`${admin.base}/folders/${folder.id}`);
  });

  it('an archived item cannot be updated: 409', async () => {
    const item = await newItem();
    await admin.post(`/content-items/${item.id}/archive`, { version: 1 });
    const err = expectError(await admin.patch(`/content-items/${item.id}`, { version: 2, label: 'x' }), 409);
    expect(err.code).toBe('ITEM_ARCHIVED');
  });

  it('an unknown item is 404', async () => {
    expectError(await admin.patch(`/content-items/${MISSING_ITEM}`, { version: 1 }), 404);
  });
});

describe('archive and unarchive', () => {
  it('archive needs the current version, answers the archived item and switches its links', async () => {
    const item = await newItem();
    const res = await admin.post(`/content-items/${item.id}/archive`, { version: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ARCHIVED', version: 2 });
    expect(res.body._links.unarchive.href).toBe(`${admin.base}/content-items/${item.id}/unarchive`);
    for (const rel of ['update', 'archive', 'set-locale', 'create-localizations', 'edit-workflow']) expect(res.body._links).not.toHaveProperty(rel);
    const back = await admin.post(`/content-items/${item.id}/unarchive`, { version: 2 });
    expect(back.body).toMatchObject({ status: 'ACTIVE', version: 3 });
    expect(back.body._links).toHaveProperty('update');
  });

  it('a stale version is 409, the wrong state is 409, a missing version is 400', async () => {
    const item = await newItem();
    expectError(await admin.post(`/content-items/${item.id}/archive`, { version: 5 }), 409);
    expect(expectError(await admin.post(`/content-items/${item.id}/unarchive`, { version: 1 }), 409).code).toBe('ITEM_NOT_ARCHIVED');
    expect(expectError(await admin.post(`/content-items/${item.id}/archive`, {}), 400).property).toBe('version');
    await admin.post(`/content-items/${item.id}/archive`, { version: 1 });
    expect(expectError(await admin.post(`/content-items/${item.id}/archive`, { version: 2 }), 409).code).toBe('ITEM_ARCHIVED');
    expect((await getItem(item.id)).version).toBe(2);
  });

  it('an archived item refuses restore, locale and workflow changes: 409', async () => {
    const item = await newItem();
    await admin.post(`/content-items/${item.id}/archive`, { version: 1 });
    expect(expectError(await admin.post(`/content-items/${item.id}/restore`, { version: 2, restoreVersion: 1 }), 409).code).toBe('ITEM_ARCHIVED');
    expect(expectError(await admin.post(`/content-items/${item.id}/locale`, { locale: 'en-GB', version: 2 }), 409).code).toBe('ITEM_ARCHIVED');
    expect(expectError(await admin.patch(`/content-items/${item.id}/workflow`, { version: 2, state: null }), 409).code).toBe('ITEM_ARCHIVED');
    expect((await getItem(item.id)).version).toBe(2);
  });
});

describe('copy', () => {
  const copyInto = (repoId: string, sourceId: string, body: unknown, api = admin) => api.post(`/content-repositories/${repoId}/content-items?sourceContentItemId=${sourceId}`, body);

  it('copies the latest version into another repository as a new item (version 1, new id, no delivery key)', async () => {
    const dest = await createContentRepo(admin, s.hubId, s.typeId);
    const source = await newItem({ locale: 'en-GB' });
    await admin.patch(`/content-items/${source.id}`, { version: 1, body: itemBody(s.uri, { title: 'Latest' }) });
    const res = await copyInto(dest.id, source.id, { label: 'The copy' });
    expect(res.status, res.text).toBe(201);
    expect(res.body.id).not.toBe(source.id);
    expect(res.body).toMatchObject({ label: 'The copy', version: 1, contentRepositoryId: dest.id, body: { title: 'Latest' }, locale: 'en-GB', deliveryKey: null, status: 'ACTIVE' });
    expect(res.headers.get('location')).toBe(`${admin.base}/content-items/${res.body.id}`);
  });

  it('the source locale is dropped when the destination does not accept it; a given locale and folder are used', async () => {
    const source = await newItem({ locale: 'en-GB' });
    const french = await createContentRepo(admin, s.hubId, s.typeId, ['fr-FR']);
    expect((await copyInto(french.id, source.id, { label: 'no locale' })).body.locale).toBeNull();
    const folder = (await admin.post(`/content-repositories/${french.id}/folders`, { name: 'copies' })).body;
    const placed = await copyInto(french.id, source.id, { label: 'placed', locale: 'fr-FR', folderId: folder.id });
    expect(placed.body).toMatchObject({ locale: 'fr-FR', folderId: folder.id });
    expect(expectError(await copyInto(french.id, source.id, { label: 'x', locale: 'de-DE' }), 400).property).toBe('locale');
  });

  it('copies a given version; name sets body._meta.name; a body replaces the source body', async () => {
    const source = await newItem();
    await admin.patch(`/content-items/${source.id}`, { version: 1, body: itemBody(s.uri, { title: 'Two' }) });
    const v1 = await copyInto(s.repoId, source.id, { label: 'v1', version: 1, name: 'copied' });
    expect(v1.body.body).toEqual({ _meta: { schema: s.uri, name: 'copied' }, title: 'Hello' });
    const own = await copyInto(s.repoId, source.id, { label: 'own', version: 'latest', body: itemBody(s.uri, { title: 'Mine' }) });
    expect(own.body.body.title).toBe('Mine');
  });

  it('a destination without the content type is 400; a missing label or version is 400; an unknown source is 404', async () => {
    const source = await newItem();
    const bare = await createRepo(admin, s.hubId);
    expect(expectError(await copyInto(bare.id, source.id, { label: 'x' }), 400).code).toBe('CONTENT_TYPE_NOT_ASSIGNED');
    expect(expectError(await copyInto(s.repoId, source.id, {}), 400).property).toBe('label');
    expect(expectError(await copyInto(s.repoId, source.id, { label: 'x', version: 9 }), 400).property).toBe('version');
    expect(expectError(await copyInto(s.repoId, source.id, { label: 'x', version: 'newest' }), 400).property).toBe('version');
    expectError(await copyInto(s.repoId, MISSING_ITEM, { label: 'x' }), 404);
  });

  it('the caller needs CONTENT_ITEM:READ and Hub READ on the source besides the destination rights', async () => {
    const FN = (a: string) => `CONTENT:FUNCTIONAL:CONTENT_ITEM:${a}`;
    const destHub = await createHub(admin);
    const destType = await createContentType(admin, destHub.id, s.uri);
    const dest = await createContentRepo(admin, destHub.id, destType.id);
    const source = await newItem();
    const destAcl = [
      { resource: 'hubs' as const, id: destHub.id, permissions: ['READ'] },
      { resource: 'content-repositories' as const, id: dest.id, permissions: ['CREATE_CONTENT'] },
    ];
    const sourceAcl = { resource: 'hubs' as const, id: s.hubId, permissions: ['READ'] };
    const noRead = await admin.client(unique('copy'), [FN('CREATE')], [...destAcl, sourceAcl]);
    expect(expectError(await copyInto(dest.id, source.id, { label: 'x' }, noRead), 403).invalidValue).toBe(FN('READ'));
    const noSourceHub = await admin.client(unique('copy'), [FN('CREATE'), FN('READ')], destAcl);
    expectError(await copyInto(dest.id, source.id, { label: 'x' }, noSourceHub), 404);
    const allowed = await admin.client(unique('copy'), [FN('CREATE'), FN('READ')], [...destAcl, sourceAcl]);
    expect((await copyInto(dest.id, source.id, { label: 'x' }, allowed)).status).toBe(201);
  });
});

describe('versions and history', () => {
  let item: any;
  beforeAll(async () => {
    item = await newItem();
    await admin.patch(`/content-items/${item.id}`, { version: 1, label: 'two' });
    await admin.post(`/content-items/${item.id}/archive`, { version: 2 });
  });

  it('versions are paged newest first, each the item as it was', async () => {
    const res = await admin.get(`/content-items/${item.id}/versions`);
    expect(res.status).toBe(200);
    const versions = res.body._embedded['content-items'];
    expect(versions.map((v: any) => [v.version, v.label, v.status])).toEqual([
      [3, 'two', 'ARCHIVED'],
      [2, 'two', 'ACTIVE'],
      [1, item.label, 'ACTIVE'],
    ]);
    expect(res.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    const asc = await admin.get(`/content-items/${item.id}/versions?sort=version,asc&size=1&page=1`);
    expect(asc.body._embedded['content-items'].map((v: any) => v.version)).toEqual([2]);
  });

  it('one version by number; an unknown version is 404', async () => {
    const v2 = await admin.get(`/content-items/${item.id}/versions/2`);
    expect(v2.body).toMatchObject({ id: item.id, version: 2, label: 'two', status: 'ACTIVE' });
    expectError(await admin.get(`/content-items/${item.id}/versions/4`), 404);
  });

  it('history lists {version, action, user, date} newest first', async () => {
    const res = await admin.get(`/content-items/${item.id}/history`);
    const entries = res.body._embedded.history;
    expect(entries.map((e: any) => [e.version, e.action, e.user])).toEqual([
      [3, 'ARCHIVE', 'sandbox-admin'],
      [2, 'UPDATE', 'sandbox-admin'],
      [1, 'CREATE', 'sandbox-admin'],
    ]);
    expect(entries[0].date).toMatch(ISO_MILLIS);
    expect(res.body.page.totalElements).toBe(3);
  });
});

describe('restore', () => {
  it('makes a new version with the body, label, folder and locale of the restored version', async () => {
    const item = await newItem({ locale: 'en-GB' });
    await admin.patch(`/content-items/${item.id}`, { version: 1, label: 'later', locale: 'de-DE', body: itemBody(s.uri, { title: 'Later' }) });
    const res = await admin.post(`/content-items/${item.id}/restore`, { version: 2, restoreVersion: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 3, label: item.label, locale: 'en-GB', body: item.body });
    expect((await admin.get(`/content-items/${item.id}/history`)).body._embedded.history[0].action).toBe('RESTORE');
  });

  it('a stale version is 409, an unknown restoreVersion 400, missing fields 400', async () => {
    const item = await newItem();
    await admin.patch(`/content-items/${item.id}`, { version: 1, label: 'x' });
    expectError(await admin.post(`/content-items/${item.id}/restore`, { version: 1, restoreVersion: 1 }), 409);
    expect(expectError(await admin.post(`/content-items/${item.id}/restore`, { version: 2, restoreVersion: 7 }), 400).property).toBe('restoreVersion');
    const missing = await admin.post(`/content-items/${item.id}/restore`, {});
    expectError(missing, 400);
    expect(errorProperties(missing).sort()).toEqual(['restoreVersion', 'version']);
  });
});

describe('set locale', () => {
  it('sets the locale as a new version; the repository item locales limit it', async () => {
    const repo = await createContentRepo(admin, s.hubId, s.typeId, ['en-GB', 'fr-FR']);
    const item = await createItem(admin, repo.id, s.uri);
    const res = await admin.post(`/content-items/${item.id}/locale`, { locale: 'fr-FR', version: 1 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ locale: 'fr-FR', version: 2 });
    expect(expectError(await admin.post(`/content-items/${item.id}/locale`, { locale: 'es-ES', version: 2 }), 400).code).toBe('LOCALE_NOT_ALLOWED');
    expectError(await admin.post(`/content-items/${item.id}/locale`, { locale: 'en-GB', version: 1 }), 409);
    expect(expectError(await admin.post(`/content-items/${item.id}/locale`, { locale: 'english', version: 2 }), 400).property).toBe('locale');
    expect(expectError(await admin.post(`/content-items/${item.id}/locale`, { version: 2 }), 400).property).toBe('locale');
  });

  it('any locale is allowed when the repository has no item locales', async () => {
    const item = await newItem();
    expect((await admin.post(`/content-items/${item.id}/locale`, { locale: 'ja-JP', version: 1 })).body.locale).toBe('ja-JP');
  });
});

describe('workflow', () => {
  const createState = async (hubId: string) => {
    const res = await admin.post(`/hubs/${hubId}/workflow-states`, { label: unique('state'), color: 'rgb(1,2,3)' });
    expect(res.status, res.text).toBe(201);
    return res.body.id as string;
  };

  it('assigns a workflow state of the hub as a new version; state null removes the workflow field', async () => {
    const state = await createState(s.hubId);
    const item = await newItem();
    const res = await admin.patch(`/content-items/${item.id}/workflow`, { version: 1, state });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 2, workflow: { state } });
    const cleared = await admin.patch(`/content-items/${item.id}/workflow`, { version: 2, state: null });
    expect(cleared.body.version).toBe(3);
    expect(cleared.body).not.toHaveProperty('workflow');
    expect(await getItem(item.id)).not.toHaveProperty('workflow');
  });

  it('a state of another hub or an unknown one is 400; a stale version 409; a missing state 400', async () => {
    const foreign = await createState((await createHub(admin)).id);
    const item = await newItem();
    expect(expectError(await admin.patch(`/content-items/${item.id}/workflow`, { version: 1, state: foreign }), 400).property).toBe('state');
    expect(expectError(await admin.patch(`/content-items/${item.id}/workflow`, { version: 1, state: '5f0000000000000000000000' }), 400).code).toBe('WORKFLOW_STATE_NOT_FOUND');
    expectError(await admin.patch(`/content-items/${item.id}/workflow`, { version: 3, state: await createState(s.hubId) }), 409);
    expect(expectError(await admin.patch(`/content-items/${item.id}/workflow`, { version: 1 }), 400).property).toBe('state');
    expect((await getItem(item.id)).version).toBe(1);
  });
});

describe('children, edition-slot associations and planned', () => {
  it('findByIdWithChildren lists the item and every item reachable through content links, root first, each once', async () => {
    const d = await newItem();
    const c = await newItem();
    const b = await newItem({ body: itemBody(s.uri, { links: [contentLink(d.id, s.uri)] }) });
    const a = await newItem({ body: itemBody(s.uri, { links: [contentLink(b.id, s.uri), contentLink(c.id, s.uri), contentLink(d.id, s.uri)] }) });
    const res = await admin.get(`/content-items/search/findByIdWithChildren?id=${a.id}`);
    expect(res.status).toBe(200);
    expect(itemIds(res)).toEqual([a.id, b.id, c.id, d.id]);
    expect(itemIds(await admin.get(`/content-items/search/findByIdWithChildren?id=${d.id}`))).toEqual([d.id]);
  });

  it('findByIdWithChildren needs an id (400) of a known item (404)', async () => {
    expect(expectError(await admin.get('/content-items/search/findByIdWithChildren'), 400).property).toBe('id');
    expectError(await admin.get(`/content-items/search/findByIdWithChildren?id=${MISSING_ITEM}`), 404);
  });

  it('edition-slot associations are an empty collection until editions hold the item', async () => {
    const item = await newItem();
    const res = await admin.get(`/content-items/${item.id}/edition-slot-associations`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ _embedded: { 'edition-slot-associations': [] }, _links: { self: { href: `${admin.base}/content-items/${item.id}/edition-slot-associations` } } });
  });

  it('planned answers the latest version for any time; a malformed epoch or time is 400', async () => {
    const item = await newItem();
    await admin.patch(`/content-items/${item.id}`, { version: 1, label: 'now' });
    for (const q of ['', '?epoch=4102444800', '?time=2030-01-01T00:00:00.000Z']) {
      const res = await admin.get(`/content-items/${item.id}/planned${q}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: item.id, version: 2, label: 'now' });
    }
    expect(expectError(await admin.get(`/content-items/${item.id}/planned?epoch=soon`), 400).property).toBe('epoch');
    expect(expectError(await admin.get(`/content-items/${item.id}/planned?time=tomorrow`), 400).property).toBe('time');
  });
});

describe('permissions (description permission table)', () => {
  const FN = (a: string) => `CONTENT:FUNCTIONAL:CONTENT_ITEM:${a}`;
  let hubId: string;
  let repoId: string;
  let uri: string;

  beforeAll(async () => {
    const setup = await contentSetup(admin);
    ({ hubId, repoId, uri } = setup);
  });

  interface Row {
    name: string;
    fn: string;
    repoAcl: string[];
    call(api: Api, itemId: string): Promise<Reply>;
    ok: number;
  }
  const rows: Row[] = [
    { name: 'create item', fn: 'CREATE', repoAcl: ['CREATE_CONTENT'], call: (api) => api.post(`/content-repositories/${repoId}/content-items`, { label: 'L', body: itemBody(uri) }), ok: 201 },
    { name: 'list items', fn: 'READ', repoAcl: [], call: (api) => api.get(`/content-repositories/${repoId}/content-items`), ok: 200 },
    { name: 'get item', fn: 'READ', repoAcl: [], call: (api, id) => api.get(`/content-items/${id}`), ok: 200 },
    { name: 'update item', fn: 'EDIT', repoAcl: ['EDIT_CONTENT'], call: (api, id) => api.patch(`/content-items/${id}`, { version: 1, label: 'x' }), ok: 200 },
    { name: 'archive item', fn: 'DELETE', repoAcl: ['DELETE_CONTENT'], call: (api, id) => api.post(`/content-items/${id}/archive`, { version: 1 }), ok: 200 },
    {
      name: 'unarchive item',
      fn: 'EDIT',
      repoAcl: ['EDIT_CONTENT'],
      call: async (api, id) => {
        await admin.post(`/content-items/${id}/archive`, { version: 1 });
        return api.post(`/content-items/${id}/unarchive`, { version: 2 });
      },
      ok: 200,
    },
  ];

  const clientWith = (fn: string[], hubAcl: string[], repoAcl: string[]) => {
    const acl: { resource: 'hubs' | 'content-repositories'; id: string; permissions: string[] }[] = [];
    if (hubAcl.length) acl.push({ resource: 'hubs', id: hubId, permissions: hubAcl });
    if (repoAcl.length) acl.push({ resource: 'content-repositories', id: repoId, permissions: repoAcl });
    return admin.client(unique('items-perm'), fn, acl);
  };

  describe.each(rows)('$name', (row) => {
    it('succeeds with the functional permission, Hub READ and the repository ACLs', async () => {
      const item = await createItem(admin, repoId, uri);
      const res = await row.call(await clientWith([FN(row.fn)], ['READ'], row.repoAcl), item.id);
      expect(res.status, res.text).toBe(row.ok);
    });

    it('is 403 without the functional permission', async () => {
      const item = await createItem(admin, repoId, uri);
      const others = ['READ', 'CREATE', 'EDIT', 'DELETE'].filter((f) => f !== row.fn).map(FN);
      const err = expectError(await row.call(await clientWith(others, ['READ'], row.repoAcl), item.id), 403);
      expect(err.invalidValue).toBe(FN(row.fn));
    });

    if (row.repoAcl.length) {
      it('is 403 without the repository ACL', async () => {
        const item = await createItem(admin, repoId, uri);
        expectError(await row.call(await clientWith([FN(row.fn)], ['READ'], ['READ']), item.id), 403);
      });
    }

    it('is 404 without any access to the hub', async () => {
      const item = await createItem(admin, repoId, uri);
      expectError(await row.call(await clientWith([FN(row.fn)], [], []), item.id), 404);
    });
  });

  it('links follow permissions: a read-only client sees no update, archive or copy', async () => {
    const item = await createItem(admin, repoId, uri);
    const reader = await clientWith([FN('READ')], ['READ'], []);
    const links = (await reader.get(`/content-items/${item.id}`)).body._links;
    expect(links).toHaveProperty('self');
    expect(links).toHaveProperty('content-item-versions');
    for (const rel of ['update', 'archive', 'copy', 'restore-version', 'set-locale']) expect(links).not.toHaveProperty(rel);
  });
});
