import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import axios, { type AxiosAdapter } from 'axios';
import { ContentClient } from 'dc-delivery-sdk-js';
import { DynamicContent } from 'dc-management-sdk-js';
import { Api, unique, startServer, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, enableDeliveryKeys, itemBody, type ContentSetup } from '../../helpers/content.js';
import { rawRequest } from '../../helpers/raw-http.js';

// Hierarchies, as the vendor's clients call them. Management (dc-management-sdk-js 3.3.0): an
// item's `hierarchy` ({root, parentId}, from its body's `_meta.hierarchy`) and
// GET /hierarchy-node/{id}/children and /parents. Delivery (dc-delivery-sdk-js 1.4.0):
// GET content/hierarchies/descendants/{id|key}/{root}?hierarchyDepth&maxPageSize&pageCursor,
// published at /cdn/{hub}, latest on the hub's staging host; the SDK rebuilds the tree.

let srv: TestServer;
let api: Api;
let setup: ContentSetup;
let hubName: string;
let staging: string;
const ids: Record<string, string> = {};

// root ─┬─ A ─┬─ B ── F
//       │     └─ C (never published)
//       └─ D ── E
const TREE: [string, string | null][] = [
  ['root', null],
  ['A', 'root'],
  ['B', 'A'],
  ['C', 'A'],
  ['D', 'root'],
  ['E', 'D'],
  ['F', 'B'],
];

const node = (parent: string | null) => (parent === null ? { hierarchy: { root: true } } : { hierarchy: { root: false, parentId: ids[parent] } });
const publish = async (id: string) => expect((await api.post(`/content-items/${id}/publish`, {})).status).toBe(204);

beforeAll(async () => {
  srv = await startServer();
  api = await new Api(srv.url).login();
  setup = await contentSetup(api);
  hubName = (await api.get(`/hubs/${setup.hubId}`)).body.name;
  await enableDeliveryKeys(api, setup.hubId);
  for (const [name, parent] of TREE) {
    const meta = { ...node(parent), ...(name === 'root' ? { deliveryKey: `nav/${unique('root')}` } : {}) };
    ids[name] = (await createItem(api, setup.repoId, setup.uri, { label: name, body: itemBody(setup.uri, { title: name }, meta) })).id;
    if (name !== 'C') await publish(ids[name]!);
  }
  staging = `${unique('vse')}.staging.example.test`;
  expect((await api.patch(`/hubs/${setup.hubId}/settings`, { virtualStagingEnvironment: { hostname: staging } })).status).toBeLessThan(300);
});
afterAll(() => srv?.stop());

const dc = () => new DynamicContent({ client_id: 'sandbox-admin', client_secret: 'sandbox-secret' }, { apiUrl: `${srv.url}/v2/content`, authUrl: srv.url });
const cd2 = (options: Record<string, unknown> = {}) => new ContentClient({ hubName, baseUrl: `${srv.url}/cdn/${hubName}`, ...options });
/** The SDK against the staging host (it calls https://<host>; its own adapter is pointed at the sandbox with that Host). */
const onStaging = () => {
  const http = axios.getAdapter('http');
  const adaptor: AxiosAdapter = (config) => http({ ...config, baseURL: srv.url, headers: { ...config.headers, Host: new URL(config.baseURL!).host } as never });
  return new ContentClient({ hubName, stagingEnvironment: staging, adaptor });
};

/** A delivered tree as names: {name: {child: {...}}}. */
type Shape = { [name: string]: Shape };
const shape = (n: { content: any; children: any[] }): Shape => Object.fromEntries(n.children.map((c) => [c.content.title, shape(c)]));

describe('management: items in a hierarchy, children and parents (dc-management-sdk-js)', () => {
  it("an item shows its body's _meta.hierarchy as `hierarchy`", async () => {
    const a = await dc().contentItems.get(ids.A!);
    expect(a.hierarchy).toEqual({ root: false, parentId: ids.root });
    expect((await dc().contentItems.get(ids.root!)).hierarchy).toEqual({ root: true });
  });

  it('hierarchies.children.get: the node and its direct children, with hasChildren; links lead on', async () => {
    const children = await dc().hierarchies.children.get(ids.root!);
    expect(children).toMatchObject({ id: ids.root, label: 'root', root: true, hasChildren: true, repositoryId: setup.repoId, contentTypeUri: setup.uri, publishingStatus: 'LATEST' });
    expect(children.children.map((c) => [c.label, c.parentId, c.hasChildren, c.root])).toEqual([
      ['A', ids.root, true, false],
      ['D', ids.root, true, false],
    ]);
    // From a child node to its own children, and to its content item.
    const a = children.children[0]!;
    expect((await a.related.children.get()).children.map((c) => c.label)).toEqual(['B', 'C']);
    expect((await a.related.contentItem.get()).id).toBe(ids.A);
    expect((await children.related.contentItem.get()).label).toBe('root');
    const leaf = await dc().hierarchies.children.get(ids.F!);
    expect(leaf).toMatchObject({ hasChildren: false, children: [] });
  });

  it('hierarchies.parents.get: every ancestor from the root down', async () => {
    const parents = await dc().hierarchies.parents.get(ids.F!);
    expect(parents).toMatchObject({ id: ids.F, parentId: ids.B, root: false });
    expect(parents.parents.map((p) => p.label)).toEqual(['root', 'A', 'B']);
    expect((await dc().hierarchies.parents.get(ids.root!)).parents).toEqual([]);
  });

  it('an archived child is no longer a child; an unknown node is 404; a cycle ends', async () => {
    const gone = await createItem(api, setup.repoId, setup.uri, { label: 'gone', body: itemBody(setup.uri, { title: 'gone' }, node('D')) });
    expect((await api.get(`/hierarchy-node/${ids.D}/children`)).body.children.map((c: any) => c.label)).toEqual(['E', 'gone']);
    expect((await api.post(`/content-items/${gone.id}/archive`, { version: gone.version })).status).toBe(200);
    expect((await api.get(`/hierarchy-node/${ids.D}/children`)).body.children.map((c: any) => c.label)).toEqual(['E']);
    expect((await api.get('/hierarchy-node/00000000-0000-4000-8000-000000000000/children')).status).toBe(404);
    // X's parent is Y and Y's is X (data can say so): the walk up stops where it started.
    const x = await createItem(api, setup.repoId, setup.uri, { label: 'X', body: itemBody(setup.uri, { title: 'X' }, { hierarchy: { root: false } }) });
    const y = await createItem(api, setup.repoId, setup.uri, { label: 'Y', body: itemBody(setup.uri, { title: 'Y' }, { hierarchy: { root: false, parentId: x.id } }) });
    const res = await api.patch(`/content-items/${x.id}`, { version: x.version, body: itemBody(setup.uri, { title: 'X' }, { hierarchy: { root: false, parentId: y.id } }) });
    expect(res.status, res.text).toBe(200);
    const up = await api.get(`/hierarchy-node/${x.id}/parents`);
    expect(up.status).toBe(200);
    expect(up.body.parents.map((p: any) => p.label)).toEqual(['Y']);
  });

  it('needs the permission to read content', async () => {
    const res = await fetch(`${srv.url}/v2/content/hierarchy-node/${ids.root}/children`);
    expect(res.status).toBe(401);
  });
});

describe('delivery: getByHierarchy (dc-delivery-sdk-js)', () => {
  it('Content Delivery 2 rebuilds the published tree by id and by key; an unpublished node is left out', async () => {
    const tree = await cd2().getByHierarchy({ rootId: ids.root! });
    expect(tree.content).toMatchObject({ title: 'root', _meta: { deliveryId: ids.root } });
    expect(shape(tree)).toEqual({ A: { B: { F: {} } }, D: { E: {} } });
    const key = (await api.get(`/content-items/${ids.root}`)).body.body._meta.deliveryKey;
    expect(shape(await cd2().getHierarchyByKey({ rootKey: key }))).toEqual({ A: { B: { F: {} } }, D: { E: {} } });
  });

  it('maximumDepth limits the levels; a small maximumPageSize pages with a cursor the SDK follows', async () => {
    expect(shape(await cd2().getByHierarchy({ rootId: ids.root!, maximumDepth: 1 }))).toEqual({ A: {}, D: {} });
    expect(shape(await cd2().getByHierarchy({ rootId: ids.root!, maximumPageSize: 2 }))).toEqual({ A: { B: { F: {} } }, D: { E: {} } });
    const first = await rawRequest(srv.url, { target: `/cdn/${hubName}/content/hierarchies/descendants/id/${ids.root}?maxPageSize=2`, headers: [['Host', new URL(srv.url).host]] });
    const page = JSON.parse(first.text);
    expect(page.responses.map((r: any) => r.content.title)).toEqual(['A', 'D']);
    expect(page.page).toMatchObject({ responseCount: 2 });
    expect(typeof page.page.cursor).toBe('string');
  });

  it('the staging host serves the latest tree: an unpublished node and a move made in a draft', async () => {
    expect(shape(await onStaging().getByHierarchy({ rootId: ids.root! }))).toEqual({ A: { B: { F: {} }, C: {} }, D: { E: {} } });
    // E moves under A in a draft: staging shows it there, Content Delivery 2 where it was published.
    const e = (await api.get(`/content-items/${ids.E}`)).body;
    expect((await api.patch(`/content-items/${ids.E}`, { version: e.version, body: itemBody(setup.uri, { title: 'E' }, node('A')) })).status).toBe(200);
    expect(shape(await onStaging().getByHierarchy({ rootId: ids.root! }))).toEqual({ A: { B: { F: {} }, C: {}, E: {} }, D: {} });
    expect(shape(await cd2().getByHierarchy({ rootId: ids.root! }))).toEqual({ A: { B: { F: {} } }, D: { E: {} } });
  });

  it('a parent cycle ends: each node is delivered once', async () => {
    const p = await createItem(api, setup.repoId, setup.uri, { label: 'P', body: itemBody(setup.uri, { title: 'P' }, { hierarchy: { root: true } }) });
    const q = await createItem(api, setup.repoId, setup.uri, { label: 'Q', body: itemBody(setup.uri, { title: 'Q' }, { hierarchy: { root: false, parentId: p.id } }) });
    expect((await api.patch(`/content-items/${p.id}`, { version: p.version, body: itemBody(setup.uri, { title: 'P' }, { hierarchy: { root: true, parentId: q.id } }) })).status).toBe(200);
    const port = new URL(srv.url).port;
    const res = await rawRequest(srv.url, { target: `/content/hierarchies/descendants/id/${p.id}`, headers: [['Host', `${staging}:${port}`]] });
    expect(JSON.parse(res.text).responses.map((r: any) => r.content.title)).toEqual(['Q']);
    expect(shape(await onStaging().getByHierarchy({ rootId: p.id }))).toEqual({ Q: {} });
  });

  it('bad parameters are 400 INVALID_PARAMETERS; an unknown root is 404', async () => {
    const get = (query: string, root = ids.root) => rawRequest(srv.url, { target: `/cdn/${hubName}/content/hierarchies/descendants/id/${root}${query}`, headers: [['Host', new URL(srv.url).host]] });
    for (const q of ['?hierarchyDepth=0', '?hierarchyDepth=15', '?hierarchyDepth=x', '?maxPageSize=0', '?maxPageSize=101', '?pageCursor=nope', '?sortByOrder=UP']) {
      const res = await get(q);
      expect(res.status, q).toBe(400);
      expect(JSON.parse(res.text).error.type, q).toBe('INVALID_PARAMETERS');
    }
    const missing = await get('', '00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).error.type).toBe('CONTENT_NOT_FOUND');
    // Not published: not a root on Content Delivery 2.
    expect((await get('', ids.C)).status).toBe(404);
  });
});
