import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, type ContentSetup } from '../../helpers/content.js';
import { Receiver } from '../../helpers/receiver.js';

describe('webhooks', () => {
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

  const hookBody = (extra: Record<string, unknown> = {}) => ({
    label: unique('hook'),
    events: ['content-item.created'],
    handlers: [`${receiver.url}/${unique('path')}`],
    secret: 'shh-signing-secret',
    headers: [
      { key: 'X-Api-Key', value: 'key-123', secret: true },
      { key: 'X-Team', value: 'web', secret: false },
    ],
    ...extra,
  });

  it('create answers 201 + Location; secret header values come back null; links include requests', async () => {
    const res = await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody());
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.body._links.self.href);
    expect(res.body).toMatchObject({ active: true, method: 'POST', events: ['content-item.created'] });
    expect(res.body.headers).toEqual([
      { key: 'X-Api-Key', value: null, secret: true },
      { key: 'X-Team', value: 'web', secret: false },
    ]);
    expect(res.body._links.requests).toEqual({ href: `${res.body._links.self.href}/requests{?cursor,limit}`, templated: true });
    const got = await api.get(`/hubs/${setup.hubId}/webhooks/${res.body.id}`);
    expect(got.body.headers[0].value).toBeNull();
    expect(JSON.stringify(got.body)).not.toContain('key-123');
  });

  it('a matching event is delivered, signed, with the custom headers', async () => {
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody())).body;
    const path = new URL(hook.handlers[0]).pathname;
    const item = await createItem(api, setup.repoId, setup.uri);
    const [delivery] = await receiver.waitFor(1, (r) => r.url === path);
    expect(delivery!.method).toBe('POST');
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['x-webhook-event']).toBe('content-item.created');
    expect(delivery!.headers['x-api-key']).toBe('key-123');
    expect(delivery!.headers['x-team']).toBe('web');
    const expected = createHmac('sha256', 'shh-signing-secret').update(delivery!.body).digest('base64');
    expect(delivery!.headers['x-webhook-signature']).toBe(expected);
    const event = JSON.parse(delivery!.body);
    expect(event).toMatchObject({ name: 'content-item.created', hubId: setup.hubId, payload: { id: item.id, label: item.label, version: 1 } });

    // Every attempt is recorded; the secret header value is not.
    const log = await api.get(`/hubs/${setup.hubId}/webhooks/${hook.id}/requests`);
    expect(log.status).toBe(200);
    expect(log.body._embedded.requests).toHaveLength(1);
    expect(log.body._embedded.requests[0]).toMatchObject({ eventName: 'content-item.created', attempt: 1, responseStatus: 200, result: 200, url: hook.handlers[0] });
    expect(JSON.stringify(log.body)).not.toContain('key-123');
  });

  it('a 5xx answer is retried with backoff on the sandbox clock; every attempt is recorded', async () => {
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody({ secret: null, headers: [] }))).body;
    const path = new URL(hook.handlers[0]).pathname;
    receiver.answer = (r, _n) => (r.url === path && receiver.received.filter((x) => x.url === path).length === 1 ? 500 : 200);
    await createItem(api, setup.repoId, setup.uri);
    await receiver.waitFor(1, (r) => r.url === path);
    const first = await pollRequests(hook.id, 1);
    expect(first[0]).toMatchObject({ attempt: 1, responseStatus: 500, result: 500 });
    expect(first[0].retryScheduledFor).toBeTruthy();
    // Not due yet: nothing more arrives until the clock passes the retry time.
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received.filter((r) => r.url === path)).toHaveLength(1);
    await api.advanceClock({ advance: '31s' });
    const both = await receiver.waitFor(2, (r) => r.url === path);
    expect(both[1]!.headers['x-webhook-attempt']).toBe('2');
    const log = await pollRequests(hook.id, 2);
    expect(log.map((r: { attempt: number; result: number }) => [r.attempt, r.result])).toEqual([
      [2, 200],
      [1, 500],
    ]);
    receiver.answer = () => 200;
  });

  it('a 4xx answer is recorded as delivered with a receiver error (202) and not retried', async () => {
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody({ headers: [] }))).body;
    const path = new URL(hook.handlers[0]).pathname;
    receiver.answer = (r) => (r.url === path ? 404 : 200);
    await createItem(api, setup.repoId, setup.uri);
    await receiver.waitFor(1, (r) => r.url === path);
    const log = await pollRequests(hook.id, 1);
    expect(log[0]).toMatchObject({ responseStatus: 404, result: 202, retryScheduledFor: null });
    await api.advanceClock({ advance: '2h' });
    await new Promise((r) => setTimeout(r, 400));
    expect(receiver.received.filter((r) => r.url === path)).toHaveLength(1);
    receiver.answer = () => 200;
  });

  it('filters decide which events are delivered; prefixed event names are accepted', async () => {
    const hook = (
      await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody({ headers: [], events: ['dynamic-content.content-item.created'], filters: [{ type: 'in', arguments: [{ jsonPath: '$.payload.label' }, { value: ['wanted-1', 'wanted-2'] }] }] }))
    ).body;
    const path = new URL(hook.handlers[0]).pathname;
    await createItem(api, setup.repoId, setup.uri, { label: 'unwanted' });
    await createItem(api, setup.repoId, setup.uri, { label: 'wanted-2' });
    const hits = await receiver.waitFor(1, (r) => r.url === path);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received.filter((r) => r.url === path)).toHaveLength(1);
    expect(JSON.parse(hits[0]!.body).payload.label).toBe('wanted-2');
  });

  it('an inactive webhook delivers nothing; other events are not delivered', async () => {
    const off = (await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody({ headers: [], active: false }))).body;
    const other = (await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody({ headers: [], events: ['edition.published'] }))).body;
    await createItem(api, setup.repoId, setup.uri);
    await new Promise((r) => setTimeout(r, 500));
    for (const h of [off, other]) expect(receiver.received.filter((r) => r.url === new URL(h.handlers[0]).pathname)).toHaveLength(0);
  });

  it('custom payloads render {{path}} templates', async () => {
    // Handlebars reads `}}}` as the end of a triple-stash: a JSON object closing after a tag needs a space.
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody({ headers: [], customPayload: { type: 'text/x-handlebars-template', value: '{"kind":"{{name}}","item":"{{payload.id}}","v":{{payload.version}} }' } }))).body;
    const path = new URL(hook.handlers[0]).pathname;
    const item = await createItem(api, setup.repoId, setup.uri);
    const [d] = await receiver.waitFor(1, (r) => r.url === path);
    expect(JSON.parse(d!.body)).toEqual({ kind: 'content-item.created', item: item.id, v: 1 });
  });

  it('update keeps a secret header value when the client sends it back as null', async () => {
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody())).body;
    const fetched = (await api.get(`/hubs/${setup.hubId}/webhooks/${hook.id}`)).body;
    const res = await api.patch(`/hubs/${setup.hubId}/webhooks/${hook.id}`, { ...fetched, label: 'renamed' });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBe(fetched._links.self.href);
    expect(res.body.label).toBe('renamed');
    const path = new URL(hook.handlers[0]).pathname;
    await createItem(api, setup.repoId, setup.uri);
    const [d] = await receiver.waitFor(1, (r) => r.url === path);
    expect(d!.headers['x-api-key']).toBe('key-123');
  });

  it('validation: events, handlers and headers are checked, each error names its property', async () => {
    const bad = await api.post(`/hubs/${setup.hubId}/webhooks`, { label: '', events: ['nope.event'], handlers: ['ftp://x'], method: 'GET' });
    expect(bad.status).toBe(400);
    const props = bad.body.errors.map((e: { property: string }) => e.property);
    expect(props).toEqual(expect.arrayContaining(['label', 'events.0', 'handlers.0', 'method']));
    const none = await api.post(`/hubs/${setup.hubId}/webhooks`, { label: 'x', events: [], handlers: [] });
    expect(none.status).toBe(400);
  });

  it('list, delete, 404 after delete and for another hub', async () => {
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody())).body;
    const list = await api.get(`/hubs/${setup.hubId}/webhooks?size=2`);
    expect(list.body.page.size).toBe(2);
    expect(list.body._embedded.webhooks).toHaveLength(2);
    const otherHub = await createHub(api);
    expect((await api.get(`/hubs/${otherHub.id}/webhooks/${hook.id}`)).status).toBe(404);
    expect((await api.del(`/hubs/${setup.hubId}/webhooks/${hook.id}`)).status).toBe(204);
    expect((await api.get(`/hubs/${setup.hubId}/webhooks/${hook.id}`)).status).toBe(404);
  });

  it('the request log pages with a cursor, newest first', async () => {
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, hookBody({ headers: [] }))).body;
    const path = new URL(hook.handlers[0]).pathname;
    for (let i = 0; i < 5; i++) await createItem(api, setup.repoId, setup.uri);
    await receiver.waitFor(5, (r) => r.url === path);
    await pollRequests(hook.id, 5);
    const first = await api.get(`/hubs/${setup.hubId}/webhooks/${hook.id}/requests?limit=2`);
    expect(first.body._embedded.requests).toHaveLength(2);
    expect(first.body.cursor).toBeTruthy();
    const seen = [...first.body._embedded.requests];
    let cursor = first.body.cursor;
    while (cursor) {
      const next = await api.get(`/hubs/${setup.hubId}/webhooks/${hook.id}/requests?limit=2&cursor=${cursor}`);
      seen.push(...next.body._embedded.requests);
      cursor = next.body.cursor;
    }
    expect(new Set(seen.map((r) => r.id)).size).toBe(5);
    expect((await api.get(`/hubs/${setup.hubId}/webhooks/${hook.id}/requests?cursor=abc`)).status).toBe(400);
  });

  it('permissions: reading webhooks needs WEBHOOK:READ', async () => {
    const reader = await api.client(unique('noperm'), [], [{ resource: 'hubs', id: setup.hubId, permissions: ['READ'] }]);
    expect((await reader.get(`/hubs/${setup.hubId}/webhooks`)).status).toBe(403);
  });

  async function pollRequests(hookId: string, count: number): Promise<any[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await api.get(`/hubs/${setup.hubId}/webhooks/${hookId}/requests?limit=100`);
      if (res.body._embedded.requests.length >= count) return res.body._embedded.requests;
      if (Date.now() > deadline) throw new Error(`only ${res.body._embedded.requests.length} requests recorded`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
});
