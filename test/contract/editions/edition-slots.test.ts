import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, type TestServer } from '../../helpers/server.js';
import { createItem } from '../../helpers/content.js';
import { assignSlots, createEdition, createEvent, createSlot, fillSlot, itemWithSnapshot, slotContent, slotSetup, type SlotSetup } from '../../helpers/editions.js';

describe('edition slots', () => {
  let server: TestServer;
  let api: Api;
  let setup: SlotSetup;
  let eventId: string;

  beforeAll(async () => {
    server = await startServer();
    api = await new Api(server.url).login();
    setup = await slotSetup(api);
    eventId = (await createEvent(api, setup.hubId)).id;
  });
  afterAll(() => server.stop());

  const newEdition = () => createEdition(api, eventId);
  const slots = async (n: number) => Promise.all(Array.from({ length: n }, () => createSlot(api, setup)));
  const remaining = async (editionId: string) => (await api.get(`/editions/${editionId}`)).body.slotsRemaining;
  const codes = (res: { body: { errors: { code: string }[] } }) => res.body.errors.map((e) => e.code);

  it('assign answers 201 with the new slots embedded, each empty, VALID and with its links', async () => {
    const edition = await newEdition();
    const [a, b] = await slots(2);
    const res = await api.post(`/editions/${edition.id}/slots`, [{ slot: a.id }, { slot: b.id }]);
    expect(res.status).toBe(201);
    expect(res.body._links.self.href).toBe(`${api.base}/editions/${edition.id}/slots`);
    const embedded = res.body._embedded['edition-slots'];
    expect(embedded.map((s: { slotId: string }) => s.slotId)).toEqual([a.id, b.id]);
    const first = embedded[0];
    expect(first).toMatchObject({
      editionId: edition.id,
      eventId,
      slotId: a.id,
      slotLabel: a.label,
      contentTypeId: setup.slotTypeId,
      status: 'VALID',
      empty: true,
      conflicts: false,
      content: { body: { _meta: { schema: setup.slotUri, name: 'slot' } } },
    });
    expect(first.id).toMatch(/^[0-9a-f]{24}$/);
    const base = `${api.base}/editions/${edition.id}/slots/${first.id}`;
    expect(first._links).toMatchObject({
      self: { href: base },
      'edition-slot': { href: base },
      edition: { href: `${api.base}/editions/${edition.id}` },
      slot: { href: `${api.base}/content-items/${a.id}` },
      content: { href: `${base}/content` },
      'safe-update-content': { href: `${base}/content{?lastModifiedDate}`, templated: true },
    });
    expect(await remaining(edition.id)).toBe(198);
    const got = await api.get(base);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(first);
  });

  it('a slot is a content item of a repository with the slots feature (400 otherwise)', async () => {
    const edition = await newEdition();
    const plain = await createItem(api, setup.repoId, setup.uri);
    const notSlot = await api.post(`/editions/${edition.id}/slots`, [{ slot: plain.id }]);
    expect(notSlot.status).toBe(400);
    expect(notSlot.body.errors[0]).toMatchObject({ code: 'NOT_A_SLOT', property: '[0].slot', invalidValue: plain.id });
    const unknown = await api.post(`/editions/${edition.id}/slots`, [{ slot: '00000000-0000-4000-8000-000000000000' }]);
    expect(unknown.status).toBe(400);
    expect(codes(unknown)).toEqual(['SLOT_NOT_FOUND']);
    const malformed = await api.post(`/editions/${edition.id}/slots`, [{ nope: 1 }]);
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors[0].property).toBe('0.slot');
    expect((await api.post(`/editions/${edition.id}/slots`, [])).status).toBe(400);
    expect(await remaining(edition.id)).toBe(200);
  });

  it('a slot is associated at most once per edition (409, nothing assigned), but with many editions', async () => {
    const [edition, other] = [await newEdition(), await newEdition()];
    const [a, b] = await slots(2);
    await assignSlots(api, edition.id, [a.id]);
    const again = await api.post(`/editions/${edition.id}/slots`, [{ slot: b.id }, { slot: a.id }]);
    expect(again.status).toBe(409);
    expect(codes(again)).toEqual(['SLOT_ALREADY_IN_EDITION']);
    const twice = await api.post(`/editions/${edition.id}/slots`, [{ slot: b.id }, { slot: b.id }]);
    expect(twice.status).toBe(409);
    const list = await api.get(`/editions/${edition.id}/slots`);
    expect(list.body._embedded['edition-slots'].map((s: { slotId: string }) => s.slotId)).toEqual([a.id]);
    expect(await remaining(edition.id)).toBe(199);
    expect((await assignSlots(api, other.id, [a.id]))[0].slotId).toBe(a.id);
  });

  it('slotsRemaining: each association takes one, more than remain fails whole, the 201st fails, delete gives one back', async () => {
    const edition = await newEdition();
    const many = await slots(201);
    const first = await api.post(`/editions/${edition.id}/slots`, many.slice(0, 199).map((s) => ({ slot: s.id })));
    expect(first.status).toBe(201);
    expect(await remaining(edition.id)).toBe(1);
    const tooMany = await api.post(`/editions/${edition.id}/slots`, many.slice(199, 201).map((s) => ({ slot: s.id })));
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.errors[0]).toMatchObject({ code: 'EDITION_SLOTS_EXCEEDED', property: 'slotsRemaining', invalidValue: 1 });
    expect((await api.get(`/editions/${edition.id}/slots?size=1`)).body.page.totalElements).toBe(199);
    const last = await api.post(`/editions/${edition.id}/slots`, [{ slot: many[199].id }]);
    expect(last.status).toBe(201);
    expect(await remaining(edition.id)).toBe(0);
    const the201st = await api.post(`/editions/${edition.id}/slots`, [{ slot: many[200].id }]);
    expect(the201st.status).toBe(409);
    expect(codes(the201st)).toEqual(['EDITION_SLOTS_EXCEEDED']);
    const removed = await api.del(`/editions/${edition.id}/slots/${last.body._embedded['edition-slots'][0].id}`);
    expect(removed.status).toBe(204);
    expect(await remaining(edition.id)).toBe(1);
    expect((await api.post(`/editions/${edition.id}/slots`, [{ slot: many[200].id }])).status).toBe(201);
  });

  it('list pages the slots; includedSlots keeps those of the given slot items', async () => {
    const edition = await newEdition();
    const [a, b, c] = await slots(3);
    await assignSlots(api, edition.id, [a.id, b.id, c.id]);
    const all = await api.get(`/editions/${edition.id}/slots?size=2`);
    expect(all.status).toBe(200);
    expect(all.body.page).toEqual({ size: 2, totalElements: 3, totalPages: 2, number: 0 });
    expect(all.body._embedded['edition-slots'][0]._links['safe-update-content']).toBeDefined();
    const some = await api.get(`/editions/${edition.id}/slots?includedSlots=${a.id},${c.id}`);
    expect(some.body._embedded['edition-slots'].map((s: { slotId: string }) => s.slotId)).toEqual([a.id, c.id]);
    const none = await api.get(`/editions/${edition.id}/slots?includedSlots=${setup.repoId}`);
    expect(none.body._embedded['edition-slots']).toEqual([]);
    expect((await api.get(`/editions/${edition.id}`)).body._links['list-slots']).toEqual({ href: `${api.base}/editions/${edition.id}/slots{?includedSlots,page,size,sort}`, templated: true });
  });

  it('slot content: a snapshot link makes it non-empty and VALID; null makes it INVALID; an item id is 400', async () => {
    const edition = await newEdition();
    const [slot] = await assignSlots(api, edition.id, [(await createSlot(api, setup)).id]);
    const { item, snapshot } = await itemWithSnapshot(api, setup);
    const filled = await fillSlot(api, edition.id, slot.id, slotContent(setup, snapshot.id));
    expect(filled).toMatchObject({ status: 'VALID', empty: false, content: slotContent(setup, snapshot.id) });
    expect(Date.parse(filled.lastModifiedDate)).toBeGreaterThanOrEqual(Date.parse(slot.lastModifiedDate));

    const nulled = await fillSlot(api, edition.id, slot.id, slotContent(setup, null));
    expect(nulled).toMatchObject({ status: 'INVALID', empty: false });

    const itemId = await api.put(`/editions/${edition.id}/slots/${slot.id}/content`, slotContent(setup, item.id));
    expect(itemId.status).toBe(400);
    expect(itemId.body.errors[0]).toMatchObject({ code: 'SNAPSHOT_NOT_FOUND', property: 'body.slot.id', invalidValue: item.id });
    expect(itemId.body.errors[0].message).toMatch(/content item id/);
    const unknown = await api.put(`/editions/${edition.id}/slots/${slot.id}/content`, slotContent(setup, 'ffffffffffffffffffffffff'));
    expect(unknown.status).toBe(400);
    expect((await api.get(`/editions/${edition.id}/slots/${slot.id}`)).body.status).toBe('INVALID');

    const list = { body: { _meta: { schema: setup.slotUri }, slotContent: [(slotContent(setup, snapshot.id).body as any).slot, (slotContent(setup, item.id).body as any).slot] } };
    const inList = await api.put(`/editions/${edition.id}/slots/${slot.id}/content`, list);
    expect(inList.status).toBe(400);
    expect(inList.body.errors.map((e: { property: string }) => e.property)).toEqual(['body.slotContent[1].id']);

    const cleared = await fillSlot(api, edition.id, slot.id, { body: { _meta: { schema: setup.slotUri } } });
    expect(cleared).toMatchObject({ status: 'VALID', empty: true });
    expect((await api.put(`/editions/${edition.id}/slots/${slot.id}/content`, { nobody: true })).status).toBe(400);
  });

  it('slot content with lastModifiedDate: older than the slot is 409, the current one works', async () => {
    const edition = await newEdition();
    const [slot] = await assignSlots(api, edition.id, [(await createSlot(api, setup)).id]);
    const { snapshot } = await itemWithSnapshot(api, setup);
    const url = (since: string) => `/editions/${edition.id}/slots/${slot.id}/content?lastModifiedDate=${encodeURIComponent(since)}`;
    const first = await api.put(url(slot.lastModifiedDate), slotContent(setup, snapshot.id));
    expect(first.status).toBe(200);
    const stale = await api.put(url(new Date(Date.parse(first.body.lastModifiedDate) - 1000).toISOString()), slotContent(setup, null));
    expect(stale.status).toBe(409);
    expect(codes(stale)).toEqual(['EDITION_SLOT_MODIFIED']);
    expect((await api.put(url(first.body.lastModifiedDate), slotContent(setup, null))).status).toBe(200);
    expect((await api.put(url('yesterday'), slotContent(setup, null))).status).toBe(400);
  });

  it('copy with sourceEditionSlotId: the slot and its content into another edition', async () => {
    const [source, target] = [await newEdition(), await newEdition()];
    const [slot] = await assignSlots(api, source.id, [(await createSlot(api, setup)).id]);
    const { snapshot } = await itemWithSnapshot(api, setup);
    await fillSlot(api, source.id, slot.id, slotContent(setup, snapshot.id));
    const res = await api.post(`/editions/${target.id}/slots?sourceEditionSlotId=${slot.id}`, []);
    expect(res.status).toBe(201);
    const [copy] = res.body._embedded['edition-slots'];
    expect(copy.id).not.toBe(slot.id);
    expect(copy).toMatchObject({ editionId: target.id, slotId: slot.slotId, status: 'VALID', empty: false, content: slotContent(setup, snapshot.id) });
    expect(await remaining(target.id)).toBe(199);
    expect((await api.post(`/editions/${target.id}/slots?sourceEditionSlotId=${slot.id}`, {})).status).toBe(409);
    const unknown = await api.post(`/editions/${target.id}/slots?sourceEditionSlotId=ffffffffffffffffffffffff`, []);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'EDITION_SLOT_NOT_FOUND', property: 'sourceEditionSlotId' });
  });

  it('only a DRAFT, non-archived edition changes its slots (409), and it offers no content links then', async () => {
    const edition = await newEdition();
    const [slot] = await assignSlots(api, edition.id, [(await createSlot(api, setup)).id]);
    const { snapshot } = await itemWithSnapshot(api, setup);
    await fillSlot(api, edition.id, slot.id, slotContent(setup, snapshot.id));
    const scheduled = await api.post(`/editions/${edition.id}/schedule`, { lastModifiedDate: new Date().toISOString() });
    expect(scheduled.status).toBe(200);
    const other = await createSlot(api, setup);
    for (const res of [
      await api.post(`/editions/${edition.id}/slots`, [{ slot: other.id }]),
      await api.put(`/editions/${edition.id}/slots/${slot.id}/content`, slotContent(setup, null)),
      await api.del(`/editions/${edition.id}/slots/${slot.id}`),
    ]) {
      expect(res.status).toBe(409);
      expect(codes(res)).toEqual(['EDITION_NOT_DRAFT']);
    }
    const links = (await api.get(`/editions/${edition.id}/slots/${slot.id}`)).body._links;
    expect(links['safe-update-content']).toBeUndefined();
    expect(links.delete).toBeUndefined();
    expect(links.slot).toBeDefined();

    const archived = await newEdition();
    expect((await api.post(`/editions/${archived.id}/archive`, {})).status).toBe(200);
    const refused = await api.post(`/editions/${archived.id}/slots`, [{ slot: other.id }]);
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0]).toMatchObject({ code: 'EDITION_NOT_DRAFT', property: 'status' });
  });

  it('get and delete answer 404 for a slot of another edition; a reader cannot assign', async () => {
    const [edition, other] = [await newEdition(), await newEdition()];
    const [slot] = await assignSlots(api, edition.id, [(await createSlot(api, setup)).id]);
    expect((await api.get(`/editions/${other.id}/slots/${slot.id}`)).status).toBe(404);
    expect((await api.del(`/editions/${other.id}/slots/${slot.id}`)).status).toBe(404);
    expect((await api.get(`/editions/ffffffffffffffffffffffff/slots`)).status).toBe(404);
    const reader = await api.client(`reader-${Date.now()}`, ['CONTENT:FUNCTIONAL:EDITION:READ'], [{ resource: 'hubs', id: setup.hubId, permissions: ['READ'] }]);
    const list = await reader.get(`/editions/${edition.id}/slots`);
    expect(list.status).toBe(200);
    expect(list.body._embedded['edition-slots'][0]._links['safe-update-content']).toBeUndefined();
    expect((await reader.post(`/editions/${edition.id}/slots`, [{ slot: slot.slotId }])).status).toBe(403);
  });
});
