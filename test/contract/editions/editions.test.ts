import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';
import { errorProperties, expectError, FN, HEX_ID } from '../../helpers/assert.js';
import { assignSlots, createSlot, fillSlot, itemWithSnapshot, slotContent, slotSetup, type SlotSetup } from '../../helpers/editions.js';
import { addContent, createEdition, createEvent, EVENT_START, in2099, schedule, scheduledEdition } from '../../helpers/events.js';
import { editionSlotAssociations, plannedVersion } from '../../../src/server/editions/planning.js';

// Editions (wire-contract §4 "editions of an event", "search editions by date", "edition get /
// update / delete / archive", "preview"): the edition resource and its lifecycle. What an
// edition contains and its scheduling have their own tests; here they only set up state.

const EDITION_FIELDS = [
  'id', 'name', 'comment', 'start', 'end', 'activeEndDate', 'eventId', 'publishingStatus', 'publishingJobId', 'slotsRemaining',
  'schedulingErrors', 'statusUpdated', 'createdBy', 'createdDate', 'lastModifiedBy', 'lastModifiedDate', 'status', 'preview',
];
const READ_LINKS = ['edition', 'edition-conflict', 'edition-conflicts', 'edition-contents', 'event', 'list-slots', 'self', 'slot-collisions'];
const DRAFT_LINKS = [...READ_LINKS, 'archive', 'create-edition-content', 'create-preview', 'delete', 'resolve-conflicts', 'schedule', 'slots', 'update'];

let server: TestServer;
let api: Api;
let setup: SlotSetup;
let event: any;

beforeAll(async () => {
  server = await startServer();
  api = await new Api(server.url).login();
  setup = await slotSetup(api);
  event = await createEvent(api, setup.hubId);
});
afterAll(() => server.stop());

const linkNames = (resource: { _links: Record<string, unknown> }) => Object.keys(resource._links).sort();
const post = (fields: Record<string, unknown>, eventId = event.id) => api.post(`/events/${eventId}/editions`, { name: 'n', start: in2099(3), end: in2099(4), ...fields });

/** An edition with one filled slot, one empty slot and one edition content. */
async function editionWithContent(fields: Record<string, unknown> = {}) {
  const edition = await createEdition(api, event.id, fields);
  const [filled, empty] = await assignSlots(api, edition.id, [(await createSlot(api, setup)).id, (await createSlot(api, setup)).id]);
  const inSlot = await itemWithSnapshot(api, setup);
  await fillSlot(api, edition.id, filled.id, slotContent(setup, inSlot.snapshot.id));
  const direct = await itemWithSnapshot(api, setup);
  const updated = await addContent(api, edition.id, direct.snapshot.id);
  return { edition: updated, slots: [filled, empty], snapshots: [inSlot.snapshot, direct.snapshot], items: [inSlot.item, direct.item] };
}

describe('create', () => {
  it('answers 201 with Location: a DRAFT with exactly the edition fields and the draft links', async () => {
    const res = await post({ name: 'Spring', comment: 'sale', start: '2099-03-01T09:00:00+01:00', end: in2099(4) });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toBe(`${server.base}/editions/${res.body.id}`);
    expect(Object.keys(res.body).filter((k) => k !== '_links').sort()).toEqual([...EDITION_FIELDS].sort());
    expect(res.body).toMatchObject({
      name: 'Spring',
      comment: 'sale',
      start: '2099-03-01T08:00:00.000Z',
      end: in2099(4),
      activeEndDate: false,
      eventId: event.id,
      publishingStatus: 'DRAFT',
      publishingJobId: null,
      slotsRemaining: 200,
      schedulingErrors: null,
      status: 'ACTIVE',
      preview: null,
      createdBy: 'sandbox-admin',
    });
    expect(res.body.id).toMatch(HEX_ID);
    expect(res.body.statusUpdated).toBe(res.body.createdDate);
    expect(linkNames(res.body)).toEqual([...DRAFT_LINKS].sort());
    const base = `${server.base}/editions/${res.body.id}`;
    expect(res.body._links).toMatchObject({
      self: { href: base },
      event: { href: `${server.base}/events/${event.id}` },
      schedule: { href: `${base}/schedule{?ignoreWarnings}`, templated: true },
      'create-preview': { href: `${base}/preview` },
      slots: { href: `${base}/slots` },
      'list-slots': { href: `${base}/slots{?includedSlots,page,size,sort}`, templated: true },
      'edition-conflict': { href: `${base}/conflicts/findByIdAndVersion{?id,version}`, templated: true },
      'edition-contents': { href: `${base}/contents{?page,size}`, templated: true },
      'create-edition-content': { href: `${base}/contents` },
      'slot-collisions': { href: `${base}/slot-collisions` },
    });
  });

  it('ignores read-only fields such as publishingStatus and slotsRemaining', async () => {
    const res = await post({ publishingStatus: 'SCHEDULED', slotsRemaining: 3, publishingJobId: 'x', activeEndDate: true });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ publishingStatus: 'DRAFT', slotsRemaining: 200, publishingJobId: null, activeEndDate: true });
  });

  it('name, start and end are required', async () => {
    const res = await api.post(`/events/${event.id}/editions`, {});
    expectError(res, 400);
    expect(errorProperties(res).sort()).toEqual(['end', 'name', 'start']);
  });

  it('name is 1..120 characters', async () => {
    for (const name of ['', ' ', 'x'.repeat(121)]) expect(expectError(await post({ name }), 400).property, JSON.stringify(name)).toBe('name');
    expect((await post({ name: 'x'.repeat(120) })).status).toBe(201);
  });

  it('name and comment lengths count characters (code points), not UTF-16 units', async () => {
    const emoji = '\u{1F600}';
    expect((await post({ name: emoji.repeat(120), comment: emoji.repeat(250) })).status).toBe(201);
    expect(expectError(await post({ name: emoji.repeat(121) }), 400).property).toBe('name');
    expect(expectError(await post({ comment: emoji.repeat(251) }), 400).property).toBe('comment');
  });

  it('comment is at most 250 characters; activeEndDate is a boolean', async () => {
    expect(expectError(await post({ comment: 'c'.repeat(251) }), 400).property).toBe('comment');
    expect((await post({ comment: 'c'.repeat(250) })).status).toBe(201);
    expect(expectError(await post({ activeEndDate: 'yes' }), 400).property).toBe('activeEndDate');
  });

  it('dates are ISO date-times, start before end, both within the event', async () => {
    expect(expectError(await post({ start: '2099-03-01' }), 400).property).toBe('start');
    expect(expectError(await post({ start: in2099(4), end: in2099(4) }), 400)).toMatchObject({ property: 'end', code: 'VALIDATION_FAILED' });
    expect(expectError(await post({ start: '2098-12-31T00:00:00Z' }), 400).property).toBe('start');
    expect(expectError(await post({ end: '2100-01-01T00:00:00Z' }), 400).property).toBe('end');
    const both = await post({ start: '2098-12-31T00:00:00Z', end: '2100-01-01T00:00:00Z' });
    expect(errorProperties(both).sort()).toEqual(['end', 'start']);
    // The event's own bounds are allowed.
    expect((await post({ start: event.start, end: event.end })).status).toBe(201);
  });

  it('an unknown event is 404', async () => {
    expect(expectError(await post({}, '5f00000000000000000000ff'), 404).entity).toBe('Event');
  });
});

describe('copy (?sourceEditionId=)', () => {
  it('copies name, dates, comment, slots with their content and edition contents into a DRAFT', async () => {
    const source = await editionWithContent({ name: 'Source', comment: 'copied', activeEndDate: true, start: in2099(5), end: in2099(6) });
    const target = await createEvent(api, setup.hubId);
    const res = await api.post(`/events/${target.id}/editions?sourceEditionId=${source.edition.id}`, {});
    expect(res.status, res.text).toBe(201);
    const copy = res.body;
    expect(copy.id).not.toBe(source.edition.id);
    expect(copy).toMatchObject({ name: 'Source', comment: 'copied', activeEndDate: true, start: in2099(5), end: in2099(6), eventId: target.id, publishingStatus: 'DRAFT', slotsRemaining: 198, preview: null });

    const slots = (await api.get(`/editions/${copy.id}/slots`)).body._embedded['edition-slots'];
    const sourceSlots = (await api.get(`/editions/${source.edition.id}/slots`)).body._embedded['edition-slots'];
    expect(slots.map((s: any) => s.slotId)).toEqual(sourceSlots.map((s: any) => s.slotId));
    expect(slots.map((s: any) => s.content)).toEqual(sourceSlots.map((s: any) => s.content));
    expect(slots.map((s: any) => s.editionId)).toEqual([copy.id, copy.id]);
    expect(slots.every((s: any) => !sourceSlots.some((o: any) => o.id === s.id))).toBe(true);
    const contents = (await api.get(`/editions/${copy.id}/contents`)).body._embedded['edition-content'];
    expect(contents.map((c: any) => c.content.body.contents.map((e: any) => e.id))).toEqual([[source.snapshots[1].id]]);
    // The source is untouched.
    expect((await api.get(`/editions/${source.edition.id}/slots`)).body.page.totalElements).toBe(2);
  });

  it('fields given replace the source ones and are validated like a create', async () => {
    const source = await createEdition(api, event.id, { name: 'Original', comment: 'keep' });
    const res = await api.post(`/events/${event.id}/editions?sourceEditionId=${source.id}`, { name: 'Renamed', start: in2099(7), end: in2099(8) });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'Renamed', comment: 'keep', start: in2099(7), end: in2099(8), slotsRemaining: 200 });
    expect(expectError(await api.post(`/events/${event.id}/editions?sourceEditionId=${source.id}`, { name: '' }), 400).property).toBe('name');
    expect(expectError(await api.post(`/events/${event.id}/editions?sourceEditionId=${source.id}`, { end: in2099(2) }), 400).property).toBe('end');
  });

  it("the copy's dates must fit the target event", async () => {
    const source = await createEdition(api, event.id, { start: in2099(3), end: in2099(4) });
    const short = await createEvent(api, setup.hubId, { start: in2099(3, 15), end: in2099(3, 20) });
    const res = await api.post(`/events/${short.id}/editions?sourceEditionId=${source.id}`, {});
    expectError(res, 400);
    expect(errorProperties(res).sort()).toEqual(['end', 'start']);
  });

  it('a scheduled source gives a DRAFT copy', async () => {
    const source = await scheduledEdition(api, setup, event.id, { start: in2099(9), end: in2099(10) });
    expect(source.publishingStatus).toBe('SCHEDULED');
    const res = await api.post(`/events/${event.id}/editions?sourceEditionId=${source.id}`);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ publishingStatus: 'DRAFT', publishingJobId: null });
    expect((await api.get(`/editions/${res.body.id}/contents`)).body.page.totalElements).toBe(1);
  });

  it('an unknown source is 404; one of another hub is 400 naming sourceEditionId', async () => {
    expect(expectError(await api.post(`/events/${event.id}/editions?sourceEditionId=5f00000000000000000000ff`, {}), 404).entity).toBe('Edition');
    const otherHub = await createHub(api);
    const foreign = await createEdition(api, (await createEvent(api, otherHub.id)).id);
    expect(expectError(await api.post(`/events/${event.id}/editions?sourceEditionId=${foreign.id}`, {}), 400).property).toBe('sourceEditionId');
  });
});

describe('list and search by date', () => {
  it('lists the editions of an event by start, paged under `editions`; projection=withEvent embeds the event', async () => {
    const own = await createEvent(api, setup.hubId);
    const b = await createEdition(api, own.id, { name: 'b', start: in2099(6), end: in2099(7) });
    const a = await createEdition(api, own.id, { name: 'a', start: in2099(2), end: in2099(3) });
    const res = await api.get(`/events/${own.id}/editions`);
    expect(res.status).toBe(200);
    expect(res.body._embedded.editions.map((e: any) => e.id)).toEqual([a.id, b.id]);
    expect(res.body.page).toEqual({ size: 20, totalElements: 2, totalPages: 1, number: 0 });
    expect(res.body._embedded.editions[0].event).toBeUndefined();
    expect(res.body._embedded.editions[0]._links.update).toBeDefined();
    const byName = await api.get(`/events/${own.id}/editions?sort=name,desc&projection=withEvent`);
    expect(byName.body._embedded.editions.map((e: any) => e.name)).toEqual(['b', 'a']);
    expect(byName.body._embedded.editions[0].event).toEqual({ id: own.id, name: own.name, comment: own.comment, start: own.start, end: own.end, brief: own.brief });
  });

  it('search finds the hub editions overlapping the range, or with bounded=true those within it', async () => {
    const hubId = (await createHub(api)).id;
    const one = await createEvent(api, hubId);
    const two = await createEvent(api, hubId);
    const feb = await createEdition(api, one.id, { start: in2099(2), end: in2099(3) });
    const mar = await createEdition(api, two.id, { start: in2099(3), end: in2099(4) });
    const jun = await createEdition(api, one.id, { start: in2099(6), end: in2099(7) });
    const ids = async (query: string) => {
      const res = await api.get(`/hubs/${hubId}/editions?${query}`);
      expect(res.status, res.text).toBe(200);
      return res.body._embedded.editions.map((e: any) => e.id);
    };
    expect(await ids(`rangeStart=${in2099(2, 15)}&rangeEnd=${in2099(3, 15)}`)).toEqual([feb.id, mar.id]);
    expect(await ids(`rangeStart=${in2099(1)}&rangeEnd=${in2099(12)}`)).toEqual([feb.id, mar.id, jun.id]);
    // Touching is not overlapping: March ends when April starts.
    expect(await ids(`rangeStart=${in2099(4)}&rangeEnd=${in2099(5)}`)).toEqual([]);
    expect(await ids(`rangeStart=${in2099(2, 15)}&rangeEnd=${in2099(7)}&bounded=true`)).toEqual([mar.id, jun.id]);
    expect(await ids(`rangeStart=${in2099(2)}&rangeEnd=${in2099(3)}&bounded=true&sort=start,desc`)).toEqual([feb.id]);
    const withEvent = await api.get(`/hubs/${hubId}/editions?rangeStart=${in2099(3)}&rangeEnd=${in2099(3, 2)}&projection=withEvent`);
    expect(withEvent.body._embedded.editions[0].event.id).toBe(two.id);
  });

  it('rangeStart and rangeEnd are required ISO dates; bounded is true or false', async () => {
    const hub = `/hubs/${setup.hubId}/editions`;
    expect(expectError(await api.get(`${hub}?rangeEnd=${in2099(2)}`), 400).property).toBe('rangeStart');
    expect(expectError(await api.get(`${hub}?rangeStart=${in2099(2)}&rangeEnd=soon`), 400).property).toBe('rangeEnd');
    expect(expectError(await api.get(`${hub}?rangeStart=${in2099(2)}&rangeEnd=${in2099(3)}&bounded=maybe`), 400).property).toBe('bounded');
  });

  it('the hub offers search-editions', async () => {
    const hub = (await api.get(`/hubs/${setup.hubId}`)).body;
    expect(hub._links['search-editions']).toEqual({ href: `${server.base}/hubs/${setup.hubId}/editions{?rangeStart,rangeEnd,bounded,projection,page,size,sort}`, templated: true });
  });
});

describe('get and update', () => {
  it('get answers the edition; an unknown one is 404', async () => {
    const edition = await createEdition(api, event.id);
    expect((await api.get(`/editions/${edition.id}`)).body).toEqual(edition);
    expect(expectError(await api.get('/editions/5f00000000000000000000ff'), 404).entity).toBe('Edition');
  });

  it('PATCH changes only the fields given and answers 200 with Location', async () => {
    const edition = await createEdition(api, event.id, { name: 'before', comment: 'keep' });
    const res = await api.patch(`/editions/${edition.id}`, { name: 'after', activeEndDate: true, start: in2099(3, 2) });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('location')).toBe(`${server.base}/editions/${edition.id}`);
    expect(res.body).toMatchObject({ name: 'after', comment: 'keep', activeEndDate: true, start: in2099(3, 2), end: edition.end, publishingStatus: 'DRAFT' });
    expect(Date.parse(res.body.lastModifiedDate)).toBeGreaterThanOrEqual(Date.parse(edition.lastModifiedDate));
  });

  it('ignores read-only fields of a whole fetched edition sent back', async () => {
    const edition = await createEdition(api, event.id);
    const res = await api.patch(`/editions/${edition.id}`, { ...edition, publishingStatus: 'PUBLISHED', slotsRemaining: 1, eventId: 'x', comment: 'sent back' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ publishingStatus: 'DRAFT', slotsRemaining: 200, eventId: event.id, comment: 'sent back' });
  });

  it('each validation error names its property', async () => {
    const edition = await createEdition(api, event.id);
    const patch = (body: Record<string, unknown>) => api.patch(`/editions/${edition.id}`, body);
    expect(expectError(await patch({ name: 'x'.repeat(121) }), 400).property).toBe('name');
    expect(expectError(await patch({ name: '' }), 400).property).toBe('name');
    expect(expectError(await patch({ comment: 'c'.repeat(251) }), 400).property).toBe('comment');
    expect(expectError(await patch({ activeEndDate: 1 }), 400).property).toBe('activeEndDate');
    expect(expectError(await patch({ start: edition.end }), 400).property).toBe('start');
    expect(expectError(await patch({ end: edition.start }), 400).property).toBe('end');
    expect(expectError(await patch({ end: '2100-01-02T00:00:00Z' }), 400).property).toBe('end');
    expect(expectError(await patch({ start: '2098-01-02T00:00:00Z' }), 400).property).toBe('start');
    const many = await patch({ name: '', comment: 'c'.repeat(251) });
    expect(errorProperties(many).sort()).toEqual(['comment', 'name']);
  });

  it('a scheduled edition cannot be updated (409)', async () => {
    const edition = await scheduledEdition(api, setup, event.id, { start: in2099(11), end: in2099(11, 2) });
    expect(expectError(await api.patch(`/editions/${edition.id}`, { name: 'x' }), 409).code).toBe('EDITION_NOT_DRAFT');
    expect(expectError(await api.patch(`/editions/${edition.id}`, { start: in2099(11, 1, 1) }), 409).property).toBe('publishingStatus');
  });
});

describe('delete', () => {
  it('deletes a DRAFT with its slots and contents (204)', async () => {
    const { edition, slots } = await editionWithContent();
    const res = await api.del(`/editions/${edition.id}`);
    expect(res.status).toBe(204);
    expectError(await api.get(`/editions/${edition.id}`), 404);
    expectError(await api.get(`/editions/${edition.id}/slots/${slots[0].id}`), 404);
  });

  it('a scheduled edition has no delete link and DELETE is 409', async () => {
    const edition = await scheduledEdition(api, setup, event.id, { start: in2099(8), end: in2099(8, 2) });
    expect(edition._links.delete).toBeUndefined();
    expect(expectError(await api.del(`/editions/${edition.id}`), 409).code).toBe('EDITION_NOT_DRAFT');
    expect((await api.get(`/editions/${edition.id}`)).status).toBe(200);
  });
});

describe('archive', () => {
  it('is irreversible: ARCHIVED, read links only, and every change is 409', async () => {
    const edition = await createEdition(api, event.id);
    const res = await api.post(`/editions/${edition.id}/archive`, {});
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ status: 'ARCHIVED', publishingStatus: 'DRAFT' });
    expect(linkNames(res.body)).toEqual([...READ_LINKS].sort());
    expect(expectError(await api.post(`/editions/${edition.id}/archive`, {}), 409).code).toBe('EDITION_ARCHIVED');
    expect(expectError(await api.patch(`/editions/${edition.id}`, { name: 'x' }), 409).property).toBe('status');
    expectError(await api.del(`/editions/${edition.id}`), 409);
    expectError(await api.post(`/editions/${edition.id}/preview`, { type: 'QUICKPREVIEW' }), 409);
    expect((await api.post(`/editions/${edition.id}/unarchive`, {})).status).toBe(404);
  });

  // The states table: any -> archived, no condition. A scheduled edition is not refused.
  it('a scheduled edition is archived with its publishing job cancelled; nothing publishes at its start', async () => {
    const own = await startServer();
    try {
      const admin = await new Api(own.url).login();
      const s = await slotSetup(admin);
      const ev = await createEvent(admin, s.hubId);
      const { item, snapshot } = await itemWithSnapshot(admin, s);
      const edition = await schedule(admin, await addContent(admin, (await createEdition(admin, ev.id, { start: in2099(3), end: in2099(4) })).id, snapshot.id));
      expect(edition.publishingStatus).toBe('SCHEDULED');
      expect(edition._links.archive).toBeDefined();
      const res = await admin.post(`/editions/${edition.id}/archive`, {});
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ status: 'ARCHIVED', publishingStatus: 'DRAFT', publishingJobId: null });
      expect(linkNames(res.body)).toEqual([...READ_LINKS].sort());
      expect((await admin.get(`/publishing-jobs/${edition.publishingJobId}`)).body.state).toBe('CANCELLED');
      await admin.advanceClock({ set: in2099(3, 2) });
      expect((await admin.get(`/editions/${edition.id}`)).body).toMatchObject({ status: 'ARCHIVED', publishingStatus: 'DRAFT' });
      expect((await admin.get(`/content-items/${item.id}`)).body.publishingStatus).toBe('NONE');
    } finally {
      await own.stop();
    }
  });
});

describe('preview', () => {
  it('POST records the type and the snapshots the edition uses (201); GET answers it', async () => {
    const { edition, snapshots } = await editionWithContent();
    const res = await api.post(`/editions/${edition.id}/preview`, { lastModifiedDate: edition.lastModifiedDate, type: 'QUICKPREVIEW' });
    expect(res.status, res.text).toBe(201);
    const href = `${server.base}/editions/${edition.id}/preview`;
    expect(res.headers.get('location')).toBe(href);
    expect(res.body).toMatchObject({ editionId: edition.id, type: 'QUICKPREVIEW', createdBy: 'sandbox-admin' });
    expect([...res.body.snapshotIds].sort()).toEqual(snapshots.map((s) => s.id).sort());
    expect(linkNames(res.body)).toEqual(['delete', 'edition', 'preview', 'self']);
    expect((await api.get(`/editions/${edition.id}/preview`)).body).toEqual(res.body);

    const after = (await api.get(`/editions/${edition.id}`)).body;
    const { _links: _l, editionId: _e, ...recorded } = res.body;
    expect(after.preview).toEqual(recorded);
    expect(after._links.preview).toEqual({ href });
    // A preview changes no planned content: the edition's lastModifiedDate stays.
    expect(after.lastModifiedDate).toBe(edition.lastModifiedDate);
  });

  it('type defaults to QUICKPREVIEW; a stale lastModifiedDate is 409; bad fields are 400', async () => {
    const edition = await createEdition(api, event.id);
    const res = await api.post(`/editions/${edition.id}/preview`, {});
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ type: 'QUICKPREVIEW', snapshotIds: [] });
    await api.patch(`/editions/${edition.id}`, { comment: 'changed after the client read it' });
    expect(expectError(await api.post(`/editions/${edition.id}/preview`, { lastModifiedDate: edition.lastModifiedDate }), 409)).toMatchObject({ code: 'EDITION_MODIFIED', property: 'lastModifiedDate' });
    expect(expectError(await api.post(`/editions/${edition.id}/preview`, { type: '' }), 400).property).toBe('type');
    expect(expectError(await api.post(`/editions/${edition.id}/preview`, { lastModifiedDate: 'yesterday' }), 400).property).toBe('lastModifiedDate');
  });

  it('GET without a preview is 404; DELETE removes it (204)', async () => {
    const edition = await createEdition(api, event.id);
    expectError(await api.get(`/editions/${edition.id}/preview`), 404);
    expectError(await api.del(`/editions/${edition.id}/preview`), 404);
    await api.post(`/editions/${edition.id}/preview`, { type: 'QUICKPREVIEW' });
    expect((await api.del(`/editions/${edition.id}/preview`)).status).toBe(204);
    expectError(await api.get(`/editions/${edition.id}/preview`), 404);
    const after = (await api.get(`/editions/${edition.id}`)).body;
    expect(after.preview).toBeNull();
    expect(after._links.preview).toBeUndefined();
  });

  it('a scheduled edition keeps its preview: DELETE is 409, and no new preview is made', async () => {
    const edition = await createEdition(api, event.id, { start: in2099(9, 10), end: in2099(9, 11) });
    const { snapshot } = await itemWithSnapshot(api, setup);
    await addContent(api, edition.id, snapshot.id);
    await api.post(`/editions/${edition.id}/preview`, { type: 'QUICKPREVIEW' });
    const scheduled = await schedule(api, (await api.get(`/editions/${edition.id}`)).body);
    expect(scheduled.publishingStatus).toBe('SCHEDULED');
    expect(scheduled._links.preview).toBeDefined();
    expect(scheduled._links['create-preview']).toBeUndefined();
    expect(expectError(await api.del(`/editions/${edition.id}/preview`), 409).code).toBe('EDITION_SCHEDULED');
    expect((await api.get(`/editions/${edition.id}/preview`)).body._links.delete).toBeUndefined();
    expect(expectError(await api.post(`/editions/${edition.id}/preview`, {}), 409).code).toBe('EDITION_NOT_DRAFT');
    // Unscheduled, it may go.
    expect((await api.del(`/editions/${edition.id}/schedule`)).status).toBe(200);
    expect((await api.del(`/editions/${edition.id}/preview`)).status).toBe(204);
  });
});

describe('links follow the state', () => {
  it('a scheduled edition offers reads, archive and unschedule (DELETE on schedule) only; unscheduled it is a draft again', async () => {
    const edition = await scheduledEdition(api, setup, event.id, { start: in2099(10, 5), end: in2099(10, 6) });
    expect(edition.publishingJobId).toMatch(HEX_ID);
    expect(linkNames(edition)).toEqual([...READ_LINKS, 'archive', 'schedule'].sort());
    expect(edition._links.schedule).toEqual({ href: `${server.base}/editions/${edition.id}/schedule{?ignoreWarnings}`, templated: true });
    const unscheduled = await api.del(`/editions/${edition.id}/schedule`);
    expect(unscheduled.status).toBe(200);
    const draft = (await api.get(`/editions/${edition.id}`)).body;
    expect(draft.publishingStatus).toBe('DRAFT');
    expect(linkNames(draft)).toEqual([...DRAFT_LINKS].sort());
  });
});

describe('permissions', () => {
  const hubRead = () => [{ resource: 'hubs' as const, id: setup.hubId, permissions: ['READ'] }];

  it('EDITION:READ reads and sees read links only; every change is 403', async () => {
    const edition = await createEdition(api, event.id);
    const reader = await api.client(unique('edition-reader'), [FN('EDITION', 'READ'), FN('EVENT', 'READ')], hubRead());
    const got = await reader.get(`/editions/${edition.id}`);
    expect(got.status).toBe(200);
    expect(linkNames(got.body)).toEqual([...READ_LINKS].sort());
    expect((await reader.get(`/events/${event.id}/editions`)).status).toBe(200);
    expect((await reader.get(`/hubs/${setup.hubId}/editions?rangeStart=${in2099(1)}&rangeEnd=${in2099(2)}`)).status).toBe(200);
    expect(expectError(await reader.post(`/events/${event.id}/editions`, { name: 'n', start: in2099(3), end: in2099(4) }), 403).code).toBe('ACCESS_DENIED');
    expectError(await reader.patch(`/editions/${edition.id}`, { name: 'n' }), 403);
    expectError(await reader.del(`/editions/${edition.id}`), 403);
    expectError(await reader.post(`/editions/${edition.id}/archive`, {}), 403);
    expectError(await reader.post(`/editions/${edition.id}/preview`, {}), 403);
  });

  it('EDITION:EDIT without SCHEDULE may change a draft but sees no schedule link', async () => {
    const edition = await createEdition(api, event.id);
    const editor = await api.client(unique('edition-editor'), [FN('EDITION', 'READ'), FN('EDITION', 'EDIT')], hubRead());
    const got = (await editor.get(`/editions/${edition.id}`)).body;
    expect(got._links.update).toBeDefined();
    expect(got._links.archive).toBeDefined();
    expect(got._links.schedule).toBeUndefined();
    expect(got._links.delete).toBeUndefined();
    expect(got._links.event).toBeUndefined();
    expect((await editor.patch(`/editions/${edition.id}`, { name: 'edited' })).status).toBe(200);
    const creator = await api.client(unique('edition-creator'), [FN('EDITION', 'CREATE')], hubRead());
    expect((await creator.post(`/events/${event.id}/editions`, { name: 'n', start: in2099(3), end: in2099(4) })).status).toBe(201);
  });

  it('an edition of a hub the caller has no access to is 404', async () => {
    const edition = await createEdition(api, event.id);
    const otherHub = await createHub(api);
    const outsider = await api.client(unique('edition-outsider'), [FN('EDITION', 'READ'), FN('EDITION', 'EDIT'), FN('EDITION', 'CREATE'), FN('EDITION', 'DELETE')], [
      { resource: 'hubs', id: otherHub.id, permissions: ['READ'] },
    ]);
    expect(expectError(await outsider.get(`/editions/${edition.id}`), 404).entity).toBe('Edition');
    expectError(await outsider.patch(`/editions/${edition.id}`, { name: 'n' }), 404);
    expectError(await outsider.del(`/editions/${edition.id}`), 404);
    expectError(await outsider.get(`/events/${event.id}/editions`), 404);
    expectError(await outsider.post(`/events/${event.id}/editions`, { name: 'n', start: in2099(3), end: in2099(4) }), 404);
    expectError(await outsider.get(`/hubs/${setup.hubId}/editions?rangeStart=${in2099(1)}&rangeEnd=${in2099(2)}`), 404);
  });
});

describe('planning: edition-slot associations and the planned version of an item', () => {
  it('editionSlotAssociations lists every edition slot using a slot item', async () => {
    const slot = await createSlot(api, setup);
    const first = await createEdition(api, event.id, { name: 'first', start: in2099(2), end: in2099(3) });
    const second = await createEdition(api, event.id, { name: 'second', start: in2099(5), end: in2099(6) });
    const [inSecond] = await assignSlots(api, second.id, [slot.id]);
    const [inFirst] = await assignSlots(api, first.id, [slot.id]);
    const db = server.sandbox.service.db;
    expect(editionSlotAssociations(db, slot.id)).toEqual([
      { editionId: first.id, editionSlotId: inFirst.id, eventId: event.id, editionName: 'first', start: in2099(2), end: in2099(3), publishingStatus: 'DRAFT' },
      { editionId: second.id, editionSlotId: inSecond.id, eventId: event.id, editionName: 'second', start: in2099(5), end: in2099(6), publishingStatus: 'DRAFT' },
    ]);
    expect(editionSlotAssociations(db, (await createSlot(api, setup)).id)).toEqual([]);
  });

  it('plannedVersion: the latest-starting scheduled edition holding the item, else the last published version, else null', async () => {
    const db = server.sandbox.service.db;
    const own = await createEvent(api, setup.hubId);
    const { item, snapshot: v1 } = await itemWithSnapshot(api, setup);
    expect(plannedVersion(db, item.id, Date.parse(in2099(6)))).toBeNull();

    await schedule(api, await addContent(api, (await createEdition(api, own.id, { start: in2099(3), end: in2099(4) })).id, v1.id));
    // Version 2, published directly; version 3 planned by a later edition.
    await api.patch(`/content-items/${item.id}`, { version: 1, label: 'v2' });
    expect((await api.post(`/content-items/${item.id}/publish`, {})).status).toBeLessThan(300);
    await api.patch(`/content-items/${item.id}`, { version: 2, label: 'v3' });
    const v3 = (await api.post(`/hubs/${setup.hubId}/snapshots`, { comment: 'v3', createdFrom: 'content-item', type: 'USER', contentRoot: item.id })).body;
    await schedule(api, await addContent(api, (await createEdition(api, own.id, { start: in2099(5), end: in2099(6) })).id, v3.id));
    // A draft edition plans nothing.
    await addContent(api, (await createEdition(api, own.id, { start: in2099(5, 10), end: in2099(6) })).id, v1.id);

    expect(plannedVersion(db, item.id, Date.parse(in2099(2)))).toBe(2);
    expect(plannedVersion(db, item.id, Date.parse(in2099(3, 15)))).toBe(1);
    expect(plannedVersion(db, item.id, Date.parse(in2099(5, 15)))).toBe(3);
    expect(plannedVersion(db, 'no-such-item', Date.parse(in2099(5, 15)))).toBeNull();
  });
});

describe('a published edition', () => {
  let srv: TestServer;
  let admin: Api;
  afterAll(() => srv?.stop());

  it('publishes at its start on the sandbox clock, can then be archived, and stays PUBLISHED', async () => {
    srv = await startServer();
    admin = await new Api(srv.url).login();
    const own = await slotSetup(admin);
    const ev = await createEvent(admin, own.hubId, { start: EVENT_START });
    const edition = await scheduledEdition(admin, own, ev.id, { start: in2099(3), end: in2099(4), activeEndDate: true });
    await admin.advanceClock({ set: in2099(3, 2) });
    const published = (await admin.get(`/editions/${edition.id}`)).body;
    expect(published.publishingStatus).toBe('PUBLISHED');
    expect(linkNames(published)).toEqual(['archive', ...READ_LINKS].sort());
    expect(expectError(await admin.del(`/events/${ev.id}`), 409).code).toBe('EVENT_HAS_SCHEDULED_EDITIONS');
    const archived = await admin.post(`/editions/${edition.id}/archive`, {});
    expect(archived.status, archived.text).toBe(200);
    expect(archived.body).toMatchObject({ status: 'ARCHIVED', publishingStatus: 'PUBLISHED' });
    // Its content expires at its end (activeEndDate): after that the edition plans nothing.
    const [itemId] = (await admin.get(`/snapshots/${(await admin.get(`/editions/${edition.id}/contents`)).body._embedded['edition-content'][0].content.body.contents[0].id}`)).body.rootContentItems.map((r: any) => r.id);
    const db = srv.sandbox.service.db;
    expect(plannedVersion(db, itemId, Date.parse(in2099(3, 15)))).toBe(1);
    expect(plannedVersion(db, itemId, Date.parse(in2099(5)))).toBe(1);
  });
});
