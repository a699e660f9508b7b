import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentSetup } from '../../helpers/content.js';
import { expectError } from '../../helpers/assert.js';
import { createIndex, enableSearchModule, publishItem, queryPath, type SearchSetup } from '../../helpers/search-indexes.js';

// Issue 24.6: a webhook may name a receiver inside the sandbox (sandbox://search-index/<id>,
// sandbox://commerce/<id>, sandbox://marketing/<id>). A client with rights on hub A only must not
// reach hub B's index or platforms through one: the receiver's resource must belong to the
// webhook's own hub when the webhook is created, when it is changed, and when a delivery is made.

let srv: TestServer;
let admin: Api;
let A: SearchSetup;
let B: SearchSetup;
/** A client with webhook rights on hub A only. */
let restricted: Api;
let marketingB: any;
let commerceB: any;

async function searchHub(): Promise<SearchSetup> {
  const setup = await contentSetup(admin);
  await enableSearchModule(admin, setup.hubId);
  const hubName = (await admin.get(`/hubs/${setup.hubId}`)).body.name;
  const index = await createIndex(admin, setup.hubId, { assignedContentTypes: [{ contentTypeUri: setup.uri }] });
  return { ...setup, hubName, index };
}

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  A = await searchHub();
  B = await searchHub();
  const fn = ['WEBHOOK:READ', 'WEBHOOK:CREATE', 'WEBHOOK:EDIT', 'CONTENT_ITEM:READ', 'CONTENT_ITEM:CREATE', 'CONTENT_ITEM:PUBLISH'].map((p) => `CONTENT:FUNCTIONAL:${p}`);
  restricted = await admin.client(unique('hub-a-only'), fn, [
    { resource: 'hubs', id: A.hubId, permissions: ['READ', 'EDIT'] },
    { resource: 'content-repositories', id: A.repoId, permissions: ['READ', 'EDIT', 'CREATE_CONTENT'] },
  ]);
  const integration = (kind: string, extra: Record<string, unknown>) =>
    admin.post(`/integrations/${kind}`, { hubId: B.hubId, label: unique(kind), ...extra }).then((r) => {
      if (r.status !== 201) throw new Error(`${kind} integration: ${r.status} ${r.text}`);
      return r.body;
    });
  commerceB = await integration('commerce', {
    'commerce-credentials': { clientId: 'c', clientSecret: 's' },
    'cms-credentials': { clientId: 'c', clientSecret: 's' },
    'commerce-api': { url: 'https://shop.example.com' },
    rendering: { templateName: 'default' },
  });
  marketingB = await integration('marketing', { active: true, 'marketing-credentials': { apiKey: 'k' }, 'cms-credentials': { clientId: 'c', clientSecret: 's' }, rendering: {}, contentAssets: {} });
});
afterAll(async () => srv?.stop());

const hook = (handler: string) => ({ label: unique('planted'), events: ['content-item.published'], handlers: [handler] });
const records = async (s: SearchSetup) => (await admin.post(queryPath(s.index.id), { query: '' })).body;

describe("an internal receiver of another hub's resource", () => {
  it("is refused when a webhook is created: search index, commerce and marketing receivers of hub B", async () => {
    const targets = [`sandbox://search-index/${B.index.id}`, `sandbox://commerce/${commerceB.id}`, `sandbox://marketing/${marketingB.id}`];
    for (const target of targets) {
      const res = await restricted.post(`/hubs/${A.hubId}/webhooks`, hook(target));
      const err = expectError(res, 400);
      expect(err.property, target).toBe('handlers');
      expect(err.message).toContain('not a resource of this hub');
    }
    // The sandbox admin, who can see both hubs, is refused too: the rule is about the hub, not the caller.
    expectError(await admin.post(`/hubs/${A.hubId}/webhooks`, hook(`sandbox://search-index/${B.index.id}`)), 400);
    // Unknown receivers and unknown resources are refused the same way (no probing of ids).
    expectError(await restricted.post(`/hubs/${A.hubId}/webhooks`, hook('sandbox://search-index/5f00000000000000000000ff')), 400);
    expectError(await restricted.post(`/hubs/${A.hubId}/webhooks`, hook(`sandbox://nowhere/${B.index.id}`)), 400);
  });

  it("its own hub's index is accepted", async () => {
    const res = await restricted.post(`/hubs/${A.hubId}/webhooks`, hook(`sandbox://search-index/${A.index.id}`));
    expect(res.status, res.text).toBe(201);
  });

  it('is refused when an existing webhook is moved there with PATCH', async () => {
    const created = await restricted.post(`/hubs/${A.hubId}/webhooks`, hook('https://receiver.example.com/hook'));
    expect(created.status, created.text).toBe(201);
    const res = await restricted.patch(`/hubs/${A.hubId}/webhooks/${created.body.id}`, { handlers: [`sandbox://search-index/${B.index.id}`] });
    expect(expectError(res, 400).property).toBe('handlers');
    expect((await restricted.get(`/hubs/${A.hubId}/webhooks/${created.body.id}`)).body.handlers).toEqual(['https://receiver.example.com/hook']);
  });

  it("is refused when a delivery is made (a webhook stored before the check): hub B's index gets nothing", async () => {
    const created = await restricted.post(`/hubs/${A.hubId}/webhooks`, hook(`sandbox://search-index/${A.index.id}`));
    expect(created.status, created.text).toBe(201);
    // A database written before the check: the row already names hub B's index.
    srv.sandbox.service.db
      .prepare("UPDATE webhooks SET data = json_set(data, '$.handlers', json(?)) WHERE id = ?")
      .run(JSON.stringify([`sandbox://search-index/${B.index.id}`]), created.body.id);
    const before = (await records(B)).nbHits;
    await publishItem(restricted, A, { title: 'planted record' });
    const deadline = Date.now() + 10_000;
    let log: any[] = [];
    while (Date.now() < deadline) {
      log = (await admin.get(`/hubs/${A.hubId}/webhooks/${created.body.id}/requests`)).body._embedded.requests;
      if (log.length) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(log[0]).toMatchObject({ url: `sandbox://search-index/${B.index.id}`, responseStatus: 403, result: 202 });
    expect(log[0].responseBody).toContain('not a resource of hub');
    const after = await records(B);
    expect(after.nbHits).toBe(before);
    expect(JSON.stringify(after)).not.toContain('planted record');
  });
});
