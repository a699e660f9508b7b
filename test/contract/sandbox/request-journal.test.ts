import { describe, it, expect, beforeAll, afterAll, beforeEach } from 'vitest';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';

// The request journal: GET /__sandbox/requests, POST /__sandbox/requests/verify, cleared by
// reset, bounded, and never holding a secret (issue 25, point 4).

let srv: TestServer;
let admin: Api;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
});

afterAll(async () => {
  await srv?.stop();
});

async function journal(query = ''): Promise<any> {
  const res = await admin.get(`/__sandbox/requests${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

async function emptyJournal(): Promise<void> {
  expect((await admin.del('/__sandbox/requests')).status).toBe(204);
}

describe('GET /__sandbox/requests', () => {
  beforeEach(emptyJournal);

  it('records every answered request: time, client, method, path, status, duration, operation', async () => {
    const hub = await createHub(admin);
    await admin.get(`/hubs/${hub.id}`);
    await admin.get('/no/such/route');
    await admin.get('/hubs', { token: null });
    await admin.get('/hubs', { token: 'not-a-token' });
    const { requests } = await journal();
    expect(requests.map((r: any) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'POST /v2/content/hubs 201',
      `GET /v2/content/hubs/${hub.id} 200`,
      'GET /v2/content/no/such/route 404',
      'GET /v2/content/hubs 401',
      'GET /v2/content/hubs 401',
    ]);
    const [created, read, missing, noToken] = requests;
    expect(created).toMatchObject({ clientId: 'sandbox-admin', op: 'hubs.create', fault: null, query: '' });
    expect(created.body).toContain(hub.name);
    expect(Date.parse(created.time)).toBeGreaterThan(Date.now() - 60_000);
    expect(read.durationMs).toBeGreaterThanOrEqual(0);
    expect(read.id).toBeGreaterThan(created.id);
    expect(missing).toMatchObject({ op: null, clientId: null });
    // An auth failure names no client: the token proved nothing.
    expect(noToken).toMatchObject({ op: 'hubs.list', clientId: null });
  });

  it('records the token endpoint with the client asked for, and injected faults with the fault applied', async () => {
    await new Api(srv.url).login();
    expect((await admin.post('/__sandbox/faults', { spec: '503 100% on GET /v2/content/hubs' })).status).toBe(200);
    try {
      expect((await admin.get('/hubs')).status).toBe(503);
    } finally {
      await admin.del('/__sandbox/faults');
    }
    expect((await admin.post('/__sandbox/faults', { spec: 'drop 100% on GET /v2/content/hubs' })).status).toBe(200);
    try {
      await expect(admin.get('/hubs')).rejects.toThrow();
    } finally {
      await admin.del('/__sandbox/faults');
    }
    const { requests } = await journal('?path=/oauth/token');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', status: 200, clientId: 'sandbox-admin', op: 'oauth.issueToken' });
    const faulted = (await journal('?fault=true')).requests;
    expect(faulted.map((r: any) => [r.status, r.fault])).toEqual([
      [503, '503'],
      [null, 'drop'],
    ]);
    expect((await journal('?status=dropped')).requests).toHaveLength(1);
  });

  it('records a request the transport refuses for its Host header, before the service sees it', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${srv.url}/v2/content/hubs?secret=s3cr3t-value`, { headers: { host: 'attacker.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(400);
    const { requests } = await journal('?status=400');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/v2/content/hubs', query: '?secret=[redacted]', op: null, clientId: null });
  });

  it('filters by method, path glob, status and client, and pages with after and limit', async () => {
    const hub = await createHub(admin);
    for (let i = 0; i < 3; i++) await admin.get(`/hubs/${hub.id}`);
    await admin.get('/hubs/000000000000000000000000');
    const reads = await journal(`?method=GET&path=${encodeURIComponent('/v2/content/hubs/*')}`);
    expect(reads.requests).toHaveLength(4);
    expect((await journal('?status=4xx')).requests).toHaveLength(1);
    expect((await journal('?status=404')).requests).toHaveLength(1);
    expect((await journal('?status=200&clientId=sandbox-admin')).requests).toHaveLength(3);
    expect((await journal('?clientId=someone-else')).requests).toHaveLength(0);
    const first = await journal('?limit=2');
    expect(first.requests).toHaveLength(2);
    const rest = await journal(`?after=${first.next}`);
    expect(rest.requests).toHaveLength(3);
    expect(rest.requests[0].id).toBe(first.next + 1);
    expect((await journal(`?after=${rest.next}`)).requests).toEqual([]);
    // order=newest: the last ones (still oldest first in the page).
    const newest = await journal('?order=newest&limit=2');
    expect(newest.requests.map((r: any) => r.id)).toEqual(rest.requests.slice(-2).map((r: any) => r.id));
  });

  it('refuses malformed filters with 400 naming them', async () => {
    for (const q of ['limit=0', 'limit=1001', 'limit=x', 'after=-1', 'status=99', 'status=6xx', 'fault=yes', 'path=no-slash', 'method=G%20T', 'order=up', `path=/${'a'.repeat(2000)}`]) {
      const res = await admin.get(`/__sandbox/requests?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.errors[0].property, q).toBe(q.split('=')[0]);
    }
  });

  it('is for the sandbox admin only, and reading it adds nothing to it', async () => {
    const hub = await createHub(admin);
    const reader = await admin.client(unique('reader'), [], [{ resource: 'hubs', id: hub.id, permissions: ['READ'] }]);
    expect((await reader.get('/__sandbox/requests')).status).toBe(403);
    expect((await reader.post('/__sandbox/requests/verify', { path: '/**' })).status).toBe(403);
    await emptyJournal();
    await journal();
    await admin.post('/__sandbox/requests/verify', { path: '/**', count: 0 });
    expect((await journal()).requests).toEqual([]);
  });

  it('POST /__sandbox/reset empties it, the reset included', async () => {
    await admin.get('/hubs');
    expect((await admin.post('/__sandbox/reset')).status).toBe(204);
    await admin.login();
    const { requests } = await journal();
    // Only the login that followed the reset.
    expect(requests.map((r: any) => r.path)).toEqual(['/oauth/token']);
  });
});

describe('POST /__sandbox/requests/verify', () => {
  beforeEach(emptyJournal);

  it('answers 200 when the journal holds the expected count (method, path glob, body)', async () => {
    const hub = await createHub(admin, unique('verified'));
    await admin.get(`/hubs/${hub.id}`);
    await admin.get(`/hubs/${hub.id}`);
    const exact = await admin.post('/__sandbox/requests/verify', { method: 'GET', path: '/v2/content/hubs/*', count: 2 });
    expect(exact.status, exact.text).toBe(200);
    expect(exact.body).toMatchObject({ ok: true, matched: 2, expected: 'exactly 2' });
    expect((await admin.post('/__sandbox/requests/verify', { method: 'POST', path: '/v2/content/**', bodyContains: hub.name })).status).toBe(200);
    expect((await admin.post('/__sandbox/requests/verify', { path: '/v2/content/hubs/**', count: { atLeast: 2, atMost: 3 } })).status).toBe(200);
    expect((await admin.post('/__sandbox/requests/verify', { method: '*', path: '/v2/content/hub?/*', count: 2 })).status).toBe(200);
  });

  it('answers 417 with the nearest mismatches, as WireMock does', async () => {
    const hub = await createHub(admin);
    await admin.get(`/hubs/${hub.id}`);
    await admin.get('/hubs');
    const res = await admin.post('/__sandbox/requests/verify', { method: 'DELETE', path: `/v2/content/hubs/${hub.id}` });
    expect(res.status, res.text).toBe(417);
    expect(res.body).toMatchObject({ ok: false, matched: 0, expected: 'at least 1' });
    // Closest first: the GET of the same hub differs only by its method.
    expect(res.body.nearMisses[0].request).toMatchObject({ method: 'GET', path: `/v2/content/hubs/${hub.id}` });
    expect(res.body.nearMisses[0].differences).toEqual(['method GET, not DELETE']);
    expect(res.body.nearMisses.length).toBeLessThanOrEqual(5);
    const tooMany = await admin.post('/__sandbox/requests/verify', { method: 'GET', path: '/v2/content/hubs**', count: 0 });
    expect(tooMany.status).toBe(417);
    expect(tooMany.body).toMatchObject({ matched: 2, expected: 'exactly 0' });
    expect(tooMany.body.matches).toHaveLength(2);
  });

  it('refuses a malformed body with 400', async () => {
    const bodies: unknown[] = [{}, { path: 'no-slash' }, { path: '/x', count: -1 }, { path: '/x', count: 'two' }, { path: '/x', count: {} }, { path: '/x', method: 'GET /' }, { path: '/x', bodyContain: 'typo' }, { path: `/${'*'.repeat(2000)}` }, []];
    for (const body of bodies) {
      const res = await admin.post('/__sandbox/requests/verify', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    for (const raw of ['{"path": "/x"', 'not json', '']) {
      const res = await admin.post('/__sandbox/requests/verify', undefined, { raw, headers: { 'content-type': 'application/json' } });
      expect(res.status, raw).toBe(400);
    }
  });

  it('matches a glob in linear time (no backtracking blow-up)', async () => {
    const long = `/v2/content/${'a'.repeat(3000)}`;
    await admin.get(long);
    const started = performance.now();
    const res = await admin.post('/__sandbox/requests/verify', { path: `/${'**a'.repeat(300)}b`, count: 0 });
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('in process (what the programmatic API calls)', () => {
  beforeEach(emptyJournal);

  it('sandbox.requests(filter) and sandbox.verifyRequests(spec) answer as the HTTP endpoints do', async () => {
    const hub = await createHub(admin);
    await admin.get(`/hubs/${hub.id}`);
    await admin.get('/no/such/route');
    const sb = srv.sandbox;
    // The same filters as GET /__sandbox/requests, given as an object (numbers and booleans too).
    expect(sb.requests().map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(['POST /v2/content/hubs 201', `GET /v2/content/hubs/${hub.id} 200`, 'GET /v2/content/no/such/route 404']);
    expect(sb.requests({ method: 'get', path: '/v2/content/hubs/*', fault: false }).map((r) => r.path)).toEqual([`/v2/content/hubs/${hub.id}`]);
    expect(sb.requests({ status: '4xx' }).map((r) => r.status)).toEqual([404]);
    expect(sb.requests({ limit: 1, order: 'newest' }).map((r) => r.status)).toEqual([404]);
    expect(sb.requests({ clientId: 'nobody' })).toEqual([]);
    // Reading it in process adds nothing to it.
    expect(sb.requests()).toHaveLength(3);
    // The same answers as verify: ok, or not with the nearest misses.
    expect(await sb.verifyRequests({ method: 'GET', path: '/v2/content/hubs/*', count: 1 })).toMatchObject({ ok: true, matched: 1 });
    const miss = await sb.verifyRequests({ method: 'DELETE', path: `/v2/content/hubs/${hub.id}` });
    expect(miss).toMatchObject({ ok: false, matched: 0, expected: 'at least 1' });
    expect(miss.nearMisses[0]!.differences).toEqual(['method GET, not DELETE']);
    // Bad input: an error naming what is wrong, as the endpoints' 400 does.
    for (const filter of [{ status: 'bad' }, { limit: 0 }, { path: 'no-slash' }, { order: 'sideways' }, { fault: 'maybe' }, { after: -1 }]) {
      expect(() => sb.requests(filter as never), JSON.stringify(filter)).toThrow(new RegExp(Object.keys(filter)[0]!));
    }
    expect(() => sb.requests({ colour: 'red' } as never)).toThrow(/colour/);
    for (const spec of [{}, { path: 'no-slash' }, { path: '/x', count: -1 }, { path: '/x', bodyContain: 'typo' }, null]) {
      await expect(sb.verifyRequests(spec as never), JSON.stringify(spec)).rejects.toMatchObject({ status: 400 });
    }
  });
});

describe('secrets never reach the journal', () => {
  beforeEach(emptyJournal);

  it('redacts client secrets, tokens, Authorization, secret query parameters and body fields', async () => {
    const clientSecret = `cs-${unique('secret')}-${'x'.repeat(12)}`;
    const hookSecret = `hs-${unique('secret')}`;
    const headerSecret = `hv-${unique('secret')}`;
    const id = unique('journal-client');
    const hub = await createHub(admin);
    expect((await admin.post('/__sandbox/clients', { id, secret: clientSecret, permissions: [] })).status).toBe(201);
    // Logged in with the form and with Basic credentials, then with a wrong secret.
    const form = await fetch(`${srv.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: clientSecret }) });
    expect(form.status).toBe(200);
    const basic = await fetch(`${srv.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${id}:${clientSecret}`).toString('base64')}` }, body: 'grant_type=client_credentials' });
    expect(basic.status).toBe(200);
    await fetch(`${srv.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `grant_type=client_credentials&client_id=${id}&client_secret=${clientSecret}-wrong` });
    const token = admin.token!;
    // Secrets in the query string and the path, and a token sent as the body of some field.
    await admin.get(`/hubs?client_secret=${clientSecret}&access_token=${token}&page=1`);
    await admin.get(`/hubs/${token}`);
    await admin.post(`/hubs/${hub.id}/webhooks`, {
      label: 'hook',
      events: ['content-item.created'],
      handlers: ['http://127.0.0.1:9/hook'],
      secret: hookSecret,
      headers: [
        { key: 'X-Api-Key', value: headerSecret, secret: true },
        { key: 'Authorization', value: `Bearer ${headerSecret}`, secret: false },
      ],
    });
    await admin.post('/hubs', { name: unique('h'), label: `label ${token}` });
    const all = await admin.get('/__sandbox/requests');
    const verify = await admin.post('/__sandbox/requests/verify', { path: '/nothing', bodyContains: 'zzz' });
    for (const text of [all.text, verify.text]) {
      for (const secret of [clientSecret, hookSecret, headerSecret, token, token.split('.')[2]!]) expect(text).not.toContain(secret);
    }
    const requests = all.body.requests as any[];
    expect(requests.length).toBeGreaterThanOrEqual(8);
    expect(requests.find((r) => r.op === 'sandbox.createClient').body).toBe(`{"id":"${id}","secret":"[redacted]","permissions":[]}`);
    // What is not secret stays: the client asked for, the page parameter, the webhook label.
    expect(requests.filter((r) => r.path === '/oauth/token').map((r) => r.clientId)).toEqual([id, id, id]);
    expect(requests.find((r) => r.query.includes('page=1')).query).toContain('client_secret=[redacted]');
    expect(requests.find((r) => r.op === 'webhooks.create').body).toContain('"label":"hook"');
  });
});

describe('secrets in any shape a client sends them', () => {
  beforeEach(emptyJournal);

  it('keeps no secret a body or query carries where the sandbox cannot parse it, or in a URL inside JSON', async () => {
    const secret = `S3cr3t-${unique('v')}`;
    const hub = await createHub(admin);
    const post = (path: string, body: string, contentType: string) => fetch(`${srv.url}${path}`, { method: 'POST', headers: { 'content-type': contentType, authorization: `Bearer ${admin.token}` }, body });
    // curl -F: a multipart form to the token endpoint.
    await post('/oauth/token', `--b\r\nContent-Disposition: form-data; name="client_id"\r\n\r\nsandbox-admin\r\n--b\r\nContent-Disposition: form-data; name="client_secret"\r\n\r\n${secret}\r\n--b--\r\n`, 'multipart/form-data; boundary=b');
    // A form whose fields are separated by ; or a line break (one field to URLSearchParams).
    await post('/oauth/token', `grant_type=client_credentials&client_id=x;client_secret=${secret}`, 'application/x-www-form-urlencoded');
    await post('/oauth/token', `grant_type=client_credentials\nclient_secret=${secret}`, 'application/x-www-form-urlencoded');
    // JSON cut short, with a key spelled with an escape; YAML; XML.
    await post(`/v2/content/hubs/${hub.id}/webhooks`, `{"label":"x","sec\\u0072et":"${secret}",`, 'application/json');
    await post('/v2/content/hubs', `name: x\nclient_secret: ${secret}\n`, 'application/yaml');
    await post('/v2/content/hubs', `<hub><secret>${secret}</secret></hub>`, 'application/xml');
    // A webhook whose handler URL carries a key in its query (as many receivers take one).
    await admin.post(`/hubs/${hub.id}/webhooks`, { label: 'hook', events: ['content-item.created'], handlers: [`https://hooks.example/in?code=1&key=${secret}`, `https://hooks.example/in?client_secret=${secret}`], secret: 'x' });
    await admin.get(`/hubs?key=${secret}&page=0`);
    const all = await admin.get('/__sandbox/requests');
    expect(all.status).toBe(200);
    expect(all.text).not.toContain(secret);
    const verify = await admin.post('/__sandbox/requests/verify', { path: '/nothing', count: 1 });
    expect(verify.status).toBe(417);
    expect(verify.text).not.toContain(secret);
    // What could be redacted in place is kept (a verify can still match it); what could not is said to be left out.
    const requests = all.body.requests as { op?: string; body?: string; query: string; path: string; status: number; clientId: string | null }[];
    expect(requests.find((r) => r.op === 'webhooks.create' && r.status === 201)?.body).toContain('"handlers":["https://hooks.example/in?code=1&key=[redacted]","https://hooks.example/in?client_secret=[redacted]"]');
    expect(requests.find((r) => r.query.includes('page=0'))?.query).toBe('?key=[redacted]&page=0');
    expect(requests.filter((r) => r.body?.startsWith('[body not kept')).length).toBeGreaterThanOrEqual(6);
    // The client asked for at the token endpoint is what the form's client_id says: here a secret too.
    expect(requests.filter((r) => r.path === '/oauth/token').map((r) => r.clientId)).toEqual([null, '[redacted]', null]);
  });
});

describe('a bounded journal', () => {
  it('keeps the newest entries and counts the ones pushed out', async () => {
    const small = await startServer({ journalSize: 5 });
    try {
      const api = await new Api(small.url).login();
      for (let i = 0; i < 9; i++) await api.get(`/hubs?page=${i}`);
      const { body } = await api.get('/__sandbox/requests');
      expect(body.requests).toHaveLength(5);
      expect(body.requests.map((r: any) => r.query)).toEqual(['?page=4', '?page=5', '?page=6', '?page=7', '?page=8']);
      expect(body.evicted).toBe(5);
      expect(body.oldestId).toBe(body.requests[0].id);
    } finally {
      await small.stop();
    }
  });
});
