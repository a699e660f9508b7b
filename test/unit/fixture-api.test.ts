import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, SandboxError, type SandboxFixture } from '../../src/fixture/index.js';
import { Api } from '../helpers/server.js';
import { contentSetup, createItem } from '../helpers/content.js';
import { Receiver } from '../helpers/receiver.js';

// The programmatic API's behaviour (issue 25 point 1), from the sources; fixture-package.test.ts
// runs the packed package from a scratch project.

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'cms-fixture-'));
  dirs.push(d);
  return d;
};

async function admin(sb: SandboxFixture, id = sb.clientId, secret = sb.clientSecret) {
  const res = await fetch(`${sb.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }) });
  expect(res.status).toBe(200);
  const token = ((await res.json()) as { access_token: string }).access_token;
  return async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${sb.apiUrl}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) : undefined };
  };
}
const hubNames = async (call: Awaited<ReturnType<typeof admin>>) => ((await call('GET', '/hubs')).body._embedded.hubs as { name: string }[]).map((h) => h.name).sort();

describe('startSandbox (memory)', () => {
  it('snapshot and restore bring back hubs, clients and the clock; tokens stay valid; faults stay', async () => {
    await using sb = await startSandbox();
    expect(sb.dataDir).toBe('memory');
    expect(sb.apiUrl).toBe(`${sb.url}/v2/content`);
    const call = await admin(sb);
    expect((await call('POST', '/hubs', { name: 'one', label: 'One' })).status).toBe(201);
    await sb.clock.freeze();
    await sb.clock.set('2030-01-01T00:00:00Z');
    const base = await sb.snapshot('base');
    expect(base).toMatchObject({ name: 'base', counts: { hubs: 1, clients: 1 } });

    expect((await call('POST', '/hubs', { name: 'two', label: 'Two' })).status).toBe(201);
    const restricted = await sb.client(['CONTENT:FUNCTIONAL:CONTENT_ITEM:READ']);
    await sb.clock.advance('3d');
    await sb.faults.set('503 100% on GET /v2/content/hubs/*');

    await sb.restore(base);
    expect(await hubNames(call)).toEqual(['one']);
    expect((await sb.clock.now()).toISOString()).toBe('2030-01-01T00:00:00.000Z');
    const token = await fetch(`${sb.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: restricted.clientId, client_secret: restricted.clientSecret }) });
    expect(token.status).toBe(400); // the token endpoint's answer to an unknown client
    // The faults are the sandbox's settings, not its data: a restore keeps them.
    const hubId = (await call('GET', '/hubs')).body._embedded.hubs[0].id;
    expect((await call('GET', `/hubs/${hubId}`)).status).toBe(503);
    await sb.faults.clear();
    expect((await call('GET', `/hubs/${hubId}`)).status).toBe(200);
    // By name again, and by the returned object.
    await call('POST', '/hubs', { name: 'three', label: 'Three' });
    await sb.restore('base');
    expect(await hubNames(call)).toEqual(['one']);

    await sb.reset();
    expect(await hubNames(call)).toEqual([]);
    expect((await sb.clock.now()).getUTCFullYear()).toBeLessThan(2030);
    await expect(sb.restore('no-such-snapshot')).rejects.toThrow(SandboxError);
  });

  it('seeds from a file, starts at a frozen clock, and saves to a file', async () => {
    const dir = tempDir();
    {
      await using first = await startSandbox();
      await (await admin(first))('POST', '/hubs', { name: 'from-file', label: 'From a file' });
      const saved = await first.snapshot(join(dir, 'seed.snapshot'));
      expect(saved.file).toBe(join(dir, 'seed.snapshot'));
    }
    await using sb = await startSandbox({ seed: join(dir, 'seed.snapshot'), clock: { set: '2031-02-03T04:05:06Z', frozen: true } });
    const call = await admin(sb);
    expect(await hubNames(call)).toEqual(['from-file']);
    expect(await sb.clock.now()).toEqual(new Date('2031-02-03T04:05:06Z'));
    // reset() empties it (not back to the seed).
    await sb.reset();
    expect(await hubNames(call)).toEqual([]);
    await sb.restore(join(dir, 'seed.snapshot'));
    expect(await hubNames(await admin(sb))).toEqual(['from-file']);
  });

  it("restoring another sandbox's snapshot brings its signing key; the API's own calls log in again", async () => {
    const dir = tempDir();
    {
      await using other = await startSandbox();
      await other.snapshot(join(dir, 'other.snapshot'));
    }
    await using sb = await startSandbox();
    const before = await admin(sb);
    await sb.restore(join(dir, 'other.snapshot'));
    expect((await before('GET', '/hubs')).status).toBe(401);
    await sb.clock.advance('1h');
    await sb.reset();
    expect(await hubNames(await admin(sb))).toEqual([]);
  });

  it('refuses a directory as the file to save to, with a SandboxError (400)', async () => {
    await using sb = await startSandbox();
    const dir = tempDir();
    const err = await sb.snapshot(`${dir}/`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxError);
    expect((err as SandboxError).status).toBe(400);
    expect((err as Error).message).toMatch(/is a directory/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses bad options with a SandboxError (400), leaving no server, socket or directory behind', async () => {
    const servers = () => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
    // A closed server's handle goes on the loop's next turns (the tests before this one closed some).
    const settle = () => new Promise((r) => setTimeout(r, 50));
    await settle();
    const before = servers();
    const cases: [Parameters<typeof startSandbox>[0], RegExp][] = [
      [{ clock: 'not a date' }, /not an ISO 8601 date-time/],
      [{ clock: { set: '2030-01-01T00:00:00Z', frozen: 'yes' as unknown as boolean } }, /frozen/],
      [{ faults: 'garbage' }, /fault 'garbage'/],
      [{ memory: false, faults: '418 always' }, /fault/],
      [{ port: -5 }, /port/],
      [{ port: 1.5 }, /port/],
      [{ port: 70_000 }, /port/],
      [{ tokenTtlSeconds: -1 }, /tokenTtlSeconds/],
      [{ tokenTtlSeconds: 0 }, /tokenTtlSeconds/],
    ];
    const tmp = () => readdirSync(tmpdir()).filter((n) => n.startsWith('cms-sandbox-')).length;
    const tmpBefore = tmp();
    for (const [options, message] of cases) {
      const err = await startSandbox(options).then(
        async (sb) => {
          await sb.close();
          return 'started';
        },
        (e: unknown) => e,
      );
      expect(err, JSON.stringify(options)).toBeInstanceOf(SandboxError);
      expect((err as SandboxError).status).toBe(400);
      expect((err as Error).message).toMatch(message);
    }
    await settle();
    expect(servers()).toBeLessThanOrEqual(before);
    expect(tmp()).toBe(tmpBefore);
  });

  it('refuses a bad seed before serving, with a SandboxError', async () => {
    await expect(startSandbox({ seed: join(tempDir(), 'missing.snapshot') })).rejects.toThrow(/No snapshot at/);
    await expect(startSandbox({ faults: '418 always' })).rejects.toThrow();
  });
});

describe('startSandbox({ corsOrigins })', () => {
  it('answers CORS on delivery for the listed origin only, across restores, never on the API; a bad origin is refused before anything starts', async () => {
    await using sb = await startSandbox({ corsOrigins: ['http://localhost:3000'] });
    const call = await admin(sb);
    expect((await call('POST', '/hubs', { name: 'site', label: 'Site' })).status).toBe(201);
    const saved = await sb.snapshot();
    await sb.restore(saved);
    const read = (path: string, origin: string) => fetch(`${sb.url}${path}`, { headers: { origin, accept: 'application/json' } });
    const delivered = await read('/cdn/site/content/key/home', 'http://localhost:3000');
    expect(delivered.status).toBe(404);
    expect(delivered.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect((await read('/cdn/site/content/key/home', 'http://evil.example.test')).headers.get('access-control-allow-origin')).toBeNull();
    expect((await read('/v2/content/hubs', 'http://localhost:3000')).headers.get('access-control-allow-origin')).toBeNull();
    await expect(startSandbox({ corsOrigins: ['http://localhost:3000/app'] })).rejects.toThrow(SandboxError);
    await expect(startSandbox({ corsOrigins: ['http://localhost:3000/app'] })).rejects.toThrow(/corsOrigins: .*not an origin/);
  });
});

describe('startSandbox({ allowWebhookTo })', () => {
  it('a client without every permission delivers to a listed loopback address, across restores; a bad value is refused before anything starts (issue 32.2)', async () => {
    const receiver = await new Receiver().start();
    try {
      await using sb = await startSandbox({ allowWebhookTo: ['127.0.0.1'] });
      const hub = (await (await admin(sb))('POST', '/hubs', { name: 'hooks', label: 'Hooks' })).body as { id: string };
      const creds = await sb.client(['CONTENT:FUNCTIONAL:WEBHOOK:CREATE', 'CONTENT:FUNCTIONAL:WEBHOOK:READ'], { acl: [{ resource: 'hubs', id: hub.id, permissions: ['READ', 'EDIT'] }] });
      const saved = await sb.snapshot();
      await sb.restore(saved);
      const call = await admin(sb, creds.clientId, creds.clientSecret);
      const hook = await call('POST', `/hubs/${hub.id}/webhooks`, { label: 'h', events: ['content-item.created'], handlers: [`${receiver.url}/listed`] });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      // [::1] is loopback too, but not listed: refused for this client.
      expect((await call('POST', `/hubs/${hub.id}/webhooks`, { label: 'h', events: ['content-item.created'], handlers: [`http://[::1]:1/x`] })).status).toBe(400);
      await expect(startSandbox({ allowWebhookTo: ['10.0.0.0/99'] })).rejects.toThrow(/allowWebhookTo: .*longer than the address/);
      await expect(startSandbox({ allowWebhookTo: 'x' as never })).rejects.toThrow(SandboxError);
    } finally {
      await receiver.stop();
    }
  });
});

describe('startSandbox: a snapshot carries pending work', () => {
  it('a webhook delivery waiting for its retry when saved is retried by a sandbox seeded from the file, on its restored clock', async () => {
    const receiver = await new Receiver().start();
    const file = join(tempDir(), 'queue.snapshot');
    try {
      receiver.answer = () => 503;
      {
        await using sb = await startSandbox({ clock: { set: '2030-01-01T00:00:00Z', frozen: true } });
        const api = await new Api(sb.url).login();
        const setup = await contentSetup(api);
        const item = await createItem(api, setup.repoId, setup.uri);
        const hook = await api.post(`/hubs/${setup.hubId}/webhooks`, { label: 'queued', events: ['content-item.updated'], handlers: [`${receiver.url}/queued`], secret: 's' });
        expect(hook.status, hook.text).toBe(201);
        expect((await api.post(`/__sandbox/hubs/${setup.hubId}/webhook-events`, { event: 'content-item.updated', itemId: item.id })).status).toBe(202);
        await receiver.waitFor(1);
        // Saved once the sandbox has taken the 503 in (logged, the retry scheduled), not while the
        // attempt is in flight: a snapshot then holds it as running, re-run when its lease ends.
        const logged = async () => (await api.get(`/hubs/${setup.hubId}/webhooks/${hook.body.id}/requests`)).body?._embedded?.requests?.length ?? 0;
        for (let i = 0; i < 200 && (await logged()) === 0; i++) await new Promise((r) => setTimeout(r, 10));
        expect(await logged()).toBe(1);
        // The retry waits for the (frozen) sandbox clock: it is pending when saved.
        expect((await sb.snapshot(file)).counts.items).toBe(1);
        expect((await (await fetch(`${sb.url}/__sandbox/status`)).json()).counts.pendingTasks).toBeGreaterThan(0);
      }
      receiver.answer = () => 200;
      await using again = await startSandbox({ seed: file });
      expect((await again.clock.now()).toISOString()).toBe('2030-01-01T00:00:00.000Z');
      await again.clock.advance('31s');
      const both = await receiver.waitFor(2);
      expect(both.map((r) => r.headers['x-webhook-attempt'])).toEqual(['1', '2']);
    } finally {
      await receiver.stop();
    }
  });
});

describe('startSandbox: the request journal', () => {
  it('requests(filter) reads the journal in process, across restores; reset empties it; a bad filter is a SandboxError', async () => {
    await using sb = await startSandbox();
    const call = await admin(sb);
    const snap = await sb.snapshot('before');
    await call('GET', '/hubs');
    await call('GET', '/no/such/route');
    const got = (await sb.requests({ path: '/v2/content/**' })) as { method: string; path: string; status: number }[];
    expect(got.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['GET /v2/content/hubs 200', 'GET /v2/content/no/such/route 404']);
    // Reading it adds nothing to it (no request of its own).
    expect(await sb.requests({ path: '/v2/content/**' })).toHaveLength(2);
    // A restore swaps the database in memory, not the journal: it observes the server.
    await sb.restore(snap);
    await call('GET', '/hubs');
    expect(await sb.requests({ status: 404 })).toHaveLength(1);
    expect(await sb.requests({ method: 'GET', path: '/v2/content/hubs' })).toHaveLength(2);
    await sb.reset();
    expect(await sb.requests({ path: '/v2/content/**' })).toEqual([]);
    for (const filter of [{ status: 'bad' }, { limit: 0 }, { colour: 'red' }]) {
      const err = await sb.requests(filter).catch((e: unknown) => e);
      expect(err, JSON.stringify(filter)).toBeInstanceOf(SandboxError);
      expect((err as SandboxError).status).toBe(400);
      expect((err as Error).message).toContain(Object.keys(filter)[0]);
    }
  });
});

describe('startSandbox: verifyRequests (issue 34.5: documented, and on the object and its types)', () => {
  it('answers as POST /__sandbox/requests/verify does: ok with the matches, or the nearest misses; a malformed spec is a SandboxError 400', async () => {
    await using sb = await startSandbox();
    const call = await admin(sb);
    await call('POST', '/hubs', { name: 'verified', label: 'Verified' });
    await call('GET', '/hubs');
    // Typed: a spec and a result of the package's own types.
    const spec: import('../../src/fixture/api.js').RequestVerifySpec = { method: 'POST', path: '/v2/content/hubs', bodyContains: 'verified', count: 1 };
    const ok: import('../../src/fixture/api.js').RequestVerifyResult = await sb.verifyRequests(spec);
    expect(ok).toMatchObject({ ok: true, matched: 1 });
    expect(ok.matches.map((m) => (m as { method: string }).method)).toEqual(['POST']);
    const miss = await sb.verifyRequests({ method: 'DELETE', path: '/v2/content/hubs', count: { atLeast: 1 } });
    expect(miss.ok).toBe(false);
    expect(miss.matched).toBe(0);
    expect(miss.nearMisses.length).toBeGreaterThan(0);
    expect(miss.nearMisses[0]!.differences.join(' ')).toMatch(/method/i);
    // The same answer over HTTP.
    const token = await fetch(`${sb.authUrl}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: sb.clientId, client_secret: sb.clientSecret }) });
    const { access_token } = (await token.json()) as { access_token: string };
    const http = await fetch(`${sb.url}/__sandbox/requests/verify`, { method: 'POST', headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' }, body: JSON.stringify(spec) });
    expect(http.status).toBe(200);
    expect(await http.json()).toMatchObject({ ok: true, matched: 1 });
    const err = await sb.verifyRequests({ path: 42 } as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxError);
    expect((err as SandboxError).status).toBe(400);
  });
});

describe('startSandbox: no secret in the journal', () => {
  it("requests() holds neither the admin's nor a new client's secret, nor a token, after the API's own calls and the clients' logins", async () => {
    await using sb = await startSandbox();
    const reader = await sb.client('all', { id: 'reader' });
    await sb.clock.advance('1h');
    const call = await admin(sb, reader.clientId, reader.clientSecret);
    await call('POST', '/hubs', { name: 'j', label: 'J' });
    const text = JSON.stringify(await sb.requests());
    for (const secret of [reader.clientSecret, sb.clientSecret]) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/eyJ[\w-]{8,}\.[\w-]{8,}\./);
    // The calls are there, with who made them.
    const entries = (await sb.requests()) as { op: string; clientId: string; body?: string }[];
    expect(entries.find((r) => r.op === 'sandbox.createClient')?.body).toContain('"secret":"[redacted]"');
    expect(entries.filter((r) => r.op === 'hubs.create').map((r) => r.clientId)).toEqual(['reader']);
  });
});

describe('startSandbox (on disk)', () => {
  it('memory: false without a directory uses a temporary one, removed on close', async () => {
    const sb = await startSandbox({ memory: false });
    expect(existsSync(join(sb.dataDir, 'sandbox.db'))).toBe(true);
    await sb.snapshot('named');
    expect(readdirSync(join(sb.dataDir, 'snapshots'))).toEqual(['named.snapshot']);
    await sb.close();
    await sb.close();
    expect(existsSync(sb.dataDir)).toBe(false);
  });

  it('a data directory is kept, and its named snapshots restore through the routes', async () => {
    const dir = tempDir();
    {
      await using sb = await startSandbox({ dataDir: dir });
      const call = await admin(sb);
      await call('POST', '/hubs', { name: 'kept', label: 'Kept' });
      await sb.snapshot('base');
      await call('POST', '/hubs', { name: 'later', label: 'Later' });
    }
    await using again = await startSandbox({ dataDir: dir });
    expect(await hubNames(await admin(again))).toEqual(['kept', 'later']);
    await again.restore('base');
    expect(await hubNames(await admin(again))).toEqual(['kept']);
  });
});
