import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, type ContentSetup } from '../../helpers/content.js';
import { Receiver } from '../../helpers/receiver.js';
import { expectError } from '../../helpers/assert.js';

// Issue 32.2: a webhook is not a proxy into the user's machine or network. Public addresses are
// always allowed; loopback only for webhooks an admin client wrote last (the user's own test
// receivers); private, link-local and the rest only when the user lists them
// (allowWebhookTo / --allow-webhook-to). Checked when a handler names an address literally and
// at every delivery on the address the connection goes to. A receiver's answer from a
// non-public address is shown to admin clients only.

let srv: TestServer;
let api: Api;
let receiver: Receiver;
let setup: ContentSetup;
let restricted: Api;
let port: string;

const WEBHOOK_ALL = ['CREATE', 'READ', 'EDIT', 'DELETE'].map((a) => `CONTENT:FUNCTIONAL:WEBHOOK:${a}`);
const CONTENT = ['CONTENT:FUNCTIONAL:CONTENT_ITEM:READ', 'CONTENT:FUNCTIONAL:CONTENT_ITEM:CREATE'];

beforeAll(async () => {
  srv = await startServer();
  api = await new Api(srv.url).login();
  receiver = await new Receiver().start();
  port = new URL(receiver.url).port;
  setup = await contentSetup(api);
  restricted = await api.client(unique('hooks'), [...WEBHOOK_ALL, ...CONTENT], [
    { resource: 'hubs', id: setup.hubId, permissions: ['READ', 'EDIT'] },
    { resource: 'content-repositories', id: setup.repoId, permissions: ['READ', 'CREATE_CONTENT', 'EDIT_CONTENT'] },
  ]);
});
afterAll(async () => {
  await receiver.stop();
  await srv.stop();
});

const hookBody = (handler: string) => ({ label: unique('hook'), events: ['content-item.created'], handlers: [handler] });
async function requestsOf(as: Api, hookId: string, count: number): Promise<any[]> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await as.get(`/hubs/${setup.hubId}/webhooks/${hookId}/requests?limit=100`);
    if (res.body?._embedded?.requests.length >= count) return res.body._embedded.requests;
    if (Date.now() > deadline) throw new Error(`only ${res.body?._embedded?.requests.length} requests recorded: ${res.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('handlers naming an address', () => {
  it("a client that is not an admin cannot point a webhook at loopback, in any spelling", async () => {
    const spellings = ['127.0.0.1', 'localhost', '2130706433', '0177.0.0.1', '0x7f.1', '127.1', '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[0:0:0:0:0:ffff:7f00:1]'];
    for (const host of spellings) {
      const err = expectError(await restricted.post(`/hubs/${setup.hubId}/webhooks`, hookBody(`http://${host}:${port}/x`)), 400);
      expect(err.property, host).toBe('handlers');
      expect(err.message, host).toContain('loopback');
    }
  });

  it('nobody points a webhook at private, link-local or unspecified addresses unless the user allows them', async () => {
    const hosts = ['169.254.169.254', '[::ffff:169.254.169.254]', '[::ffff:a9fe:a9fe]', '2852039166', '0251.0376.0251.0376', '10.0.0.1', '172.16.5.4', '192.168.1.1', '100.64.0.1', '[fe80::1]', '[fd00::1]', '0.0.0.0', '[::]'];
    for (const host of hosts) {
      for (const as of [api, restricted]) {
        const err = expectError(await as.post(`/hubs/${setup.hubId}/webhooks`, hookBody(`http://${host}/latest/meta-data/`)), 400);
        expect(err.property, host).toBe('handlers');
        expect(err.message, host).toMatch(/destination not allowed/);
      }
    }
  });

  it("the user's own (admin) receivers on loopback keep working, and the admin reads their answers", async () => {
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody(`http://localhost:${port}/${unique('own')}`))).body;
    await createItem(api, setup.repoId, setup.uri);
    const [logged] = await requestsOf(api, hook.id, 1);
    expect(logged).toMatchObject({ result: 200, responseBody: 'ok', destination: { kind: 'loopback' } });
  });
});

describe('at delivery time', () => {
  it('a webhook another client changed last is checked again: loopback refused, nothing sent, not retried', async () => {
    const path = `/${unique('changed')}`;
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody(`http://localhost:${port}${path}`))).body;
    // The restricted client changes only the body; the handler (a name, resolved at delivery) stays.
    const patched = await restricted.patch(`/hubs/${setup.hubId}/webhooks/${hook.id}`, { customPayload: { type: 'text/x-handlebars-template', value: '{"steal": true}' } });
    expect(patched.status, patched.text).toBe(200);
    await createItem(api, setup.repoId, setup.uri);
    const [logged] = await requestsOf(api, hook.id, 1);
    expect(logged).toMatchObject({ result: 500, responseStatus: null, retryScheduledFor: null });
    expect(logged.error).toMatch(/destination not allowed: localhost \((127\.0\.0\.1|::1)\) is a loopback address/);
    expect(receiver.received.filter((r) => r.url === path)).toEqual([]);
  });

  it("a receiver's answer from loopback is withheld from a client that is not an admin, even one that reads content", async () => {
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody(`http://127.0.0.1:${port}/${unique('answer')}`))).body;
    await createItem(api, setup.repoId, setup.uri);
    const [mine] = await requestsOf(api, hook.id, 1);
    expect(mine.responseBody).toBe('ok');
    const [theirs] = await requestsOf(restricted, hook.id, 1);
    expect(theirs).toMatchObject({ responseBody: null, responseWithheld: true, result: 200 });
    expect(theirs.requestBody).toBeTruthy();
  });
});

describe('the user opts in', () => {
  it('allowWebhookTo lets every client deliver to the listed addresses, and only those', async () => {
    const other = await startServer({ allowWebhookTo: ['127.0.0.1', '10.0.0.0/8'] });
    try {
      const admin = await new Api(other.url).login();
      const s = await contentSetup(admin);
      const client = await admin.client(unique('hooks'), [...WEBHOOK_ALL, ...CONTENT], [
        { resource: 'hubs', id: s.hubId, permissions: ['READ', 'EDIT'] },
        { resource: 'content-repositories', id: s.repoId, permissions: ['READ', 'CREATE_CONTENT', 'EDIT_CONTENT'] },
      ]);
      const path = `/${unique('opted')}`;
      const ok = await client.post(`/hubs/${s.hubId}/webhooks`, hookBody(`http://127.0.0.1:${port}${path}`));
      expect(ok.status, ok.text).toBe(201);
      expect((await client.post(`/hubs/${s.hubId}/webhooks`, hookBody('http://10.1.2.3/x'))).status).toBe(201);
      expectError(await client.post(`/hubs/${s.hubId}/webhooks`, hookBody('http://169.254.169.254/x')), 400);
      expectError(await client.post(`/hubs/${s.hubId}/webhooks`, hookBody(`http://[::1]:${port}/x`)), 400);
      await createItem(admin, s.repoId, s.uri);
      await receiver.waitFor(1, (r) => r.url === path);
    } finally {
      await other.stop();
    }
  });
});
