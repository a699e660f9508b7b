import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, createRepo, startServer, type TestServer } from '../../helpers/server.js';
import { errorProperties, expectError, FN, HEX_ID, MISSING_ID } from '../../helpers/assert.js';
import { createSchema, createType, schemaDoc, schemaUri } from '../../helpers/content-model.js';

// Content types: description "Content types and schemas" plus wire-contract §4 (cached schema
// sync) and the SDK's traps T8 (cached schema shape) and T20 (archived link sets).

const ARCHIVED_LINKS = ['content-type', 'content-type-schema', 'effective-content-type', 'self', 'unarchive'];

let srv: TestServer;
let admin: Api;
let hubId: string;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  hubId = (await createHub(admin)).id;
});

afterAll(async () => {
  await srv?.stop();
});

const typeIds = (body: any): string[] => body._embedded['content-types'].map((t: { id: string }) => t.id);

describe('register', () => {
  it('answers 201 with an active type, its settings and the full link set', async () => {
    const uri = schemaUri();
    await createSchema(admin, hubId, uri);
    const settings = { label: 'Banner', icons: [{ size: 256, url: 'https://img.example.com/i.png' }], visualizations: [{ label: 'Preview', templatedUri: 'https://vis.example.com/{{contentItemId}}', default: true }] };
    const res = await admin.post(`/hubs/${hubId}/content-types`, { contentTypeUri: uri, settings });
    expect(res.status, res.text).toBe(201);
    const t = res.body;
    expect(t.id).toMatch(HEX_ID);
    expect(t).toMatchObject({ contentTypeUri: uri, status: 'ACTIVE', settings });
    expect(t.cachedSchema).toBeUndefined();
    const self = `${admin.base}/content-types/${t.id}`;
    expect(res.headers.get('location')).toBe(self);
    expect(t._links).toEqual({
      self: { href: self },
      'content-type': { href: self },
      'effective-content-type': { href: `${self}/effective-content-type` },
      'content-type-schema': { href: `${self}/schema` },
      update: { href: self },
      archive: { href: `${self}/archive` },
    });
  });

  it.each([
    ['settings.label', (uri: string) => ({ contentTypeUri: uri, settings: {} })],
    ['settings.label', (uri: string) => ({ contentTypeUri: uri, settings: { label: ' ' } })],
    ['settings', (uri: string) => ({ contentTypeUri: uri })],
    ['contentTypeUri', () => ({ settings: { label: 'L' } })],
    ['settings.icons.0.size', (uri: string) => ({ contentTypeUri: uri, settings: { label: 'L', icons: [{ size: 'big', url: 'u' }] } })],
  ])('a bad body is 400 naming %s', async (property, make) => {
    const uri = schemaUri();
    await createSchema(admin, hubId, uri);
    const res = await admin.post(`/hubs/${hubId}/content-types`, make(uri));
    expectError(res, 400);
    expect(errorProperties(res)).toContain(property);
  });

  it('an unknown or archived schema is 400; a second registration is 409', async () => {
    const unknown = await admin.post(`/hubs/${hubId}/content-types`, { contentTypeUri: schemaUri(), settings: { label: 'L' } });
    expect(expectError(unknown, 400)).toMatchObject({ code: 'SCHEMA_NOT_FOUND', property: 'contentTypeUri' });
    const archived = await createSchema(admin, hubId);
    await admin.post(`/content-type-schemas/${archived.id}/archive`, { version: 1 });
    expectError(await admin.post(`/hubs/${hubId}/content-types`, { contentTypeUri: archived.schemaId, settings: { label: 'L' } }), 400);
    const t = await createType(admin, hubId);
    const again = await admin.post(`/hubs/${hubId}/content-types`, { contentTypeUri: t.contentTypeUri, settings: { label: 'Again' } });
    expect(expectError(again, 409).code).toBe('DUPLICATE_CONTENT_TYPE');
  });
});

describe('list and get', () => {
  let listHub: string;
  let zeta: any;
  let alpha: any;
  let mid: any;
  beforeAll(async () => {
    listHub = (await createHub(admin)).id;
    zeta = await createType(admin, listHub, 'Zeta');
    alpha = await createType(admin, listHub, 'Alpha');
    mid = await createType(admin, listHub, 'Mid');
    expect((await admin.post(`/content-types/${alpha.id}/archive`)).status).toBe(200);
  });
  const listOf = (query = '') => admin.get(`/hubs/${listHub}/content-types${query}`);

  it('lists every type of the hub, oldest first, under content-types with a page', async () => {
    const res = await listOf();
    expect(res.status).toBe(200);
    expect(typeIds(res.body)).toEqual([zeta.id, alpha.id, mid.id]);
    expect(res.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    expect(res.body._embedded['content-types'][1]._links.unarchive).toBeDefined();
  });

  it.each([
    ['ACTIVE', () => [zeta.id, mid.id]],
    ['ARCHIVED', () => [alpha.id]],
    ['ACTIVE,ARCHIVED', () => [zeta.id, alpha.id, mid.id]],
  ])('status=%s filters', async (status, expected) => {
    expect(typeIds((await listOf(`?status=${status}`)).body)).toEqual(expected());
  });

  it('sorts by label and pages', async () => {
    expect(typeIds((await listOf('?sort=settings.label,asc')).body)).toEqual([alpha.id, mid.id, zeta.id]);
    const page = await listOf('?sort=settings.label,desc&size=1&page=1');
    expect(typeIds(page.body)).toEqual([mid.id]);
    expect(page.body.page).toEqual({ size: 1, totalElements: 3, totalPages: 3, number: 1 });
    expect(Object.keys(page.body._links).sort()).toEqual(['first', 'last', 'next', 'prev', 'self']);
  });

  it('a bad status or sort is 400', async () => {
    expect(expectError(await listOf('?status=GONE'), 400).property).toBe('status');
    expect(expectError(await listOf('?sort=cachedSchema,asc'), 400).property).toBe('sort');
  });

  it('gets a type by id; an unknown id is 404', async () => {
    const res = await admin.get(`/content-types/${zeta.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(zeta);
    expect(expectError(await admin.get(`/content-types/${MISSING_ID}`), 404).entity).toBe('ContentType');
  });
});

describe('update settings', () => {
  it('the settings object replaces the stored one whole (200 with Location)', async () => {
    const uri = schemaUri();
    await createSchema(admin, hubId, uri);
    const t = (await admin.post(`/hubs/${hubId}/content-types`, { contentTypeUri: uri, settings: { label: 'Old', icons: [{ size: 64, url: 'https://i.example.com/a.png' }] } })).body;
    const res = await admin.patch(`/content-types/${t.id}`, { settings: { label: 'New', cards: [{ label: 'Card', templatedUri: 'https://c.example.com', default: false }] } });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('location')).toBe(`${admin.base}/content-types/${t.id}`);
    expect(res.body.settings).toEqual({ label: 'New', cards: [{ label: 'Card', templatedUri: 'https://c.example.com', default: false }] });
    expect((await admin.get(`/content-types/${t.id}`)).body.settings).toEqual(res.body.settings);
  });

  it('the whole fetched type sent back is accepted; contentTypeUri and status are read-only', async () => {
    const t = await createType(admin, hubId);
    const res = await admin.patch(`/content-types/${t.id}`, { ...t, contentTypeUri: 'https://elsewhere.example.com/x.json', status: 'ARCHIVED', settings: { ...t.settings, label: 'Renamed' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ contentTypeUri: t.contentTypeUri, status: 'ACTIVE', settings: { label: 'Renamed' } });
  });

  it.each([
    ['settings.label', { settings: { icons: [] } }],
    ['settings.label', { settings: { label: '' } }],
    ['settings', {}],
    ['settings.visualizations.0.templatedUri', { settings: { label: 'L', visualizations: [{ label: 'V' }] } }],
  ])('a bad body is 400 naming %s and changes nothing', async (property, body) => {
    const t = await createType(admin, hubId, 'Keep');
    const res = await admin.patch(`/content-types/${t.id}`, body);
    expectError(res, 400);
    expect(errorProperties(res)).toContain(property);
    expect((await admin.get(`/content-types/${t.id}`)).body.settings.label).toBe('Keep');
  });

  it('an archived type cannot be updated (409); an unknown one is 404', async () => {
    const t = await createType(admin, hubId);
    await admin.post(`/content-types/${t.id}/archive`);
    expect(expectError(await admin.patch(`/content-types/${t.id}`, { settings: { label: 'X' } }), 409).code).toBe('CONTENT_TYPE_ARCHIVED');
    expectError(await admin.patch(`/content-types/${MISSING_ID}`, { settings: { label: 'X' } }), 404);
  });
});

describe('archive and unarchive', () => {
  it('archive answers the archived type with only self, content-type, effective-content-type, content-type-schema and unarchive', async () => {
    const t = await createType(admin, hubId);
    const res = await admin.post(`/content-types/${t.id}/archive`, {});
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('ARCHIVED');
    expect(Object.keys(res.body._links).sort()).toEqual(ARCHIVED_LINKS);
    expect(res.body._links.unarchive.href).toBe(`${admin.base}/content-types/${t.id}/unarchive`);
    expect((await admin.get(`/content-types/${t.id}`)).body._links).toEqual(res.body._links);
  });

  it('unarchive restores the active type and its update and archive links', async () => {
    const t = await createType(admin, hubId);
    await admin.post(`/content-types/${t.id}/archive`);
    const res = await admin.post(`/content-types/${t.id}/unarchive`, {});
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('ACTIVE');
    expect(res.body._links).toEqual(t._links);
  });

  it('archiving an archived type and unarchiving an active one are 409 with their own codes', async () => {
    const t = await createType(admin, hubId);
    expect(expectError(await admin.post(`/content-types/${t.id}/unarchive`), 409).code).toBe('CONTENT_TYPE_NOT_ARCHIVED');
    await admin.post(`/content-types/${t.id}/archive`);
    expect(expectError(await admin.post(`/content-types/${t.id}/archive`), 409).code).toBe('CONTENT_TYPE_ALREADY_ARCHIVED');
    expect((await admin.get(`/content-types/${t.id}`)).body.status).toBe('ARCHIVED');
  });

  it('an archived type cannot be assigned to a repository (409)', async () => {
    const t = await createType(admin, hubId);
    const repo = await createRepo(admin, hubId);
    await admin.post(`/content-types/${t.id}/archive`);
    expect(expectError(await admin.post(`/content-repositories/${repo.id}/content-types`, { contentTypeId: t.id }), 409).code).toBe('CONTENT_TYPE_ARCHIVED');
  });

  it('an unknown type is 404', async () => {
    expectError(await admin.post(`/content-types/${MISSING_ID}/archive`), 404);
    expectError(await admin.post(`/content-types/${MISSING_ID}/unarchive`), 404);
  });
});

describe('cached schema: get and sync', () => {
  it('GET answers {hubId, contentTypeUri, cachedSchema (an object), _links}', async () => {
    const t = await createType(admin, hubId);
    const res = await admin.get(`/content-types/${t.id}/schema`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      hubId,
      contentTypeUri: t.contentTypeUri,
      cachedSchema: schemaDoc(t.contentTypeUri),
      _links: { self: { href: `${admin.base}/content-types/${t.id}/schema` }, 'content-type': { href: `${admin.base}/content-types/${t.id}` } },
    });
  });

  it('keeps the registered version until synced; PATCH {} refreshes it from the current version', async () => {
    const t = await createType(admin, hubId);
    const schema = (await admin.get(`/hubs/${hubId}/content-type-schemas?size=1000`)).body._embedded['content-type-schemas'].find((s: any) => s.schemaId === t.contentTypeUri);
    const v2 = schemaDoc(t.contentTypeUri, { title: 'Version two', properties: { title: { type: 'string' }, body: { type: 'string' } } });
    expect((await admin.patch(`/content-type-schemas/${schema.id}`, { body: JSON.stringify(v2) })).status).toBe(200);
    expect((await admin.get(`/content-types/${t.id}/schema`)).body.cachedSchema.title).toBe('Test type');

    const res = await admin.patch(`/content-types/${t.id}/schema`, {});
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('location')).toBe(`${admin.base}/content-types/${t.id}/schema`);
    expect(res.body).toMatchObject({ hubId, contentTypeUri: t.contentTypeUri, cachedSchema: v2 });
    expect((await admin.get(`/content-types/${t.id}/schema`)).body.cachedSchema).toEqual(v2);
  });

  it('an archived type keeps its content-type-schema link and can still be synced', async () => {
    const t = await createType(admin, hubId);
    await admin.post(`/content-types/${t.id}/archive`);
    expect((await admin.patch(`/content-types/${t.id}/schema`, {})).status).toBe(200);
  });

  it('an unknown type is 404', async () => {
    expectError(await admin.get(`/content-types/${MISSING_ID}/schema`), 404);
    expectError(await admin.patch(`/content-types/${MISSING_ID}/schema`, {}), 404);
  });
});

describe('effective content type', () => {
  // wire-contract §6.6: a JSON Schema document (not the content type resource), refs inlined and allOf merged.
  it('answers the cached schema standing alone as a JSON Schema: refs to other hub schemas inlined, allOf merged', async () => {
    const partUri = schemaUri('part');
    await createSchema(admin, hubId, partUri, schemaDoc(partUri, { definitions: { caption: { type: 'string', maxLength: 80 } } }));
    const uri = schemaUri('composite');
    await createSchema(admin, hubId, uri, schemaDoc(uri, { properties: { caption: { $ref: `${partUri}#/definitions/caption` } } }));
    const t = (await admin.post(`/hubs/${hubId}/content-types`, { contentTypeUri: uri, settings: { label: 'Composite' } })).body;

    const res = await admin.get(`/content-types/${t.id}/effective-content-type`);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: uri, type: 'object' });
    expect(res.body.properties.caption).toEqual({ type: 'string', maxLength: 80 });
    expect(res.body.properties._meta.type).toBe('object');
    expect(res.body.allOf).toBeUndefined();
    expect(res.body._links.self.href).toBe(`${admin.base}/content-types/${t.id}/effective-content-type`);
    expect(res.body._links['content-type'].href).toBe(`${admin.base}/content-types/${t.id}`);
    // The stored cached schema keeps its ref.
    expect((await admin.get(`/content-types/${t.id}/schema`)).body.cachedSchema.properties.caption).toEqual({ $ref: `${partUri}#/definitions/caption` });
  });

  it('an unknown type is 404', async () => {
    expectError(await admin.get(`/content-types/${MISSING_ID}/effective-content-type`), 404);
  });
});

describe('assign and unassign', () => {
  it('assign answers the repository with the type; unassign answers 204 and removes it', async () => {
    const t = await createType(admin, hubId);
    const repo = await createRepo(admin, hubId);
    const assigned = await admin.post(`/content-repositories/${repo.id}/content-types`, { contentTypeId: t.id });
    expect(assigned.status, assigned.text).toBe(200);
    expect(assigned.body.contentTypes).toEqual([{ hubContentTypeId: t.id, contentTypeUri: t.contentTypeUri }]);

    const res = await admin.del(`/content-repositories/${repo.id}/content-types/${t.id}`);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect((await admin.get(`/content-repositories/${repo.id}`)).body.contentTypes).toEqual([]);
  });

  it('unassigning a type that is not assigned is 404; so is an unknown repository', async () => {
    const t = await createType(admin, hubId);
    const repo = await createRepo(admin, hubId);
    expect(expectError(await admin.del(`/content-repositories/${repo.id}/content-types/${t.id}`), 404).code).toBe('CONTENT_TYPE_NOT_ASSIGNED');
    expectError(await admin.del(`/content-repositories/${repo.id}/content-types/${MISSING_ID}`), 404);
    expectError(await admin.del(`/content-repositories/${MISSING_ID}/content-types/${t.id}`), 404);
  });

  it('assigning an unknown type or one of another hub is 400', async () => {
    const repo = await createRepo(admin, hubId);
    const foreign = await createType(admin, (await createHub(admin)).id);
    for (const contentTypeId of [MISSING_ID, foreign.id]) {
      expect(expectError(await admin.post(`/content-repositories/${repo.id}/content-types`, { contentTypeId }), 400).property).toBe('contentTypeId');
    }
  });
});

describe('permissions', () => {
  let t: any;
  let repo: any;
  let reader: Api;
  let noRead: Api;
  let noEdit: Api;
  let repoEditor: Api;

  beforeAll(async () => {
    t = await createType(admin, hubId);
    repo = await createRepo(admin, hubId);
    const hubRead = { resource: 'hubs' as const, id: hubId, permissions: ['READ'] };
    reader = await admin.client(`type-reader-${process.pid}`, [FN('CONTENT_TYPE', 'READ')], [hubRead]);
    noRead = await admin.client(`type-noread-${process.pid}`, [FN('CONTENT_TYPE', 'EDIT'), FN('CONTENT_TYPE', 'CREATE')], [hubRead]);
    noEdit = await admin.client(`type-noedit-${process.pid}`, [FN('CONTENT_TYPE', 'READ'), FN('CONTENT_TYPE', 'CREATE')], [hubRead]);
    repoEditor = await admin.client(`type-repo-editor-${process.pid}`, [FN('REPOSITORY', 'EDIT')], [hubRead, { resource: 'content-repositories', id: repo.id, permissions: ['EDIT'] }]);
  });

  it('reads need CONTENT_TYPE:READ (403 without it)', async () => {
    for (const path of [`/hubs/${hubId}/content-types`, `/content-types/${t.id}`, `/content-types/${t.id}/schema`, `/content-types/${t.id}/effective-content-type`]) {
      expect((await reader.get(path)).status, path).toBe(200);
      expect(expectError(await noRead.get(path), 403).message).toContain(FN('CONTENT_TYPE', 'READ'));
    }
  });

  it('update, archive, unarchive and sync need CONTENT_TYPE:EDIT (403 without it)', async () => {
    expect(expectError(await noEdit.patch(`/content-types/${t.id}`, { settings: { label: 'X' } }), 403).message).toContain(FN('CONTENT_TYPE', 'EDIT'));
    expectError(await noEdit.post(`/content-types/${t.id}/archive`), 403);
    expectError(await noEdit.post(`/content-types/${t.id}/unarchive`), 403);
    expectError(await noEdit.patch(`/content-types/${t.id}/schema`, {}), 403);
    expect((await admin.get(`/content-types/${t.id}`)).body).toEqual(t);
  });

  it('a reader sees no update or archive links', async () => {
    const links = (await reader.get(`/content-types/${t.id}`)).body._links;
    expect(Object.keys(links).sort()).toEqual(['content-type', 'content-type-schema', 'effective-content-type', 'self']);
  });

  it('assign and unassign need REPOSITORY:EDIT and the repository EDIT ACL', async () => {
    expectError(await reader.post(`/content-repositories/${repo.id}/content-types`, { contentTypeId: t.id }), 403);
    expect((await repoEditor.post(`/content-repositories/${repo.id}/content-types`, { contentTypeId: t.id })).status).toBe(200);
    expectError(await reader.del(`/content-repositories/${repo.id}/content-types/${t.id}`), 403);
    expect((await repoEditor.del(`/content-repositories/${repo.id}/content-types/${t.id}`)).status).toBe(204);
  });

  it('a client without access to the hub gets 404', async () => {
    const stranger = await admin.client(`type-stranger-${process.pid}`, [FN('CONTENT_TYPE', 'READ')]);
    expectError(await stranger.get(`/content-types/${t.id}`), 404);
  });
});
