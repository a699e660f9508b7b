import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { createItem, itemBody } from '../../helpers/content.js';
import { assignSlots, createEdition, createEditionAt, createEvent, createSlot, fillSlot, itemWithSnapshot, slotContent, slotSetup, snapshotOf, type SlotSetup } from '../../helpers/editions.js';
import { Receiver } from '../../helpers/receiver.js';

describe('edition scheduling', () => {
  let server: TestServer;
  let api: Api;
  let setup: SlotSetup;
  let eventId: string;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startServer();
    api = await new Api(server.url).login();
    setup = await slotSetup(api);
    eventId = (await createEvent(api, setup.hubId)).id;
    receiver = await new Receiver().start();
    const events = ['edition.scheduled', 'edition.unscheduled', 'edition.published', 'snapshot.published', 'content-item.published'];
    const hook = await api.post(`/hubs/${setup.hubId}/webhooks`, { label: unique('editions'), events, handlers: [receiver.url] });
    expect(hook.status).toBe(201);
  });
  afterAll(async () => {
    await receiver.stop();
    await server.stop();
  });

  const schedule = (editionId: string, query = '', lastModifiedDate = new Date(Date.now() + 365 * 86_400_000).toISOString()) =>
    api.post(`/editions/${editionId}/schedule${query}`, { lastModifiedDate });
  const edition = (id: string) => api.get(`/editions/${id}`).then((r) => r.body);
  const codes = (res: { body: { errors: { code: string }[] } }) => res.body.errors.map((e) => e.code).sort();
  const events = (name: string, editionId: string) => receiver.received.filter((r) => r.headers['x-webhook-event'] === name && JSON.parse(r.body).payload.id === editionId);

  /** A DRAFT edition (starting in `startInDays`) with one slot filled with a snapshot of a new item. */
  async function readyEdition(startInDays = 2, endInDays = 4) {
    const ed = await createEdition(api, eventId, startInDays, endInDays);
    const slot = await createSlot(api, setup);
    const [editionSlot] = await assignSlots(api, ed.id, [slot.id]);
    const { item, snapshot } = await itemWithSnapshot(api, setup);
    await fillSlot(api, ed.id, editionSlot.id, slotContent(setup, snapshot.id));
    return { edition: ed, slot, editionSlot, item, snapshot };
  }

  it('an empty edition: 409 EDITION_IS_EMPTY (ERROR), kept as schedulingErrors; no schedule happens', async () => {
    const ed = await createEdition(api, eventId);
    const res = await schedule(ed.id);
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([expect.objectContaining({ level: 'ERROR', code: 'EDITION_IS_EMPTY', entity: 'Edition' })]);
    expect(res.body._links).toEqual({});
    const after = await edition(ed.id);
    expect(after.publishingStatus).toBe('DRAFT');
    expect(after.schedulingErrors).toEqual(res.body.errors);
    // Even with ignoreWarnings: errors always block.
    expect((await schedule(ed.id, '?ignoreWarnings=true')).status).toBe(409);
  });

  it('an INVALID slot: 409 EDITION_HAS_INVALID_SLOTS listing them', async () => {
    const { edition: ed, editionSlot } = await readyEdition();
    await fillSlot(api, ed.id, editionSlot.id, slotContent(setup, null));
    const res = await schedule(ed.id);
    expect(res.status).toBe(409);
    expect(res.body.errors).toEqual([
      expect.objectContaining({ level: 'ERROR', code: 'EDITION_HAS_INVALID_SLOTS', slots: [{ editionSlotId: editionSlot.id, slotId: editionSlot.slotId, slotLabel: editionSlot.slotLabel }] }),
    ]);
  });

  it('a start in the past (sandbox clock) and a stale lastModifiedDate: one 409 with both errors', async () => {
    const { edition: ed } = await readyEdition(-1, 3);
    const current = await edition(ed.id);
    const res = await schedule(ed.id, '', new Date(Date.parse(current.lastModifiedDate) - 60_000).toISOString());
    expect(res.status).toBe(409);
    expect(codes(res)).toEqual(['EDITION_MODIFIED', 'EDITION_START_IN_PAST']);
    expect(res.body.errors.find((e: { code: string }) => e.code === 'EDITION_MODIFIED')).toMatchObject({ level: 'ERROR', property: 'lastModifiedDate' });
    expect((await edition(ed.id)).schedulingErrors).toHaveLength(2);
  });

  it('schedule: 200 SCHEDULING, then SCHEDULED with a WAITING system job at the start; publishes at the start date', async () => {
    const { edition: ed, item } = await readyEdition();
    const current = await edition(ed.id);
    const res = await schedule(ed.id, '', current.lastModifiedDate);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ed.id, publishingStatus: 'SCHEDULING', schedulingErrors: null });
    expect(res.body._links.update).toBeUndefined();
    expect(res.body._links.delete).toBeUndefined();

    const scheduled = await edition(ed.id);
    expect(scheduled.publishingStatus).toBe('SCHEDULED');
    expect(scheduled._links.delete).toBeUndefined();
    expect(scheduled._links.update).toBeUndefined();
    expect(scheduled._links.schedule).toBeDefined();
    const job = (await api.get(`/publishing-jobs/${scheduled.publishingJobId}`)).body;
    expect(job).toMatchObject({ state: 'WAITING', scheduledDate: ed.start, editionId: ed.id });
    const system = (await api.get(`/snapshots/${job.snapshotId}`)).body;
    expect(system).toMatchObject({ type: 'SYSTEM', createdFrom: 'edition', taggedEditions: [ed.id], rootContentItem: { id: item.id } });
    expect((await receiver.waitFor(1, (r) => events('edition.scheduled', ed.id).includes(r)))[0]).toBeDefined();
    expect(JSON.parse(events('edition.scheduled', ed.id)[0]!.body).payload).toMatchObject({ id: ed.id, publishingStatus: 'SCHEDULED' });
    expect((await api.get(`/content-items/${item.id}`)).body.publishingStatus).toBe('NONE');

    // Not yet: a day passes, the start is a day later still.
    await api.advanceClock({ advance: '1d' });
    expect((await edition(ed.id)).publishingStatus).toBe('SCHEDULED');
    await api.advanceClock({ advance: '1d1h' });
    const published = await edition(ed.id);
    expect(published.publishingStatus).toBe('PUBLISHED');
    expect(published._links.schedule).toBeUndefined();
    expect((await api.get(`/publishing-jobs/${job.id}`)).body.state).toBe('COMPLETED');
    expect((await api.get(`/content-items/${item.id}`)).body).toMatchObject({ publishingStatus: 'LATEST' });
    await receiver.waitFor(1, (r) => events('edition.published', ed.id).includes(r));
    const itemEvents = await receiver.waitFor(1, (r) => r.headers['x-webhook-event'] === 'content-item.published' && JSON.parse(r.body).payload.id === item.id);
    expect(JSON.parse(itemEvents[0]!.body).payload.publishedVersion).toBe(1);
    await receiver.waitFor(1, (r) => r.headers['x-webhook-event'] === 'snapshot.published' && JSON.parse(r.body).payload.editionId === ed.id);

    const again = await api.del(`/editions/${ed.id}/schedule`);
    expect(again.status).toBe(409);
    expect(codes(again)).toEqual(['EDITION_NOT_SCHEDULED']);
  });

  it('a scheduled edition cannot be scheduled again (EDITION_NOT_DRAFT); unschedule returns it to DRAFT and cancels its job', async () => {
    const { edition: ed, item } = await readyEdition();
    expect((await schedule(ed.id)).status).toBe(200);
    const twice = await schedule(ed.id, '?ignoreWarnings=true');
    expect(twice.status).toBe(409);
    expect(codes(twice)).toEqual(['EDITION_NOT_DRAFT']);
    const jobId = (await edition(ed.id)).publishingJobId;

    const res = await api.del(`/editions/${ed.id}/schedule`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ publishingStatus: 'DRAFT', publishingJobId: null });
    expect(res.body._links.update).toBeDefined();
    expect((await api.get(`/publishing-jobs/${jobId}`)).body.state).toBe('CANCELLED');
    await receiver.waitFor(1, (r) => events('edition.unscheduled', ed.id).includes(r));
    await api.advanceClock({ advance: '5d' });
    expect((await edition(ed.id)).publishingStatus).toBe('DRAFT');
    expect((await api.get(`/content-items/${item.id}`)).body.publishingStatus).toBe('NONE');
    const draft = await api.del(`/editions/${ed.id}/schedule`);
    expect(draft.status).toBe(409);
  });

  it('unschedule right after schedule (still SCHEDULING in the same instant) also returns to DRAFT', async () => {
    const { edition: ed } = await readyEdition();
    const [scheduled, unscheduled] = [await schedule(ed.id), await api.del(`/editions/${ed.id}/schedule`)];
    expect(scheduled.status).toBe(200);
    expect(unscheduled.status).toBe(200);
    expect(unscheduled.body.publishingStatus).toBe('DRAFT');
    // The preparing task was cancelled or found the edition back in DRAFT: it stays there.
    expect((await edition(ed.id)).publishingStatus).toBe('DRAFT');
  });

  it('conflicts: one item at two versions; resolve picks one (400 for others); publication uses it', async () => {
    const { edition: ed, editionSlot, item, snapshot: v1 } = await readyEdition();
    const changed = await api.patch(`/content-items/${item.id}`, { version: 1, body: itemBody(setup.uri, { title: 'Second version' }) });
    expect(changed.status).toBe(200);
    const v2 = await snapshotOf(api, setup.hubId, item.id);
    expect((await api.post(`/editions/${ed.id}/contents`, { snapshot: v2.id })).status).toBe(201);

    const list = await api.get(`/editions/${ed.id}/conflicts`);
    expect(list.status).toBe(200);
    expect(list.body._embedded.conflicts).toEqual([
      expect.objectContaining({
        id: item.id,
        label: item.label,
        versions: [
          { version: 1, snapshotId: v1.id, editionSlotId: editionSlot.id },
          { version: 2, snapshotId: v2.id },
        ],
      }),
    ]);
    expect(list.body._embedded.conflicts[0].resolvedVersion).toBeUndefined();
    expect((await api.get(`/editions/${ed.id}/slots/${editionSlot.id}`)).body.conflicts).toBe(true);
    const one = await api.get(`/editions/${ed.id}/conflicts/findByIdAndVersion?id=${item.id}&version=2`);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(item.id);
    expect((await api.get(`/editions/${ed.id}/conflicts/findByIdAndVersion?id=${item.id}&version=3`)).status).toBe(404);
    expect((await api.get(`/editions/${ed.id}/conflicts/findByIdAndVersion?version=1`)).status).toBe(400);

    const blocked = await schedule(ed.id, '?ignoreWarnings=true');
    expect(blocked.status).toBe(409);
    expect(blocked.body.errors).toEqual([expect.objectContaining({ level: 'ERROR', code: 'EDITION_HAS_CONFLICTS', conflicts: [{ id: item.id, label: item.label, versions: [1, 2] }] })]);

    const current = await edition(ed.id);
    const resolve = (resolutions: unknown, lastModifiedDate = current.lastModifiedDate) => api.post(`/editions/${ed.id}/conflicts/resolve`, { comment: 'keep the first', lastModifiedDate, resolutions });
    const wrongVersion = await resolve([{ id: item.id, version: 3 }]);
    expect(wrongVersion.status).toBe(400);
    expect(wrongVersion.body.errors[0]).toMatchObject({ code: 'VERSION_NOT_IN_CONFLICT', property: 'resolutions[0].version' });
    const otherItem = await createItem(api, setup.repoId, setup.uri);
    expect(codes(await resolve([{ id: otherItem.id, version: 1 }]))).toEqual(['CONFLICT_NOT_FOUND']);
    expect((await resolve(undefined)).status).toBe(400);
    const stale = await resolve([{ id: item.id, version: 1 }], new Date(Date.parse(current.lastModifiedDate) - 60_000).toISOString());
    expect(stale.status).toBe(409);
    expect(codes(stale)).toEqual(['EDITION_MODIFIED']);

    const resolved = await resolve([{ id: item.id, version: 1 }]);
    expect(resolved.status).toBe(200);
    expect(resolved.body._embedded.conflicts[0].resolvedVersion).toBe(1);
    expect((await api.get(`/editions/${ed.id}/slots/${editionSlot.id}`)).body.conflicts).toBe(false);
    expect((await schedule(ed.id)).status).toBe(200);
    const job = (await api.get(`/publishing-jobs/${(await edition(ed.id)).publishingJobId}`)).body;
    expect((await api.get(`/snapshots/${job.snapshotId}/content-items/${item.id}`)).body.version).toBe(1);

    await api.advanceClock({ advance: '3d' });
    expect((await edition(ed.id)).publishingStatus).toBe('PUBLISHED');
    // Version 1 was published while version 2 is current.
    expect((await api.get(`/content-items/${item.id}`)).body.publishingStatus).toBe('EARLY');
    const published = await receiver.waitFor(1, (r) => r.headers['x-webhook-event'] === 'content-item.published' && JSON.parse(r.body).payload.id === item.id);
    expect(JSON.parse(published[0]!.body).payload.publishedVersion).toBe(1);
  });

  it('slot collisions: an overlapping edition using the same slot is a WARNING that ignoreWarnings lets through', async () => {
    const { edition: first, slot } = await readyEdition(2, 4);
    const { edition: second } = await readyEdition(3, 5);
    await assignSlots(api, second.id, [slot.id]);
    const adjacent = await createEditionAt(api, eventId, first.end, new Date(Date.parse(first.end) + 86_400_000).toISOString());
    await assignSlots(api, adjacent.id, [slot.id]);
    const archived = await createEdition(api, eventId, 2, 4);
    await assignSlots(api, archived.id, [slot.id]);
    expect((await api.post(`/editions/${archived.id}/archive`, {})).status).toBe(200);

    const collisions = await api.get(`/editions/${first.id}/slot-collisions`);
    expect(collisions.status).toBe(200);
    expect(collisions.body._embedded['slot-collisions']).toEqual([
      {
        slotId: slot.id,
        slotLabel: slot.label,
        editionSlotId: expect.any(String),
        collidingEditions: [{ editionId: second.id, name: second.name, start: second.start, end: second.end, publishingStatus: 'DRAFT' }],
      },
    ]);
    expect((await api.get(`/editions/${second.id}/slot-collisions`)).body._embedded['slot-collisions'].map((c: { slotId: string }) => c.slotId)).toEqual([slot.id]);

    const warned = await schedule(first.id);
    expect(warned.status).toBe(409);
    expect(warned.body.errors).toEqual([expect.objectContaining({ level: 'WARNING', code: 'EDITION_CONTAINS_SLOT_COLLISIONS', collisions: collisions.body._embedded['slot-collisions'] })]);
    expect((await edition(first.id)).schedulingErrors).toHaveLength(1);
    const forced = await schedule(first.id, '?ignoreWarnings=true');
    expect(forced.status).toBe(200);
    expect(forced.body.schedulingErrors).toBeNull();
  });

  it('schedule overlap: a scheduled overlapping edition publishing the same item is a WARNING with overlaps', async () => {
    const { edition: first, snapshot } = await readyEdition(2, 4);
    expect((await schedule(first.id)).status).toBe(200);
    const second = await createEdition(api, eventId, 3, 5);
    expect((await api.post(`/editions/${second.id}/contents`, { snapshot: snapshot.id })).status).toBe(201);
    const later = await createEditionAt(api, eventId, first.end, new Date(Date.parse(first.end) + 86_400_000).toISOString());
    expect((await api.post(`/editions/${later.id}/contents`, { snapshot: snapshot.id })).status).toBe(201);

    const warned = await schedule(second.id);
    expect(warned.status).toBe(409);
    expect(warned.body.errors).toEqual([
      expect.objectContaining({ level: 'WARNING', code: 'EDITION_SCHEDULE_OVERLAP', overlaps: [{ editionId: first.id, name: first.name, start: first.start }] }),
    ]);
    // One ending exactly when the other starts does not overlap.
    expect((await schedule(later.id)).status).toBe(200);
    expect((await schedule(second.id, '?ignoreWarnings=false')).status).toBe(409);
    expect((await schedule(second.id, '?ignoreWarnings=true')).status).toBe(200);
  });

  it('errors and warnings come together in one 409; ignoreWarnings still fails on the errors alone', async () => {
    const { slot } = await readyEdition(2, 4);
    const second = await createEdition(api, eventId, 3, 5);
    const [shared] = await assignSlots(api, second.id, [slot.id]);
    await fillSlot(api, second.id, shared.id, slotContent(setup, null));
    const both = await schedule(second.id);
    expect(both.status).toBe(409);
    expect(both.body.errors.map((e: { code: string; level: string }) => `${e.level}:${e.code}`).sort()).toEqual(['ERROR:EDITION_HAS_INVALID_SLOTS', 'WARNING:EDITION_CONTAINS_SLOT_COLLISIONS']);
    const errorsOnly = await schedule(second.id, '?ignoreWarnings=true');
    expect(errorsOnly.status).toBe(409);
    expect(codes(errorsOnly)).toEqual(['EDITION_HAS_INVALID_SLOTS']);
  });

  it('an archived edition or an edition of an archived event cannot be scheduled; a reader cannot schedule', async () => {
    const { edition: archived } = await readyEdition();
    expect((await api.post(`/editions/${archived.id}/archive`, {})).status).toBe(200);
    const res = await schedule(archived.id);
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ code: 'EDITION_NOT_DRAFT', property: 'status' });
    expect((await edition(archived.id)).schedulingErrors).toBeNull();

    const otherEvent = (await createEvent(api, setup.hubId)).id;
    const ofArchivedEvent = await createEdition(api, otherEvent);
    expect((await api.post(`/editions/${ofArchivedEvent.id}/contents`, { snapshot: (await itemWithSnapshot(api, setup)).snapshot.id })).status).toBe(201);
    expect((await api.post(`/events/${otherEvent}/archive`, {})).status).toBe(200);
    const refused = await schedule(ofArchivedEvent.id);
    expect(refused.status).toBe(409);
    expect(codes(refused)).toEqual(['EVENT_ARCHIVED']);

    const reader = await api.client(unique('reader'), ['CONTENT:FUNCTIONAL:EDITION:READ', 'CONTENT:FUNCTIONAL:EDITION:EDIT'], [{ resource: 'hubs', id: setup.hubId, permissions: ['READ'] }]);
    const { edition: ed } = await readyEdition();
    expect((await reader.post(`/editions/${ed.id}/schedule`, {})).status).toBe(403);
    expect((await reader.get(`/editions/${ed.id}`)).body._links.schedule).toBeUndefined();
  });
});
