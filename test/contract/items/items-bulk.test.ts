import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { expectError } from '../../helpers/assert.js';
import { contentSetup, createContentRepo, createItem, itemBody, type ContentSetup } from '../../helpers/content.js';

// Bulk item update: PATCH /content-items with 1..100 entries answers 207 with one result per
// entry; each entry succeeds or fails on its own.

const MISSING_ITEM = '00000000-0000-4000-8000-000000000000';
const SUCCESS = { status: 200, code: 'SUCCESS', level: 'INFO', message: null };

let srv: TestServer;
let admin: Api;
let s: ContentSetup;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  s = await contentSetup(admin);
});

afterAll(async () => {
  await srv?.stop();
});

const newItem = () => createItem(admin, s.repoId, s.uri);
const getItem = async (id: string) => (await admin.get(`/content-items/${id}`)).body;

describe('bulk update', () => {
  it('answers 207 with a SUCCESS result per entry, in order, and applies each update as a new version', async () => {
    const a = await newItem();
    const b = await newItem();
    const res = await admin.patch('/content-items', [
      { id: a.id, version: 1, label: 'A2' },
      { id: b.id, version: 1, body: itemBody(s.uri, { title: 'B2' }), assignees: ['carol'] },
    ]);
    expect(res.status, res.text).toBe(207);
    expect(res.body).toEqual({ results: [{ id: a.id, ...SUCCESS }, { id: b.id, ...SUCCESS }] });
    expect(await getItem(a.id)).toMatchObject({ version: 2, label: 'A2' });
    expect(await getItem(b.id)).toMatchObject({ version: 2, label: b.label, assignees: ['carol'], body: { title: 'B2' } });
  });

  it('whole fetched items are accepted as entries (read-only fields ignored)', async () => {
    const a = await newItem();
    const res = await admin.patch('/content-items', [{ ...a, label: 'from fetched' }]);
    expect(res.body.results).toEqual([{ id: a.id, ...SUCCESS }]);
    expect((await getItem(a.id)).label).toBe('from fetched');
  });

  it('one bad entry fails alone with its own status, code and message; the others apply', async () => {
    const ok1 = await newItem();
    const stale = await newItem();
    await admin.patch(`/content-items/${stale.id}`, { version: 1, label: 'moved on' });
    const invalid = await newItem();
    const archived = await newItem();
    await admin.post(`/content-items/${archived.id}/archive`, { version: 1 });
    const ok2 = await newItem();
    const res = await admin.patch('/content-items', [
      { id: ok1.id, version: 1, label: 'ok1' },
      { id: MISSING_ITEM, version: 1, label: 'x' },
      { id: stale.id, version: 1, label: 'lost' },
      { id: invalid.id, version: 1, body: itemBody(s.uri, { title: 'x'.repeat(101) }) },
      { id: archived.id, version: 2, label: 'x' },
      { id: 'not-a-uuid', version: 1 },
      { id: ok2.id, label: 'no version' },
      'not an object',
      { id: ok2.id, version: 1, label: 'ok2' },
    ]);
    expect(res.status).toBe(207);
    const results = res.body.results;
    expect(results).toHaveLength(9);
    expect(results[0]).toEqual({ id: ok1.id, ...SUCCESS });
    expect(results[1]).toMatchObject({ id: MISSING_ITEM, status: 404, code: 'NOT_FOUND', level: 'ERROR' });
    expect(results[2]).toMatchObject({ id: stale.id, status: 409, code: 'VERSION_CONFLICT', level: 'ERROR' });
    expect(results[3]).toMatchObject({ id: invalid.id, status: 400, code: 'VALIDATION_FAILED', level: 'ERROR' });
    expect(results[3].message).toContain('body.title');
    expect(results[4]).toMatchObject({ id: archived.id, status: 409, code: 'ITEM_ARCHIVED' });
    expect(results[5]).toMatchObject({ id: 'not-a-uuid', status: 400 });
    expect(results[5].message).toContain('id');
    expect(results[6]).toMatchObject({ id: ok2.id, status: 400 });
    expect(results[6].message).toContain('version');
    expect(results[7]).toMatchObject({ id: null, status: 400, level: 'ERROR' });
    expect(results[8]).toEqual({ id: ok2.id, ...SUCCESS });
    for (const r of results.slice(1, 8)) expect(typeof r.message).toBe('string');
    expect(await getItem(ok1.id)).toMatchObject({ version: 2, label: 'ok1' });
    expect(await getItem(ok2.id)).toMatchObject({ version: 2, label: 'ok2' });
    expect(await getItem(stale.id)).toMatchObject({ version: 2, label: 'moved on' });
    expect(await getItem(invalid.id)).toMatchObject({ version: 1, body: { title: 'Hello' } });
    expect(await getItem(archived.id)).toMatchObject({ version: 2, status: 'ARCHIVED' });
  });

  it('the same item twice with the same version: the second entry is a 409', async () => {
    const a = await newItem();
    const res = await admin.patch('/content-items', [
      { id: a.id, version: 1, label: 'first' },
      { id: a.id, version: 1, label: 'second' },
    ]);
    expect(res.body.results.map((r: { status: number }) => r.status)).toEqual([200, 409]);
    expect(await getItem(a.id)).toMatchObject({ version: 2, label: 'first' });
  });

  it('?ignoreSchemaValidation=true applies to every entry', async () => {
    const a = await newItem();
    const res = await admin.patch('/content-items?ignoreSchemaValidation=true', [{ id: a.id, version: 1, body: itemBody(s.uri, { title: 42 }) }]);
    expect(res.body.results[0]).toMatchObject(SUCCESS);
    expect((await getItem(a.id)).body.title).toBe(42);
  });

  it('an entry on a repository the caller may not edit is 403 for that entry only', async () => {
    const other = await createContentRepo(admin, s.hubId, s.typeId);
    const mine = await newItem();
    const theirs = await createItem(admin, other.id, s.uri);
    const editor = await admin.client(unique('bulk'), ['CONTENT:FUNCTIONAL:CONTENT_ITEM:EDIT'], [
      { resource: 'hubs', id: s.hubId, permissions: ['READ'] },
      { resource: 'content-repositories', id: s.repoId, permissions: ['EDIT_CONTENT'] },
    ]);
    const res = await editor.patch('/content-items', [
      { id: theirs.id, version: 1, label: 'no' },
      { id: mine.id, version: 1, label: 'yes' },
    ]);
    expect(res.status).toBe(207);
    expect(res.body.results[0]).toMatchObject({ id: theirs.id, status: 403, code: 'ACCESS_DENIED', level: 'ERROR' });
    expect(res.body.results[1]).toEqual({ id: mine.id, ...SUCCESS });
    expect((await getItem(theirs.id)).version).toBe(1);
  });

  it('without CONTENT_ITEM:EDIT the whole request is 403', async () => {
    const a = await newItem();
    const reader = await admin.client(unique('bulk'), ['CONTENT:FUNCTIONAL:CONTENT_ITEM:READ'], [{ resource: 'hubs', id: s.hubId, permissions: ['READ'] }]);
    expectError(await reader.patch('/content-items', [{ id: a.id, version: 1, label: 'x' }]), 403);
  });

  it('0 or 101 entries, or a body that is not an array, is 400 for the whole request and nothing changes', async () => {
    const a = await newItem();
    expectError(await admin.patch('/content-items', []), 400);
    const tooMany = Array.from({ length: 101 }, () => ({ id: a.id, version: 1, label: 'x' }));
    const res = await admin.patch('/content-items', tooMany);
    expectError(res, 400);
    expect(res.body.errors[0].message).toContain('100');
    expectError(await admin.patch('/content-items', { id: a.id, version: 1 }), 400);
    expect((await getItem(a.id)).version).toBe(1);
  });

  it('100 entries are accepted', async () => {
    const items = await Promise.all(Array.from({ length: 4 }, () => newItem()));
    const entries = Array.from({ length: 100 }, (_, i) => ({ id: items[i % 4].id, version: Math.floor(i / 4) + 1, label: `n${i}` }));
    const res = await admin.patch('/content-items', entries);
    expect(res.status).toBe(207);
    expect(res.body.results.every((r: { status: number }) => r.status === 200)).toBe(true);
    expect((await getItem(items[0].id)).version).toBe(26);
  });
});
