import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { startSandbox, type SandboxFixture } from '../../src/fixture/index.js';

// restore() and reset() in memory return to the state a snapshot holds, whatever the test did in
// between: every path a write can take (batched writes answered together, the admin routes'
// reset and named snapshots, the clock, clients, scheduled work, deliveries still under way).
// A restore of the state restored last rolls back only what changed since (fixture/index.ts),
// so these cases are where a rollback could keep or lose something a copy would not.

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

async function login(sb: SandboxFixture, id = sb.clientId, secret = sb.clientSecret): Promise<{ status: number; call: Call }> {
  const res = await fetch(`${sb.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }) });
  const status = res.status;
  const token = status === 200 ? ((await res.json()) as { access_token: string }).access_token : 'none';
  const call: Call = async (method, path, body) => {
    const url = path.startsWith('/__sandbox') ? `${sb.url}${path}` : `${sb.apiUrl}${path}`;
    const r = await fetch(url, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
  return { status, call };
}

const SCHEMA = 'https://schema.example.com/restore/article.json';

/** A hub with a repository, a schema and a type: what a base snapshot of a suite holds. */
async function model(call: Call, name: string) {
  const hub = (await call('POST', '/hubs', { name, label: name })).body;
  const repo = (await call('POST', `/hubs/${hub.id}/content-repositories`, { name: 'content', label: 'Content' })).body;
  const doc = { $schema: 'http://json-schema.org/draft-07/schema#', $id: SCHEMA, title: 'Article', type: 'object', allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }], properties: { title: { type: 'string' } }, required: ['title'] };
  expect((await call('POST', `/hubs/${hub.id}/content-type-schemas`, { schemaId: SCHEMA, body: JSON.stringify(doc), validationLevel: 'CONTENT_TYPE' })).status).toBe(201);
  const type = (await call('POST', `/hubs/${hub.id}/content-types`, { contentTypeUri: SCHEMA, settings: { label: 'Article' } })).body;
  expect((await call('POST', `/content-repositories/${repo.id}/content-types`, { contentTypeId: type.id })).status).toBeLessThan(300);
  return { hubId: hub.id as string, repoId: repo.id as string };
}

const article = (title: string) => ({ label: title, body: { _meta: { schema: SCHEMA, name: title }, title } });
const labels = async (call: Call, repoId: string) => ((await call('GET', `/content-repositories/${repoId}/content-items?size=100`)).body._embedded?.['content-items'] ?? []).map((i: { label: string }) => i.label).sort();
const hubNames = async (call: Call) => ((await call('GET', '/hubs')).body._embedded.hubs as { name: string }[]).map((h) => h.name).sort();

describe('restore() and reset() in memory, after everything a test can do', () => {
  it('writes answered together (one batch), updates, deletes and archives are all undone, again and again', async () => {
    await using sb = await startSandbox();
    const { call } = await login(sb);
    const { repoId } = await model(call, 'suite');
    const first = (await call('POST', `/content-repositories/${repoId}/content-items`, article('first'))).body;
    const base = await sb.snapshot('base');
    for (let round = 0; round < 5; round++) {
      // Twenty creates at once: the service commits them in one batch.
      const created = await Promise.all(Array.from({ length: 20 }, (_, i) => call('POST', `/content-repositories/${repoId}/content-items`, article(`round ${round} item ${i}`))));
      expect(created.every((r) => r.status === 201)).toBe(true);
      expect((await call('PATCH', `/content-items/${first.id}`, { ...article('first, changed'), version: first.version })).status).toBe(200);
      expect(await labels(call, repoId)).toHaveLength(21);
      await sb.restore(base);
      expect(await labels(call, repoId)).toEqual(['first']);
      const again = (await call('GET', `/content-items/${first.id}`)).body;
      expect(again).toMatchObject({ label: 'first', version: first.version });
    }
    // A write the service refused leaves the restored state as it was.
    expect((await call('POST', `/content-repositories/${repoId}/content-items`, { label: 'x', body: { _meta: { schema: SCHEMA } } })).status).toBe(400);
    await sb.restore('base');
    expect(await labels(call, repoId)).toEqual(['first']);
  });

  it('after the admin routes reset it or saved a named snapshot, restore still returns to the snapshot', async () => {
    await using sb = await startSandbox();
    const { call } = await login(sb);
    await model(call, 'kept');
    const base = await sb.snapshot('base');
    await call('POST', '/hubs', { name: 'added', label: 'Added' });
    // The admin route's reset (not the fixture's), then a named snapshot over HTTP.
    expect((await call('POST', '/__sandbox/reset')).status).toBe(204);
    const { call: after } = await login(sb);
    expect(await hubNames(after)).toEqual([]);
    await after('POST', '/hubs', { name: 'over-http', label: 'Over HTTP' });
    expect((await after('POST', '/__sandbox/snapshots', { name: 'http-named' })).status).toBe(201);
    await after('POST', '/hubs', { name: 'after-http', label: 'After HTTP' });
    await sb.restore(base);
    const { call: again } = await login(sb);
    expect(await hubNames(again)).toEqual(['kept']);
    // The snapshot saved over HTTP restores too, and the fixture's one after it.
    expect((await again('POST', '/__sandbox/snapshots/http-named/restore')).status).toBe(200);
    expect(await hubNames(again)).toEqual(['over-http']);
    await sb.restore(base);
    expect(await hubNames(again)).toEqual(['kept']);
  });

  it('alternating between two snapshots and reset() gives each one exactly', async () => {
    await using sb = await startSandbox();
    const { call } = await login(sb);
    await call('POST', '/hubs', { name: 'a', label: 'A' });
    const a = await sb.snapshot('a');
    await call('POST', '/hubs', { name: 'b', label: 'B' });
    const b = await sb.snapshot('b');
    for (let i = 0; i < 3; i++) {
      await sb.restore(a);
      expect(await hubNames(call)).toEqual(['a']);
      await call('POST', '/hubs', { name: `scratch-${i}`, label: 'Scratch' });
      await sb.restore(b);
      expect(await hubNames(call)).toEqual(['a', 'b']);
      await sb.reset();
      expect(await hubNames(call)).toEqual([]);
      await call('POST', '/hubs', { name: `empty-${i}`, label: 'Scratch' });
      await sb.reset();
      expect(await hubNames(call)).toEqual([]);
    }
    // A snapshot taken again under a name holds the new state, not the old one.
    await sb.restore(a);
    await call('POST', '/hubs', { name: 'a2', label: 'A2' });
    await sb.snapshot('a');
    await call('POST', '/hubs', { name: 'later', label: 'Later' });
    await sb.restore('a');
    expect(await hubNames(call)).toEqual(['a', 'a2']);
  });

  it('the clock, clients and their tokens, and scheduled publishing come back as they were', async () => {
    await using sb = await startSandbox({ clock: { set: '2030-01-01T00:00:00Z', frozen: true } });
    const { call } = await login(sb);
    const { repoId } = await model(call, 'timed');
    const base = await sb.snapshot('base');

    const restricted = await sb.client('all');
    const asRestricted = await login(sb, restricted.clientId, restricted.clientSecret);
    expect(asRestricted.status).toBe(200);
    const item = (await call('POST', `/content-repositories/${repoId}/content-items`, article('scheduled'))).body;
    await sb.clock.advance('2d');
    await sb.restore(base);
    expect((await sb.clock.now()).toISOString()).toBe('2030-01-01T00:00:00.000Z');
    // The client is gone: its token is refused, and it cannot log in.
    expect((await asRestricted.call('GET', '/hubs')).status).toBe(401);
    expect((await login(sb, restricted.clientId, restricted.clientSecret)).status).toBe(400);
    expect((await call('GET', `/content-items/${item.id}`)).status).toBe(404);
    expect((await call('GET', '/__sandbox/status')).body.counts.pendingTasks).toBe(0);
  });

  it('a webhook delivery still under way at the restore does not reach the restored state', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    let received = 0;
    const receiver = createServer((req, res) => {
      received++;
      req.resume();
      void held.then(() => res.end('ok'));
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      await using sb = await startSandbox();
      const { call } = await login(sb);
      const { hubId, repoId } = await model(call, 'hooks');
      // The webhook is part of the base: its request log is what a late delivery would write to.
      const hook = await call('POST', `/hubs/${hubId}/webhooks`, { label: 'slow', events: ['dynamic-content.content-item.created'], handlers: [`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`], active: true, secret: 'shh-its-a-secret', method: 'POST' });
      expect(hook.status).toBe(201);
      const log = async () => (await call('GET', `/hubs/${hubId}/webhooks/${hook.body.id}/requests`)).body._embedded?.requests ?? [];
      const base = await sb.snapshot('base');
      await call('POST', `/content-repositories/${repoId}/content-items`, article('fires'));
      for (let i = 0; i < 100 && received === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(received).toBe(1);
      await sb.restore(base);
      // The receiver answers now, after the restore: the delivery records its outcome somewhere.
      release();
      await new Promise((r) => setTimeout(r, 200));
      expect(await labels(call, repoId)).toEqual([]);
      expect(await log()).toEqual([]);
      expect((await call('GET', '/__sandbox/status')).body.counts.pendingTasks).toBe(0);
      await sb.restore(base);
      expect(await labels(call, repoId)).toEqual([]);
      expect(await log()).toEqual([]);
    } finally {
      release();
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  });

  it('a delivery under way when the snapshot was saved is sent again at once by a sandbox restored from it', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    const arrivals: number[] = [];
    const receiver = createServer((req, res) => {
      arrivals.push(Date.now());
      req.resume();
      // The first attempt hangs until released; the ones after answer at once.
      if (arrivals.length === 1) void held.then(() => res.end('ok'));
      else res.end('ok');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      await using first = await startSandbox();
      const { call } = await login(first);
      const { hubId, repoId } = await model(call, 'in-flight');
      const hook = await call('POST', `/hubs/${hubId}/webhooks`, { label: 'slow', events: ['dynamic-content.content-item.created'], handlers: [`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`], active: true, method: 'POST' });
      expect(hook.status).toBe(201);
      await call('POST', `/content-repositories/${repoId}/content-items`, article('under way'));
      for (let i = 0; i < 100 && arrivals.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(arrivals).toHaveLength(1);
      // Saved while the first attempt is under way: to a file, and in memory.
      const file = `${first.dataDir === 'memory' ? (await import('node:os')).tmpdir() : first.dataDir}/in-flight-${process.pid}.snapshot`;
      await first.snapshot(file);
      const kept = await first.snapshot('in-flight');
      release();

      // Another sandbox from the file: the delivery is sent again within seconds, not after a lease of a minute.
      await using second = await startSandbox({ seed: file });
      const { call: other } = await login(second);
      await other('GET', '/hubs');
      const started = Date.now();
      for (let i = 0; i < 150 && arrivals.length < 2; i++) await new Promise((r) => setTimeout(r, 20));
      expect(arrivals.length, 'sent again from the file').toBeGreaterThanOrEqual(2);
      expect(Date.now() - started).toBeLessThan(3000);

      // The same sandbox returning to the state saved in memory: the same.
      const before = arrivals.length;
      await first.restore(kept);
      await call('GET', '/hubs');
      for (let i = 0; i < 150 && arrivals.length === before; i++) await new Promise((r) => setTimeout(r, 20));
      expect(arrivals.length, 'sent again after a restore in memory').toBeGreaterThan(before);
      (await import('node:fs')).rmSync(file, { force: true });
    } finally {
      release();
      receiver.closeAllConnections();
      await new Promise((r) => receiver.close(r));
    }
  });
});
