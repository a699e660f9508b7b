import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import axios, { type AxiosAdapter } from 'axios';
import { ContentClient, StagingEnvironmentFactory } from 'dc-delivery-sdk-js';
import { Api, createHub, unique, startServer, type TestServer } from '../../helpers/server.js';
import { SCHEMA_HOST, contentLink, createItem, enableDeliveryKeys, itemBody } from '../../helpers/content.js';
import { assignSlots, createEvent, createSlot, fillSlot, sandboxNow, slotContent, slotSetup, snapshotOf, type SlotSetup } from '../../helpers/editions.js';
import { schedule } from '../../helpers/events.js';

// What a site reads (issue 23), through the vendor's delivery SDK itself over real HTTP:
// Content Delivery 1 (the staging query, `account` = store) and rendering on the sandbox's origin
// (`baseUrl`), Content Delivery 2 (`hubName` + `baseUrl` {origin}/cdn/{hubName}) with published
// versions only, and the hub's staging hostname (raw HTTP with its Host: the SDK would use https).

const CORE = `${SCHEMA_HOST}/cms/schema/v1/core#/definitions`;
const HOUR = 3_600_000;

let srv: TestServer;
let api: Api;
let setup: SlotSetup;
let hubName: string;

beforeAll(async () => {
  srv = await startServer();
  api = await new Api(srv.url).login();
  setup = await slotSetup(api);
  hubName = (await api.get(`/hubs/${setup.hubId}`)).body.name;
  await enableDeliveryKeys(api, setup.hubId);
});
afterAll(() => srv?.stop());

const cd1 = () => new ContentClient({ account: hubName, baseUrl: srv.url });
const cd2 = (name = hubName) => new ContentClient({ hubName: name, baseUrl: `${srv.url}/cdn/${name}` });
const publish = async (id: string) => expect((await api.post(`/content-items/${id}/publish`, {})).status).toBe(204);
const edit = async (id: string, fields: Record<string, unknown>) => {
  const item = (await api.get(`/content-items/${id}`)).body;
  const res = await api.patch(`/content-items/${id}`, { version: item.version, body: { ...item.body, ...fields } });
  expect(res.status, res.text).toBe(200);
};
const image = (id: string) => ({ _meta: { schema: `${CORE}/image-link` }, id, name: 'hero-shot', endpoint: 'demo', defaultHost: 'cdn.media.example.test' });

/** A raw request with its own Host header (the SDK goes to https://<staging host>). */
function raw(method: string, path: string, host: string, body?: string): Promise<{ status: number; headers: Record<string, unknown>; text: string; json: () => any }> {
  const { port } = new URL(srv.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host, accept: 'application/json', ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the SDK call to fail');
}

describe('Content Delivery 1: the staging query (latest versions)', () => {
  it('getContentItemById inlines linked items; references stay references; images are Image objects', async () => {
    const leaf = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Leaf', hero: image('img-1') }) });
    const referenced = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Referenced' }) });
    const root = await createItem(api, setup.repoId, setup.uri, {
      body: itemBody(setup.uri, { title: 'Root', links: [contentLink(leaf.id, setup.uri)], ref: { _meta: { schema: `${CORE}/content-reference` }, contentType: setup.uri, id: referenced.id } }),
    });
    const item = await cd1().getContentItemById(root.id);
    const json = item.toJSON() as any;
    expect(json.title).toBe('Root');
    expect(json._meta).toMatchObject({ schema: setup.uri, deliveryId: root.id });
    expect(json.links[0]).toMatchObject({ title: 'Leaf', _meta: { schema: setup.uri, deliveryId: leaf.id } });
    expect(json.links[0].hero).toMatchObject({ id: 'img-1', name: 'hero-shot', endpoint: 'demo', defaultHost: 'cdn.media.example.test' });
    expect(typeof (item.body as any).links[0].hero.url).toBe('function');
    expect(json.ref).toEqual({ _meta: { schema: `${CORE}/content-reference` }, contentType: setup.uri, id: referenced.id });

    // The wire: result names the root, nodes carry IRIs, a link is {"@id","@type"}.
    const q = await api.get(`/cms/content/query?store=${hubName}&fullBodyObject=true&scope=tree&query=${encodeURIComponent(JSON.stringify({ 'sys.iri': `http://content.cms.amplience.com/${root.id}` }))}`, { token: null });
    expect(q.body.result).toEqual([{ '@id': `http://content.cms.amplience.com/${root.id}` }]);
    const rootNode = q.body['@graph'].find((n: any) => n['@id'] === `http://content.cms.amplience.com/${root.id}`);
    expect(rootNode.links).toEqual([{ '@id': `http://content.cms.amplience.com/${leaf.id}`, '@type': setup.uri }]);
    expect(q.body['@graph'].some((n: any) => n['@id'] === 'http://image.cms.amplience.com/img-1')).toBe(true);
  });

  it('an unknown id and an item of another hub are ContentNotFoundError', async () => {
    expect((await rejection(cd1().getContentItemById('00000000-0000-4000-8000-000000000000'))).name).toBe('CONTENT_NOT_FOUND');
    const other = await createHub(api);
    const mine = await createItem(api, setup.repoId, setup.uri);
    expect((await cd1().getContentItemById(mine.id)).toJSON()).toMatchObject({ _meta: { deliveryId: mine.id } });
    expect((await rejection(new ContentClient({ account: other.name, baseUrl: srv.url }).getContentItemById(mine.id))).name).toBe('CONTENT_NOT_FOUND');
  });
});

describe('rendering', () => {
  it('renderContentItem with a template (store = hub name), with crparam and locale; an unknown template is 404', async () => {
    const item = await createItem(api, setup.repoId, setup.uri, { label: 'Rendered', body: itemBody(setup.uri, { title: 'Shown' }) });
    const rendered = await cd1().renderContentItem(item.id, 'default', { theme: 'dark' });
    expect(rendered.body).toContain('<dd>Shown</dd>');
    const client = new ContentClient({ account: hubName, baseUrl: srv.url, locale: 'en-GB' });
    expect((await client.renderContentItem(item.id, 'raw')).body).toContain('&quot;title&quot;: &quot;Shown&quot;');
    const err = await rejection(cd1().renderContentItem(item.id, 'no-such-template'));
    expect(err.response.status).toBe(404);
    // The literal word `store` is not a store.
    expect((await api.get(`/v1/content/store/content-item/${item.id}`, { token: null, headers: { accept: 'text/html' } })).status).toBe(404);
  });

  it('rendered pages carry a sandboxing CSP, frame and sniffing protection (issue 24.15)', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const res = await api.get(`/v1/content/${hubName}/content-item/${item.id}`, { token: null, headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toMatch(/(^|;)\s*sandbox\b/);
    expect(csp).not.toContain('allow-same-origin');
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('Content Delivery 2: published versions', () => {
  it('by id and by key (slashes unencoded) with depth all: the published version with its linked items inlined', async () => {
    const key = `pages/${unique('home')}/top`;
    const leaf = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Leaf v1' }) });
    const root = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Home v1', links: [contentLink(leaf.id, setup.uri)] }, { deliveryKey: key }) });
    // Never published: not delivered.
    expect((await rejection(cd2().getContentItemById(root.id))).name).toBe('CONTENT_NOT_FOUND');
    await publish(root.id);

    const byId = (await cd2().getContentItemById(root.id)).toJSON() as any;
    expect(byId).toMatchObject({ title: 'Home v1', _meta: { deliveryId: root.id, deliveryKey: key, schema: setup.uri }, links: [{ title: 'Leaf v1', _meta: { deliveryId: leaf.id } }] });
    const byKey = (await cd2().getContentItemByKey(key)).toJSON() as any;
    expect(byKey).toEqual(byId);

    // A draft edited after publishing: delivery shows the published one, staging the new one.
    await edit(root.id, { title: 'Home v2 (draft)' });
    await edit(leaf.id, { title: 'Leaf v2 (draft)' });
    expect(((await cd2().getContentItemById(root.id)).toJSON() as any)).toMatchObject({ title: 'Home v1', links: [{ title: 'Leaf v1' }] });
    expect(((await cd1().getContentItemById(root.id)).toJSON() as any)).toMatchObject({ title: 'Home v2 (draft)', links: [{ title: 'Leaf v2 (draft)' }] });

    // linked format and depth root on the wire.
    const linked = await api.get(`${srv.url}/cdn/${hubName}/content/id/${root.id}?depth=all&format=linked`, { token: null });
    expect(linked.status).toBe(200);
    expect(linked.body.content.links).toEqual([contentLink(leaf.id, setup.uri)]);
    expect(linked.body.linkedContent).toEqual([{ _meta: { schema: setup.uri, deliveryId: leaf.id }, title: 'Leaf v1' }]);
    const shallow = await api.get(`${srv.url}/cdn/${hubName}/content/key/${key}?depth=root`, { token: null });
    expect(shallow.body).toEqual({ content: { _meta: { schema: setup.uri, deliveryKey: key, deliveryId: root.id }, title: 'Home v1', links: [contentLink(leaf.id, setup.uri)] } });
  });

  it('a delivery key changed after publishing: CD2 serves the published key until the change is published; staging the latest key', async () => {
    const oldKey = `keys/${unique('old')}`;
    const newKey = `keys/${unique('new')}`;
    const item = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Keyed v1' }, { deliveryKey: oldKey }) });
    await publish(item.id);
    expect(((await cd2().getContentItemByKey(oldKey)).toJSON() as any).title).toBe('Keyed v1');

    // The key moves in a draft (through the delivery-key endpoint, as the management SDK does).
    const current = (await api.get(`/content-items/${item.id}`)).body;
    expect((await api.patch(`/content-items/${item.id}/delivery-key`, { deliveryKey: newKey, version: current.version })).status).toBe(200);
    await edit(item.id, { title: 'Keyed v2 (draft)' });
    // CD2 (published): still under the old key, with the published body and key; the new key is not served yet.
    const published = (await cd2().getContentItemByKey(oldKey)).toJSON() as any;
    expect(published).toMatchObject({ title: 'Keyed v1', _meta: { deliveryId: item.id, deliveryKey: oldKey } });
    expect((await rejection(cd2().getContentItemByKey(newKey))).name).toBe('CONTENT_NOT_FOUND');
    const fetched = await cd2().getContentItemsByKey([newKey, oldKey]);
    expect(fetched.responses.map((r: any) => r.content?._meta.deliveryKey ?? r.error.type)).toEqual(['CONTENT_NOT_FOUND', oldKey]);
    // Staging (latest): under the new key only.
    const hostname = `${unique('keys')}.staging.example.test`;
    expect((await api.patch(`/hubs/${setup.hubId}/settings`, { virtualStagingEnvironment: { hostname } })).status).toBe(204);
    const latest = await raw('GET', `/content/key/${newKey}`, hostname);
    expect(latest.status, latest.text).toBe(200);
    expect(latest.json().content).toMatchObject({ title: 'Keyed v2 (draft)', _meta: { deliveryKey: newKey } });
    expect((await raw('GET', `/content/key/${oldKey}`, hostname)).status).toBe(404);

    // Another item takes the freed old key in a draft: CD2 keeps serving the published holder until it publishes.
    const taker = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Taker' }, { deliveryKey: oldKey }) });
    expect(((await cd2().getContentItemByKey(oldKey)).toJSON() as any)._meta.deliveryId).toBe(item.id);
    expect((await raw('GET', `/content/key/${oldKey}`, hostname)).json().content._meta.deliveryId).toBe(taker.id);
    await publish(taker.id);
    expect(((await cd2().getContentItemByKey(oldKey)).toJSON() as any)._meta.deliveryId).toBe(taker.id);

    // Publishing the first item moves its CD2 key.
    await publish(item.id);
    expect(((await cd2().getContentItemByKey(newKey)).toJSON() as any)).toMatchObject({ title: 'Keyed v2 (draft)', _meta: { deliveryId: item.id } });
    expect(((await cd2().getContentItemByKey(oldKey)).toJSON() as any)._meta.deliveryId).toBe(taker.id);
    // Unpublished: the key is not served by CD2 any more.
    expect((await api.post(`/content-items/${item.id}/unpublish`, {})).status).toBe(204);
    expect((await rejection(cd2().getContentItemByKey(newKey))).name).toBe('CONTENT_NOT_FOUND');
  });

  it('an unpublished item is 404 (CONTENT_NOT_FOUND as the SDK reads it); unknown ids and keys too', async () => {
    const item = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Soon gone' }) });
    await publish(item.id);
    expect(((await cd2().getContentItemById(item.id)).toJSON() as any).title).toBe('Soon gone');
    expect((await api.post(`/content-items/${item.id}/unpublish`, {})).status).toBe(204);
    const err = await rejection(cd2().getContentItemById(item.id));
    expect(err.name).toBe('CONTENT_NOT_FOUND');
    expect(err.contentItem).toBe(item.id);
    const wire = await api.get(`${srv.url}/cdn/${hubName}/content/id/${item.id}`, { token: null });
    expect(wire.status).toBe(404);
    expect(wire.body).toEqual({ error: { type: 'CONTENT_NOT_FOUND', message: expect.any(String), data: { deliveryId: item.id } } });
    expect((await rejection(cd2().getContentItemByKey('no/such/key'))).name).toBe('CONTENT_NOT_FOUND');
    expect((await api.get(`${srv.url}/cdn/${hubName}/content/key/no/such/key`, { token: null })).body.error.data).toEqual({ deliveryKey: 'no/such/key' });
    // Archived: 404.
    const archived = await createItem(api, setup.repoId, setup.uri);
    await publish(archived.id);
    expect((await api.post(`/content-items/${archived.id}/archive`, { version: (await api.get(`/content-items/${archived.id}`)).body.version })).status).toBe(200);
    expect((await rejection(cd2().getContentItemById(archived.id))).name).toBe('CONTENT_NOT_FOUND');
    // Another hub's name does not reach this hub's content.
    const other = await createHub(api);
    expect((await rejection(cd2(other.name).getContentItemById(archived.id))).name).toBe('CONTENT_NOT_FOUND');
  });

  it('filterByContentType pages by cursor; fetch answers several in order with errors in place', async () => {
    const typeSetup = await slotSetup(api);
    await enableDeliveryKeys(api, typeSetup.hubId);
    const name = (await api.get(`/hubs/${typeSetup.hubId}`)).body.name;
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createItem(api, typeSetup.repoId, typeSetup.uri, { body: itemBody(typeSetup.uri, { title: `Card ${i}`, count: 5 - i }) }));
    for (const m of made.slice(0, 4)) await publish(m.id);
    const client = cd2(name);

    const first = await client.filterByContentType(typeSetup.uri).page(3).request({ depth: 'all', format: 'inlined' });
    expect(first.responses.map((r: any) => r.content.title)).toEqual(['Card 0', 'Card 1', 'Card 2']);
    expect(first.page.responseCount).toBe(3);
    expect(typeof first.page.nextCursor).toBe('string');
    const second = await first.page.next!();
    expect(second.responses.map((r: any) => r.content.title)).toEqual(['Card 3']);
    expect(second.page.nextCursor).toBeUndefined();
    // Sorted by a body field, descending.
    const sorted = await client.filterByContentType(typeSetup.uri).sortBy('count', 'ASC').request();
    expect(sorted.responses.map((r: any) => r.content.count)).toEqual([2, 3, 4, 5]);
    // No match: responses empty, page present.
    const none = await client.filterBy('/title', 'nothing like it').request();
    expect(none).toEqual({ responses: [], page: { responseCount: 0 } });

    const fetched = await client.getContentItemsById([made[1].id, made[4].id, made[0].id]);
    expect(fetched.responses.map((r: any) => r.content?.title ?? r.error.type)).toEqual(['Card 1', 'CONTENT_NOT_FOUND', 'Card 0']);
    expect((fetched.responses[1] as any).error.data).toEqual({ deliveryId: made[4].id });
  });

  it('the filter request builder in full: several filterBy clauses, sortBy with order, page size and cursor, parameters; hierarchy lookups', async () => {
    const typeSetup = await slotSetup(api);
    await enableDeliveryKeys(api, typeSetup.hubId);
    const name = (await api.get(`/hubs/${typeSetup.hubId}`)).body.name;
    const client = cd2(name);
    const parent = await createItem(api, typeSetup.repoId, typeSetup.uri, { body: itemBody(typeSetup.uri, { title: 'Shelf' }, { deliveryKey: 'nav/shelf' }) });
    const made = [];
    for (let i = 0; i < 6; i++) {
      const hierarchy = i < 4 ? { hierarchy: { parentId: parent.id, root: false } } : {};
      made.push(await createItem(api, typeSetup.repoId, typeSetup.uri, { body: itemBody(typeSetup.uri, { title: `Book ${i}`, count: i % 2, links: i === 0 ? [contentLink(parent.id, typeSetup.uri)] : [] }, hierarchy) }));
    }
    for (const m of [parent, ...made]) await publish(m.id);

    // Two clauses (both must match), sorted by a field descending, two to a page, linked format.
    const first = await client.filterByContentType(typeSetup.uri).filterBy('/count', 0).sortBy('title', 'DESC').page(2).request({ depth: 'all', format: 'linked' });
    expect(first.responses.map((r: any) => r.content.title)).toEqual(['Book 4', 'Book 2']);
    expect(first.page).toMatchObject({ responseCount: 2, nextCursor: expect.any(String) });
    const second = await first.page.next!();
    expect(second.responses.map((r: any) => r.content.title)).toEqual(['Book 0']);
    expect(second.responses[0]!.content.links).toEqual([contentLink(parent.id, typeSetup.uri)]);
    expect(second.responses[0]!.linkedContent!.map((c: any) => c.title)).toEqual(['Shelf']);
    // page(cursor) alone: the default size with that cursor.
    const byCursor = await client.filterByContentType(typeSetup.uri).filterBy('/count', 0).sortBy('title', 'DESC').page(first.page.nextCursor!).request();
    expect(byCursor.responses.map((r: any) => r.content.title)).toEqual(['Book 0']);
    // depth root (inlined): links stay links.
    const root = await client.filterBy('/title', 'Book 0').request({ depth: 'root', format: 'inlined' });
    expect(root.responses[0]!.content.links).toEqual([contentLink(parent.id, typeSetup.uri)]);

    // Children of a hierarchy node: by its id (filterByParentId) or by its delivery key (lookUpBy).
    const byParent = await client.filterByParentId(parent.id).sortBy('title', 'ASC').request();
    expect(byParent.responses.map((r: any) => r.content.title)).toEqual(['Book 0', 'Book 1', 'Book 2', 'Book 3']);
    const byParentKey = await client.filterBy('/_meta/schema', typeSetup.uri).lookUpByHierarchyDeliveryKey('nav/shelf').sortBy('title', 'ASC').page(12).request();
    expect(byParentKey.responses.map((r: any) => r.content.title)).toEqual(['Book 0', 'Book 1', 'Book 2', 'Book 3']);
    expect((await client.lookUpByHierarchyDeliveryKey('nav/nothing-here').request()).responses).toEqual([]);

    // The SDK's page size bound (12): 13 is refused in the delivery error shape.
    const tooBig = await rejection(client.filterByContentType(typeSetup.uri).page(13).request());
    expect(tooBig.name).toBe('HTTP_ERROR');
    expect(tooBig.status).toBe(400);
    expect(tooBig.data.error.type).toBe('INVALID_PARAMETERS');
    // A lookup the sandbox does not know: 400 naming it.
    const unknown = await rejection(client.lookUpBy('SOMETHING_ELSE', 'x').request());
    expect(unknown.status).toBe(400);
    expect(unknown.message).toContain('SOMETHING_ELSE');
  });

  it('bad input: malformed filter and fetch bodies, depth and format out of range are 400 in the delivery error shape', async () => {
    const post = (path: string, body: string) => api.post(`${srv.url}/cdn/${hubName}/content/${path}`, undefined, { token: null, raw: body, headers: { 'content-type': 'application/json' } });
    for (const body of ['{', '[]', '{}', '{"filterBy":[]}', '{"filterBy":[{"path":"title","value":1}]}', '{"filterBy":[{"path":"/title","value":{}}]}', '{"filterBy":[{"path":"/t","value":1}],"page":{"size":0}}', '{"filterBy":[{"path":"/t","value":1}],"page":{"cursor":"forged"}}', '{"filterBy":[{"path":"/t","value":1}],"parameters":{"depth":"deep"}}', '{"filterBy":[{"path":"/t","value":1}],"sortBy":{"key":"x","order":"UP"}}']) {
      const res = await post('filter', body);
      expect(res.status, body).toBe(400);
      expect(res.body.error.type, body).toBe('INVALID_PARAMETERS');
    }
    for (const body of ['{"requests":[]}', '{"requests":[{"id":1}]}', `{"requests":${JSON.stringify(Array.from({ length: 13 }, () => ({ id: 'x' })))}}`, '{"requests":[{"id":"a","key":"b"}]}']) {
      expect((await post('fetch', body)).status, body).toBe(400);
    }
    const item = await createItem(api, setup.repoId, setup.uri);
    await publish(item.id);
    expect((await api.get(`${srv.url}/cdn/${hubName}/content/id/${item.id}?depth=3`, { token: null })).body.error.type).toBe('INVALID_PARAMETERS');
    expect((await api.get(`${srv.url}/cdn/${hubName}/content/id/${item.id}?format=xml`, { token: null })).status).toBe(400);
    expect((await api.get(`${srv.url}/cdn/${unique('no-hub')}/content/id/${item.id}`, { token: null })).status).toBe(404);
    expect((await api.get(`${srv.url}/cdn/${hubName}/content/id/${item.id}?depth=all&format=linked`, { token: null })).status).toBe(200);
  });

  it('a link cycle in published content: each item once, the answer ends', async () => {
    const a = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'A' }) });
    const b = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'B', links: [contentLink(a.id, setup.uri)] }) });
    await edit(a.id, { links: [contentLink(b.id, setup.uri), contentLink(a.id, setup.uri)] });
    await publish(a.id);
    const json = (await cd2().getContentItemById(a.id)).toJSON() as any;
    expect(json.title).toBe('A');
    expect(json.links[0].title).toBe('B');
    // Back to A: a link again, not A inlined once more.
    expect(json.links[0].links[0]).toMatchObject({ id: a.id });
    expect(json.links[1]).toMatchObject({ id: a.id });
    const linked = await api.get(`${srv.url}/cdn/${hubName}/content/id/${a.id}?depth=all&format=linked`, { token: null });
    expect(linked.body.linkedContent.map((c: any) => c._meta.deliveryId)).toEqual([b.id]);
  });

  it('an edition publishing on the sandbox clock: delivery of the slot changes at its start', async () => {
    const hero = await createItem(api, setup.repoId, setup.uri, { label: 'Launch hero', body: itemBody(setup.uri, { title: 'Launch v1' }) });
    const snapshot = await snapshotOf(api, setup.hubId, hero.id);
    await edit(hero.id, { title: 'Launch v2 (after the snapshot)' });
    const slot = await createSlot(api, setup, 'Delivered slot');
    await publish(slot.id);
    const before = (await cd2().getContentItemById(slot.id)).toJSON() as any;
    expect(JSON.stringify(before)).not.toContain('Launch');

    const now = await sandboxNow(api);
    const eventId = (await createEvent(api, setup.hubId)).id;
    const edition = (await api.post(`/events/${eventId}/editions`, { name: unique('launch'), start: new Date(now + HOUR).toISOString(), end: new Date(now + 5 * HOUR).toISOString() })).body;
    const [editionSlot] = await assignSlots(api, edition.id, [slot.id]);
    await fillSlot(api, edition.id, editionSlot.id, slotContent(setup, snapshot.id));
    await schedule(api, (await api.get(`/editions/${edition.id}`)).body);
    expect(JSON.stringify((await cd2().getContentItemById(slot.id)).toJSON())).not.toContain('Launch');

    await api.advanceClock({ advance: '2h' });
    const after = (await cd2().getContentItemById(slot.id)).toJSON() as any;
    expect(after.slot).toMatchObject({ title: 'Launch v1', _meta: { deliveryId: hero.id } });
    expect(JSON.stringify(after)).not.toContain('Launch v2');
  });
});

describe('the hub staging hostname (latest versions)', () => {
  it('serves the staging query with store=staging, rendering, and Content Delivery 2 of its hub only', async () => {
    const hostname = `${unique('vse')}.staging.example.test`;
    expect((await api.patch(`/hubs/${setup.hubId}/settings`, { virtualStagingEnvironment: { hostname } })).status).toBe(204);
    const item = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Draft only' }, { deliveryKey: `vse/${unique('k')}` }) });
    const iri = encodeURIComponent(JSON.stringify({ 'sys.iri': `http://content.cms.amplience.com/${item.id}` }));
    const q = await raw('GET', `/cms/content/query?query=${iri}&fullBodyObject=true&scope=tree&store=staging`, hostname);
    expect(q.status, q.text).toBe(200);
    expect(q.json().result).toEqual([{ '@id': `http://content.cms.amplience.com/${item.id}` }]);
    expect((await raw('GET', `/cms/content/query?query=${iri}&store=${hubName}`, hostname)).json()['@graph']).toHaveLength(1);
    const page = await raw('GET', `/v1/content/staging/content-item/${item.id}?template=default`, hostname);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Draft only');
    expect(page.headers['content-security-policy']).toContain('sandbox');
    // CD2 on the staging host answers the latest version (never published).
    const byId = await raw('GET', `/content/id/${item.id}?depth=all&format=inlined`, hostname);
    expect(byId.status, byId.text).toBe(200);
    expect(byId.json().content.title).toBe('Draft only');
    const key = item.body._meta.deliveryKey;
    expect((await raw('GET', `/content/key/${key}`, hostname)).json().content._meta.deliveryId).toBe(item.id);
    const fetched = await raw('POST', '/content/fetch', hostname, JSON.stringify({ requests: [{ id: item.id }] }));
    expect(fetched.json().responses[0].content.title).toBe('Draft only');
    // Another hub's items are not reached through this host.
    const other = await slotSetup(api);
    const foreign = await createItem(api, other.repoId, other.uri);
    expect((await raw('GET', `/content/id/${foreign.id}`, hostname)).status).toBe(404);
    // The preview staging hostname is that hub's too: nothing of another hub through it.
    const preview = `${unique('preview')}.staging.example.test`;
    expect((await api.patch(`/hubs/${setup.hubId}/settings`, { previewVirtualStagingEnvironment: { hostname: preview } })).status).toBe(204);
    expect((await raw('GET', `/content/id/${item.id}`, preview)).status).toBe(200);
    expect((await raw('GET', `/content/id/${foreign.id}`, preview)).status).toBe(404);
    const foreignIri = encodeURIComponent(JSON.stringify({ 'sys.iri': `http://content.cms.amplience.com/${foreign.id}` }));
    expect((await raw('GET', `/cms/content/query?query=${foreignIri}`, preview)).json()['@graph']).toEqual([]);
    // On the sandbox origin the prefix-less delivery paths name no hub.
    expect((await api.get(`${srv.url}/content/id/${item.id}`, { token: null })).status).toBe(404);
  });
});

/**
 * The SDK's own HTTP adapter, sent to the served sandbox with the Host the SDK addresses: the SDK
 * calls https://<staging host>/..., which a site under development puts behind a TLS proxy.
 */
const viaSandbox = (): AxiosAdapter => {
  const http = axios.getAdapter('http');
  return (config) => http({ ...config, baseURL: srv.url, headers: { ...config.headers, Host: new URL(config.baseURL!).host } as never });
};

describe('previewing staging at a time or a snapshot (StagingEnvironmentFactory.generateDomain)', () => {
  it('a domain for a timestamp serves the hub as it will be then: an edition scheduled for later is live on its slot; the plain host shows now', async () => {
    const hostname = `${unique('vse')}.staging.example.test`;
    expect((await api.patch(`/hubs/${setup.hubId}/settings`, { virtualStagingEnvironment: { hostname } })).status).toBe(204);
    const hero = await createItem(api, setup.repoId, setup.uri, { label: 'Future hero', body: itemBody(setup.uri, { title: 'Summer sale' }) });
    const snapshot = await snapshotOf(api, setup.hubId, hero.id);
    const slot = await createSlot(api, setup, 'Previewed slot');
    const now = await sandboxNow(api);
    const edition = (await api.post(`/events/${(await createEvent(api, setup.hubId)).id}/editions`, { name: unique('summer'), start: new Date(now + 3 * HOUR).toISOString(), end: new Date(now + 6 * HOUR).toISOString() })).body;
    const [editionSlot] = await assignSlots(api, edition.id, [slot.id]);
    await fillSlot(api, edition.id, editionSlot.id, slotContent(setup, snapshot.id));
    await schedule(api, (await api.get(`/editions/${edition.id}`)).body);

    const at = now + 4 * HOUR;
    const domain = await new StagingEnvironmentFactory(hostname, { baseUrl: srv.url }).generateDomain({ timestamp: at });
    const [first, ...rest] = hostname.split('.');
    // The form the vendor's own SDK tests show: <label>-gvzrfgnzc-<ms>.<rest> (gvzrfgnzc: "timestamp" in ROT13).
    expect(domain).toBe(`${first}-gvzrfgnzc-${at}.${rest.join('.')}`);

    const later = new ContentClient({ hubName, stagingEnvironment: domain, adaptor: viaSandbox() });
    const shown = await later.getContentItemById(slot.id);
    expect((shown.toJSON() as any).slot).toMatchObject({ title: 'Summer sale', _meta: { deliveryId: hero.id } });
    // The edition that put it there, in the slot's _meta (the SDK's ContentMeta.edition), since
    // the X-Amp-Edition-* headers do not reach the SDK over Node (it reads them with capitals).
    const scheduled = (await api.get(`/editions/${edition.id}`)).body;
    expect(shown.body._meta.edition?.toJSON()).toEqual({ id: edition.id, start: scheduled.start, end: scheduled.end });
    expect(shown.body._meta.edition?.getStartDate().getTime()).toBe(Date.parse(scheduled.start));
    const nowClient = new ContentClient({ hubName, stagingEnvironment: hostname, adaptor: viaSandbox() });
    expect(JSON.stringify((await nowClient.getContentItemById(slot.id)).toJSON())).not.toContain('Summer sale');
    // The staging query and rendering on the preview domain too (account = the staging store).
    const cd1Later = new ContentClient({ account: 'staging', stagingEnvironment: domain, adaptor: viaSandbox() });
    expect(((await cd1Later.getContentItemById(slot.id)).toJSON() as any).slot).toMatchObject({ title: 'Summer sale' });
    const renderedBySdk = await cd1Later.renderContentItem(slot.id, 'default');
    expect(renderedBySdk.body).toContain('Summer sale');
    expect(renderedBySdk.edition).toBeUndefined();
    const rendered = await raw('GET', `/v1/content/staging/content-item/${slot.id}?template=default`, domain);
    expect(rendered.text).toContain('Summer sale');
    expect(rendered.headers['x-amp-edition-id']).toBe(edition.id);
    // Before the edition starts: the slot's own content.
    const before = await new StagingEnvironmentFactory(hostname, { baseUrl: srv.url }).generateDomain({ timestamp: now + 2 * HOUR });
    expect(JSON.stringify((await new ContentClient({ hubName, stagingEnvironment: before, adaptor: viaSandbox() }).getContentItemById(slot.id)).toJSON())).not.toContain('Summer sale');
  });

  it('a domain for a snapshot serves its items at the snapshot versions, the rest latest', async () => {
    const hostname = `${unique('vse')}.staging.example.test`;
    expect((await api.patch(`/hubs/${setup.hubId}/settings`, { virtualStagingEnvironment: { hostname } })).status).toBe(204);
    const leaf = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Leaf at snapshot' }) });
    const root = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Root at snapshot', links: [contentLink(leaf.id, setup.uri)] }) });
    const snapshot = await snapshotOf(api, setup.hubId, root.id);
    await edit(root.id, { title: 'Root edited later' });
    await edit(leaf.id, { title: 'Leaf edited later' });
    const outside = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Not in the snapshot' }) });

    const domain = await new StagingEnvironmentFactory(hostname, { baseUrl: srv.url }).generateDomain({ snapshotId: snapshot.id });
    const pinned = new ContentClient({ hubName, stagingEnvironment: domain, adaptor: viaSandbox() });
    expect((await pinned.getContentItemById(root.id)).toJSON()).toMatchObject({ title: 'Root at snapshot', links: [{ title: 'Leaf at snapshot' }] });
    expect(((await pinned.getContentItemById(outside.id)).toJSON() as any).title).toBe('Not in the snapshot');
    const latest = new ContentClient({ hubName, stagingEnvironment: hostname, adaptor: viaSandbox() });
    expect((await latest.getContentItemById(root.id)).toJSON()).toMatchObject({ title: 'Root edited later', links: [{ title: 'Leaf edited later' }] });
  });

  it('bad requests: an unknown staging environment, no option, a malformed timestamp or snapshot; an unknown preview domain is not served', async () => {
    const hostname = `${unique('vse')}.staging.example.test`;
    expect((await api.patch(`/hubs/${setup.hubId}/settings`, { virtualStagingEnvironment: { hostname } })).status).toBe(204);
    const err = await rejection(new StagingEnvironmentFactory('nobody.staging.example.test', { baseUrl: srv.url }).generateDomain({ timestamp: Date.now() }));
    expect(err.message).toContain('404');
    for (const q of ['', '?timestamp=soon', '?timestamp=-1', '?snapshotId=x', `?snapshotId=${'0'.repeat(24)}`]) {
      const res = await api.get(`/domain/${hostname}${q}`, { token: null });
      expect([400, 404], q).toContain(res.status);
    }
    // A preview name of a host that is no hub's is not served.
    const forged = await raw('GET', '/content/id/x', 'nobody-gvzrfgnzc-1.staging.example.test');
    expect(forged.status).toBe(400);
    expect(forged.json().errors[0].code).toBe('HOST_NOT_ALLOWED');
  });
});

