import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, startServer, type Reply, type TestServer } from '../../helpers/server.js';
import { expectError } from '../../helpers/assert.js';
import { contentSetup, createContentRepo, createContentType, createItem, enableDeliveryKeys, itemBody, type ContentSetup } from '../../helpers/content.js';

// Delivery keys (Content Delivery 2): the rules of "Delivery key assignment", find by key (both
// the wire-contract path and the SDK's), filter by collection key, and keys moved through
// body._meta.deliveryKey on create and update as clients do.

let srv: TestServer;
let admin: Api;
let s: ContentSetup;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  s = await contentSetup(admin);
  await enableDeliveryKeys(admin, s.hubId);
});

afterAll(async () => {
  await srv?.stop();
});

let counter = 0;
const key = (prefix = 'key') => `${prefix}-${process.pid}-${++counter}`;
const newItem = (fields: Record<string, unknown> = {}) => createItem(admin, s.repoId, s.uri, fields);
const setKey = (id: string, deliveryKey: unknown, version: number) => admin.patch(`/content-items/${id}/delivery-key`, { deliveryKey, version });
const findKey = (k: string, hubId = s.hubId) => admin.get(`/hubs/${hubId}/content-items/delivery-key?key=${encodeURIComponent(k)}`);
const getItem = async (id: string) => (await admin.get(`/content-items/${id}`)).body;

describe('setting a key', () => {
  it('sets the key as a new version, in deliveryKey and body._meta.deliveryKey alike', async () => {
    const item = await newItem();
    const k = `shop/${key()}`;
    const res = await setKey(item.id, k, 1);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('location')).toBe(`${admin.base}/content-items/${item.id}`);
    expect(res.body).toMatchObject({ version: 2, deliveryKey: k, body: { _meta: { deliveryKey: k } } });
    expect(await getItem(item.id)).toMatchObject({ deliveryKey: k, body: { _meta: { deliveryKey: k } } });
    expect(item._links['set-delivery-key'].href).toBe(`${admin.base}/content-items/${item.id}/delivery-key`);
  });

  it('a new key replaces the old one, which no longer finds the item', async () => {
    const item = await newItem();
    const first = key();
    const second = key();
    await setKey(item.id, first, 1);
    expect((await setKey(item.id, second, 2)).body.deliveryKey).toBe(second);
    expectError(await findKey(first), 404);
    expect((await findKey(second)).body.id).toBe(item.id);
  });

  it('null removes the key from both places; the key is then free for another item', async () => {
    const a = await newItem();
    const b = await newItem();
    const k = key();
    await setKey(a.id, k, 1);
    const res = await setKey(a.id, null, 2);
    expect(res.body.deliveryKey).toBeNull();
    expect(res.body.body._meta).not.toHaveProperty('deliveryKey');
    expectError(await findKey(k), 404);
    expect((await setKey(b.id, k, 1)).status).toBe(200);
  });

  it.each([
    ['empty', ''],
    ['151 characters', 'k'.repeat(151)],
    ['a space', 'has space'],
    ['a dot', 'file.json'],
    ['a non-ASCII letter', 'café'],
    ['a leading slash', '/leading'],
    ['two consecutive slashes', 'a//b'],
    ['a query character', 'a?b'],
  ])('a key with %s is 400 naming deliveryKey, and nothing changes', async (_what, bad) => {
    const item = await newItem();
    const err = expectError(await setKey(item.id, bad, 1), 400);
    expect(err).toMatchObject({ code: 'INVALID_DELIVERY_KEY', property: 'deliveryKey', invalidValue: bad });
    expect(await getItem(item.id)).toMatchObject({ version: 1, deliveryKey: null });
  });

  it('accepts 150 characters of letters, digits, hyphens, underscores and inner slashes', async () => {
    const item = await newItem();
    const k = `A-z_0/9-${'x'.repeat(142)}`;
    expect(k).toHaveLength(150);
    expect((await setKey(item.id, k, 1)).body.deliveryKey).toBe(k);
  });

  it('a key held by another item of the hub is 409 naming deliveryKey; another hub may use it', async () => {
    const a = await newItem();
    const b = await newItem();
    const k = key();
    await setKey(a.id, k, 1);
    const err = expectError(await setKey(b.id, k, 1), 409);
    expect(err).toMatchObject({ code: 'DELIVERY_KEY_TAKEN', property: 'deliveryKey', invalidValue: k });
    expect((await setKey(a.id, k, 2)).status).toBe(200);
    const other = await contentSetup(admin);
    await enableDeliveryKeys(admin, other.hubId);
    const elsewhere = await createItem(admin, other.repoId, other.uri);
    expect((await setKey(elsewhere.id, k, 1)).status).toBe(200);
  });

  it('a stale version is 400 (as the description says) and nothing changes', async () => {
    const item = await newItem();
    await admin.patch(`/content-items/${item.id}`, { version: 1, label: 'v2' });
    const err = expectError(await setKey(item.id, key(), 1), 400);
    expect(err).toMatchObject({ code: 'VERSION_CONFLICT', property: 'version' });
    expect(await getItem(item.id)).toMatchObject({ version: 2, deliveryKey: null });
  });

  it('deliveryKey and version are required', async () => {
    const item = await newItem();
    expect(expectError(await admin.patch(`/content-items/${item.id}/delivery-key`, { version: 1 }), 400).property).toBe('deliveryKey');
    expect(expectError(await admin.patch(`/content-items/${item.id}/delivery-key`, { deliveryKey: key() }), 400).property).toBe('version');
  });

  it('without the Content Delivery 2 module the hub refuses keys: 400 CONTENT_DELIVERY_2_NOT_ENABLED', async () => {
    const plain = await contentSetup(admin);
    const item = await createItem(admin, plain.repoId, plain.uri);
    expect(expectError(await setKey(item.id, key(), 1), 400).code).toBe('CONTENT_DELIVERY_2_NOT_ENABLED');
    const create = await admin.post(`/content-repositories/${plain.repoId}/content-items`, { label: 'L', body: itemBody(plain.uri, {}, { deliveryKey: key() }) });
    expect(expectError(create, 400)).toMatchObject({ code: 'CONTENT_DELIVERY_2_NOT_ENABLED', property: 'body._meta.deliveryKey' });
    expect((await setKey(item.id, null, 1)).body.deliveryKey).toBeNull();
  });

  it('an archived item cannot take a key: 409', async () => {
    const item = await newItem();
    await admin.post(`/content-items/${item.id}/archive`, { version: 1 });
    expectError(await setKey(item.id, key(), 2), 409);
  });
});

describe('keys through the item body, as clients move them', () => {
  it('create with body._meta.deliveryKey sets the key; a taken one is 409 naming body._meta.deliveryKey', async () => {
    const k = key();
    const item = await newItem({ body: itemBody(s.uri, {}, { deliveryKey: k }) });
    expect(item).toMatchObject({ deliveryKey: k, body: { _meta: { deliveryKey: k } } });
    const res = await admin.post(`/content-repositories/${s.repoId}/content-items`, { label: 'L', body: itemBody(s.uri, {}, { deliveryKey: k }) });
    expect(expectError(res, 409)).toMatchObject({ property: 'body._meta.deliveryKey', code: 'DELIVERY_KEY_TAKEN' });
    const bad = await admin.post(`/content-repositories/${s.repoId}/content-items`, { label: 'L', body: itemBody(s.uri, {}, { deliveryKey: '/bad' }) });
    expect(expectError(bad, 400).property).toBe('body._meta.deliveryKey');
  });

  it('PATCHing a fetched item with a new body._meta.deliveryKey moves the key; the rules apply', async () => {
    const item = await newItem({ body: itemBody(s.uri, {}, { deliveryKey: key() }) });
    const next = key();
    const res = await admin.patch(`/content-items/${item.id}`, { ...item, body: { ...item.body, _meta: { ...item.body._meta, deliveryKey: next } } });
    expect(res.body).toMatchObject({ version: 2, deliveryKey: next, body: { _meta: { deliveryKey: next } } });
    const bad = await admin.patch(`/content-items/${item.id}`, { ...res.body, body: { ...res.body.body, _meta: { ...res.body.body._meta, deliveryKey: 'a//b' } } });
    expect(expectError(bad, 400).property).toBe('body._meta.deliveryKey');
  });

  it('the CLI archive flow: body._meta.deliveryKey = null frees the key, then archive', async () => {
    const k = key();
    const item = await newItem({ body: itemBody(s.uri, {}, { deliveryKey: k }) });
    const cleared = await admin.patch(`/content-items/${item.id}`, { ...item, body: { ...item.body, _meta: { ...item.body._meta, deliveryKey: null } } });
    expect(cleared.body.deliveryKey).toBeNull();
    expect(cleared.body.body._meta).not.toHaveProperty('deliveryKey');
    expect((await admin.post(`/content-items/${item.id}/archive`, { version: 2 })).status).toBe(200);
    expect((await newItem({ body: itemBody(s.uri, {}, { deliveryKey: k }) })).deliveryKey).toBe(k);
  });

  it('a top-level deliveryKey in an update moves the key; a body without the key keeps it', async () => {
    const item = await newItem();
    const k = key();
    const moved = await admin.patch(`/content-items/${item.id}`, { version: 1, deliveryKey: k });
    expect(moved.body).toMatchObject({ deliveryKey: k, body: { _meta: { deliveryKey: k } } });
    const kept = await admin.patch(`/content-items/${item.id}`, { version: 2, body: itemBody(s.uri, { title: 'no key here' }) });
    expect(kept.body).toMatchObject({ deliveryKey: k, body: { title: 'no key here', _meta: { deliveryKey: k } } });
  });

  it('a copy never carries the key', async () => {
    const item = await newItem({ body: itemBody(s.uri, {}, { deliveryKey: key() }) });
    const copy = await admin.post(`/content-repositories/${s.repoId}/content-items?sourceContentItemId=${item.id}`, { label: 'copy' });
    expect(copy.status).toBe(201);
    expect(copy.body.deliveryKey).toBeNull();
    expect(copy.body.body._meta).not.toHaveProperty('deliveryKey');
  });
});

describe('find by key', () => {
  it('finds the item on the wire-contract path and the SDK path, with a raw (unencoded) slash', async () => {
    const k = `pages/${key()}/home`;
    const item = await newItem();
    await setKey(item.id, k, 1);
    const res = await findKey(k);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: item.id, deliveryKey: k, version: 2 });
    const sdk = await admin.get(`/hubs/${s.hubId}/delivery-keys/content-item?key=${k}`);
    expect(sdk.status).toBe(200);
    expect(sdk.body).toEqual(res.body);
  });

  it('an unknown key is 404; a key of another hub is not found; a missing key is 400', async () => {
    expectError(await findKey('no-such-key'), 404);
    const k = key();
    await setKey((await newItem()).id, k, 1);
    const otherHub = await createHub(admin);
    expectError(await findKey(k, otherHub.id), 404);
    expect(expectError(await admin.get(`/hubs/${s.hubId}/content-items/delivery-key`), 400).property).toBe('key');
    expect(expectError(await admin.get(`/hubs/${s.hubId}/delivery-keys/content-item`), 400).property).toBe('key');
  });

  it('the hub links find-by-delivery-key (templated) and filter-content-items', async () => {
    const hub = (await admin.get(`/hubs/${s.hubId}`)).body;
    expect(hub._links['find-by-delivery-key']).toEqual({ href: `${admin.base}/hubs/${s.hubId}/content-items/delivery-key{?key}`, templated: true });
    expect(hub._links['filter-content-items'].href).toBe(`${admin.base}/hubs/${s.hubId}/content-items/filter`);
  });
});

describe('filter by collection key', () => {
  let hubId: string;
  let byKey: Record<string, string>;
  let inBody: string;
  const ids = (res: Reply) => res.body._embedded['content-items'].map((i: { id: string }) => i.id);
  const filter = (body: unknown) => admin.post(`/hubs/${hubId}/content-items/filter`, body);

  beforeAll(async () => {
    hubId = (await createHub(admin)).id;
    await enableDeliveryKeys(admin, hubId);
    const type = await createContentType(admin, hubId);
    const repo = await createContentRepo(admin, hubId, type.id);
    byKey = {};
    for (const k of ['shoes/red', 'shoes/blue', 'shoes/sale/green', 'shoesx/other', 'hats/shoes', 'a_b/one', 'axb/two', 'shoes/archived']) {
      byKey[k] = (await createItem(admin, repo.id, type.uri, { body: itemBody(type.uri, {}, { deliveryKey: k }) })).id;
    }
    await admin.post(`/content-items/${byKey['shoes/archived']}/archive`, { version: 1 });
    inBody = (await createItem(admin, repo.id, type.uri, { body: itemBody(type.uri, {}, { collectionKey: 'shoes' }) })).id;
  });

  it('lists active items whose key is under <collectionKey>/ or whose body._meta.collectionKey is it', async () => {
    const res = await filter({ collectionKey: 'shoes', sortBy: { key: 'deliveryKey', order: 'ASC' } });
    expect(res.status, res.text).toBe(200);
    // The item without a key sorts first in ascending order.
    expect(ids(res)).toEqual([inBody, byKey['shoes/blue'], byKey['shoes/red'], byKey['shoes/sale/green']]);
    expect(res.body.page).toMatchObject({ totalElements: 4, number: 0, size: 20 });
  });

  it('sorts descending and pages from the body', async () => {
    const res = await filter({ collectionKey: 'shoes', sortBy: { key: 'deliveryKey', order: 'DESC' }, page: { size: 2, number: 0 } });
    expect(ids(res)).toEqual([byKey['shoes/sale/green'], byKey['shoes/red']]);
    expect(res.body.page).toEqual({ size: 2, totalElements: 4, totalPages: 2, number: 0 });
    const second = await filter({ collectionKey: 'shoes', sortBy: { key: 'deliveryKey', order: 'DESC' }, page: { size: 2, number: 1 } });
    expect(ids(second)[0]).toBe(byKey['shoes/blue']);
  });

  it('an underscore in the collection key matches only itself', async () => {
    expect(ids(await filter({ collectionKey: 'a_b' }))).toEqual([byKey['a_b/one']]);
  });

  it('a missing collectionKey or an unknown sort key is 400', async () => {
    expect(expectError(await filter({}), 400).property).toBe('collectionKey');
    expect(expectError(await filter({ collectionKey: 'shoes', sortBy: { key: 'body' } }), 400).property).toBe('sortBy.key');
    expect(expectError(await filter({ collectionKey: 'shoes', sortBy: { key: 'label', order: 'UP' } }), 400).property).toBe('sortBy.order');
  });
});
