import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Api, startServer } from '../helpers/server.js';
import { assignType, createItem, itemBody } from '../helpers/content.js';
import { createEdition, createEvent, slotSetup, type SlotSetup } from '../helpers/editions.js';

// The slot, snapshot and edition-content verbs on the embedded sandbox. The hub, its types,
// repositories, items and editions are made first over HTTP by a server on the same data
// directory; the rest goes through the CLI.

const home = new CliHome();
let setup: SlotSetup;
let plainInSlotsRepo: any;
let items: any[];
let editions: any[];

beforeAll(async () => {
  const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
  try {
    const admin = await new Api(srv.url).login();
    setup = await slotSetup(admin);
    // A plain content item in the slots repository: slot list leaves it out.
    await assignType(admin, setup.slotRepoId, setup.typeId);
    plainInSlotsRepo = await createItem(admin, setup.slotRepoId, setup.uri);
    items = [await createItem(admin, setup.repoId, setup.uri), await createItem(admin, setup.repoId, setup.uri)];
    const eventId = (await createEvent(admin, setup.hubId)).id;
    editions = [await createEdition(admin, eventId, 2, 4), await createEdition(admin, eventId, 3, 5)];
  } finally {
    await srv.stop();
  }
});

afterAll(() => home.cleanup());

const cms = (args: string[]) => home.run(args, { env: { CMS_HUB: setup.hubId } });
const json = <T = any>(args: string[]) => home.json<T>(args, { env: { CMS_HUB: setup.hubId } });
const file = (name: string, value: unknown) => {
  const path = join(home.dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};

describe('cms slot', () => {
  it('create makes a slot item; get shows it; list --repo shows only items of slot types', async () => {
    const slot = await json(['slot', 'create', '--repo', setup.slotRepoId, '--schema', setup.slotUri, '--label', 'Home hero', '--set', 'body.title=Sample']);
    expect(slot).toMatchObject({ label: 'Home hero', version: 1, body: { _meta: { schema: setup.slotUri, name: 'slot' }, title: 'Sample' } });
    expect(await json(['slot', 'get', slot.id])).toEqual(slot);
    const listed = (await json(['slot', 'list', '--repo', setup.slotRepoId])).map((s: { id: string }) => s.id);
    expect(listed).toContain(slot.id);
    expect(listed).not.toContain(plainInSlotsRepo.id);
    expect((await cms(['slot', 'list'])).exitCode).toBe(2);
  });
});

describe('cms snapshot', () => {
  it('create, get, list --type, item, and batch', async () => {
    const snapshot = await json(['snapshot', 'create', '--root', items[0].id, '--comment', 'Launch']);
    expect(snapshot).toMatchObject({ type: 'USER', comment: 'Launch', createdFrom: 'content-item', rootContentItem: { id: items[0].id } });
    expect((await json(['snapshot', 'get', snapshot.id])).id).toBe(snapshot.id);
    expect(await json(['snapshot', 'item', snapshot.id, items[0].id])).toMatchObject({ id: items[0].id, version: 1 });
    const batch = await json(['snapshot', 'batch', '--root', items[0].id, '--root', items[1].id]);
    expect(batch.map((s: { type: string; rootContentItem: { id: string } }) => [s.type, s.rootContentItem.id])).toEqual([
      ['GENERATED', items[0].id],
      ['GENERATED', items[1].id],
    ]);
    const users = await json(['snapshot', 'list', '--type', 'user']);
    expect(users.map((s: { id: string }) => s.id)).toEqual([snapshot.id]);
    expect((await json(['snapshot', 'list'])).length).toBe(3);
    expect((await cms(['snapshot', 'create', '--root', items[0].id])).exitCode).toBe(2);
    const generated = await cms(['snapshot', 'create', '--root', items[0].id, '--comment', 'x', '--type', 'generated']);
    expect(generated.exitCode).toBe(2);
    expect(generated.stderr).toContain("'generated'");
  });
});

describe('cms edition slots, slot-content, content, conflicts, resolve and collisions', () => {
  it('the whole planning flow of two overlapping editions', async () => {
    const [first, second] = editions;
    const slot = await json(['slot', 'create', '--repo', setup.slotRepoId, '--schema', setup.slotUri, '--label', 'Banner', '--set', 'body.title=Sample']);
    const [editionSlot] = await json(['edition', 'slots', first.id, '--add', slot.id]);
    expect(editionSlot).toMatchObject({ slotId: slot.id, status: 'VALID', empty: true });
    expect((await json(['edition', 'slots', first.id])).map((s: { id: string }) => s.id)).toEqual([editionSlot.id]);

    const v1 = await json(['snapshot', 'create', '--root', items[1].id, '--comment', 'v1']);
    const filled = await json(['edition', 'slot-content', first.id, editionSlot.id, '--snapshot', v1.id]);
    // The link names its snapshot's root item as the vendor's app writes it (the vendor's CLI reads it to clone events).
    expect(filled).toMatchObject({ status: 'VALID', empty: false, content: { body: { _meta: { schema: setup.slotUri }, slot: { _meta: { rootContentItemId: items[1].id }, id: v1.id, contentType: setup.uri } } } });
    const listed = await json(['edition', 'slot-content', first.id, editionSlot.id, '--property', 'slotContent', '--snapshot', v1.id, '--snapshot', v1.id]);
    expect(listed.content.body.slotContent.map((l: { id: string }) => l.id)).toEqual([v1.id, v1.id]);
    const fromFile = await json(['edition', 'slot-content', first.id, editionSlot.id, '--body-file', file('slot.json', { _meta: { schema: setup.slotUri }, slot: { ...filled.content.body.slot, id: null } })]);
    expect(fromFile).toMatchObject({ status: 'INVALID' });
    await json(['edition', 'slot-content', first.id, editionSlot.id, '--snapshot', v1.id]);
    expect((await cms(['edition', 'slot-content', first.id, editionSlot.id])).exitCode).toBe(2);

    // A second version of the item, added as edition content: a conflict to resolve.
    const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
    try {
      const admin = await new Api(srv.url).login();
      expect((await admin.patch(`/content-items/${items[1].id}`, { version: 1, body: itemBody(setup.uri, { title: 'v2' }) })).status).toBe(200);
    } finally {
      await srv.stop();
    }
    const v2 = await json(['snapshot', 'create', '--root', items[1].id, '--comment', 'v2']);
    const record = await json(['edition', 'content', first.id, '--add-snapshot', v2.id]);
    expect(record.content.body.contents.map((c: { id: string }) => c.id)).toEqual([v2.id]);
    expect((await json(['edition', 'content', first.id])).map((r: { id: string }) => r.id)).toEqual([record.id]);

    const conflicts = await json(['edition', 'conflicts', first.id]);
    expect(conflicts).toEqual([expect.objectContaining({ id: items[1].id })]);
    expect(conflicts[0].versions.map((v: { version: number }) => v.version)).toEqual([1, 2]);
    const table = (await cms(['edition', 'conflicts', first.id])).stdout.replace(/\n$/, '').split('\t');
    expect(table).toEqual([items[1].id, items[1].label, '1, 2', '']);
    const resolved = await json(['edition', 'resolve', first.id, '--item', items[1].id, '--version', '2']);
    expect(resolved[0].resolvedVersion).toBe(2);
    const wrong = await cms(['edition', 'resolve', first.id, '--item', items[1].id, '--version', '7']);
    expect(wrong.exitCode).not.toBe(0);
    expect(wrong.stderr).toContain('resolutions[0].version');

    // The second edition overlaps the first: the same slot collides.
    const [copied] = await json(['edition', 'slots', second.id, '--copy-from', editionSlot.id]);
    expect(copied).toMatchObject({ slotId: slot.id, empty: false });
    const collisions = await json(['edition', 'collisions', first.id]);
    expect(collisions).toEqual([expect.objectContaining({ slotId: slot.id, editionSlotId: editionSlot.id, collidingEditions: [expect.objectContaining({ editionId: second.id })] })]);

    expect((await cms(['edition', 'slots', second.id, '--remove', copied.id])).exitCode).toBe(2);
    expect((await cms(['edition', 'slots', second.id, '--remove', copied.id, '--yes'])).exitCode).toBe(0);
    expect(await json(['edition', 'slots', second.id])).toEqual([]);
    expect(await json(['edition', 'collisions', first.id])).toEqual([]);
    expect((await cms(['edition', 'slots', second.id, '--add', slot.id, '--remove', copied.id])).exitCode).toBe(2);
  });
});
