import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentSetup, type ContentSetup } from '../../helpers/content.js';
import { errorProperties, expectError, FN, HEX_ID, ISO_MILLIS } from '../../helpers/assert.js';
import { createEdition, createEvent, EVENT_END, EVENT_START, in2099, scheduledEdition } from '../../helpers/events.js';

// Events (wire-contract §4 "events"): create, list, get, update, delete and archive, with the
// rules that tie an event to its editions.

const EVENT_FIELDS = ['id', 'name', 'comment', 'start', 'end', 'brief', 'status', 'createdBy', 'createdDate', 'lastModifiedBy', 'lastModifiedDate'];
const ALL_LINKS = ['self', 'event', 'update', 'delete', 'archive', 'hub', 'editions', 'create-edition'];

let server: TestServer;
let api: Api;
let setup: ContentSetup;

beforeAll(async () => {
  server = await startServer();
  api = await new Api(server.url).login();
  setup = await contentSetup(api);
});
afterAll(() => server.stop());

const linkNames = (resource: { _links: Record<string, unknown> }) => Object.keys(resource._links).sort();

describe('create', () => {
  it('answers 201 with Location, exactly the event fields and every link', async () => {
    const res = await api.post(`/hubs/${setup.hubId}/events`, { name: 'Black Friday', start: '2099-11-27T00:00:00Z', end: '2099-11-30T23:59:59.5+01:00', comment: 'big one', brief: 'https://briefs.example.com/bf' });
    expect(res.status, res.text).toBe(201);
    expect(res.headers.get('location')).toBe(`${server.base}/events/${res.body.id}`);
    expect(Object.keys(res.body).filter((k) => k !== '_links').sort()).toEqual([...EVENT_FIELDS].sort());
    expect(res.body).toMatchObject({
      name: 'Black Friday',
      comment: 'big one',
      brief: 'https://briefs.example.com/bf',
      status: 'ACTIVE',
      // Dates are stored in UTC with milliseconds.
      start: '2099-11-27T00:00:00.000Z',
      end: '2099-11-30T22:59:59.500Z',
      createdBy: 'sandbox-admin',
      lastModifiedBy: 'sandbox-admin',
    });
    expect(res.body.id).toMatch(HEX_ID);
    expect(res.body.createdDate).toMatch(ISO_MILLIS);
    expect(linkNames(res.body)).toEqual([...ALL_LINKS].sort());
    const links = res.body._links;
    expect(links.self.href).toBe(`${server.base}/events/${res.body.id}`);
    expect(links.hub.href).toBe(`${server.base}/hubs/${setup.hubId}`);
    expect(links.editions).toEqual({ href: `${server.base}/events/${res.body.id}/editions{?projection,page,size,sort}`, templated: true });
    expect(links['create-edition']).toEqual({ href: `${server.base}/events/${res.body.id}/editions{?sourceEditionId}`, templated: true });
    expect(links.archive.href).toBe(`${server.base}/events/${res.body.id}/archive`);
  });

  it('comment and brief default to empty strings (null means empty too)', async () => {
    const event = await createEvent(api, setup.hubId);
    expect(event).toMatchObject({ comment: '', brief: '' });
    const withNull = await createEvent(api, setup.hubId, { comment: null, brief: null });
    expect(withNull).toMatchObject({ comment: '', brief: '' });
  });

  it('name, start and end are required; each problem names its property', async () => {
    const res = await api.post(`/hubs/${setup.hubId}/events`, {});
    expectError(res, 400);
    expect(errorProperties(res).sort()).toEqual(['end', 'name', 'start']);
  });

  it('name is 1..255 characters', async () => {
    for (const name of ['', '   ', 'x'.repeat(256)]) {
      const res = await api.post(`/hubs/${setup.hubId}/events`, { name, start: EVENT_START, end: EVENT_END });
      expect(expectError(res, 400).property, JSON.stringify(name)).toBe('name');
    }
    expect((await api.post(`/hubs/${setup.hubId}/events`, { name: 'x'.repeat(255), start: EVENT_START, end: EVENT_END })).status).toBe(201);
  });

  it('dates must be ISO 8601 date-times with a zone', async () => {
    for (const start of ['2099-01-01', 'tomorrow', '2099-13-01T00:00:00Z', '2099-01-01T00:00:00', 1234]) {
      const res = await api.post(`/hubs/${setup.hubId}/events`, { name: 'e', start, end: EVENT_END });
      expect(expectError(res, 400).property, String(start)).toBe('start');
    }
  });

  it('start must come before end (the error names end)', async () => {
    for (const end of [EVENT_START, '2098-12-31T00:00:00Z']) {
      const res = await api.post(`/hubs/${setup.hubId}/events`, { name: 'e', start: EVENT_START, end });
      const error = expectError(res, 400);
      expect(error).toMatchObject({ property: 'end', code: 'VALIDATION_FAILED', entity: 'Event' });
    }
  });

  it('comment is at most 250 characters, brief at most 2048', async () => {
    const long = await api.post(`/hubs/${setup.hubId}/events`, { name: 'e', start: EVENT_START, end: EVENT_END, comment: 'c'.repeat(251), brief: 'b'.repeat(2049) });
    expectError(long, 400);
    expect(errorProperties(long).sort()).toEqual(['brief', 'comment']);
    expect((await api.post(`/hubs/${setup.hubId}/events`, { name: 'e', start: EVENT_START, end: EVENT_END, comment: 'c'.repeat(250) })).status).toBe(201);
  });
});

describe('list and get', () => {
  it('lists the hub events as a page, by start ascending unless sorted otherwise', async () => {
    const hubId = (await createHub(api)).id;
    const late = await createEvent(api, hubId, { name: 'late', start: in2099(6), end: in2099(7) });
    const early = await createEvent(api, hubId, { name: 'early', start: in2099(2), end: in2099(3) });
    const middle = await createEvent(api, hubId, { name: 'middle', start: in2099(4), end: in2099(5) });
    const res = await api.get(`/hubs/${hubId}/events`);
    expect(res.status).toBe(200);
    expect(res.body._embedded.events.map((e: any) => e.id)).toEqual([early.id, middle.id, late.id]);
    expect(res.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    expect(res.body._embedded.events[0]._links.self).toBeDefined();

    const byCreation = await api.get(`/hubs/${hubId}/events?sort=createdDate,desc&size=2`);
    expect(byCreation.body._embedded.events.map((e: any) => e.id)).toEqual([middle.id, early.id]);
    expect(byCreation.body.page).toEqual({ size: 2, totalElements: 3, totalPages: 2, number: 0 });
    expect(byCreation.body._links.next).toBeDefined();
    expectError(await api.get(`/hubs/${hubId}/events?sort=comment,asc`), 400);
  });

  it('an empty hub lists no events; another hub does not see them', async () => {
    const hubId = (await createHub(api)).id;
    const res = await api.get(`/hubs/${hubId}/events`);
    expect(res.body._embedded.events).toEqual([]);
    expect(res.body.page.totalElements).toBe(0);
  });

  it('get answers the event; an unknown one is 404', async () => {
    const event = await createEvent(api, setup.hubId, { name: 'got' });
    const res = await api.get(`/events/${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(event);
    expect(expectError(await api.get('/events/5f00000000000000000000ff'), 404).entity).toBe('Event');
  });
});

describe('update', () => {
  it('changes only the fields given and answers 200 with Location', async () => {
    const event = await createEvent(api, setup.hubId, { name: 'before', comment: 'keep' });
    const res = await api.patch(`/events/${event.id}`, { name: 'after', end: '2099-06-30T12:00:00+00:00' });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('location')).toBe(`${server.base}/events/${event.id}`);
    expect(res.body).toMatchObject({ name: 'after', comment: 'keep', start: EVENT_START, end: '2099-06-30T12:00:00.000Z', status: 'ACTIVE' });
    expect((await api.get(`/events/${event.id}`)).body.name).toBe('after');
  });

  it('ignores read-only and unknown fields (clients send back what they fetched)', async () => {
    const event = await createEvent(api, setup.hubId);
    const res = await api.patch(`/events/${event.id}`, { ...event, id: 'other', status: 'ARCHIVED', createdBy: 'someone', comment: 'edited', extra: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: event.id, status: 'ACTIVE', createdBy: 'sandbox-admin', comment: 'edited' });
    expect(res.body.extra).toBeUndefined();
  });

  it('still needs start before end: the error names the property the request changed', async () => {
    const event = await createEvent(api, setup.hubId);
    expect(expectError(await api.patch(`/events/${event.id}`, { start: '2100-01-01T00:00:00Z' }), 400).property).toBe('start');
    expect(expectError(await api.patch(`/events/${event.id}`, { end: '2098-01-01T00:00:00Z' }), 400).property).toBe('end');
    expect(expectError(await api.patch(`/events/${event.id}`, { name: '' }), 400).property).toBe('name');
  });

  it('dates may not move so that a draft edition falls outside the event', async () => {
    const event = await createEvent(api, setup.hubId);
    await createEdition(api, event.id, { start: in2099(3), end: in2099(4) });
    const res = await api.patch(`/events/${event.id}`, { start: in2099(3, 15) });
    expect(expectError(res, 409)).toMatchObject({ code: 'EDITIONS_OUTSIDE_EVENT', property: 'start' });
    expect((await api.patch(`/events/${event.id}`, { start: in2099(2), end: in2099(5) })).status).toBe(200);
  });

  it('an event with a scheduled edition keeps its dates (409) but may change its name', async () => {
    const event = await createEvent(api, setup.hubId);
    const edition = await scheduledEdition(api, setup, event.id);
    expect(edition.publishingStatus).toBe('SCHEDULED');
    const move = await api.patch(`/events/${event.id}`, { end: '2099-12-31T12:00:00Z' });
    expect(expectError(move, 409).code).toBe('EVENT_HAS_SCHEDULED_EDITIONS');
    // Sending the same dates back is not a move.
    const rename = await api.patch(`/events/${event.id}`, { name: 'renamed', start: event.start, end: event.end });
    expect(rename.status, rename.text).toBe(200);
  });
});

describe('delete', () => {
  it('deletes the event with its draft editions (204)', async () => {
    const event = await createEvent(api, setup.hubId);
    const edition = await createEdition(api, event.id);
    const res = await api.del(`/events/${event.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await api.get(`/events/${event.id}`), 404);
    expectError(await api.get(`/editions/${edition.id}`), 404);
  });

  it('is refused (409) while an edition is scheduled, and the delete link is gone', async () => {
    const event = await createEvent(api, setup.hubId);
    await scheduledEdition(api, setup, event.id);
    expect(expectError(await api.del(`/events/${event.id}`), 409).code).toBe('EVENT_HAS_SCHEDULED_EDITIONS');
    const links = (await api.get(`/events/${event.id}`)).body._links;
    expect(links.delete).toBeUndefined();
    expect(links.archive).toBeUndefined();
    expect(links.update).toBeDefined();
  });
});

describe('archive', () => {
  it('archives irreversibly: ARCHIVED, read-only, no new editions', async () => {
    const event = await createEvent(api, setup.hubId);
    const draft = await createEdition(api, event.id);
    const res = await api.post(`/events/${event.id}/archive`, {});
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('ARCHIVED');
    // Only reading, listing and deleting remain.
    expect(linkNames(res.body)).toEqual(['delete', 'editions', 'event', 'hub', 'self']);
    expect(expectError(await api.post(`/events/${event.id}/archive`, {}), 409).code).toBe('EVENT_ARCHIVED');
    expect(expectError(await api.patch(`/events/${event.id}`, { name: 'x' }), 409).code).toBe('EVENT_ARCHIVED');
    expect(expectError(await api.post(`/events/${event.id}/editions`, { name: 'n', start: in2099(3), end: in2099(4) }), 409).code).toBe('EVENT_ARCHIVED');
    expect((await api.post(`/events/${event.id}/unarchive`, {})).status).toBe(404);
    // Its editions can no longer be scheduled: their schedule link is gone, and scheduling is refused.
    const edition = (await api.get(`/editions/${draft.id}`)).body;
    expect(edition._links.schedule).toBeUndefined();
    expect(edition._links.update).toBeDefined();
    const scheduling = await api.post(`/editions/${draft.id}/schedule`, { lastModifiedDate: edition.lastModifiedDate });
    expect(scheduling.status).toBe(409);
    expect(scheduling.body.errors.map((e: any) => e.code)).toContain('EVENT_ARCHIVED');
  });

  it('is refused (409) while an edition is scheduled', async () => {
    const event = await createEvent(api, setup.hubId);
    const edition = await scheduledEdition(api, setup, event.id);
    expect(expectError(await api.post(`/events/${event.id}/archive`, {}), 409).code).toBe('EVENT_HAS_SCHEDULED_EDITIONS');
    expect((await api.del(`/editions/${edition.id}/schedule`)).status).toBe(200);
    expect((await api.post(`/events/${event.id}/archive`, {})).body.status).toBe('ARCHIVED');
  });
});

describe('permissions', () => {
  it('EVENT:READ lists and reads but sees no change links; changes are 403', async () => {
    const event = await createEvent(api, setup.hubId);
    const reader = await api.client(unique('event-reader'), [FN('EVENT', 'READ'), FN('EDITION', 'READ')], [{ resource: 'hubs', id: setup.hubId, permissions: ['READ'] }]);
    const got = await reader.get(`/events/${event.id}`);
    expect(got.status).toBe(200);
    expect(linkNames(got.body)).toEqual(['editions', 'event', 'hub', 'self']);
    expect((await reader.get(`/hubs/${setup.hubId}/events`)).status).toBe(200);
    expect(expectError(await reader.post(`/hubs/${setup.hubId}/events`, { name: 'n', start: EVENT_START, end: EVENT_END }), 403).code).toBe('ACCESS_DENIED');
    expectError(await reader.patch(`/events/${event.id}`, { name: 'n' }), 403);
    expectError(await reader.del(`/events/${event.id}`), 403);
    expectError(await reader.post(`/events/${event.id}/archive`, {}), 403);
  });

  it('each change needs its own functional permission: CREATE, EDIT, DELETE', async () => {
    const hubAcl = [{ resource: 'hubs' as const, id: setup.hubId, permissions: ['READ'] }];
    const creator = await api.client(unique('event-creator'), [FN('EVENT', 'CREATE')], hubAcl);
    const made = await creator.post(`/hubs/${setup.hubId}/events`, { name: 'n', start: EVENT_START, end: EVENT_END });
    expect(made.status).toBe(201);
    expect(linkNames(made.body)).toEqual(['event', 'hub', 'self']);
    const editor = await api.client(unique('event-editor'), [FN('EVENT', 'EDIT')], hubAcl);
    expect((await editor.patch(`/events/${made.body.id}`, { name: 'edited' })).status).toBe(200);
    expectError(await editor.del(`/events/${made.body.id}`), 403);
    const deleter = await api.client(unique('event-deleter'), [FN('EVENT', 'DELETE')], hubAcl);
    expect((await deleter.del(`/events/${made.body.id}`)).status).toBe(204);
  });

  it('an event of a hub the caller has no access to is 404', async () => {
    const event = await createEvent(api, setup.hubId);
    const otherHub = await createHub(api);
    const outsider = await api.client(unique('event-outsider'), [FN('EVENT', 'READ'), FN('EVENT', 'EDIT'), FN('EVENT', 'DELETE')], [{ resource: 'hubs', id: otherHub.id, permissions: ['READ'] }]);
    expect(expectError(await outsider.get(`/events/${event.id}`), 404).entity).toBe('Event');
    expectError(await outsider.patch(`/events/${event.id}`, { name: 'n' }), 404);
    expectError(await outsider.del(`/events/${event.id}`), 404);
    expectError(await outsider.get(`/hubs/${setup.hubId}/events`), 404);
  });
});
