import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Api, startServer, type TestServer } from '../helpers/server.js';
import { itemWithSnapshot, slotSetup, type SlotSetup } from '../helpers/editions.js';
import { addContent } from '../helpers/events.js';

// The `cms event` and `cms edition` verbs on the embedded sandbox. The sandbox clock is frozen at
// NOW so relative dates (+1d) have exact answers; content comes from a server on the same data.

const NOW = '2030-01-01T00:00:00.000Z';
const at = (days: number, hours = 0) => new Date(Date.parse(NOW) + days * 86_400_000 + hours * 3_600_000).toISOString();

const home = new CliHome();
let srv: TestServer;
let api: Api;
let setup: SlotSetup;
let hubName: string;

beforeAll(async () => {
  srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
  api = await new Api(srv.url).login();
  setup = await slotSetup(api);
  hubName = (await api.get(`/hubs/${setup.hubId}`)).body.name;
  await api.post('/__sandbox/clock', { freeze: true });
  await api.advanceClock({ set: NOW });
});

afterAll(async () => {
  await srv?.stop();
  home.cleanup();
});

const cms = (args: string[]) => home.run(args, { env: { CMS_HUB: hubName } });
const json = <T = any>(args: string[]) => home.json<T>(args, { env: { CMS_HUB: hubName } });
let counter = 0;
const newEvent = (name = `event-${++counter}`, ...extra: string[]) => json(['event', 'create', '--name', name, '--start', '+1d', '--end', '+30d', ...extra]);
const newEdition = (event: string, name = `edition-${++counter}`, ...extra: string[]) => json(['edition', 'create', '--event', event, '--name', name, '--start', '+2d', '--end', '+3d', ...extra]);

/** An edition holding one snapshot, ready to schedule. */
async function editionWithContent(eventId: string): Promise<any> {
  const edition = await newEdition(eventId);
  const { snapshot } = await itemWithSnapshot(api, setup);
  return addContent(api, edition.id, snapshot.id);
}

describe('cms event', () => {
  it('create takes ISO dates or +durations from the sandbox clock; list and get show it', async () => {
    const relative = await newEvent('Relative', '--comment', 'from the clock', '--brief', 'https://briefs.example.com/r');
    expect(relative).toMatchObject({ name: 'Relative', start: at(1), end: at(30), comment: 'from the clock', brief: 'https://briefs.example.com/r', status: 'ACTIVE' });
    expect(relative._links).toBeUndefined();
    const absolute = await json(['event', 'create', '--name', 'Absolute', '--start', '2030-03-01T09:00:00+01:00', '--end', '2030-03-02']);
    expect(absolute).toMatchObject({ start: '2030-03-01T08:00:00.000Z', end: '2030-03-02T00:00:00.000Z' });

    const listed = await json<any[]>(['event', 'list']);
    expect(listed.map((e) => e.name).slice(0, 1)).toEqual(['Relative']);
    expect(listed.map((e) => e.id)).toEqual(expect.arrayContaining([relative.id, absolute.id]));
    expect(await json(['event', 'get', 'Absolute'])).toEqual(absolute);
    const table = await cms(['event', 'list']);
    expect(table.stdout).toContain(`${relative.id}\tRelative\t${at(1)}\t${at(30)}\tACTIVE`);
  });

  it('missing or malformed values are usage errors (exit 2) that name them', async () => {
    const missing = await cms(['event', 'create', '--name', 'x']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('error: Missing required options: --start, --end');
    const malformed = await cms(['event', 'create', '--name', 'x', '--start', 'someday', '--end', '+1d']);
    expect(malformed.exitCode).toBe(2);
    expect(malformed.stderr).toContain("--start 'someday' is not a date");
    const backwards = await cms(['event', 'create', '--name', 'x', '--start', '+2d', '--end', '+1d']);
    expect(backwards.exitCode).toBe(2);
    expect(backwards.stderr).toContain('end: must be after start');
    expect((await cms(['event', 'get', 'no-such-event'])).exitCode).toBe(1); // not found: no event has that name
  });

  it('update changes the fields given; nothing to change is a usage error', async () => {
    const event = await newEvent();
    expect(await json(['event', 'update', event.id, '--name', 'Renamed', '--end', '+40d'])).toMatchObject({ name: 'Renamed', start: at(1), end: at(40) });
    expect((await cms(['event', 'update', event.id])).exitCode).toBe(2);
  });

  it('delete and archive ask for --yes without a terminal; archive is irreversible', async () => {
    const event = await newEvent();
    const unconfirmed = await cms(['event', 'archive', event.id]);
    expect(unconfirmed.exitCode).toBe(2);
    expect(unconfirmed.stderr).toContain('Pass --yes to confirm');
    expect(await json(['event', 'archive', event.id, '--yes'])).toMatchObject({ status: 'ARCHIVED' });
    const again = await cms(['event', 'archive', event.id, '--yes']);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('409 Conflict');
    expect((await cms(['event', 'delete', event.id])).exitCode).toBe(2);
    expect((await cms(['event', 'delete', event.id, '--yes'])).exitCode).toBe(0);
    expect((await cms(['event', 'get', event.id])).exitCode).toBe(1);
  });
});

describe('cms edition', () => {
  it('create needs --event, --name, --start and --end (usage errors name the missing ones)', async () => {
    const noEvent = await cms(['edition', 'create', '--name', 'x']);
    expect(noEvent.exitCode).toBe(2);
    expect(noEvent.stderr).toContain('error: Missing required option: --event');
    const event = await newEvent();
    const noDates = await cms(['edition', 'create', '--event', event.id, '--name', 'x']);
    expect(noDates.exitCode).toBe(2);
    expect(noDates.stderr).toContain('error: Missing required options: --start, --end');
    const outside = await cms(['edition', 'create', '--event', event.id, '--name', 'x', '--start', '+0s', '--end', '+1d']);
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toContain('start: must not be before the event starts');
  });

  it('create by event name with relative dates; copy with --copy-from; list by event or by date range', async () => {
    const event = await newEvent('Copies');
    const source = await newEdition('Copies', 'Source', '--comment', 'original', '--active-end-date');
    expect(source).toMatchObject({ name: 'Source', start: at(2), end: at(3), comment: 'original', activeEndDate: true, publishingStatus: 'DRAFT', eventId: event.id });
    const copy = await json(['edition', 'create', '--event', event.id, '--copy-from', source.id, '--start', '+5d', '--end', '+6d']);
    expect(copy).toMatchObject({ name: 'Source', comment: 'original', start: at(5), end: at(6), publishingStatus: 'DRAFT' });

    expect((await json<any[]>(['edition', 'list', '--event', 'Copies'])).map((e) => e.id)).toEqual([source.id, copy.id]);
    const overlapping = await json<any[]>(['edition', 'list', '--from', at(2, 12), '--to', '+5d12h']);
    expect(overlapping.map((e) => e.id)).toEqual(expect.arrayContaining([source.id, copy.id]));
    const within = await json<any[]>(['edition', 'list', '--from', at(2, 12), '--to', '+10d', '--within']);
    expect(within.map((e) => e.id)).toContain(copy.id);
    expect(within.map((e) => e.id)).not.toContain(source.id);
    // Neither: the upcoming editions (issue 26).
    const upcoming = await json<any[]>(['edition', 'list']);
    expect(upcoming.map((e) => e.id)).toEqual(expect.arrayContaining([source.id, copy.id]));
  });

  it('get and update; --no-active-end-date clears the flag; nothing to change is a usage error', async () => {
    const event = await newEvent();
    const edition = await newEdition(event.id, 'Before', '--active-end-date');
    expect(await json(['edition', 'get', edition.id])).toEqual(edition);
    expect(await json(['edition', 'update', edition.id, '--name', 'After', '--no-active-end-date', '--start', '+1d12h'])).toMatchObject({ name: 'After', activeEndDate: false, start: at(1, 12), end: at(3) });
    expect((await cms(['edition', 'update', edition.id])).exitCode).toBe(2);
    const tooLong = await cms(['edition', 'update', edition.id, '--name', 'x'.repeat(121)]);
    expect(tooLong.exitCode).toBe(2);
    expect(tooLong.stderr).toContain('name: must be at most 120 characters');
  });

  it('preview: create, show and delete', async () => {
    const event = await newEvent();
    const edition = await editionWithContent(event.id);
    expect((await cms(['edition', 'preview', edition.id])).exitCode).toBe(1);
    const created = await json(['edition', 'preview', edition.id, '--create']);
    expect(created).toMatchObject({ editionId: edition.id, type: 'QUICKPREVIEW', snapshotIds: [expect.any(String)] });
    expect(await json(['edition', 'preview', edition.id])).toEqual(created);
    expect((await cms(['edition', 'preview', edition.id, '--create', '--delete'])).exitCode).toBe(2);
    expect((await cms(['edition', 'preview', edition.id, '--delete', '--yes'])).exitCode).toBe(0);
    expect((await cms(['edition', 'preview', edition.id])).exitCode).toBe(1);
  });

  it('schedule --yes schedules and shows the job; a scheduled edition cannot change (exit 1); unschedule makes it a draft', async () => {
    const event = await newEvent();
    const edition = await editionWithContent(event.id);
    const scheduled = await json(['edition', 'schedule', edition.id, '--yes']);
    expect(scheduled).toMatchObject({ id: edition.id, publishingStatus: 'SCHEDULED', publishingJob: { state: 'WAITING', scheduledDate: at(2) } });
    expect(scheduled.publishingJob.id).toBe(scheduled.publishingJobId);
    const update = await cms(['edition', 'update', edition.id, '--name', 'x']);
    expect(update.exitCode).toBe(1);
    expect(update.stderr).toContain('409 Conflict');
    expect((await cms(['edition', 'delete', edition.id, '--yes'])).exitCode).toBe(1);
    expect(await json(['edition', 'unschedule', edition.id])).toMatchObject({ publishingStatus: 'DRAFT', publishingJobId: null });
  });

  it('schedule --start moves the edition first; a refusal prints every problem and exits 1', async () => {
    const event = await newEvent();
    const ready = await editionWithContent(event.id);
    expect(await json(['edition', 'schedule', ready.id, '--start', '+4d', '--yes'])).toMatchObject({ publishingStatus: 'SCHEDULED', start: at(4), end: at(5) });
    const empty = await newEdition(event.id);
    const refused = await cms(['edition', 'schedule', empty.id, '--yes']);
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toContain('error: Scheduling was refused:\n  ERROR EDITION_IS_EMPTY: The edition has no slot and no content snapshot\n  Fix the errors and run again.');
    const missing = await cms(['edition', 'schedule', '--yes']);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('Missing the edition to schedule: <edition>');
  });

  it('archive and delete need --yes without a terminal', async () => {
    const event = await newEvent();
    const archived = await newEdition(event.id);
    expect((await cms(['edition', 'archive', archived.id])).exitCode).toBe(2);
    expect(await json(['edition', 'archive', archived.id, '--yes'])).toMatchObject({ status: 'ARCHIVED' });
    const deleted = await newEdition(event.id);
    expect((await cms(['edition', 'delete', deleted.id])).exitCode).toBe(2);
    expect((await cms(['edition', 'delete', deleted.id, '--yes'])).exitCode).toBe(0);
    expect((await cms(['edition', 'get', deleted.id])).exitCode).toBe(1);
  });
});
