import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, type ContentSetup } from '../../helpers/content.js';
import { publishItem, searchSetup, waitForRecords } from '../../helpers/search-indexes.js';
import { Receiver } from '../../helpers/receiver.js';
import { expectError } from '../../helpers/assert.js';

// Issue 32.3: one hub's webhooks pointing at a receiver that accepts connections and never
// answers must not stall every other hub's deliveries, nor the search-index sync. Slots are
// shared round-robin between hubs (then webhooks), a connection that sends no byte is given up
// after 3 s, sandbox:// deliveries take no slot, and webhooks and handlers per hub are bounded.

let srv: TestServer;
let api: Api;
let receiver: Receiver;
let stalled: Server;
const sockets = new Set<Socket>();
let stalledUrl: string;
let noisy: ContentSetup;
const noisyHooks: string[] = [];

beforeAll(async () => {
  srv = await startServer();
  api = await new Api(srv.url).login();
  receiver = await new Receiver().start();
  // Accepts every connection, reads the request, never answers a byte.
  stalled = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.resume();
  });
  await new Promise<void>((r) => stalled.listen(0, '127.0.0.1', r));
  stalledUrl = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`;
  noisy = await contentSetup(api);
  // 5 webhooks of 10 handlers: 50 stalled deliveries per event.
  for (let w = 0; w < 5; w++) {
    const res = await api.post(`/hubs/${noisy.hubId}/webhooks`, { label: unique('stall'), events: ['content-item.created'], handlers: Array.from({ length: 10 }, (_, i) => `${stalledUrl}/${w}/${i}`) });
    expect(res.status, res.text).toBe(201);
    noisyHooks.push(res.body.id);
  }
}, 60_000);
afterAll(async () => {
  for (const id of noisyHooks) await api.patch(`/hubs/${noisy.hubId}/webhooks/${id}`, { active: false });
  for (const s of sockets) s.destroy();
  stalled.close();
  await receiver.stop();
  await srv.stop();
});

/** Attempts recorded so far for the stalled webhooks. */
async function stalledAttempts(): Promise<any[]> {
  const all: any[] = [];
  for (const id of noisyHooks) all.push(...(await api.get(`/hubs/${noisy.hubId}/webhooks/${id}/requests?limit=100`)).body._embedded.requests);
  return all;
}

describe('a hub whose receivers never answer', () => {
  it("delays another hub's delivery by one attempt at most, not by its backlog; a silent connection is given up after 3 s", async () => {
    const honest = await contentSetup(api);
    const path = `/${unique('honest')}`;
    const hook = await api.post(`/hubs/${honest.hubId}/webhooks`, { label: unique('hook'), events: ['content-item.created'], handlers: [`${receiver.url}${path}`] });
    expect(hook.status, hook.text).toBe(201);

    await createItem(api, noisy.repoId, noisy.uri); // 50 deliveries that each hold a slot until given up
    await new Promise((r) => setTimeout(r, 300)); // they have the slots
    await createItem(api, honest.repoId, honest.uri);
    await receiver.waitFor(1, (r) => r.url === path, 20_000);
    // Behind the backlog (the old order), it would have come after all 50, 8 at a time.
    expect((await stalledAttempts()).length).toBeLessThanOrEqual(8);

    const attempts = await (async () => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const got = await stalledAttempts();
        if (got.length >= 8 || Date.now() > deadline) return got;
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    expect(attempts.length).toBeGreaterThanOrEqual(8);
    for (const a of attempts) {
      expect(a).toMatchObject({ responseStatus: null, result: 500, error: 'UND_ERR_HEADERS_TIMEOUT' });
      expect(a.retryScheduledFor).toBeTruthy();
    }
  }, 60_000);

  it('does not hold up the search-index sync (sandbox:// deliveries take no slot)', async () => {
    const s = await searchSetup(api);
    await createItem(api, noisy.repoId, noisy.uri); // 50 more stalled deliveries queued
    await new Promise((r) => setTimeout(r, 300));
    const before = (await stalledAttempts()).length;
    await publishItem(api, s, { title: 'indexed while another hub stalls' });
    await waitForRecords(api, s.index, 1, 20_000);
    // Indexed before even one round of the stalled deliveries was given up.
    expect((await stalledAttempts()).length - before).toBeLessThan(8);
  }, 60_000);
});

describe('limits per hub', () => {
  it('at most 100 http(s) handlers over all webhooks of a hub, and 100 webhooks: 400 beyond', async () => {
    const hub = await contentSetup(api);
    const hooks = `/hubs/${hub.hubId}/webhooks`;
    for (let w = 0; w < 10; w++) {
      const res = await api.post(hooks, { label: unique('h'), events: ['content-item.created'], handlers: Array.from({ length: 10 }, (_, i) => `${receiver.url}/limit/${w}/${i}`), active: false });
      expect(res.status, res.text).toBe(201);
    }
    const over = expectError(await api.post(hooks, { label: unique('h'), events: ['content-item.created'], handlers: [`${receiver.url}/limit/x`], active: false }), 400);
    expect(over.property).toBe('handlers');
    expect(over.message).toContain('100');
    // Changing a webhook's handlers to as many as it had is fine.
    const first = (await api.get(`${hooks}?size=1`)).body._embedded.webhooks[0];
    expect((await api.patch(`${hooks}/${first.id}`, { handlers: first.handlers.slice(0, 9).concat(`${receiver.url}/limit/new`) })).status).toBe(200);

    const many = await contentSetup(api);
    for (let w = 0; w < 100; w++) {
      const res = await api.post(`/hubs/${many.hubId}/webhooks`, { label: unique('h'), events: ['content-item.created'], handlers: [`${receiver.url}/one`], active: false });
      expect(res.status, res.text).toBe(201);
    }
    const tooMany = expectError(await api.post(`/hubs/${many.hubId}/webhooks`, { label: unique('h'), events: ['content-item.created'], handlers: [`${receiver.url}/one`], active: false }), 400);
    expect(tooMany.message).toContain('100 webhooks');
  }, 60_000);
});
