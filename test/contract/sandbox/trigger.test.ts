import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, type ContentSetup } from '../../helpers/content.js';
import { Receiver } from '../../helpers/receiver.js';

// POST /__sandbox/hubs/{hub}/webhook-events: a synthetic event through the normal webhook path
// (signing, headers, retries, request log), marked as synthetic, changing no content (issue 25, point 5).

describe('triggering a synthetic event', () => {
  let server: TestServer;
  let api: Api;
  let receiver: Receiver;
  let setup: ContentSetup;

  beforeAll(async () => {
    server = await startServer();
    api = await new Api(server.url).login();
    receiver = await new Receiver().start();
    setup = await contentSetup(api);
  });
  afterAll(async () => {
    await receiver.stop();
    await server.stop();
  });

  const hook = async (extra: Record<string, unknown> = {}) => {
    const res = await api.post(`/hubs/${setup.hubId}/webhooks`, { label: unique('hook'), events: ['content-item.published'], handlers: [`${receiver.url}/${unique('path')}`], secret: 'signing-secret', ...extra });
    expect(res.status, res.text).toBe(201);
    return { ...res.body, path: new URL(res.body.handlers[0]).pathname };
  };
  const trigger = (body: Record<string, unknown>, hubId = setup.hubId) => api.post(`/__sandbox/hubs/${hubId}/webhook-events`, body);

  it('delivers the event of an item, signed and marked synthetic, with overrides, and changes nothing', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const h = await hook();
    const before = (await api.get(`/content-items/${item.id}`)).body;
    const res = await trigger({ event: 'content-item.published', itemId: item.id, set: { 'payload.label': 'Overridden', 'payload.extra.flag': true } });
    expect(res.status, res.text).toBe(202);
    expect(res.body).toMatchObject({ event: 'content-item.published', synthetic: true, deliveries: 1 });
    const [delivery] = await receiver.waitFor(1, (r) => r.url === h.path);
    expect(delivery!.headers['x-webhook-synthetic']).toBe('true');
    expect(delivery!.headers['x-webhook-event']).toBe('content-item.published');
    expect(delivery!.headers['x-webhook-signature']).toBe(createHmac('sha256', 'signing-secret').update(delivery!.body).digest('base64'));
    const event = JSON.parse(delivery!.body);
    expect(event).toMatchObject({ name: 'content-item.published', hubId: setup.hubId, synthetic: true, payload: { id: item.id, label: 'Overridden', extra: { flag: true }, publishedVersion: 1 } });
    // No content changed: the item is as it was (no publish, no new version, the label kept).
    const after = (await api.get(`/content-items/${item.id}`)).body;
    expect(after).toEqual(before);
    // The attempt is in the webhook's request log like any other.
    const log = await api.get(`/hubs/${setup.hubId}/webhooks/${h.id}/requests`);
    expect(log.body._embedded.requests[0]).toMatchObject({ eventName: 'content-item.published', result: 200 });
    expect(log.body._embedded.requests[0].requestHeaders['x-webhook-synthetic']).toBe('true');
  });

  it('goes through the retry path: a 5xx is retried on the sandbox clock', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const h = await hook({ events: ['content-item.updated'] });
    receiver.answer = (r) => (r.url === h.path && receiver.received.filter((x) => x.url === h.path).length === 1 ? 503 : 200);
    expect((await trigger({ event: 'dynamic-content.content-item.updated', itemId: item.id })).status).toBe(202);
    await receiver.waitFor(1, (r) => r.url === h.path);
    await api.advanceClock({ advance: '31s' });
    const both = await receiver.waitFor(2, (r) => r.url === h.path);
    expect(both.map((r) => [r.headers['x-webhook-attempt'], r.headers['x-webhook-synthetic']])).toEqual([
      ['1', 'true'],
      ['2', 'true'],
    ]);
    receiver.answer = () => 200;
  });

  it('--webhook sends to that webhook only, whatever it subscribes to; others get nothing', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const target = await hook({ events: ['edition.published'] });
    const other = await hook({ events: ['content-item.created'] });
    const res = await trigger({ event: 'content-item.created', itemId: item.id, webhookId: target.id });
    expect(res.body.deliveries).toBe(1);
    await receiver.waitFor(1, (r) => r.url === target.path);
    await new Promise((r) => setTimeout(r, 300));
    // `other` saw only the real creation (before it existed: nothing), not the synthetic one.
    expect(receiver.received.filter((r) => r.url === other.path && r.headers['x-webhook-synthetic'])).toEqual([]);
  });

  it('answers 404 for a snapshot of another hub or none', async () => {
    const hub = await createHub(api);
    const res = await trigger({ event: 'snapshot.published', snapshotId: 'x' }, hub.id);
    expect(res.status).toBe(404);
    expect(res.text).toContain('Snapshot');
  });

  it('refuses bad input: unknown event, hub, item, webhook; a missing resource id; set outside the payload', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ event: 'content-item.exploded', itemId: item.id }, 400, 'Unknown event'],
      [{ event: 'content-item.created' }, 400, 'itemId'],
      [{ event: 'edition.published' }, 400, 'editionId'],
      [{ event: 'content-item.created', itemId: '00000000-0000-0000-0000-000000000000' }, 404, 'ContentItem'],
      [{ event: 'content-item.created', itemId: item.id, webhookId: '000000000000000000000000' }, 404, 'Webhook'],
      [{ event: 'content-item.created', itemId: item.id, set: { name: 'x' } }, 400, 'only fields of the payload'],
      [{ event: 'content-item.created', itemId: item.id, set: { 'payload.__proto__.x': 1 } }, 400, 'cannot be set'],
      [{ event: 'content-item.created', itemId: item.id, set: { 'payload.a[9999999]': 1 } }, 400, 'field path'],
      [{ event: 'content-item.created', itemId: item.id, bogus: 1 }, 400, 'bogus'],
      [{ event: 'content-item.created', itemId: item.id }, 404, 'Hub', '000000000000000000000000'],
    ];
    for (const [body, status, text, hubId] of cases) {
      const res = await trigger(body, hubId);
      expect(res.status, `${JSON.stringify(body)} ${res.text}`).toBe(status);
      expect(res.text, JSON.stringify(body)).toContain(text);
    }
    const inactive = await hook({ active: false });
    const res = await trigger({ event: 'content-item.published', itemId: item.id, webhookId: inactive.id });
    expect(res.status).toBe(409);
  });

  it('is for the sandbox admin only', async () => {
    const other = await api.client(unique('trigger-client'), [], [{ resource: 'hubs', id: setup.hubId, permissions: ['READ'] }]);
    expect((await other.post(`/__sandbox/hubs/${setup.hubId}/webhook-events`, { event: 'content-item.created' })).status).toBe(403);
  });
});
