import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentLink, createItem, itemBody } from '../../helpers/content.js';
import { assignSlots, createEvent, createSlot, fillSlot, sandboxNow, slotContent, slotSetup, snapshotOf, type SlotSetup } from '../../helpers/editions.js';
import { Receiver } from '../../helpers/receiver.js';

const DAY = 86_400_000;

/**
 * The whole story of planned publication: a planner puts two slots into an edition, schedules it
 * for tomorrow, and when the sandbox clock passes the start the edition publishes, its job
 * completes, the items are published, `planned` reports the edition's content, and a webhook
 * receiver gets signed edition.scheduled and edition.published deliveries (retried once after a 500).
 */
describe('scheduling end to end', () => {
  let server: TestServer;
  let api: Api;
  let receiver: Receiver;
  let setup: SlotSetup;

  beforeAll(async () => {
    server = await startServer();
    api = await new Api(server.url).login();
    receiver = await new Receiver().start();
    setup = await slotSetup(api);
  });
  afterAll(async () => {
    await receiver.stop();
    await server.stop();
  });

  it('an edition with two slots scheduled for tomorrow publishes when the clock passes its start', async () => {
    // A webhook for the edition events, signed; the receiver fails the first edition.published delivery.
    const hook = await api.post(`/hubs/${setup.hubId}/webhooks`, {
      label: unique('planner'),
      events: ['edition.scheduled', 'edition.published'],
      handlers: [`${receiver.url}/editions`],
      secret: 'edition-secret',
    });
    expect(hook.status).toBe(201);
    let publishedAttempts = 0;
    receiver.answer = (r) => (r.headers['x-webhook-event'] === 'edition.published' && ++publishedAttempts === 1 ? 500 : 200);

    // Content: a hero item linking to a child, and a promo item; snapshots of both.
    const child = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Child v1' }) });
    const hero = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Hero v1', links: [contentLink(child.id, setup.uri)] }) });
    const promo = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Promo v1' }) });
    const heroSnap = await snapshotOf(api, setup.hubId, hero.id);
    const promoSnap = await snapshotOf(api, setup.hubId, promo.id);
    // The hero changes after its snapshot: the edition still publishes version 1.
    expect((await api.patch(`/content-items/${hero.id}`, { version: 1, body: itemBody(setup.uri, { title: 'Hero v2 (not in the edition)' }) })).status).toBe(200);

    // An edition from tomorrow for two days, with two slots filled with the snapshots.
    const event = await createEvent(api, setup.hubId);
    const now = await sandboxNow(api);
    const start = new Date(now + DAY).toISOString();
    const edition = (await api.post(`/events/${event.id}/editions`, { name: 'Tomorrow', start, end: new Date(now + 3 * DAY).toISOString() })).body;
    const homeSlot = await createSlot(api, setup, 'Home hero');
    const sideSlot = await createSlot(api, setup, 'Sidebar');
    const [es1, es2] = await assignSlots(api, edition.id, [homeSlot.id, sideSlot.id]);
    await fillSlot(api, edition.id, es1.id, slotContent(setup, heroSnap.id));
    await fillSlot(api, edition.id, es2.id, slotContent(setup, promoSnap.id));
    expect((await api.get(`/editions/${edition.id}`)).body.slotsRemaining).toBe(198);

    // Schedule: SCHEDULING at once, SCHEDULED with a waiting job on the next pass.
    const current = (await api.get(`/editions/${edition.id}`)).body;
    const scheduled = await api.post(`/editions/${edition.id}/schedule`, { lastModifiedDate: current.lastModifiedDate });
    expect(scheduled.status).toBe(200);
    expect(['SCHEDULING', 'SCHEDULED']).toContain(scheduled.body.publishingStatus);
    const waiting = (await api.get(`/editions/${edition.id}`)).body;
    expect(waiting.publishingStatus).toBe('SCHEDULED');
    expect(waiting._links.delete).toBeUndefined();
    const job = (await api.get(`/publishing-jobs/${waiting.publishingJobId}`)).body;
    expect(job).toMatchObject({ state: 'WAITING', scheduledDate: start, editionId: edition.id });
    expect((await api.get(`/content-items/${hero.id}`)).body.publishingStatus).toBe('NONE');

    // Planned: before the start nothing of the edition is live; at the start its versions are.
    const beforeStart = (await api.get(`/content-items/${hero.id}/planned?time=${encodeURIComponent(new Date(now + DAY / 2).toISOString())}`)).body;
    expect(beforeStart.version).toBe(2);
    const atStart = (await api.get(`/content-items/${hero.id}/planned?time=${encodeURIComponent(new Date(now + DAY + 1000).toISOString())}`)).body;
    expect(atStart).toMatchObject({ version: 1, body: { title: 'Hero v1' } });
    const associations = (await api.get(`/content-items/${homeSlot.id}/edition-slot-associations`)).body._embedded['edition-slot-associations'];
    expect(associations).toEqual([expect.objectContaining({ editionId: edition.id, editionSlotId: es1.id, publishingStatus: 'SCHEDULED' })]);

    // The scheduled delivery arrives, signed.
    const [scheduledEvent] = await receiver.waitFor(1, (r) => r.headers['x-webhook-event'] === 'edition.scheduled');
    expect(scheduledEvent!.headers['x-webhook-signature']).toBe(createHmac('sha256', 'edition-secret').update(scheduledEvent!.body).digest('base64'));
    expect(JSON.parse(scheduledEvent!.body).payload).toMatchObject({ id: edition.id, publishingStatus: 'SCHEDULED' });

    // Tomorrow comes.
    await api.advanceClock({ advance: '25h' });
    const published = (await api.get(`/editions/${edition.id}`)).body;
    expect(published.publishingStatus).toBe('PUBLISHED');
    expect((await api.get(`/publishing-jobs/${waiting.publishingJobId}`)).body.state).toBe('COMPLETED');
    const heroNow = (await api.get(`/content-items/${hero.id}`)).body;
    expect(heroNow).toMatchObject({ version: 2, publishingStatus: 'EARLY' }); // v1 published, v2 exists
    expect(Date.parse(heroNow.lastPublishedDate)).toBeGreaterThanOrEqual(Date.parse(start));
    for (const id of [child.id, promo.id]) expect((await api.get(`/content-items/${id}`)).body.publishingStatus).toBe('LATEST');

    // edition.published: the first attempt answers 500 and is retried after the backoff.
    await receiver.waitFor(1, (r) => r.headers['x-webhook-event'] === 'edition.published');
    await api.advanceClock({ advance: '31s' });
    const publishedDeliveries = await receiver.waitFor(2, (r) => r.headers['x-webhook-event'] === 'edition.published');
    const second = publishedDeliveries[1]!;
    expect(second.headers['x-webhook-attempt']).toBe('2');
    expect(second.headers['x-webhook-signature']).toBe(createHmac('sha256', 'edition-secret').update(second.body).digest('base64'));
    expect(JSON.parse(second.body).payload).toMatchObject({ id: edition.id, publishingStatus: 'PUBLISHED' });
    const log = (await api.get(`/hubs/${setup.hubId}/webhooks/${hook.body.id}/requests?limit=10`)).body._embedded.requests;
    expect(log.filter((r: { eventName: string }) => r.eventName === 'edition.published').map((r: { attempt: number; result: number }) => [r.attempt, r.result])).toEqual([
      [2, 200],
      [1, 500],
    ]);
  });
});
