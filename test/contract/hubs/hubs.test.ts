import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, createRepo, startServer, unique, type TestServer } from '../../helpers/server.js';
import { HEX_ID, errorProperties, expectError } from '../../helpers/assert.js';

// Hubs: description "Hub" resource and "Hubs" endpoints.

let srv: TestServer;
let admin: Api;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
});

afterAll(async () => {
  await srv?.stop();
});

const DEFAULT_DEVICES = [
  { name: 'Desktop', width: 1024, height: 768, orientate: false },
  { name: 'Tablet', width: 640, height: 768, orientate: false },
  { name: 'Mobile', width: 320, height: 512, orientate: false },
];

describe('create', () => {
  it('answers 201 with the hub and every default of the description', async () => {
    const name = unique('hub');
    const res = await admin.post('/hubs', { name, label: 'My hub', description: 'About it' });
    expect(res.status).toBe(201);
    const hub = res.body;
    expect(hub.id).toMatch(HEX_ID);
    expect(hub.name).toBe(name);
    expect(hub.label).toBe('My hub');
    expect(hub.description).toBe('About it');
    expect(hub.status).toBe('ACTIVE');
    expect(hub.settings.devices).toEqual(DEFAULT_DEVICES);
    expect(hub.settings.virtualStagingEnvironment).toEqual({ hostname: '' });
    expect(hub.settings.previewVirtualStagingEnvironment).toEqual({ hostname: '' });
    expect(hub.settings.applications).toEqual([]);
    expect(hub.settings.localization).toEqual({ locales: [] });
    expect(hub.settings.publishing?.platforms?.vendor_dam).toBeUndefined();
    expect(hub.createdBy).toBe('sandbox-admin');
    expect(hub.lastModifiedBy).toBe('sandbox-admin');
    expect(hub.createdDate).toBe(hub.lastModifiedDate);
  });

  it('keeps the defaults for settings objects the create body does not give', async () => {
    const res = await admin.post('/hubs', { name: unique('hub'), label: 'L', settings: { localization: { locales: ['en-GB'] } } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.settings.localization).toEqual({ locales: ['en-GB'] });
    expect(res.body.settings.devices).toEqual(DEFAULT_DEVICES);
    expect(res.body.settings.virtualStagingEnvironment).toEqual({ hostname: '' });
    expect(res.body.settings.applications).toEqual([]);
  });

  it('the hub link set names its operations', async () => {
    const hub = await createHub(admin);
    const self = `${admin.base}/hubs/${hub.id}`;
    expect(hub._links.self.href).toBe(self);
    expect(hub._links.hub.href).toBe(self);
    expect(hub._links.update.href).toBe(self);
    expect(hub._links.delete.href).toBe(self);
    expect(hub._links['update-settings'].href).toBe(`${self}/settings`);
    expect(hub._links.share.href).toBe(`${self}/share`);
    expect(hub._links['content-repositories']).toEqual({ href: `${self}/content-repositories{?page,size,sort}`, templated: true });
    expect(hub._links['create-content-repository'].href).toBe(`${self}/content-repositories`);
  });

  it('description is optional and defaults to an empty string', async () => {
    const res = await admin.post('/hubs', { name: unique('hub'), label: 'L' });
    expect(res.status).toBe(201);
    expect(res.body.description).toBe('');
  });

  it('a missing name or label is 400 naming each property', async () => {
    const res = await admin.post('/hubs', { description: 'x' });
    expectError(res, 400);
    expect(errorProperties(res)).toEqual(expect.arrayContaining(['name', 'label']));
    expect(res.body.errors.every((e: { entity: string }) => e.entity === 'Hub')).toBe(true);
  });

  it('an empty body is 400 naming name and label', async () => {
    const res = await admin.post('/hubs', undefined, { raw: '', headers: { 'content-type': 'application/json' } });
    expectError(res, 400);
    expect(errorProperties(res)).toEqual(expect.arrayContaining(['name', 'label']));
  });

  it.each([
    ['name', { name: '', label: 'L' }],
    ['name', { name: '   ', label: 'L' }],
    ['label', { label: '', name: 'ok-name' }],
    ['label', { label: '  ', name: 'ok-name' }],
  ])('an empty %s is 400 naming it', async (property, body) => {
    const res = await admin.post('/hubs', body);
    expectError(res, 400);
    expect(errorProperties(res)).toContain(property);
  });

  it('wrong types are 400 with one error per property', async () => {
    const res = await admin.post('/hubs', { name: 5, label: true, description: ['x'], settings: 'none' });
    expectError(res, 400);
    expect(errorProperties(res)).toEqual(expect.arrayContaining(['name', 'label', 'description', 'settings']));
    const name = res.body.errors.find((e: { property: string }) => e.property === 'name');
    expect(name.invalidValue).toBe(5);
  });

  it('a badly typed nested setting names its path', async () => {
    const res = await admin.post('/hubs', {
      name: unique('hub'),
      label: 'L',
      settings: { devices: [{ name: 'Watch', width: 'wide', height: 10, orientate: false }] },
    });
    expectError(res, 400);
    expect(errorProperties(res)).toContain('settings.devices.0.width');
  });

  it('a body that is not an object is 400', async () => {
    expectError(await admin.post('/hubs', ['name']), 400);
    expectError(await admin.post('/hubs', 'name'), 400);
  });

  it('a duplicate name is 409 naming property name', async () => {
    const hub = await createHub(admin);
    const res = await admin.post('/hubs', { name: hub.name, label: 'Again' });
    const err = expectError(res, 409);
    expect(err.property).toBe('name');
    expect(err.invalidValue).toBe(hub.name);
  });
});

describe('list and get', () => {
  it('lists hubs under _embedded.hubs', async () => {
    const hub = await createHub(admin);
    const res = await admin.get('/hubs?size=1000');
    expect(res.status).toBe(200);
    const found = res.body._embedded.hubs.find((h: { id: string }) => h.id === hub.id);
    expect(found).toBeDefined();
    expect(found.name).toBe(hub.name);
    expect(found._links.self.href).toBe(hub._links.self.href);
    expect(res.body.page.totalElements).toBeGreaterThanOrEqual(1);
  });

  it('lists hubs sorted by name', async () => {
    const p = unique('sorted');
    for (const n of ['b', 'a', 'c']) await createHub(admin, `${p}-${n}`);
    const res = await admin.get('/hubs?size=1000&sort=name,desc');
    const names = res.body._embedded.hubs.map((h: { name: string }) => h.name).filter((n: string) => n.startsWith(p));
    expect(names).toEqual([`${p}-c`, `${p}-b`, `${p}-a`]);
  });

  it('gets a hub with a Last-Modified header', async () => {
    const hub = await createHub(admin);
    const res = await admin.get(`/hubs/${hub.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(hub);
    const lastModified = res.headers.get('last-modified');
    expect(lastModified).toBe(new Date(hub.lastModifiedDate).toUTCString());
  });

  it('an unknown hub is 404', async () => {
    const err = expectError(await admin.get('/hubs/5f0000000000000000000000'), 404);
    expect(err.entity).toBe('Hub');
  });
});

describe('update', () => {
  it('changes name, label and description and keeps the rest', async () => {
    const hub = await createHub(admin);
    const name = unique('renamed');
    const res = await admin.patch(`/hubs/${hub.id}`, { name, label: 'New label', description: 'New description' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: hub.id, name, label: 'New label', description: 'New description', status: 'ACTIVE' });
    expect(res.body.settings).toEqual(hub.settings);
    const fetched = (await admin.get(`/hubs/${hub.id}`)).body;
    expect(fetched).toMatchObject({ name, label: 'New label', description: 'New description' });
  });

  it('overwrites only the supplied fields', async () => {
    const hub = (await admin.post('/hubs', { name: unique('hub'), label: 'Keep', description: 'Keep too' })).body;
    const res = await admin.patch(`/hubs/${hub.id}`, { label: 'Only this' });
    expect(res.body).toMatchObject({ name: hub.name, label: 'Only this', description: 'Keep too' });
  });

  it('keeping the same name is no conflict', async () => {
    const hub = await createHub(admin);
    expect((await admin.patch(`/hubs/${hub.id}`, { name: hub.name })).status).toBe(200);
  });

  it('renaming to the name of another hub is 409 naming property name', async () => {
    const a = await createHub(admin);
    const b = await createHub(admin);
    const err = expectError(await admin.patch(`/hubs/${b.id}`, { name: a.name }), 409);
    expect(err.property).toBe('name');
    expect((await admin.get(`/hubs/${b.id}`)).body.name).toBe(b.name);
  });

  it('an empty label is 400', async () => {
    const hub = await createHub(admin);
    const res = await admin.patch(`/hubs/${hub.id}`, { label: '' });
    expectError(res, 400);
    expect(errorProperties(res)).toContain('label');
  });

  it('an unknown hub is 404', async () => {
    expectError(await admin.patch('/hubs/5f0000000000000000000000', { label: 'x' }), 404);
  });
});

describe('settings', () => {
  it('answers 204 with a Location header', async () => {
    const hub = await createHub(admin);
    const res = await admin.patch(`/hubs/${hub.id}/settings`, { virtualStagingEnvironment: { hostname: 'vse.example.com' } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('location')).toBe(`${admin.base}/hubs/${hub.id}`);
  });

  it('changes only the supplied top-level objects', async () => {
    const hub = await createHub(admin);
    await admin.patch(`/hubs/${hub.id}/settings`, { localization: { locales: ['en-GB', 'fr-FR'] } });
    await admin.patch(`/hubs/${hub.id}/settings`, { virtualStagingEnvironment: { hostname: 'vse.example.com' } });
    const settings = (await admin.get(`/hubs/${hub.id}`)).body.settings;
    expect(settings.localization).toEqual({ locales: ['en-GB', 'fr-FR'] });
    expect(settings.virtualStagingEnvironment).toEqual({ hostname: 'vse.example.com' });
    expect(settings.previewVirtualStagingEnvironment).toEqual({ hostname: '' });
    expect(settings.devices).toEqual(DEFAULT_DEVICES);
    expect(settings.applications).toEqual([]);
  });

  it('a supplied nested object replaces the stored one whole', async () => {
    const hub = await createHub(admin);
    const devices = [{ name: 'Watch', width: 200, height: 200, orientate: true }];
    await admin.patch(`/hubs/${hub.id}/settings`, { devices });
    expect((await admin.get(`/hubs/${hub.id}`)).body.settings.devices).toEqual(devices);
    await admin.patch(`/hubs/${hub.id}/settings`, { publishing: { platforms: { vendor_dam: { API_KEY: 'k1', endpoint: 'https://dam.example.com' } } } });
    await admin.patch(`/hubs/${hub.id}/settings`, { publishing: { platforms: { vendor_dam: { API_KEY: 'k2' } } } });
    expect((await admin.get(`/hubs/${hub.id}`)).body.settings.publishing).toEqual({ platforms: { vendor_dam: { API_KEY: 'k2' } } });
  });

  it('updates the hub lastModifiedDate', async () => {
    const hub = await createHub(admin);
    await new Promise((r) => setTimeout(r, 5));
    await admin.patch(`/hubs/${hub.id}/settings`, { applications: [{ name: 'app', templatedUri: 'https://app.example.com/{id}' }] });
    const after = (await admin.get(`/hubs/${hub.id}`)).body;
    expect(after.settings.applications).toEqual([{ name: 'app', templatedUri: 'https://app.example.com/{id}' }]);
    expect(Date.parse(after.lastModifiedDate)).toBeGreaterThan(Date.parse(hub.lastModifiedDate));
  });

  it('accepts API_SECRET and never returns it, while API_KEY and endpoint are returned', async () => {
    const hub = await createHub(admin);
    const secret = `s3cr3t-${unique('x')}`;
    const res = await admin.patch(`/hubs/${hub.id}/settings`, {
      publishing: { platforms: { vendor_dam: { API_KEY: 'key-1', API_SECRET: secret, endpoint: 'https://dam.example.com' } } },
    });
    expect(res.status).toBe(204);
    const fetched = await admin.get(`/hubs/${hub.id}`);
    expect(fetched.body.settings.publishing.platforms.vendor_dam).toEqual({ API_KEY: 'key-1', endpoint: 'https://dam.example.com' });
    expect(fetched.text).not.toContain(secret);
    expect(fetched.text).not.toContain('API_SECRET');
    const listed = await admin.get('/hubs?size=1000');
    expect(listed.text).not.toContain(secret);
    const updated = await admin.patch(`/hubs/${hub.id}`, { label: 'Still secret' });
    expect(updated.text).not.toContain(secret);
  });

  it('never returns an API_SECRET given on create', async () => {
    const secret = `s3cr3t-${unique('y')}`;
    const res = await admin.post('/hubs', {
      name: unique('hub'),
      label: 'L',
      settings: { publishing: { platforms: { vendor_dam: { API_KEY: 'k', API_SECRET: secret } } } },
    });
    expect(res.status).toBe(201);
    expect(res.text).not.toContain(secret);
    expect(res.body.settings.publishing.platforms.vendor_dam).toEqual({ API_KEY: 'k' });
  });

  it('accepts assetManagement', async () => {
    const hub = await createHub(admin);
    expect((await admin.patch(`/hubs/${hub.id}/settings`, { assetManagement: { enabled: true, client_config: 'x' } })).status).toBe(204);
    expect((await admin.get(`/hubs/${hub.id}`)).body.settings.assetManagement).toEqual({ enabled: true, client_config: 'x' });
  });

  it('badly typed settings are 400 naming the property', async () => {
    const hub = await createHub(admin);
    const res = await admin.patch(`/hubs/${hub.id}/settings`, { devices: 'all' });
    expectError(res, 400);
    expect(errorProperties(res)).toContain('devices');
  });
});

describe('plan', () => {
  it('accepts DEVELOPER and null', async () => {
    const hub = await createHub(admin);
    const dev = await admin.patch(`/hubs/${hub.id}/plan`, { plan: 'DEVELOPER' });
    expect(dev.status).toBe(200);
    expect(dev.body.plan).toBe('DEVELOPER');
    const none = await admin.patch(`/hubs/${hub.id}/plan`, { plan: null });
    expect(none.status).toBe(200);
    expect(none.body.plan).toBeNull();
  });

  it.each([['ENTERPRISE'], [''], [5]])('rejects plan %j with 400', async (plan) => {
    const hub = await createHub(admin);
    const res = await admin.patch(`/hubs/${hub.id}/plan`, { plan });
    expectError(res, 400);
    expect(errorProperties(res)).toContain('plan');
  });
});

describe('share', () => {
  it('answers 204, and the shared client can then read the hub', async () => {
    const hub = await createHub(admin);
    const reader = await admin.client(unique('reader'), []);
    expectError(await reader.get(`/hubs/${hub.id}`), 404);
    const res = await admin.post(`/hubs/${hub.id}/share`, { user: reader.clientId, additionalPermissions: ['READ'] });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const read = await reader.get(`/hubs/${hub.id}`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(hub.id);
    const list = await reader.get('/hubs');
    expect(list.body._embedded.hubs.map((h: { id: string }) => h.id)).toEqual([hub.id]);
  });

  it('grants each of READ, EDIT, DELETE and SHARE', async () => {
    const hub = await createHub(admin);
    const user = unique('all-perms');
    await admin.client(user, []);
    expect((await admin.post(`/hubs/${hub.id}/share`, { user, additionalPermissions: ['READ', 'EDIT', 'DELETE', 'SHARE'] })).status).toBe(204);
    const clients = (await admin.get('/__sandbox/clients')).body.clients;
    const acl = clients.find((c: { id: string }) => c.id === user).acl;
    expect(acl).toEqual([{ resource: 'hubs', id: hub.id, permissions: expect.arrayContaining(['READ', 'EDIT', 'DELETE', 'SHARE']) }]);
  });

  it('user is required', async () => {
    const hub = await createHub(admin);
    const res = await admin.post(`/hubs/${hub.id}/share`, { additionalPermissions: ['READ'] });
    expectError(res, 400);
    expect(errorProperties(res)).toContain('user');
  });

  it('additionalPermissions is required', async () => {
    const hub = await createHub(admin);
    const user = unique('u');
    await admin.client(user, []);
    const res = await admin.post(`/hubs/${hub.id}/share`, { user });
    expectError(res, 400);
    expect(errorProperties(res)).toContain('additionalPermissions');
  });

  it.each([['CREATE_REPOSITORY'], ['MANAGE_ACCESS'], ['read'], ['WRITE']])('additionalPermissions %s is 400', async (permission) => {
    const hub = await createHub(admin);
    const user = unique('u');
    await admin.client(user, []);
    const res = await admin.post(`/hubs/${hub.id}/share`, { user, additionalPermissions: ['READ', permission] });
    expectError(res, 400);
    expect(errorProperties(res).some((p) => p.startsWith('additionalPermissions'))).toBe(true);
  });

  it('an unknown user is 400', async () => {
    const hub = await createHub(admin);
    const res = await admin.post(`/hubs/${hub.id}/share`, { user: 'no-such-client', additionalPermissions: ['READ'] });
    const err = expectError(res, 400);
    expect(err.property).toBe('user');
  });
});

describe('delete', () => {
  it('answers 204, then the hub is 404 and gone from the list', async () => {
    const hub = await createHub(admin);
    const res = await admin.del(`/hubs/${hub.id}`);
    expect(res.status).toBe(204);
    expectError(await admin.get(`/hubs/${hub.id}`), 404);
    const list = await admin.get('/hubs?size=1000');
    expect(list.body._embedded.hubs.map((h: { id: string }) => h.id)).not.toContain(hub.id);
    expectError(await admin.del(`/hubs/${hub.id}`), 404);
  });

  it('removes the hub repositories too', async () => {
    const hub = await createHub(admin);
    const repo = await createRepo(admin, hub.id);
    expect((await admin.del(`/hubs/${hub.id}`)).status).toBe(204);
    expectError(await admin.get(`/content-repositories/${repo.id}`), 404);
    expectError(await admin.get(`/hubs/${hub.id}/content-repositories`), 404);
  });

  it('frees the name for a new hub', async () => {
    const hub = await createHub(admin);
    await admin.del(`/hubs/${hub.id}`);
    const again = await admin.post('/hubs', { name: hub.name, label: 'Again' });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(hub.id);
  });
});
