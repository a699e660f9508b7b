import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { parseFaults } from '../../../src/server/core/faults.js';
import { CliHome } from '../../helpers/cli.js';

describe('fault injection', () => {
  let server: TestServer;
  let api: Api;
  beforeAll(async () => {
    server = await startServer();
    api = await new Api(server.url).login();
  });
  afterAll(() => server.stop());

  it('the admin endpoint sets, reports and clears faults; other clients may not', async () => {
    const set = await api.post('/__sandbox/faults', { spec: '503 100% on GET /v2/content/hubs', seed: 3 });
    expect(set.status).toBe(200);
    expect(set.body.rules[0]).toMatchObject({ kind: 'status', status: 503, rate: 1, method: 'GET', path: '/v2/content/hubs' });
    const hit = await api.get('/hubs');
    expect(hit.status).toBe(503);
    expect(hit.headers.get('retry-after')).toBe('1');
    expect(hit.body.errors[0].code).toBe('INJECTED_FAULT');
    expect((await api.get(`/hubs?size=1`)).status).toBe(503);
    expect((await api.post('/hubs', { name: unique('h'), label: 'x' })).status).toBe(201); // other routes untouched
    expect((await api.get('/__sandbox/faults')).body.rules[0].injected).toBe(2);
    const bad = await api.post('/__sandbox/faults', { spec: '418 50%' });
    expect(bad.status).toBe(400);
    const other = await api.client(unique('c'), []);
    expect((await other.post('/__sandbox/faults', { spec: '503 100%' })).status).toBe(403);
    expect((await api.del('/__sandbox/faults')).status).toBe(204);
    expect((await api.get('/hubs')).status).toBe(200);
  });

  it('a 429 fault carries Retry-After; a dropped connection resets the socket without an answer', async () => {
    await api.post('/__sandbox/faults', { rules: [{ kind: 'status', status: 429, rate: 1, retryAfterSeconds: 2, path: '/v2/content/hubs' }] });
    const limited = await api.get('/hubs');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('2');
    await api.post('/__sandbox/faults', { spec: 'drop 100% on /v2/content/hubs' });
    await expect(api.get('/hubs')).rejects.toThrow();
    await api.del('/__sandbox/faults');
    expect((await api.get('/hubs')).status).toBe(200);
  });

  it('a fault strikes before the handler: an injected 503 on create creates nothing', async () => {
    const before = (await api.get('/hubs?size=1')).body.page.totalElements;
    await api.post('/__sandbox/faults', { spec: '503 100% on POST /v2/content/hubs' });
    expect((await api.post('/hubs', { name: unique('h'), label: 'x' })).status).toBe(503);
    await api.del('/__sandbox/faults');
    expect((await api.get('/hubs?size=1')).body.page.totalElements).toBe(before);
  });

  it('a * method matches every method', async () => {
    const set = await api.post('/__sandbox/faults', { spec: 'latency 1ms 100% on * /v2/content/**' });
    expect(set.status, set.text).toBe(200);
    expect((await api.get('/hubs')).status).toBe(200);
    const hub = await api.post('/hubs', { name: unique('h'), label: 'x' });
    expect(hub.status).toBe(201);
    expect((await api.patch(`/hubs/${hub.body.id}`, { label: 'y' })).status).toBe(200);
    expect((await api.get('/__sandbox/faults')).body.rules[0]).toMatchObject({ kind: 'latency', injected: 3 });
    // The same in structured rules.
    expect((await api.post('/__sandbox/faults', { rules: [{ kind: 'latency', ms: 1, rate: 1, method: '*', path: '/v2/content/**' }] })).status).toBe(200);
    expect((await api.post('/hubs', { name: unique('h'), label: 'x' })).status).toBe(201);
    expect((await api.get('/__sandbox/faults')).body.rules[0].injected).toBe(1);
    await api.del('/__sandbox/faults');
  });

  // A rule that can match no request of the service would silently test nothing.
  it.each([
    ['503 5% on FETCH /v2/content/**', 'FETCH'],
    ['503 5% on GET /content-items/*', 'no operation'],
    ['503 5% on content-items', 'start with /'],
    ['drop 5% on /__sandbox/**', '/__sandbox'],
    ['429 5% on DELETE /v2/content/hubs', 'no operation'],
    ['latency 40ms 100% on PUT /v2/content/hubs/*/events', 'no operation'],
  ])('a spec that can match nothing is refused: %s', async (spec, words) => {
    const res = await api.post('/__sandbox/faults', { spec });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ property: 'spec', invalidValue: spec });
    expect(res.body.errors[0].message).toContain(words);
  });

  it('structured rules that can match nothing are refused naming the rule', async () => {
    const res = await api.post('/__sandbox/faults', { rules: [{ kind: 'drop', rate: 1 }, { kind: 'drop', rate: 1, path: '/v2/content/nowhere/**' }] });
    expect(res.status, res.text).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ property: 'rules.1' });
    expect((await api.get('/__sandbox/faults')).body.rules).toEqual([]);
  });

  it('cms sandbox serve --faults refuses a spec that can match nothing (exit 2)', async () => {
    const home = new CliHome();
    try {
      const res = await home.run(['sandbox', 'serve', '--port', '0', '--faults', '503 5% on GET /content-items/*']);
      expect(res.exitCode).toBe(2);
      expect(res.stderr).toContain('no operation');
      expect(res.stderr).not.toMatch(/\n\s+at /);
    } finally {
      home.cleanup();
    }
  });

  it('the CLI survives 429s, 503s and dropped connections on reads (retries with backoff)', async () => {
    const faulty = await startServer({ faults: parseFaults('429 10%; 503 5%; drop 5% on GET /v2/content/**'), faultSeed: 11 });
    const home = new CliHome();
    try {
      const login = await home.run(['login', '--api-url', faulty.url, '--client-id', 'sandbox-admin', '--client-secret', 'sandbox-secret', '--no-verify']);
      expect(login.exitCode).toBe(0);
      for (let i = 0; i < 5; i++) expect((await home.run(['hub', 'create', '--name', `f${i}`, '--label', 'F'])).exitCode).toBe(0);
      for (let i = 0; i < 5; i++) {
        const res = await home.run(['hub', 'list', '--query', 'length(@)', '-o', 'json']);
        expect(res.exitCode, res.stderr).toBe(0);
        expect(JSON.parse(res.stdout)).toBe(5);
      }
      const report = faulty.sandbox.service.faults.report();
      expect(report.rules.reduce((n, r) => n + r.injected, 0)).toBeGreaterThan(0);
    } finally {
      home.cleanup();
      await faulty.stop();
    }
  });
});

// Issue 24.8 over HTTP: the structured rules get the spec text's bounds, and a backtracking glob
// costs a request nothing.
describe('fault rules: bounds and glob cost', () => {
  it('structured rules with unbounded numbers are refused naming the rule', async () => {
    const srv2 = await startServer();
    try {
      const admin = await new Api(srv2.url).login();
      for (const rule of [
        { kind: 'status', status: 429, rate: 1, retryAfterSeconds: 1e308 },
        { kind: 'status', status: 503, rate: 1, retryAfterSeconds: 86_401 },
        { kind: 'drop', rate: 1, path: `/v2/content/${'*'.repeat(600)}` },
      ]) {
        const res = await admin.post('/__sandbox/faults', { rules: [rule] });
        expect(res.status, JSON.stringify(rule)).toBe(400);
        expect(res.body.errors[0].property).toBe('rules.0');
      }
      for (const spec of ['latency 100000000s 10%', '429 10% retry-after Infinity', '429 10% retry-after 1e308']) {
        expect((await admin.post('/__sandbox/faults', { spec })).status, spec).toBe(400);
      }
      const set = await admin.post('/__sandbox/faults', { spec: '503 100% on /v2/content/**a**a**a**a**a**a**b' });
      expect(set.status, set.text).toBe(200);
      const started = performance.now();
      const res = await admin.get(`/${'a'.repeat(200)}`);
      expect(performance.now() - started).toBeLessThan(1000);
      expect(res.status).toBe(404);
    } finally {
      await srv2.stop();
    }
  });
});
