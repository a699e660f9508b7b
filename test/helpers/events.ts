import { type Api, unique } from './server.js';
import type { ContentSetup } from './content.js';
import { itemWithSnapshot } from './editions.js';

// Events and editions at fixed dates for tests: an event spanning 2099 (any field overridable),
// editions inside it, and editions scheduled through the service (content, then POST …/schedule)
// like a client would. Clock-relative events and slots: see editions.ts.

export const EVENT_START = '2099-01-01T00:00:00.000Z';
export const EVENT_END = '2099-12-31T00:00:00.000Z';

/** An instant of 2099 (month 1-12), within the default event. */
export const in2099 = (month: number, day = 1, hour = 0) => new Date(Date.UTC(2099, month - 1, day, hour)).toISOString();

function expectCreated(res: { status: number; text: string; body: any }, what: string): any {
  if (res.status !== 201) throw new Error(`${what} failed: ${res.status} ${res.text}`);
  return res.body;
}

export function createEvent(api: Api, hubId: string, fields: Record<string, unknown> = {}): Promise<any> {
  return api.post(`/hubs/${hubId}/events`, { name: unique('event'), start: EVENT_START, end: EVENT_END, ...fields }).then((r) => expectCreated(r, 'event create'));
}

export function createEdition(api: Api, eventId: string, fields: Record<string, unknown> = {}): Promise<any> {
  return api.post(`/events/${eventId}/editions`, { name: unique('edition'), start: in2099(3), end: in2099(4), ...fields }).then((r) => expectCreated(r, 'edition create'));
}

/** Adds a snapshot to an edition as edition content; returns the edition as it is now. */
export async function addContent(api: Api, editionId: string, snapshotId: string): Promise<any> {
  await api.post(`/editions/${editionId}/contents`, { snapshot: snapshotId }).then((r) => expectCreated(r, 'edition content create'));
  return (await api.get(`/editions/${editionId}`)).body;
}

/** Schedules an edition (warnings ignored) and returns it once the service has prepared it (SCHEDULED). */
export async function schedule(api: Api, edition: { id: string; lastModifiedDate: string }): Promise<any> {
  const res = await api.post(`/editions/${edition.id}/schedule?ignoreWarnings=true`, { lastModifiedDate: edition.lastModifiedDate });
  if (res.status >= 300) throw new Error(`schedule failed: ${res.status} ${res.text}`);
  // The publishing job is prepared by the scheduler on the next request.
  return (await api.get(`/editions/${edition.id}`)).body;
}

/** A new edition of the event holding one snapshot, scheduled. */
export async function scheduledEdition(api: Api, setup: ContentSetup, eventId: string, fields: Record<string, unknown> = {}): Promise<any> {
  const edition = await createEdition(api, eventId, fields);
  const { snapshot } = await itemWithSnapshot(api, setup);
  return schedule(api, await addContent(api, edition.id, snapshot.id));
}
