import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';
import { expectError } from '../../helpers/assert.js';
import { contentLink, contentSetup, createItem, itemBody, type ContentSetup } from '../../helpers/content.js';
import { assignSlots, createEvent, createSlot, fillSlot, sandboxNow, slotContent, slotSetup, snapshotOf, type SlotSetup } from '../../helpers/editions.js';
import { schedule } from '../../helpers/events.js';

// Virtual staging (description, Integrations: rendering and delivery queries; Versioning 1;
// wire contract §6.9-10): GET /v1/content/{store}/content-item/{id}?template= renders HTML with a
// wrapper template, GET /cms/content/query?store=&query= answers the staging graph as JSON-LD
// (`@graph` and `result`). Both need no token. Hubs register templates on the sandbox admin
// prefix. Slots show what is live on the sandbox clock.

const IRI = 'http://content.cms.amplience.com/';
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
});

afterAll(async () => {
  await srv?.stop();
});

const render = (id: string, template?: string, store = hubName) => api.get(`/v1/content/${store}/content-item/${id}${template ? `?template=${template}` : ''}`, { token: null, headers: { accept: 'text/html' } });
const graph = (id: string, store = hubName) => api.get(`/cms/content/query?store=${encodeURIComponent(store)}&query=${encodeURIComponent(JSON.stringify({ 'sys.iri': IRI + id }))}`, { token: null });
const putTemplate = (hubId: string, name: string, html: string, as: Api = api) => as.put(`/__sandbox/hubs/${hubId}/templates/${name}`, undefined, { raw: html, headers: { 'content-type': 'text/html' } });

/** What a <pre> holds, unescaped. */
const preText = (html: string) =>
  /<pre>([\s\S]*)<\/pre>/
    .exec(html)![1]!
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

/** A GET with its own Host header (fetch sets Host itself). */
function getWithHost(path: string, host: string): Promise<{ status: number; text: string }> {
  const { port } = new URL(srv.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host, accept: 'text/html, application/json' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('rendering with templates', () => {
  it('default: a clean HTML page of the item and the items it links to, without a token', async () => {
    const child = await createItem(api, setup.repoId, setup.uri, { label: 'Child card', body: itemBody(setup.uri, { title: 'Child title' }) });
    const parent = await createItem(api, setup.repoId, setup.uri, { label: 'Parent page', body: itemBody(setup.uri, { title: 'Parent title', count: 3, links: [contentLink(child.id, setup.uri)] }) });
    const res = await render(parent.id);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.text).toMatch(/^<!doctype html>/);
    expect(res.text).toContain('<title>Parent page</title>');
    expect(res.text).toContain(`<article class="content-item" data-id="${parent.id}" data-schema="${setup.uri}"><h1>Parent page</h1>`);
    expect(res.text).toContain('<dt>title</dt><dd>Parent title</dd>');
    expect(res.text).toContain('<dt>count</dt><dd>3</dd>');
    // The linked item is shown in place of its link.
    expect(res.text).toContain(`<article class="content-item" data-id="${child.id}" data-schema="${setup.uri}"><h2>Child card</h2><dl><dt>title</dt><dd>Child title</dd></dl></article>`);
    expect((await render(parent.id, 'default')).text).toBe(res.text);
  });

  it('escapes every inserted value: fields, labels and placeholders in content', async () => {
    const item = await createItem(api, setup.repoId, setup.uri, { label: 'Tom & <Jerry>', body: itemBody(setup.uri, { title: `<script>alert("x")</script> & 'q' {{label}}` }) });
    const res = await render(item.id);
    expect(res.text).not.toContain('<script>alert');
    expect(res.text).toContain('<title>Tom &amp; &lt;Jerry&gt;</title>');
    expect(res.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39; {{label}}');
    const raw = await render(item.id, 'raw');
    expect(raw.text).not.toContain('<script>alert');
    expect(JSON.parse(preText(raw.text))['@graph'][0].title).toBe(`<script>alert("x")</script> & 'q' {{label}}`);
  });

  it('raw: the delivery JSON in a <pre>', async () => {
    const item = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Raw title' }) });
    const res = await render(item.id, 'raw');
    expect(res.status).toBe(200);
    expect(JSON.parse(preText(res.text))).toEqual({
      '@graph': [{ '@id': IRI + item.id, '@type': setup.uri, _meta: { schema: setup.uri, deliveryId: item.id }, title: 'Raw title' }],
      result: [{ '@id': IRI + item.id }],
    });
  });

  it('hub templates: PUT an HTML wrapper with {{content}} and {{label}} (201, then 200), list, render with it, delete', async () => {
    const item = await createItem(api, setup.repoId, setup.uri, { label: 'Promo <1>', body: itemBody(setup.uri, { title: 'Promo title' }) });
    const html = '<html><body><header>{{ label }}</header><section class="wrap">{{content}}</section></body></html>';
    const made = await putTemplate(setup.hubId, 'site-wrapper', html);
    expect(made.status, made.text).toBe(201);
    expect(made.headers.get('location')).toBe(`${srv.url}/__sandbox/hubs/${setup.hubId}/templates/site-wrapper`);
    expect(made.body).toMatchObject({ name: 'site-wrapper', html, builtIn: false });
    const rendered = await render(item.id, 'site-wrapper');
    expect(rendered.status).toBe(200);
    expect(rendered.text).toMatch(/^<html><body><header>Promo &lt;1&gt;<\/header><section class="wrap"><article class="content-item" data-id="[^"]+" data-schema="[^"]+"><h1>Promo &lt;1&gt;<\/h1><dl><dt>title<\/dt><dd>Promo title<\/dd><\/dl><\/article><\/section><\/body><\/html>$/);

    const replaced = await putTemplate(setup.hubId, 'site-wrapper', '<main>{{content}}</main>');
    expect(replaced.status).toBe(200);
    expect((await render(item.id, 'site-wrapper')).text).toMatch(/^<main><article /);

    const list = await api.get(`/__sandbox/hubs/${setup.hubId}/templates`);
    expect(list.status).toBe(200);
    expect(list.body._embedded.templates.map((t: any) => [t.name, t.builtIn])).toEqual([
      ['default', true],
      ['raw', true],
      ['site-wrapper', false],
    ]);
    // Templates belong to their hub.
    const other = await contentSetup(api);
    const foreign = await createItem(api, other.repoId, other.uri);
    expectError(await render(foreign.id, 'site-wrapper'), 404);

    expect((await api.del(`/__sandbox/hubs/${setup.hubId}/templates/site-wrapper`)).status).toBe(204);
    expectError(await render(item.id, 'site-wrapper'), 404);
    expectError(await api.del(`/__sandbox/hubs/${setup.hubId}/templates/site-wrapper`), 404);
  });

  it('an unknown template is 404 with a message naming it and the choices', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const err = expectError(await render(item.id, 'nope'), 404);
    expect(err).toMatchObject({ code: 'TEMPLATE_NOT_FOUND', property: 'template', invalidValue: 'nope' });
    expect(err.message).toContain("No template named 'nope'");
    expect(err.message).toContain('default, raw');
  });

  it('template registration: {{content}} required, built-in names reserved, names checked; sandbox admin only; unknown hub 404', async () => {
    const e1 = expectError(await putTemplate(setup.hubId, 'no-content', '<p>{{label}}</p>'), 400);
    expect(e1.property).toBe('body');
    expect(expectError(await putTemplate(setup.hubId, 'default', '<p>{{content}}</p>'), 400).property).toBe('name');
    expect(expectError(await putTemplate(setup.hubId, '-bad!', '<p>{{content}}</p>'), 400).property).toBe('name');
    expect(expectError(await putTemplate(setup.hubId, 'huge', `{{content}}${'x'.repeat(100_001)}`), 400).property).toBe('body');
    expectError(await putTemplate('5f00000000000000000000ff', 'ok', '<p>{{content}}</p>'), 404);
    const restricted = await api.client(unique('vse-client'), [], [{ resource: 'hubs', id: setup.hubId, permissions: ['READ', 'EDIT'] }]);
    expectError(await putTemplate(setup.hubId, 'ok', '<p>{{content}}</p>', restricted), 403);
    expectError(await restricted.get(`/__sandbox/hubs/${setup.hubId}/templates`), 403);
  });

  it('unknown and archived items are 404', async () => {
    expectError(await render('00000000-0000-4000-8000-000000000000'), 404);
    const item = await createItem(api, setup.repoId, setup.uri);
    expect((await api.post(`/content-items/${item.id}/archive`, { version: 1 })).status).toBe(200);
    expect(expectError(await render(item.id), 404).entity).toBe('ContentItem');
  });
});

describe('the delivery graph query', () => {
  it('answers the item and its linked items as delivered JSON, each with its IRI', async () => {
    const child = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Leaf' }) });
    const root = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Root', links: [contentLink(child.id, setup.uri)] }) });
    const res = await graph(root.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      '@graph': [
        { '@id': IRI + root.id, '@type': setup.uri, _meta: { schema: setup.uri, deliveryId: root.id }, title: 'Root', links: [{ '@id': IRI + child.id, '@type': setup.uri }] },
        { '@id': IRI + child.id, '@type': setup.uri, _meta: { schema: setup.uri, deliveryId: child.id }, title: 'Leaf' },
      ],
      result: [{ '@id': IRI + root.id }],
    });
    // The store may be named by hub id too; it is optional.
    expect((await graph(root.id, setup.hubId)).body['@graph']).toHaveLength(2);
    const noStore = await api.get(`/cms/content/query?query=${encodeURIComponent(JSON.stringify({ 'sys.iri': IRI + child.id }))}`, { token: null });
    expect(noStore.body['@graph'].map((e: any) => e['@id'])).toEqual([IRI + child.id]);
  });

  it('an iri naming nothing (or another store) answers an empty graph; bad queries are 400; an unknown store 404', async () => {
    expect((await graph('00000000-0000-4000-8000-000000000000')).body).toEqual({ '@graph': [], result: [] });
    const other = await contentSetup(api);
    const foreign = await createItem(api, other.repoId, other.uri);
    expect((await graph(foreign.id)).body['@graph']).toEqual([]);
    expect(expectError(await api.get('/cms/content/query?store=x', { token: null }), 400).property).toBe('query');
    expectError(await api.get(`/cms/content/query?query=${encodeURIComponent('{nope')}`, { token: null }), 400);
    expectError(await api.get(`/cms/content/query?query=${encodeURIComponent('{"sys.id":"x"}')}`, { token: null }), 400);
    expect(expectError(await graph(foreign.id, unique('no-such-store')), 404).code).toBe('STORE_NOT_FOUND');
  });
});

describe('slots show their live content', () => {
  it('before an edition starts the slot renders its own body; after, the edition content at its frozen versions', async () => {
    const hero = await createItem(api, setup.repoId, setup.uri, { label: 'Launch hero', body: itemBody(setup.uri, { title: 'Launch v1' }) });
    const snapshot = await snapshotOf(api, setup.hubId, hero.id);
    expect((await api.patch(`/content-items/${hero.id}`, { version: 1, body: itemBody(setup.uri, { title: 'Launch v2 (after the snapshot)' }) })).status).toBe(200);
    const slot = await createSlot(api, setup, 'Home slot');

    const now = await sandboxNow(api);
    const eventId = (await createEvent(api, setup.hubId)).id;
    const edition = (await api.post(`/events/${eventId}/editions`, { name: unique('launch'), start: new Date(now + HOUR).toISOString(), end: new Date(now + 5 * HOUR).toISOString() })).body;
    const [editionSlot] = await assignSlots(api, edition.id, [slot.id]);
    await fillSlot(api, edition.id, editionSlot.id, slotContent(setup, snapshot.id));
    await schedule(api, (await api.get(`/editions/${edition.id}`)).body);

    const before = await render(slot.id);
    expect(before.text).toContain('<dt>title</dt><dd>Sample</dd>');
    expect(before.text).not.toContain('Launch v1');
    expect((await graph(slot.id)).body['@graph'].map((e: any) => e['@id'])).toEqual([IRI + slot.id]);

    await api.advanceClock({ advance: '2h' });
    const after = await render(slot.id);
    expect(after.status).toBe(200);
    expect(after.text).toContain('<title>Home slot</title>');
    expect(after.text).toContain(`<article class="content-item" data-id="${hero.id}" data-schema="${setup.uri}"><h2>Launch hero</h2><dl><dt>title</dt><dd>Launch v1</dd>`);
    expect(after.text).not.toContain('Launch v2');
    expect(after.text).not.toContain('<dd>Sample</dd>');
    const live = (await graph(slot.id)).body['@graph'];
    expect(live).toEqual([
      // The slot's _meta names the edition it shows (what the SDK reads as ContentMeta.edition).
      { '@id': IRI + slot.id, '@type': setup.slotUri, _meta: { schema: setup.slotUri, name: 'slot', deliveryId: slot.id, edition: { id: edition.id, start: edition.start, end: edition.end } }, slot: { '@id': IRI + hero.id, '@type': setup.uri } },
      { '@id': IRI + hero.id, '@type': setup.uri, _meta: { schema: setup.uri, deliveryId: hero.id }, title: 'Launch v1' },
    ]);
    // The item itself (not through the slot) renders as it is now.
    expect((await render(hero.id)).text).toContain('Launch v2');
  });
});

describe('the hub staging hostname', () => {
  it('requests whose Host is a hub hostname are answered for that hub only', async () => {
    const hostname = `${unique('vse')}.staging.example.test`;
    const patched = await api.patch(`/hubs/${setup.hubId}/settings`, { virtualStagingEnvironment: { hostname } });
    expect(patched.status, patched.text).toBe(204);
    const mine = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'On my host' }) });
    const other: ContentSetup = await contentSetup(api);
    const foreign = await createItem(api, other.repoId, other.uri);
    const itemPath = (id: string) => `/v1/content/staging/content-item/${id}`;

    const ok = await getWithHost(itemPath(mine.id), hostname);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('On my host');
    expect((await getWithHost(itemPath(mine.id), `${hostname}:8080`)).status).toBe(200);
    expect((await getWithHost(itemPath(foreign.id), hostname)).status).toBe(404);
    // The sandbox's own origin still serves every hub, named as the store.
    expect((await render(foreign.id, undefined, (await api.get(`/hubs/${other.hubId}`)).body.name)).status).toBe(200);
    expect((await render(foreign.id)).status).toBe(404);

    const query = (id: string, store?: string) => `/cms/content/query?${store ? `store=${store}&` : ''}query=${encodeURIComponent(JSON.stringify({ 'sys.iri': IRI + id }))}`;
    expect(JSON.parse((await getWithHost(query(mine.id), hostname)).text)['@graph']).toHaveLength(1);
    expect(JSON.parse((await getWithHost(query(foreign.id), hostname)).text)['@graph']).toEqual([]);
    const otherName = (await api.get(`/hubs/${other.hubId}`)).body.name;
    expect((await getWithHost(query(foreign.id, otherName), hostname)).status).toBe(404);
    // Another hub may not be reached through this host, whatever it is named.
    const second = await createHub(api);
    expect((await getWithHost(query(mine.id, second.name), hostname)).status).toBe(404);
  });
});
