import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';
import { errorProperties, expectError, FN, HEX_ID, ISO_MILLIS, MISSING_ID } from '../../helpers/assert.js';

// Extensions: wire-contract §4 ({id, name, label, description, url, height, category,
// parameters, snippets, settings, status}), SDK notes 2.13 and the EXTENSION fixture.

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

const fixture = (name = unique('ext')) => ({
  name,
  label: 'Rich text',
  description: 'A rich text editor',
  url: 'https://extensions.example.com/rich-text/index.html',
  height: 200,
  category: 'CONTENT_FIELD',
  parameters: '{}',
  snippets: [{ label: 'Empty', body: '{"text":""}' }],
  settings: '{"API":{"READ":true},"SANDBOX":{"SAME_ORIGIN":true}}',
});

async function createExtension(body: Record<string, unknown> = fixture(), hub = hubId): Promise<any> {
  const res = await admin.post(`/hubs/${hub}/extensions`, body);
  if (res.status !== 201) throw new Error(`extension create failed: ${res.status} ${res.text}`);
  return res.body;
}

describe('create', () => {
  it('answers 201 with every field, stamps, Location and links self, extension, hub, update, delete', async () => {
    const body = fixture();
    const res = await admin.post(`/hubs/${hubId}/extensions`, body);
    expect(res.status, res.text).toBe(201);
    const ext = res.body;
    expect(ext.id).toMatch(HEX_ID);
    expect(ext).toMatchObject({ ...body, hubId, status: 'ACTIVE', createdBy: 'sandbox-admin', lastModifiedBy: 'sandbox-admin' });
    expect(ext.createdDate).toMatch(ISO_MILLIS);
    const self = `${admin.base}/extensions/${ext.id}`;
    expect(res.headers.get('location')).toBe(self);
    expect(ext._links).toEqual({ self: { href: self }, extension: { href: self }, hub: { href: `${admin.base}/hubs/${hubId}` }, update: { href: self }, delete: { href: self } });
  });

  it('only name, label, url and category are required; the rest defaults', async () => {
    const ext = await createExtension({ name: unique('min'), label: 'Minimal', url: 'http://localhost:3000/', category: 'DASHBOARD' });
    expect(ext).toMatchObject({ category: 'DASHBOARD', description: null, height: null, parameters: null, snippets: [], settings: null, status: 'ACTIVE' });
  });

  it.each([
    ['name', { name: undefined }],
    ['name', { name: 'has space' }],
    ['name', { name: 'dot.ted' }],
    ['name', { name: '' }],
    ['label', { label: '' }],
    ['label', { label: undefined }],
    ['url', { url: undefined }],
    ['url', { url: 'ftp://example.com/x' }],
    ['url', { url: 'not a url' }],
    ['category', { category: 'SIDEBAR' }],
    ['category', { category: undefined }],
    ['height', { height: 1.5 }],
    ['snippets.0.label', { snippets: [{ body: 'x' }] }],
    ['settings', { settings: { API: {} } }],
    ['status', { status: 'DELETED' }],
  ])('a bad body is 400 naming %s', async (property, change) => {
    const res = await admin.post(`/hubs/${hubId}/extensions`, { ...fixture(), ...change });
    expectError(res, 400);
    expect(errorProperties(res)).toContain(property);
  });

  it('a name taken in the hub is 409 (property name); the same name in another hub is fine', async () => {
    const ext = await createExtension();
    const res = await admin.post(`/hubs/${hubId}/extensions`, fixture(ext.name));
    const err = expectError(res, 409);
    expect(err).toMatchObject({ property: 'name', invalidValue: ext.name });
    const otherHub = (await createHub(admin)).id;
    expect((await createExtension(fixture(ext.name), otherHub)).name).toBe(ext.name);
  });
});

describe('list', () => {
  let listHub: string;
  let made: any[];
  beforeAll(async () => {
    listHub = (await createHub(admin)).id;
    made = [];
    for (const name of ['charlie', 'alpha', 'bravo']) made.push(await createExtension(fixture(name), listHub));
  });

  it('full extensions under _embedded.extensions with the paging envelope, oldest first', async () => {
    const res = await admin.get(`/hubs/${listHub}/extensions`);
    expect(res.status).toBe(200);
    expect(res.body._embedded.extensions.map((e: any) => e.name)).toEqual(['charlie', 'alpha', 'bravo']);
    expect(res.body._embedded.extensions[0]).toMatchObject({ description: 'A rich text editor', snippets: made[0].snippets, _links: made[0]._links });
    expect(res.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    const sorted = await admin.get(`/hubs/${listHub}/extensions?sort=name,asc&size=2&page=1`);
    expect(sorted.body._embedded.extensions.map((e: any) => e.name)).toEqual(['charlie']);
  });

  it('lite with ?projection=lite or ?show-full=false: only id, name, label, category, url', async () => {
    for (const query of ['projection=lite', 'show-full=false']) {
      const res = await admin.get(`/hubs/${listHub}/extensions?${query}`);
      expect(res.status).toBe(200);
      const first = res.body._embedded.extensions[0];
      const { _links, ...fields } = first;
      expect(fields).toEqual({ id: made[0].id, name: 'charlie', label: 'Rich text', category: 'CONTENT_FIELD', url: made[0].url });
      expect(_links.self.href).toBe(`${admin.base}/extensions/${made[0].id}`);
    }
  });

  it('the hub links extensions, extensions-lite, extension-by-name and create-extension', async () => {
    const links = (await admin.get(`/hubs/${listHub}`)).body._links;
    const base = `${admin.base}/hubs/${listHub}/extensions`;
    expect(links.extensions).toEqual({ href: `${base}{?page,size,sort}`, templated: true });
    expect(links['extensions-lite']).toEqual({ href: `${base}{?projection,page,size,sort}`, templated: true });
    expect(links['extension-by-name']).toEqual({ href: `${base}/{name}`, templated: true });
    expect(links['create-extension']).toEqual({ href: base });
  });
});

describe('get, get by name, update, delete', () => {
  it('get by id and by name return the same extension; unknown ones are 404', async () => {
    const ext = await createExtension();
    const byId = await admin.get(`/extensions/${ext.id}`);
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual(ext);
    const byName = await admin.get(`/hubs/${hubId}/extensions/${ext.name}`);
    expect(byName.body).toEqual(ext);
    expectError(await admin.get(`/extensions/${MISSING_ID}`), 404);
    expectError(await admin.get(`/hubs/${hubId}/extensions/no-such-extension`), 404);
    const otherHub = (await createHub(admin)).id;
    expectError(await admin.get(`/hubs/${otherHub}/extensions/${ext.name}`), 404);
  });

  it('PATCH changes the given fields (a whole fetched extension works) and answers 200 with Location', async () => {
    const ext = await createExtension();
    const res = await admin.patch(`/extensions/${ext.id}`, { ...ext, label: 'Renamed', height: 400, description: null, createdBy: 'someone', id: 'ignored' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('location')).toBe(`${admin.base}/extensions/${ext.id}`);
    expect(res.body).toMatchObject({ id: ext.id, name: ext.name, label: 'Renamed', height: 400, description: null, url: ext.url, createdBy: 'sandbox-admin' });
    expect((await admin.get(`/extensions/${ext.id}`)).body.label).toBe('Renamed');
    const renamed = await admin.patch(`/extensions/${ext.id}`, { name: `${ext.name}-2` });
    expect(renamed.body.name).toBe(`${ext.name}-2`);
    expect((await admin.get(`/hubs/${hubId}/extensions/${ext.name}-2`)).status).toBe(200);
  });

  it('PATCH to a name taken in the hub is 409; bad fields are 400', async () => {
    const a = await createExtension();
    const b = await createExtension();
    expect(expectError(await admin.patch(`/extensions/${b.id}`, { name: a.name }), 409).property).toBe('name');
    expectError(await admin.patch(`/extensions/${b.id}`, { url: 'javascript:alert(1)' }), 400);
    expectError(await admin.patch(`/extensions/${MISSING_ID}`, { label: 'x' }), 404);
    expect((await admin.get(`/extensions/${b.id}`)).body.name).toBe(b.name);
  });

  it('DELETE answers 204; the extension and its name are gone', async () => {
    const ext = await createExtension();
    const res = await admin.del(`/extensions/${ext.id}`);
    expect(res.status).toBe(204);
    expectError(await admin.get(`/extensions/${ext.id}`), 404);
    expectError(await admin.del(`/extensions/${ext.id}`), 404);
    expect((await createExtension(fixture(ext.name))).name).toBe(ext.name);
  });
});

describe('permissions: EXTENSION functional permissions with Hub READ', () => {
  const client = (fn: string[], hubAcl = ['READ'], hub = () => hubId) => admin.client(unique('ext-perm'), fn, hubAcl.length ? [{ resource: 'hubs', id: hub(), permissions: hubAcl }] : []);

  it.each([
    ['list', 'READ', (api: Api) => api.get(`/hubs/${hubId}/extensions`), 200],
    ['create', 'CREATE', (api: Api) => api.post(`/hubs/${hubId}/extensions`, fixture()), 201],
  ] as const)('%s needs EXTENSION:%s', async (_name, action, call, ok) => {
    expect((await call(await client([FN('EXTENSION', action)]))).status).toBe(ok);
    expect(expectError(await call(await client([])), 403).message).toContain(FN('EXTENSION', action));
    expectError(await call(await client([FN('EXTENSION', action)], [])), 404);
  });

  it('get, get by name, update and delete each need their permission; links follow them', async () => {
    const ext = await createExtension();
    const reader = await client([FN('EXTENSION', 'READ')]);
    const seen = await reader.get(`/extensions/${ext.id}`);
    expect(seen.status).toBe(200);
    expect(Object.keys(seen.body._links).sort()).toEqual(['extension', 'hub', 'self']);
    expect((await reader.get(`/hubs/${hubId}/extensions/${ext.name}`)).status).toBe(200);
    expectError(await reader.patch(`/extensions/${ext.id}`, { label: 'x' }), 403);
    expectError(await reader.del(`/extensions/${ext.id}`), 403);
    expectError(await (await client([])).get(`/extensions/${ext.id}`), 403);
    const editor = await client([FN('EXTENSION', 'EDIT'), FN('EXTENSION', 'DELETE')]);
    expect((await editor.patch(`/extensions/${ext.id}`, { label: 'x' })).status).toBe(200);
    expect((await editor.del(`/extensions/${ext.id}`)).status).toBe(204);
  });

  it('an extension of a hub the client has no ACL on is 404', async () => {
    const ext = await createExtension();
    const outsider = await client([FN('EXTENSION', 'READ'), FN('EXTENSION', 'EDIT')], []);
    expectError(await outsider.get(`/extensions/${ext.id}`), 404);
    expectError(await outsider.patch(`/extensions/${ext.id}`, { label: 'x' }), 404);
  });
});
