import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, type ContentSetup } from '../../helpers/content.js';
import { Receiver } from '../../helpers/receiver.js';
import { Router } from '../../../src/server/core/router.js';
import { routes, type RouteDef } from '../../../src/server/core/route-table.js';

// The console opens no new unauthenticated route: every API call in its sources resolves to a
// route of the table, and each refuses a request without a token. Its page and two static
// assets are the only routes it adds without a token, and they carry no data.

const CONSOLE_SRC = join(import.meta.dirname, '..', '..', '..', 'src', 'console');
const STATIC = ['/', '/__sandbox/console', '/__sandbox/console/app.js', '/__sandbox/console/app.css'];
/** Public before the console existed: signing in itself, and the clock the CLI reads too (no data). */
const PUBLIC_BEFORE = new Set(['oauth.issueToken', 'sandbox.getClock']);

/** Every `api.<verb>(path…)` call of the console, as method and a concrete path ('x' for each parameter). */
function consoleCalls(): { method: string; path: string; source: string }[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else if (/\.tsx?$/.test(e.name)) files.push(join(dir, e.name));
    }
  };
  walk(CONSOLE_SRC);
  const verbs: Record<string, string> = { get: 'GET', page: 'GET', all: 'GET', post: 'POST', patch: 'PATCH', del: 'DELETE' };
  const calls: { method: string; path: string; source: string }[] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/(?:\bapi\.(get|page|all|post|patch|del)|(?<![.\w]|function )(entries))(?:<[^>]*>)?\(\s*([^,)]*)/g)) {
      const arg = m[3]!.trim();
      // A helper passing its own parameter on: its callers are scanned instead.
      if (arg === 'path') continue;
      if (!/^(`[^`]*`|'[^']*')$/.test(arg)) throw new Error(`${file}: an API call with a computed path (${arg}); write the path literally so this test sees it`);
      const raw = arg.slice(1, -1).split('?')[0]!;
      const path = raw.replace(/\$\{[^}]+\}/g, 'x');
      calls.push({ method: verbs[m[1] ?? 'get']!, path: /^\/(__sandbox|oauth|v2)/.test(path) ? path : `/v2/content${path}`, source: file.slice(CONSOLE_SRC.length + 1) });
    }
    // Sign-in posts to the token endpoint with fetch directly.
    if (text.includes("fetch('/oauth/token'")) calls.push({ method: 'POST', path: '/oauth/token', source: file.slice(CONSOLE_SRC.length + 1) });
  }
  return calls;
}

describe('the routes the console uses', () => {
  let srv: TestServer;
  let api: Api;
  const router = new Router(routes);
  const used = new Map<string, RouteDef>();

  beforeAll(async () => {
    srv = await startServer();
    api = await new Api(srv.url).login();
    for (const call of consoleCalls()) {
      const found = router.match(call.method, call.path);
      if (!('route' in found)) throw new Error(`${call.source}: ${call.method} ${call.path} is not a route of the sandbox`);
      used.set(`${found.route.method} ${found.route.path}`, found.route);
    }
  });
  afterAll(() => srv?.stop());

  it('are found in the console sources and all exist in the route table', () => {
    // Every view calls the API: hubs, items, schemas, editions, webhooks, indexes, clock, faults.
    expect(used.size).toBeGreaterThan(30);
    for (const key of ['GET /v2/content/hubs', 'POST /v2/content/editions/:editionId/schedule', 'POST /__sandbox/clock', 'POST /__sandbox/hubs/:hubId/webhooks/:webhookId/requests/:requestId/resend']) {
      expect([...used.keys()]).toContain(key);
    }
  });

  it('each refuses a request without a token, except signing in and the clock, which were public before', async () => {
    const open: string[] = [];
    for (const [key, route] of used) {
      const path = route.path.replace(/:[A-Za-z]+/g, 'x');
      const res = await api.req(route.method, path, route.method === 'GET' || route.method === 'DELETE' ? undefined : {}, { token: null });
      if (PUBLIC_BEFORE.has(route.op)) {
        expect(route.public, key).toBe(true);
        continue;
      }
      if (res.status !== 401) open.push(`${key} answered ${res.status} without a token`);
    }
    expect(open).toEqual([]);
  });

  it('the page and its assets are the only console routes without a token; they carry no data and strict headers', async () => {
    const hub = (await api.post('/hubs', { name: unique('secret-hub'), label: 'Secret label' })).body;
    const consoleRoutes = routes.filter((r) => r.op.startsWith('console.'));
    expect(consoleRoutes.map((r) => r.path).sort()).toEqual(['/', '/__sandbox/console', '/__sandbox/console/:asset']);
    for (const path of STATIC) {
      const res = await fetch(srv.url + path);
      const text = await res.text();
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-security-policy'), path).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
      expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toMatch(/no-store|no-cache/);
      expect(text).not.toContain(hub.id);
      expect(text).not.toContain(hub.name);
    }
    const page = await (await fetch(`${srv.url}/`)).text();
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    expect(page).not.toContain('style=');
  });

  it('assets revalidate by ETag, and an unknown asset is a 404', async () => {
    const first = await fetch(`${srv.url}/__sandbox/console/app.js`);
    expect(first.headers.get('content-type')).toMatch(/^text\/javascript/);
    await first.text();
    const again = await fetch(`${srv.url}/__sandbox/console/app.js`, { headers: { 'If-None-Match': first.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await fetch(`${srv.url}/__sandbox/console/secrets.json`)).status).toBe(404);
    expect((await fetch(`${srv.url}/__sandbox/console/..%2Fsandbox.db`)).status).toBe(404);
  });
});

describe('sandbox routes the console adds for what the API lacks', () => {
  let srv: TestServer;
  let api: Api;
  let setup: ContentSetup;
  let receiver: Receiver;

  beforeAll(async () => {
    srv = await startServer();
    api = await new Api(srv.url).login();
    setup = await contentSetup(api);
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver?.stop();
    await srv?.stop();
  });

  it('lists the bulk jobs and publishing jobs of a hub, newest first', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const job = (await api.post(`/hubs/${setup.hubId}/bulk-jobs/publish`, { selection: [{ contentItemId: item.id }] })).body;
    const bulk = await api.get(`/__sandbox/hubs/${setup.hubId}/bulk-jobs`);
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body._embedded['bulk-jobs'][0]).toMatchObject({ id: job.id, jobType: 'PUBLISH' });
    const publishing = await api.get(`/__sandbox/hubs/${setup.hubId}/publishing-jobs`);
    expect(publishing.status, publishing.text).toBe(200);
    expect(publishing.body.page.totalElements).toBeGreaterThanOrEqual(0);
    expect((await api.get(`/__sandbox/hubs/${unique('nohub')}/bulk-jobs`)).status).toBe(404);
  });

  it('re-sends a recorded delivery as a new delivery of the same event', async () => {
    const hook = (await api.post(`/hubs/${setup.hubId}/webhooks`, { label: unique('hook'), events: ['content-item.created'], handlers: [`${receiver.url}/resend`], secret: 'shh' })).body;
    await createItem(api, setup.repoId, setup.uri);
    const [first] = await receiver.waitFor(1, (r) => r.url === '/resend');
    const attempts = (await api.get(`/hubs/${setup.hubId}/webhooks/${hook.id}/requests`)).body._embedded.requests;
    const res = await api.post(`/__sandbox/hubs/${setup.hubId}/webhooks/${hook.id}/requests/${attempts[0].id}/resend`);
    expect(res.status, res.text).toBe(202);
    expect(res.body.deliveryId).not.toBe(attempts[0].deliveryId);
    await api.get(`/hubs/${setup.hubId}`); // due work runs before a request is answered
    const both = await receiver.waitFor(2, (r) => r.url === '/resend');
    expect(both[1]!.body).toBe(first!.body);
    expect(both[1]!.headers['x-webhook-delivery']).toBe(res.body.deliveryId);
    expect((await api.post(`/__sandbox/hubs/${setup.hubId}/webhooks/${hook.id}/requests/${unique('none')}/resend`)).status).toBe(404);
  });

  it('refuses a client without the webhook permission', async () => {
    const id = unique('reader');
    expect((await api.post('/__sandbox/clients', { id, secret: 'reader-secret', permissions: [] })).status).toBe(201);
    const reader = await new Api(srv.url, id, 'reader-secret').login();
    expect((await reader.post(`/__sandbox/hubs/${setup.hubId}/webhooks/x/requests/x/resend`)).status).toBe(403);
  });
});
