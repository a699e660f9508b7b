import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamicContent, SearchIndex, Webhook } from 'dc-management-sdk-js';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';
import { expectError } from '../../helpers/assert.js';
import { createContentRepo, createContentType, SCHEMA_HOST } from '../../helpers/content.js';
import { createIndex, enableSearchModule, publishItem, queryPath, type SearchSetup } from '../../helpers/search-indexes.js';

// Issue 31.4: the vendor's CLI (`dc-cli hub clone`, `search-index import --webhooks`) creates an
// index in the destination hub, then updates each of that index's own webhooks with the source
// index's webhook as exported, handlers included. In the hosted service an index's webhook
// handlers do not name one index, so the copied webhook feeds the index that owns it. The trust
// work of issue 24.6 stays: no client makes one hub's content reach another hub's index.

let srv: TestServer;
let admin: Api;
let A: SearchSetup;
let B: SearchSetup;
/** A client with webhook and content rights on hub A only. */
let restricted: Api;
let dc: DynamicContent;

/** A hub with content type `uri` and an index it is assigned to: two such hubs are a source and its clone. */
async function searchHub(uri: string): Promise<SearchSetup> {
  const hubId = (await createHub(admin)).id;
  const type = await createContentType(admin, hubId, uri);
  const repo = await createContentRepo(admin, hubId, type.id);
  await enableSearchModule(admin, hubId);
  const hubName = (await admin.get(`/hubs/${hubId}`)).body.name;
  const index = await createIndex(admin, hubId, { assignedContentTypes: [{ contentTypeUri: uri }] });
  return { hubId, repoId: repo.id, typeId: type.id, uri, hubName, index };
}

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  const uri = `${SCHEMA_HOST}/${unique('cloned')}.json`;
  A = await searchHub(uri);
  B = await searchHub(uri);
  const fn = ['WEBHOOK:READ', 'WEBHOOK:CREATE', 'WEBHOOK:EDIT', 'CONTENT_ITEM:READ', 'CONTENT_ITEM:CREATE', 'CONTENT_ITEM:PUBLISH'].map((p) => `CONTENT:FUNCTIONAL:${p}`);
  restricted = await admin.client(unique('hub-a-only'), fn, [
    { resource: 'hubs', id: A.hubId, permissions: ['READ', 'EDIT'] },
    { resource: 'content-repositories', id: A.repoId, permissions: ['READ', 'EDIT', 'CREATE_CONTENT'] },
  ]);
  dc = new DynamicContent({ client_id: 'sandbox-admin', client_secret: 'sandbox-secret' }, { apiUrl: `${srv.url}/v2/content`, authUrl: srv.url });
});
afterAll(async () => srv?.stop());

const records = async (s: SearchSetup) => (await admin.post(queryPath(s.index.id), { query: '' })).body;
const titles = async (s: SearchSetup) => ((await records(s)).hits as any[]).map((h) => h.title).sort();

/** Waits until the index holds a record titled `title` (deliveries run in the background). */
async function waitForTitle(s: SearchSetup, title: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await titles(s)).includes(title)) {
    if (Date.now() > deadline) throw new Error(`${s.index.id} never indexed '${title}': ${JSON.stringify(await titles(s))}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The assigned type's webhooks through the vendor's SDK, as the vendor's CLI reads them. */
async function typeHooks(s: SearchSetup) {
  const hub = await dc.hubs.get(s.hubId);
  const index: SearchIndex = await hub.related.searchIndexes.get(s.index.id);
  const [type] = (await index.related.assignedContentTypes.list()).getItems();
  return { active: await type!.related.activeContentWebhook(), archived: await type!.related.archivedContentWebhook() };
}

describe("an index's own webhook updated with another hub's index webhook (the vendor's CLI copying an index)", () => {
  it("is accepted and feeds the index that owns it; the source hub's index gets nothing from this hub", async () => {
    const source = await typeHooks(B);
    const target = await typeHooks(A);
    // What `search-index export` writes and `import --webhooks` sends back: the whole webhook as read.
    const exported = { active: new Webhook(JSON.parse(JSON.stringify(source.active.toJSON()))), archived: new Webhook(JSON.parse(JSON.stringify(source.archived.toJSON()))) };
    expect(exported.active.handlers?.[0]).toContain(B.index.id);
    const updatedActive = await target.active.related.update(exported.active);
    const updatedArchived = await target.archived.related.update(exported.archived);
    // The handler names the index that owns the webhook, never the source hub's index.
    for (const hook of [updatedActive, updatedArchived]) {
      expect(hook.handlers).toHaveLength(1);
      expect(hook.handlers![0]).not.toContain(B.index.id);
    }
    const beforeB = await titles(B);
    await publishItem(admin, A, { title: 'copied webhook feeds A' });
    await waitForTitle(A, 'copied webhook feeds A');
    // B's own webhooks are untouched and still feed B only.
    await publishItem(admin, B, { title: 'B still fed' });
    await waitForTitle(B, 'B still fed');
    expect(await titles(B)).toEqual([...beforeB, 'B still fed'].sort());
    expect(await titles(A)).not.toContain('B still fed');
  });

  it("a client with rights on hub A only cannot make A's content reach B's index through A's index webhooks, whatever spelling", async () => {
    const { active } = await typeHooks(A);
    const hookPath = `/hubs/${A.hubId}/webhooks/${active.id}`;
    const b = B.index.id;
    const spellings = [`sandbox://search-index/${b}`, `sandbox://search-index//${b}`, `sandbox://search-index/${A.index.id}/../${b}`, `sandbox://search-index/%2e%2e/${b}`, `sandbox://search-index/${b}?hub=${A.hubId}`];
    for (const handler of spellings) {
      const res = await restricted.patch(hookPath, { handlers: [handler] });
      expect(res.status, `${handler}: ${res.text}`).toBe(200);
      expect(res.body.handlers.join(' '), handler).not.toContain(b);
    }
    // Another receiver's resource of hub B, or an outside one, on an index's webhook is still refused.
    expect(expectError(await restricted.patch(hookPath, { handlers: [`sandbox://nowhere/${b}`] }), 400).property).toBe('handlers');
    await publishItem(restricted, A, { title: 'planted by A' });
    await waitForTitle(A, 'planted by A');
    expect(JSON.stringify(await records(B))).not.toContain('planted by A');
    // The deliveries were made to A's index.
    const log = (await admin.get(`${hookPath}/requests`)).body._embedded.requests as any[];
    expect(log.length).toBeGreaterThan(0);
    for (const r of log) expect(r.url).not.toContain(b);
  });

  it("a webhook no index owns still may not name another hub's index (issue 24.6 unchanged)", async () => {
    const res = await restricted.post(`/hubs/${A.hubId}/webhooks`, { label: unique('planted'), events: ['content-item.published'], handlers: [`sandbox://search-index/${B.index.id}`] });
    expect(expectError(res, 400).property).toBe('handlers');
    const created = await restricted.post(`/hubs/${A.hubId}/webhooks`, { label: unique('free'), events: ['content-item.published'], handlers: ['https://receiver.example.com/hook'] });
    expect(created.status, created.text).toBe(201);
    expect(expectError(await restricted.patch(`/hubs/${A.hubId}/webhooks/${created.body.id}`, { handlers: [`sandbox://search-index/${B.index.id}`] }), 400).property).toBe('handlers');
  });
});
