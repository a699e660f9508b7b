import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { expectError, FN } from '../../helpers/assert.js';
import { createItem, itemBody } from '../../helpers/content.js';
import { assignSlots, createEvent, createSlot, fillSlot, sandboxNow, slotContent, slotSetup, snapshotOf, type SlotSetup } from '../../helpers/editions.js';
import { schedule } from '../../helpers/events.js';

// The stand-in commerce platform (description, Events 3-5): the commerce integration's webhook
// turns scheduled editions into campaigns whose slot configurations rank by edition start; the
// live answer follows the sandbox clock. Deliveries run in the background: tests poll.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

let srv: TestServer;
let api: Api;
let setup: SlotSetup;
let eventId: string;
let integration: any;

beforeAll(async () => {
  srv = await startServer();
  api = await new Api(srv.url).login();
  setup = await slotSetup(api);
  eventId = (await createEvent(api, setup.hubId)).id;
  const res = await api.post('/integrations/commerce', {
    hubId: setup.hubId,
    label: 'Storefront',
    'commerce-credentials': { clientId: 'c', clientSecret: 's' },
    'cms-credentials': { clientId: 'c', clientSecret: 's' },
    'commerce-api': { url: 'https://shop.example.com' },
    rendering: { templateName: 'default' },
  });
  expect(res.status, res.text).toBe(201);
  integration = res.body;
});

afterAll(async () => {
  await srv?.stop();
});

/** Polls until `ready` holds for what `read` returns (webhook deliveries run in the background). */
async function until<T>(read: () => Promise<T>, ready: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ready(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const platform = (path: string) => `/__sandbox/commerce/${integration.id}${path}`;
const campaigns = async (): Promise<any[]> => (await api.get(platform('/campaigns'))).body._embedded.campaigns;
const campaignOf = (editionId: string) => until(campaigns, (list) => list.some((c) => c.editionId === editionId), `the campaign of ${editionId}`).then((list) => list.find((c) => c.editionId === editionId));
const live = async (slotId: string, at?: number) => (await api.get(platform(`/live?slot=${slotId}${at === undefined ? '' : `&at=${encodeURIComponent(iso(at))}`}`))).body;

/** An item with a title, and a snapshot of it. */
async function snapshotWithTitle(title: string): Promise<{ item: any; snapshot: any }> {
  const item = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title }) });
  return { item, snapshot: await snapshotOf(api, setup.hubId, item.id) };
}

/** An edition holding the slot filled with the snapshot, scheduled. */
async function scheduledEditionOnSlot(slotId: string, snapshotId: string, start: number, end: number, activeEndDate: boolean): Promise<any> {
  const created = await api.post(`/events/${eventId}/editions`, { name: unique('edition'), start: iso(start), end: iso(end), activeEndDate });
  expect(created.status, created.text).toBe(201);
  const [editionSlot] = await assignSlots(api, created.body.id, [slotId]);
  await fillSlot(api, created.body.id, editionSlot.id, slotContent(setup, snapshotId));
  const scheduled = await schedule(api, (await api.get(`/editions/${created.body.id}`)).body);
  expect(scheduled.publishingStatus).toBe('SCHEDULED');
  return scheduled;
}

describe('campaigns and slot ranking', () => {
  it('the later start wins once it started, whatever the creation order; an expiring edition reverts to the evergreen one', async () => {
    const now = await sandboxNow(api);
    const slot = await createSlot(api, setup, 'Home banner');
    const summer = await snapshotWithTitle('Summer sale');
    const spring = await snapshotWithTitle('Spring sale');

    // Created in reverse order: the later edition first. Its content expires when it ends.
    const late = await scheduledEditionOnSlot(slot.id, summer.snapshot.id, now + 2 * DAY, now + 3 * DAY, true);
    // The earlier one does not expire with its end: evergreen fallback content.
    const early = await scheduledEditionOnSlot(slot.id, spring.snapshot.id, now + DAY, now + 36 * HOUR, false);

    const lateCampaign = await campaignOf(late.id);
    const earlyCampaign = await campaignOf(early.id);
    expect(lateCampaign).toMatchObject({ editionId: late.id, name: late.name, start: late.start, end: late.end, integrationId: integration.id });
    expect(earlyCampaign).toMatchObject({ editionId: early.id, name: early.name, start: early.start, end: null });
    expect(lateCampaign.id).toMatch(/^[0-9a-f]{24}$/);
    expect(lateCampaign.slots).toEqual([
      expect.objectContaining({
        slotId: slot.id,
        slotLabel: 'Home banner',
        rank: late.start,
        content: { snapshotIds: [summer.snapshot.id], items: [expect.objectContaining({ id: summer.item.id, version: 1, label: summer.item.label, schema: setup.uri, body: expect.objectContaining({ title: 'Summer sale' }) })] },
      }),
    ]);
    expect(earlyCampaign.slots[0]).toMatchObject({ slotId: slot.id, rank: early.start, content: { snapshotIds: [spring.snapshot.id] } });
    // Listed with the latest start first.
    expect((await campaigns()).map((c) => c.editionId).slice(0, 2)).toEqual([late.id, early.id]);

    // Before either starts nothing is live.
    expect(await live(slot.id, now + HOUR)).toMatchObject({ slotId: slot.id, at: iso(now + HOUR), campaign: null, content: null, candidates: [] });
    // The earlier edition alone.
    const springOnly = await live(slot.id, now + DAY + HOUR);
    expect(springOnly.campaign).toMatchObject({ id: earlyCampaign.id, editionId: early.id, end: null });
    expect(springOnly.content.items.map((i: any) => i.body.title)).toEqual(['Spring sale']);
    // Both active: the later start ranks higher, although it was created first.
    const both = await live(slot.id, now + 2 * DAY + HOUR);
    expect(both.campaign.editionId).toBe(late.id);
    expect(both.content).toEqual(lateCampaign.slots[0].content);
    expect(both.candidates.map((c: any) => [c.campaign.editionId, c.rank])).toEqual([
      [late.id, late.start],
      [early.id, early.start],
    ]);
    // The later one expires at its end: the content reverts to the evergreen one, which stays.
    const reverted = await live(slot.id, now + 3 * DAY + HOUR);
    expect(reverted.campaign.editionId).toBe(early.id);
    expect(reverted.candidates.map((c: any) => c.campaign.editionId)).toEqual([early.id]);
    expect((await live(slot.id, now + 300 * DAY)).campaign.editionId).toBe(early.id);

    // Without `at` the answer follows the sandbox clock.
    expect((await live(slot.id)).campaign).toBeNull();
    await api.advanceClock({ advance: '49h' });
    const atNow = await live(slot.id);
    expect(atNow.campaign.editionId).toBe(late.id);
    expect(Date.parse(atNow.at)).toBeGreaterThanOrEqual(now + 49 * HOUR);
    // Published editions keep their campaigns.
    expect((await api.get(`/editions/${late.id}`)).body.publishingStatus).toBe('PUBLISHED');
    expect((await campaigns()).map((c) => c.editionId)).toEqual(expect.arrayContaining([late.id, early.id]));
  });

  it('unscheduling an edition removes its campaign', async () => {
    const now = await sandboxNow(api);
    const slot = await createSlot(api, setup);
    const { snapshot } = await snapshotWithTitle('Flash sale');
    const edition = await scheduledEditionOnSlot(slot.id, snapshot.id, now + DAY, now + 2 * DAY, true);
    const campaign = await campaignOf(edition.id);
    expect((await live(slot.id, now + DAY + HOUR)).campaign.id).toBe(campaign.id);

    const res = await api.del(`/editions/${edition.id}/schedule`);
    expect(res.status, res.text).toBe(200);
    await until(campaigns, (list) => !list.some((c) => c.editionId === edition.id), 'the campaign to go');
    expect(await live(slot.id, now + DAY + HOUR)).toMatchObject({ campaign: null, content: null, candidates: [] });

    // Scheduled again, it comes back.
    await schedule(api, (await api.get(`/editions/${edition.id}`)).body);
    expect((await campaignOf(edition.id)).slots[0].content.snapshotIds).toEqual([snapshot.id]);
  });
});

describe('deliveries to the commerce platform', () => {
  const requests = async (webhookId: string): Promise<any[]> => (await api.get(`/hubs/${setup.hubId}/webhooks/${webhookId}/requests?limit=100`)).body._embedded.requests;

  it('content-item.published records a content asset at the published version; every delivery is logged with result 200', async () => {
    const item = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Product story' }) });
    expect((await api.post(`/content-items/${item.id}/publish`, {})).status).toBeLessThan(300);
    const assets = await until(
      async () => (await api.get(platform('/assets'))).body._embedded.assets as any[],
      (list) => list.some((a) => a.itemId === item.id),
      'the content asset',
    );
    expect(assets.find((a) => a.itemId === item.id)).toMatchObject({ itemId: item.id, version: 1, label: item.label, schema: setup.uri, body: { title: 'Product story' } });

    // A newer version published replaces the asset.
    expect((await api.patch(`/content-items/${item.id}`, { version: 1, body: itemBody(setup.uri, { title: 'Product story v2' }) })).status).toBe(200);
    expect((await api.post(`/content-items/${item.id}/publish`, {})).status).toBeLessThan(300);
    const updated = await until(
      async () => ((await api.get(platform('/assets'))).body._embedded.assets as any[]).find((a) => a.itemId === item.id),
      (asset) => asset?.version === 2,
      'version 2 of the asset',
    );
    expect(updated.body.title).toBe('Product story v2');

    const log = await requests(integration.webhookId);
    const events = new Set(log.map((r) => r.eventName));
    expect([...events]).toEqual(expect.arrayContaining(['edition.scheduled', 'edition.unscheduled', 'content-item.published']));
    expect(log.every((r) => r.result === 200 && r.responseStatus === 200 && r.url === `sandbox://commerce/${integration.id}`)).toBe(true);
  });

  it('a malformed delivery is answered 400 and a deleted integration 404: both recorded as 202, not retried', async () => {
    // An unknown integration is refused when the webhook is made (issue 24.6); one deleted since answers 404.
    const gone = await api.post('/integrations/commerce', {
      hubId: setup.hubId,
      label: unique('gone'),
      'commerce-credentials': { clientId: 'c', clientSecret: 's' },
      'cms-credentials': { clientId: 'c', clientSecret: 's' },
      'commerce-api': { url: 'https://shop.example.com' },
      rendering: { templateName: 'default' },
    });
    expect(gone.status, gone.text).toBe(201);
    const hook = await api.post(`/hubs/${setup.hubId}/webhooks`, {
      label: unique('broken'),
      events: ['content-item.published'],
      handlers: [`sandbox://commerce/${integration.id}`, `sandbox://commerce/${gone.body.id}`],
      customPayload: { type: 'text/x-handlebars-template', value: 'not json {{name}}' },
    });
    expect(hook.status, hook.text).toBe(201);
    expect((await api.del(`/integrations/commerce/${gone.body.id}`)).status).toBe(204);
    const item = await createItem(api, setup.repoId, setup.uri);
    await api.post(`/content-items/${item.id}/publish`, {});
    const log = await until(() => requests(hook.body.id), (list) => list.length >= 2, 'two delivery attempts');
    const byUrl = Object.fromEntries(log.map((r) => [r.url, r]));
    expect(byUrl[`sandbox://commerce/${integration.id}`]).toMatchObject({ responseStatus: 400, result: 202, retryScheduledFor: null, responseBody: 'the delivery is not JSON' });
    expect(byUrl[`sandbox://commerce/${gone.body.id}`]).toMatchObject({ responseStatus: 404, result: 202, retryScheduledFor: null });
  });
});

describe('the platform endpoints', () => {
  it('need INTEGRATION:READ and CONTENT_ITEM:READ (they show content) with Hub READ; slot is required and at must be a date', async () => {
    const acl = [{ resource: 'hubs' as const, id: setup.hubId, permissions: ['READ'] }];
    const reader = await api.client(unique('shop-reader'), [FN('INTEGRATION', 'READ'), FN('CONTENT_ITEM', 'READ')], acl);
    expect((await reader.get(platform('/campaigns'))).status).toBe(200);
    expect((await reader.get(platform('/live?slot=x'))).status).toBe(200);
    const integrationOnly = await api.client(unique('shop-integration-only'), [FN('INTEGRATION', 'READ')], acl);
    expectError(await integrationOnly.get(platform('/live?slot=x')), 403);
    const none = await api.client(unique('shop-none'), [], acl);
    expectError(await none.get(platform('/campaigns')), 403);
    const elsewhere = await api.client(unique('shop-elsewhere'), [FN('INTEGRATION', 'READ'), FN('CONTENT_ITEM', 'READ')]);
    expectError(await elsewhere.get(platform('/campaigns')), 404);
    expectError(await api.get('/__sandbox/commerce/5f00000000000000000000ff/campaigns'), 404);
    expect(expectError(await api.get(platform('/live')), 400).property).toBe('slot');
    expect(expectError(await api.get(platform('/live?slot=x&at=tomorrow')), 400).property).toBe('at');
    expect((await api.get(platform('/campaigns'), { token: null })).status).toBe(401);
  });
});
