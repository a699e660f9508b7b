import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';
import { rawRequest, type RawAnswer } from '../../helpers/raw-http.js';
import { ERROR_CONTENT_TYPE } from '../../helpers/assert.js';

// The Host header and the request target (issue 11, finding 4). The path comes from the request
// target alone; a malformed Host, a missing one, two of them or an absolute-form target are a 400
// with the error body (never a 500 with a stack trace in the log); only loopback names, the bound
// address, the hubs' staging hostnames and the names given with --allow-host are served, so a web
// page whose DNS name rebinds to 127.0.0.1 cannot use the sandbox.

let srv: TestServer;
let api: Api;
const logged: string[] = [];
let port: string;

beforeAll(async () => {
  srv = await startServer({ onError: (err) => logged.push(String((err as Error)?.stack ?? err)) });
  api = await new Api(srv.url).login();
  port = new URL(srv.url).port;
});
afterAll(() => srv?.stop());

function expectErrorBody(res: RawAnswer, status: number, code?: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toBe(ERROR_CONTENT_TYPE);
  const body = JSON.parse(res.text);
  expect(body.errors[0].level).toBe('ERROR');
  expect(body.errors[0].message.length).toBeGreaterThan(0);
  if (code) expect(body.errors[0].code).toBe(code);
}

const get = (target: string, headers: [string, string][], method = 'GET', body?: string) =>
  rawRequest(srv.url, { method, target, headers: [...headers, ['Authorization', `Bearer ${api.token}`], ['Accept', 'application/json'], ...(body ? ([['Content-Type', 'application/json'], ['Content-Length', String(Buffer.byteLength(body))]] as [string, string][]) : [])], body });

const MALFORMED = [
  'a b',
  '[',
  '[::1',
  '[zz::1]',
  'x:99999',
  'x:',
  ':8080',
  'x:-1',
  'x:8o',
  '%',
  '%41',
  '<script>',
  'a/b',
  'x/__sandbox/reset?',
  'x?y',
  'x#y',
  'a\\b',
  'user@localhost',
  '"localhost"',
  'local host',
  '..',
  'a..b',
  '-',
  'é.test',
  'x'.repeat(300),
];

describe('a malformed Host', () => {
  it.each(MALFORMED)('Host: %s is a 400 with the error body, not a 500', async (host) => {
    const before = logged.length;
    expectErrorBody(await get('/v2/content/hubs', [['Host', host]]), 400, 'INVALID_HOST');
    expect(logged.slice(before)).toEqual([]);
  });

  it('an empty Host, a missing Host and two Host headers are refused the same way', async () => {
    expectErrorBody(await get('/v2/content/hubs', [['Host', '']]), 400, 'INVALID_HOST');
    expectErrorBody(await get('/v2/content/hubs', []), 400, 'INVALID_HOST');
    expectErrorBody(await get('/v2/content/hubs', [['Host', `127.0.0.1:${port}`], ['Host', 'evil.example']]), 400, 'INVALID_HOST');
    expect(logged).toEqual([]);
  });

  it('a Host carrying a path cannot change the route: no reset, nothing created', async () => {
    const hub = await createHub(api);
    for (const host of ['x/__sandbox/reset?', `127.0.0.1:${port}/__sandbox/reset?`, `localhost/__sandbox/reset#`]) {
      expectErrorBody(await get('/v2/content/hubs', [['Host', host]], 'POST', JSON.stringify({ name: unique('h'), label: 'x' })), 400, 'INVALID_HOST');
    }
    expect((await api.get(`/hubs/${hub.id}`)).status).toBe(200);
  });
});

describe('the request target', () => {
  it('an absolute-form target is a 400, whatever authority it names', async () => {
    for (const target of [`http://127.0.0.1:${port}/v2/content/hubs`, 'http://evil.example/__sandbox/reset', 'https://localhost/v2/content/hubs']) {
      expectErrorBody(await get(target, [['Host', `127.0.0.1:${port}`]], 'POST', '{}'), 400, 'INVALID_REQUEST_TARGET');
    }
    expectErrorBody(await get('*', [['Host', `127.0.0.1:${port}`]], 'OPTIONS'), 400, 'INVALID_REQUEST_TARGET');
  });

  it('the path is taken from the target: an authority-looking path stays a path on this origin', async () => {
    const res = await get('//evil.example/v2/content/hubs', [['Host', `127.0.0.1:${port}`]]);
    expectErrorBody(res, 404);
    expect(JSON.parse(res.text).errors[0].invalidValue).toBe('//evil.example/v2/content/hubs');
  });

  it('links are built on the origin the client used', async () => {
    const res = await get('/v2/content/hubs?size=1', [['Host', `localhost:${port}`]]);
    expect(res.status, res.text).toBe(200);
    expect(JSON.parse(res.text)._links.self.href).toMatch(new RegExp(`^http://localhost:${port}/v2/content/hubs`));
  });
});

describe('which names are served', () => {
  it('loopback names and addresses are served, in any case and on any port', async () => {
    for (const host of [`127.0.0.1:${port}`, '127.0.0.1', `localhost:${port}`, 'LOCALHOST', `[::1]:${port}`, '[::1]', `127.1.2.3:${port}`]) {
      const res = await get('/v2/content/hubs?size=1', [['Host', host]]);
      expect(res.status, `${host}: ${res.text}`).toBe(200);
    }
  });

  it('any other name (a DNS rebinding page) is refused before the credentials are looked at', async () => {
    const form = 'grant_type=client_credentials&client_id=sandbox-admin&client_secret=sandbox-secret';
    for (const host of [`evil.example:${port}`, 'evil.example', '192.168.1.10', 'localhost.evil.example', '[::2]', `10.0.0.1:${port}`]) {
      const token = await rawRequest(srv.url, {
        method: 'POST',
        target: '/oauth/token',
        headers: [['Host', host], ['Content-Type', 'application/x-www-form-urlencoded'], ['Content-Length', String(form.length)]],
        body: form,
      });
      expectErrorBody(token, 400, 'HOST_NOT_ALLOWED');
      expect(token.text).not.toContain('access_token');
      expectErrorBody(await get('/__sandbox/reset', [['Host', host]], 'POST', '{}'), 400, 'HOST_NOT_ALLOWED');
    }
    expect(logged).toEqual([]);
  });

  it('a hub staging hostname is served (it is how staging is reached)', async () => {
    const hub = await createHub(api);
    const hostname = `${unique('vse')}.staging.example.test`;
    expectErrorBody(await get('/cms/content/query?query=%7B%7D', [['Host', hostname]]), 400, 'HOST_NOT_ALLOWED');
    expect((await api.patch(`/hubs/${hub.id}/settings`, { virtualStagingEnvironment: { hostname: `https://${hostname}/` } })).status).toBeLessThan(300);
    const res = await get(`/cms/content/query?query=${encodeURIComponent('{"sys.iri":"http://content.sandbox/x"}')}`, [['Host', `${hostname}:${port}`]]);
    expect(res.status, res.text).toBe(200);
    const preview = `${unique('preview')}.staging.example.test`;
    expect((await api.patch(`/hubs/${hub.id}/settings`, { previewVirtualStagingEnvironment: { hostname: preview } })).status).toBeLessThan(300);
    // A staging name reaches what a staging host serves, nothing else (below).
    expectErrorBody(await get('/__sandbox/status', [['Host', preview]]), 403, 'HOST_NOT_ALLOWED_HERE');
  });

  it('a staging hostname reaches only the staging query, rendering and delivery: never the token endpoint, the API, /__sandbox or the console (issue 24.1)', async () => {
    const hub = await createHub(api);
    const hostname = 'rebind.attacker.test';
    expect((await api.patch(`/hubs/${hub.id}/settings`, { virtualStagingEnvironment: { hostname } })).status).toBeLessThan(300);
    const form = 'grant_type=client_credentials&client_id=sandbox-admin&client_secret=sandbox-secret';
    for (const host of [`${hostname}:${port}`, hostname, hostname.toUpperCase()]) {
      const token = await rawRequest(srv.url, {
        method: 'POST',
        target: '/oauth/token',
        headers: [['Host', host], ['Content-Type', 'application/x-www-form-urlencoded'], ['Content-Length', String(form.length)]],
        body: form,
      });
      expectErrorBody(token, 403, 'HOST_NOT_ALLOWED_HERE');
      expect(token.text).not.toContain('access_token');
      for (const [method, target] of [
        ['GET', '/v2/content/hubs'],
        ['GET', '/__sandbox/clients'],
        ['GET', '/__sandbox/faults'],
        ['POST', '/__sandbox/reset'],
        ['GET', '/__sandbox/status'],
        ['GET', '/__sandbox/clock'],
        ['GET', '/'],
        ['GET', '/__sandbox/console'],
        ['GET', `/__sandbox/hubs/${hub.id}/templates`],
        ['GET', '/cms/schema/v1/core'],
        ['GET', '/no/such/path'],
      ] as const) {
        const res = await get(target, [['Host', host]], method, method === 'POST' ? '{}' : undefined);
        expectErrorBody(res, 403, 'HOST_NOT_ALLOWED_HERE');
      }
    }
    // What a staging host serves still answers there.
    const q = `/cms/content/query?store=staging&query=${encodeURIComponent('{"sys.iri":"http://content.cms.amplience.com/x"}')}`;
    expect((await get(q, [['Host', hostname]])).status).toBe(200);
    expect((await get(`/content/id/00000000-0000-4000-8000-000000000000`, [['Host', hostname]])).status).toBe(404);
    // The same routes on loopback are unaffected.
    expect((await get('/__sandbox/status', [['Host', `localhost:${port}`]])).status).toBe(200);
    expect(logged).toEqual([]);
  });
});

describe('--allow-host', () => {
  let allowed: TestServer;
  let open: TestServer;
  beforeAll(async () => {
    allowed = await startServer({}, { allowHosts: ['api.example.test', 'pinned.example.test:8080', '.corp.example.test'] });
    open = await startServer({}, { allowHosts: ['*'] });
  });
  afterAll(async () => {
    await allowed?.stop();
    await open?.stop();
  });

  const status = async (s: TestServer, host: string) => {
    const res = await rawRequest(s.url, { target: '/__sandbox/status', headers: [['Host', host]] });
    if (res.status !== 200) expectErrorBody(res, 400, 'HOST_NOT_ALLOWED');
    return res.status;
  };

  it('a name (any port), a name:port (that port only), a .domain suffix, * (any well-formed Host)', async () => {
    expect(await status(allowed, 'api.example.test')).toBe(200);
    expect(await status(allowed, 'API.example.test:9999')).toBe(200);
    expect(await status(allowed, 'pinned.example.test:8080')).toBe(200);
    expect(await status(allowed, 'pinned.example.test:8081')).toBe(400);
    expect(await status(allowed, 'pinned.example.test')).toBe(400);
    expect(await status(allowed, 'corp.example.test')).toBe(200);
    expect(await status(allowed, 'a.b.corp.example.test:1')).toBe(200);
    expect(await status(allowed, 'evilcorp.example.test')).toBe(400);
    expect(await status(allowed, 'other.example.test')).toBe(400);
    expect(await status(allowed, 'localhost')).toBe(200);
    expect(await status(open, 'anything.example')).toBe(200);
    expect(await status(open, '10.1.2.3:80')).toBe(200);
    // * allows any name, not a malformed Host.
    expectErrorBody(await rawRequest(open.url, { target: '/__sandbox/status', headers: [['Host', 'x/__sandbox/reset?']] }), 400, 'INVALID_HOST');
  });
});
