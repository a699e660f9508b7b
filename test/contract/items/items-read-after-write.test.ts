import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, itemBody, type ContentSetup } from '../../helpers/content.js';

// The item row cache (Service.itemRow) after writes: a write drops the rows of the items it
// wrote and keeps the others; a write by another process on the same data directory (here a
// second server, its own SQLite connection) empties it (PRAGMA data_version).

let dataDir: string;
let a: TestServer;
let b: TestServer;
let apiA: Api;
let apiB: Api;
let setup: ContentSetup;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cms-read-after-write-'));
  a = await startServer({ dataDir });
  b = await startServer({ dataDir });
  apiA = await new Api(a.url).login();
  apiB = await new Api(b.url).login();
  setup = await contentSetup(apiA);
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const patch = (api: Api, item: { id: string; version: number }, label: string) => api.patch(`/content-items/${item.id}`, { version: item.version, label, body: itemBody(setup.uri, { title: label }) });

/** Changes an item's stored label behind the service's back, on a server's own connection. */
const rawLabel = (server: TestServer, id: string, label: string) =>
  server.sandbox.service.db.prepare("UPDATE content_items SET data = json_set(data, '$.label', ?) WHERE id = ?").run(label, id);

describe('reads after writes', () => {
  it('see every write: this server’s, and another process’s on the same data directory', async () => {
    const x = await createItem(apiA, setup.repoId, setup.uri);
    const y = await createItem(apiA, setup.repoId, setup.uri);
    expect((await apiA.get(`/content-items/${x.id}`)).body.version).toBe(1);
    expect((await apiA.get(`/content-items/${y.id}`)).body.version).toBe(1);

    expect((await patch(apiA, y, 'y2')).status).toBe(200);
    const y2 = (await apiA.get(`/content-items/${y.id}`)).body;
    expect([y2.version, y2.label, y2.body.title]).toEqual([2, 'y2', 'y2']);
    expect((await apiA.get(`/content-items/${x.id}`)).body.version).toBe(1);

    // The other server writes x: this server's cached row of x must not be answered.
    expect((await patch(apiB, x, 'x2')).status).toBe(200);
    const x2 = (await apiA.get(`/content-items/${x.id}`)).body;
    expect([x2.version, x2.label, x2.body.title]).toEqual([2, 'x2', 'x2']);
    expect((await apiB.get(`/content-items/${y.id}`)).body.label).toBe('y2');

    // A write outside the item routes' statements (raw SQL on the other connection) is seen too.
    rawLabel(b, x.id, 'raw');
    expect((await apiA.get(`/content-items/${x.id}`)).body.label).toBe('raw');
  });

  it('drop only the rows of the items written: a write to one item keeps the others cached', async () => {
    const x = await createItem(apiA, setup.repoId, setup.uri);
    const y = await createItem(apiA, setup.repoId, setup.uri);
    expect((await apiA.get(`/content-items/${x.id}`)).body.label).toBe(x.label);
    // On the server's own connection: no data_version change and no markChanged, so only a
    // reload of x's row could show this label.
    rawLabel(a, x.id, 'behind the cache');
    expect((await patch(apiA, y, 'y2')).status).toBe(200);
    expect((await apiA.get(`/content-items/${x.id}`)).body.label).toBe(x.label);
    // Writing x itself drops its row.
    expect((await patch(apiA, x, 'x2')).status).toBe(200);
    expect((await apiA.get(`/content-items/${x.id}`)).body.label).toBe('x2');
  });

  it('the same item read again answers each caller and each origin with its own links', async () => {
    const x = await createItem(apiA, setup.repoId, setup.uri);
    const reader = await apiA.client(unique('reader'), ['CONTENT:FUNCTIONAL:CONTENT_ITEM:READ'], [{ resource: 'hubs', id: setup.hubId, permissions: ['READ'] }]);
    const byName = await new Api(a.url.replace('127.0.0.1', 'localhost')).login();
    for (let i = 0; i < 2; i++) {
      const admin = (await apiA.get(`/content-items/${x.id}`)).body;
      expect(admin._links.self.href).toBe(`${a.url}/v2/content/content-items/${x.id}`);
      expect(admin._links.update).toBeDefined();
      const named = (await byName.get(`/content-items/${x.id}`)).body;
      expect(named._links.self.href).toBe(`${a.url.replace('127.0.0.1', 'localhost')}/v2/content/content-items/${x.id}`);
      const read = await reader.get(`/content-items/${x.id}`);
      expect(read.status, read.text).toBe(200);
      expect(read.body._links.self.href).toBe(`${a.url}/v2/content/content-items/${x.id}`);
      expect(read.body._links.update).toBeUndefined();
    }
  });
});
