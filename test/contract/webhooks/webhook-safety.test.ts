import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, type ContentSetup } from '../../helpers/content.js';
import { expectError } from '../../helpers/assert.js';

// Issue 11 findings 7, 8, 9 and the 3xx of 12: a receiver cannot make the sandbox buffer its
// whole answer, a webhook cannot feed itself, deactivating stops pending deliveries, a redirect is
// logged as one, and the delivery log shows payloads only to callers who may read the content.

let srv: TestServer;
let api: Api;
let setup: ContentSetup;
const servers: Server[] = [];

beforeAll(async () => {
  srv = await startServer();
  api = await new Api(srv.url).login();
  setup = await contentSetup(api);
});
afterAll(async () => {
  for (const s of servers) s.closeAllConnections?.(), s.close();
  await srv.stop();
});

/** A receiver with its own request handler. */
async function receiver(handle: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handle);
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
}

const hooksPath = () => `/hubs/${setup.hubId}/webhooks`;
async function createHook(fields: Record<string, unknown>, hubId = setup.hubId): Promise<any> {
  const res = await api.post(`/hubs/${hubId}/webhooks`, { label: unique('hook'), events: ['content-item.created'], ...fields });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function requestsOf(hookId: string, count: number, as: Api = api): Promise<any[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await as.get(`${hooksPath()}/${hookId}/requests?limit=100`);
    if (res.body?._embedded?.requests.length >= count) return res.body._embedded.requests;
    if (Date.now() > deadline) throw new Error(`only ${res.body?._embedded?.requests.length} requests recorded: ${res.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const itemCount = async (repoId: string) => (await api.get(`/content-repositories/${repoId}/content-items?size=1`)).body.page.totalElements as number;

describe("a receiver's answer", () => {
  it('is read up to 4,096 bytes: the rest is never downloaded, and the log says it was cut', async () => {
    let written = 0;
    let closedEarly = false;
    const LIMIT = 64 * 1024 * 1024;
    const url = await receiver((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const pump = () => {
          while (written < LIMIT) {
            written += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        res.on('close', () => (closedEarly = written < LIMIT));
        pump();
      });
    });
    const hook = await createHook({ handlers: [url] });
    await createItem(api, setup.repoId, setup.uri);
    const [logged] = await requestsOf(hook.id, 1);
    expect(logged).toMatchObject({ responseStatus: 200, result: 200, responseBodyTruncated: true });
    expect(Buffer.byteLength(logged.responseBody)).toBeLessThanOrEqual(4_096);
    await sleep(200);
    expect(closedEarly).toBe(true);
  });

  it('a 3xx is logged as a redirect that was not followed (result 202, not retried)', async () => {
    let hits = 0;
    const url = await receiver((req, res) => {
      hits++;
      req.resume();
      res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' }).end('moved');
    });
    const hook = await createHook({ handlers: [url] });
    await createItem(api, setup.repoId, setup.uri);
    const [logged] = await requestsOf(hook.id, 1);
    expect(logged).toMatchObject({ responseStatus: 302, result: 202, retryScheduledFor: null });
    expect(logged.error).toBe('redirect 302 not followed (Location: http://127.0.0.1:9/elsewhere)');
    expect(hits).toBe(1);
  });
});

describe('webhook loops', () => {
  it("a webhook whose handler is the sandbox's own create-item URL makes one item and one delivery, not a loop", async () => {
    const own = await contentSetup(api);
    const createUrl = `${srv.base}/content-repositories/${own.repoId}/content-items`;
    const hook = await createHook(
      {
        handlers: [createUrl],
        headers: [{ key: 'Authorization', value: `Bearer ${api.token}`, secret: true }],
        customPayload: { type: 'text/x-handlebars-template', value: JSON.stringify({ label: 'echo', body: { _meta: { schema: own.uri }, title: 'echo' } }) },
      },
      own.hubId,
    );
    try {
      await createItem(api, own.repoId, own.uri);
      const res = await api.get(`/hubs/${own.hubId}/webhooks/${hook.id}/requests`);
      const deadline = Date.now() + 10_000;
      while ((await itemCount(own.repoId)) < 2 && Date.now() < deadline) await sleep(50);
      await sleep(1_000);
      expect(await itemCount(own.repoId)).toBe(2);
      const log = (await api.get(`/hubs/${own.hubId}/webhooks/${hook.id}/requests?limit=100`)).body._embedded.requests;
      expect(log.map((r: any) => r.responseStatus)).toEqual([201]);
      expect(res.status).toBe(200);
    } finally {
      await api.patch(`/hubs/${own.hubId}/webhooks/${hook.id}`, { active: false });
    }
  });

  it('at most 8 deliveries are in flight at once; the rest wait and are all delivered', async () => {
    let open = 0;
    let most = 0;
    let done = 0;
    const url = await receiver((req, res) => {
      open++;
      most = Math.max(most, open);
      req.resume();
      setTimeout(() => {
        open--;
        done++;
        res.writeHead(200).end('ok');
      }, 150);
    });
    const handlers = Array.from({ length: 10 }, (_, i) => `${url}/${i}`);
    const hook = await createHook({ handlers });
    await createItem(api, setup.repoId, setup.uri);
    await createItem(api, setup.repoId, setup.uri);
    await requestsOf(hook.id, 20);
    expect(done).toBe(20);
    expect(most).toBeLessThanOrEqual(8);
    expect(most).toBeGreaterThan(1);
    await api.patch(`${hooksPath()}/${hook.id}`, { active: false });
  });

  it('deactivating a webhook cancels its pending deliveries: reactivating does not send them', async () => {
    let hits = 0;
    const url = await receiver((req, res) => {
      hits++;
      req.resume();
      res.writeHead(500).end('down');
    });
    const hook = await createHook({ handlers: [url] });
    await createItem(api, setup.repoId, setup.uri);
    const [first] = await requestsOf(hook.id, 1);
    expect(first.retryScheduledFor).toBeTruthy();
    expect((await api.patch(`${hooksPath()}/${hook.id}`, { active: false })).status).toBe(200);
    expect((await api.patch(`${hooksPath()}/${hook.id}`, { active: true })).status).toBe(200);
    await api.advanceClock({ advance: '2h' });
    await sleep(500);
    await api.get('/hubs');
    await sleep(300);
    expect(hits).toBe(1);
    expect((await api.get(`${hooksPath()}/${hook.id}/requests`)).body._embedded.requests).toHaveLength(1);
  });
});

describe('delivery logs and content permissions', () => {
  it('a client without content read sees delivery metadata but not payloads', async () => {
    const url = await receiver((req, res) => {
      req.resume();
      res.writeHead(200).end('thanks');
    });
    const hook = await createHook({ handlers: [url] });
    const item = await createItem(api, setup.repoId, setup.uri, { label: 'Secret plans', body: { _meta: { schema: setup.uri }, title: 'launch code 1234' } });
    await requestsOf(hook.id, 1);
    const hubAcl = [{ resource: 'hubs' as const, id: setup.hubId, permissions: ['READ'] }];
    const hooksOnly = await api.client(unique('hooks-only'), ['CONTENT:FUNCTIONAL:WEBHOOK:READ', 'CONTENT:FUNCTIONAL:WEBHOOK:CREATE'], hubAcl);
    expectError(await hooksOnly.get(`/content-repositories/${setup.repoId}/content-items`), 403);
    const [seen] = await requestsOf(hook.id, 1, hooksOnly);
    expect(seen).toMatchObject({ responseStatus: 200, result: 200, payloadWithheld: true, requestBody: null, responseBody: null });
    expect(JSON.stringify(seen)).not.toContain('launch code');
    expect(JSON.stringify(seen)).not.toContain(item.id);

    const reader = await api.client(unique('hooks-and-content'), ['CONTENT:FUNCTIONAL:WEBHOOK:READ', 'CONTENT:FUNCTIONAL:CONTENT_ITEM:READ'], hubAcl);
    const [full] = await requestsOf(hook.id, 1, reader);
    expect(full.payloadWithheld).toBeUndefined();
    expect(full.requestBody).toContain('launch code 1234');
  });

  it('no other route answers content bodies to a caller without content read: snapshot items, the stand-in platforms', async () => {
    const item = await createItem(api, setup.repoId, setup.uri, { body: { _meta: { schema: setup.uri }, title: 'frozen secret' } });
    const snapshot = (await api.post(`/hubs/${setup.hubId}/snapshots`, { comment: 'c', createdFrom: 'content-item', type: 'USER', contentRoot: item.id })).body;
    const marketing = await api.post('/integrations/marketing', {
      hubId: setup.hubId,
      label: unique('Mail'),
      active: true,
      'marketing-credentials': { username: 'mailer', password: 'mail-pass' },
      'cms-credentials': { clientId: 'cms-client', clientSecret: 'cms-secret' },
      rendering: { templateName: 'email' },
      contentAssets: { folder: 'email' },
    });
    expect(marketing.status, marketing.text).toBe(201);
    const hubAcl = [{ resource: 'hubs' as const, id: setup.hubId, permissions: ['READ'] }];
    const noContent = await api.client(unique('no-content'), ['CONTENT:FUNCTIONAL:SNAPSHOT:READ', 'CONTENT:FUNCTIONAL:INTEGRATION:READ'], hubAcl);
    const withContent = await api.client(unique('with-content'), ['CONTENT:FUNCTIONAL:SNAPSHOT:READ', 'CONTENT:FUNCTIONAL:INTEGRATION:READ', 'CONTENT:FUNCTIONAL:CONTENT_ITEM:READ'], hubAcl);
    const snapshotItem = `/snapshots/${snapshot.id}/content-items/${item.id}`;
    expect(expectError(await noContent.get(snapshotItem), 403).invalidValue).toBe('CONTENT:FUNCTIONAL:CONTENT_ITEM:READ');
    expect((await withContent.get(snapshotItem)).body.body.title).toBe('frozen secret');
    const deliveries = `/__sandbox/marketing/${marketing.body.id}/deliveries`;
    expectError(await noContent.get(deliveries), 403);
    expect((await withContent.get(deliveries)).status).toBe(200);
  });
});
