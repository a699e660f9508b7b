import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import Database from '../../helpers/sqlite.js';
import { join } from 'node:path';
import { Api, startServer, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, itemBody, type ContentSetup } from '../../helpers/content.js';

// Optimistic concurrency over real HTTP: writers racing on one version of an item. Exactly one
// wins each version; the losers get 409 and change nothing; retrying writers lose no update.

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

const getItem = async (id: string) => (await admin.get(`/content-items/${id}`)).body;

describe('concurrent updates', () => {
  it('two writers with the same version at the same time: one 200, one 409, and the stored item is the winner', async () => {
    for (let round = 0; round < 5; round++) {
      const item = await createItem(admin, s.repoId, s.uri);
      const write = (who: string) => admin.patch(`/content-items/${item.id}`, { ...item, label: who, body: itemBody(s.uri, { title: who }) });
      const [a, b] = await Promise.all([write('writer-a'), write('writer-b')]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      const winner = a.status === 200 ? a : b;
      const loser = a.status === 200 ? b : a;
      expect(loser.body.errors[0].code).toBe('VERSION_CONFLICT');
      const stored = await getItem(item.id);
      expect(stored).toEqual(winner.body);
      expect(stored.version).toBe(2);
      expect((await admin.get(`/content-items/${item.id}/versions`)).body.page.totalElements).toBe(2);
    }
  });

  it('8 writers that re-read and retry on 409 each land exactly one new version; no update is lost', async () => {
    const item = await createItem(admin, s.repoId, s.uri, { body: itemBody(s.uri, { links: [] }) });
    const writers = 8;
    let conflicts = 0;
    // Every writer first tries from the version all of them read: 7 of those tries must lose.
    const writer = async (n: number) => {
      for (let current = item; ; current = await getItem(item.id)) {
        const marks: string[] = current.body.marks ?? [];
        const body = { ...current.body, marks: [...marks, `w${n}`] };
        const res = await admin.patch(`/content-items/${item.id}`, { ...current, body });
        if (res.status === 200) return res.body.version as number;
        expect(res.status).toBe(409);
        conflicts++;
      }
    };
    const versions = await Promise.all(Array.from({ length: writers }, (_, n) => writer(n)));
    expect([...versions].sort((x, y) => x - y)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    const stored = await getItem(item.id);
    expect(stored.version).toBe(1 + writers);
    expect([...stored.body.marks].sort()).toEqual(Array.from({ length: writers }, (_, n) => `w${n}`).sort());
    // Each version holds one more mark than the one before: every write built on the last.
    const history = (await admin.get(`/content-items/${item.id}/versions?sort=version,asc`)).body._embedded['content-items'];
    history.forEach((v: any, i: number) => expect(v.body.marks?.length ?? 0).toBe(i));
    expect(conflicts).toBeGreaterThanOrEqual(writers - 1);
  });
});

describe('reads after writes elsewhere', () => {
  it('a GET sees a change made through another service on the same data directory at once', async () => {
    const other = await startServer({ dataDir: srv.dataDir });
    try {
      const writer = await new Api(other.url).login();
      const item = await createItem(admin, s.repoId, s.uri);
      // Read it here first, so this server has it at hand.
      for (let i = 0; i < 3; i++) expect((await getItem(item.id)).label).toBe(item.label);
      for (let v = item.version; v < item.version + 5; v++) {
        const label = `changed elsewhere ${v}`;
        expect((await writer.patch(`/content-items/${item.id}`, { version: v, label })).status).toBe(200);
        expect(await getItem(item.id)).toMatchObject({ label, version: v + 1 });
      }
      // A change made here shows at once too.
      expect((await admin.patch(`/content-items/${item.id}`, { version: item.version + 5, label: 'changed here' })).status).toBe(200);
      expect(await getItem(item.id)).toMatchObject({ label: 'changed here', version: item.version + 6 });
    } finally {
      await other.stop();
    }
  });
});

describe('writes that arrive together (group commit)', () => {
  it('40 creates at once: each is committed when answered (another connection sees it), each exactly once, and a repeated Idempotency-Key in the same moment creates one item', async () => {
    const other = new Database(join(srv.dataDir, 'sandbox.db'), { readonly: true });
    try {
      const stored = other.prepare('SELECT id FROM content_items WHERE id = ?').pluck();
      const create = async (n: number) => {
        const res = await admin.req('POST', `/content-repositories/${s.repoId}/content-items`, { label: `Together ${n}`, body: itemBody(s.uri, { title: `Together ${n}` }) });
        expect(res.status).toBe(201);
        // Answered means committed: another process reading the database finds it at once.
        expect(stored.get(res.body.id)).toBe(res.body.id);
        return res.body.id as string;
      };
      const ids = await Promise.all(Array.from({ length: 40 }, (_, n) => create(n)));
      expect(new Set(ids).size).toBe(40);

      const key = `together-${Date.now()}`;
      const once = () => admin.req('POST', `/content-repositories/${s.repoId}/content-items`, { label: 'Once', body: itemBody(s.uri, { title: 'Once' }) }, { headers: { 'Idempotency-Key': key } });
      const replies = await Promise.all([once(), once(), once()]);
      expect(replies.map((r) => r.status)).toEqual([201, 201, 201]);
      expect(new Set(replies.map((r) => r.body.id)).size).toBe(1);
      expect(other.prepare("SELECT count(*) FROM content_items WHERE label = 'Once'").pluck().get()).toBe(1);
    } finally {
      other.close();
    }
  });

  it('a create that fails among others that succeed changes nothing; the others are stored', async () => {
    const good = (n: number) => admin.req('POST', `/content-repositories/${s.repoId}/content-items`, { label: `Mixed ${n}`, body: itemBody(s.uri, { title: `Mixed ${n}` }) });
    const bad = () => admin.req('POST', `/content-repositories/${s.repoId}/content-items`, { label: 'Mixed bad', body: { _meta: { schema: 'https://nowhere.example.com/none.json' } } });
    const replies = await Promise.all([good(0), bad(), good(1), bad(), good(2)]);
    expect(replies.map((r) => r.status)).toEqual([201, replies[1]!.status, 201, replies[3]!.status, 201]);
    expect(replies[1]!.status).toBeGreaterThanOrEqual(400);
    const listed = (await admin.get(`/content-repositories/${s.repoId}/content-items?size=100&sort=createdDate,desc`)).body._embedded['content-items'].map((i: { label: string }) => i.label);
    expect(listed.filter((l: string) => l.startsWith('Mixed')).sort()).toEqual(['Mixed 0', 'Mixed 1', 'Mixed 2']);
  });
});
