import { describe, expect, it } from 'vitest';
import { FaultInjector, checkFaultRules, parseFaults, whyUnmatched, type FaultRule } from '../../src/server/core/faults.js';

describe('fault specs', () => {
  it('parses statuses, latency, drops, rates, retry-after and route scopes', () => {
    expect(parseFaults('429 10%; 503 5% retry-after 3; latency 200ms 30%; drop 1% on POST /v2/content/content-items/*/publish; 500 2% on /v2/content/**')).toEqual([
      { kind: 'status', status: 429, rate: 0.1, retryAfterSeconds: 1, method: undefined, path: undefined },
      { kind: 'status', status: 503, rate: 0.05, retryAfterSeconds: 3, method: undefined, path: undefined },
      { kind: 'latency', ms: 200, rate: 0.3, method: undefined, path: undefined },
      { kind: 'drop', rate: 0.01, method: 'POST', path: '/v2/content/content-items/*/publish' },
      { kind: 'status', status: 500, rate: 0.02, retryAfterSeconds: undefined, method: undefined, path: '/v2/content/**' },
    ]);
  });

  it.each(['418 10%', '429', '429 200%', 'latency 10%', 'explode 5%', 'latency fast 5%'])('rejects %s', (spec) => {
    expect(() => parseFaults(spec)).toThrow();
  });

  it('* is every method, alone or with a path', () => {
    expect(parseFaults('latency 40ms 100% on * /v2/content/**')).toEqual([{ kind: 'latency', ms: 40, rate: 1, method: undefined, path: '/v2/content/**' }]);
    expect(parseFaults('drop 5% on *')).toEqual([{ kind: 'drop', rate: 0.05, method: undefined, path: undefined }]);
  });

  // A glob is compared with the routes segment by segment: ids, * and ** match what they can.
  it.each([
    ['GET /v2/content/hubs/5f00000000000000000000ff', true],
    ['GET /v2/content/hubs/*/content-repositories', true],
    ['POST /v2/content/**/publish', true],
    ['GET /oauth/token', false],
    ['POST /oauth/token', true],
    ['PATCH /v2/content/content-items', true],
    ['PUT /v2/content/hubs/**', false],
    ['GET /v2/content/hubs/', false],
    ['GET /v2/content/hub*', true],
  ])('%s can match a request: %s', (scope, reachable) => {
    const [method, path] = scope.split(' ');
    expect(whyUnmatched({ method, path }) === null).toBe(reachable);
  });
});

describe('FaultInjector', () => {
  it('strikes at about the configured rate, repeatably for a seed, and counts', () => {
    const run = () => {
      const f = new FaultInjector();
      f.configure(parseFaults('429 10%; 503 5%'), 42);
      let hits = 0;
      const seq: string[] = [];
      for (let i = 0; i < 10_000; i++) {
        const d = f.decide('GET', '/v2/content/hubs');
        if (d.length) hits++;
        seq.push(d.map((x) => (x.kind === 'status' ? x.status : x.kind)).join());
      }
      return { hits, seq: seq.join('|'), report: f.report() };
    };
    const a = run();
    const b = run();
    expect(a.seq).toBe(b.seq);
    expect(a.hits).toBeGreaterThan(1300);
    expect(a.hits).toBeLessThan(1550);
    expect(a.report.requests).toBe(10_000);
    expect(a.report.rules[0]!.injected + a.report.rules[1]!.injected).toBe(a.hits);
  });

  it('only one failure per request; latency may add to it; routes and methods filter; /__sandbox is exempt', () => {
    const f = new FaultInjector();
    f.configure(parseFaults('latency 5ms 100%; 503 100%; 429 100%; drop 100% on DELETE /v2/content/hubs/*'), 1);
    expect(f.decide('GET', '/v2/content/hubs')).toEqual([{ kind: 'latency', ms: 5 }, { kind: 'status', status: 503, retryAfterSeconds: 1 }]);
    expect(f.decide('POST', '/__sandbox/reset')).toEqual([]);
    const g = new FaultInjector();
    g.configure(parseFaults('drop 100% on DELETE /v2/content/hubs/*'), 1);
    expect(g.decide('GET', '/v2/content/hubs/x')).toEqual([]);
    expect(g.decide('DELETE', '/v2/content/hubs/x')).toEqual([{ kind: 'drop' }]);
    expect(g.decide('DELETE', '/v2/content/hubs/x/settings')).toEqual([]);
  });
});

// Issue 24.8: globs match in linear time, and the spec text and structured rules share one
// validation with a bound on every number.
describe('fault rule cost and bounds', () => {
  it('a backtracking glob against a long path is decided in milliseconds, when configured and per request', () => {
    const glob = '/v2/content/**a**a**a**a**a**a**b';
    const path = `/v2/content/${'a'.repeat(2000)}`;
    const f = new FaultInjector();
    let started = performance.now();
    f.configure(parseFaults(`503 100% on ${glob}`), 1);
    expect(performance.now() - started).toBeLessThan(200);
    started = performance.now();
    for (let i = 0; i < 20; i++) expect(f.decide('GET', path)).toEqual([]);
    expect(performance.now() - started).toBeLessThan(500);
    expect(f.decide('GET', `/v2/content/${'a'.repeat(200)}b`)).toEqual([{ kind: 'status', status: 503, retryAfterSeconds: 1 }]);
  });

  it('* stays within a segment, ** spans them, the rest is literal (no regex syntax)', () => {
    const f = new FaultInjector();
    f.configure(parseFaults('drop 100% on /v2/content/hubs/*/settings; latency 1ms 100% on /v2/content/content-items/(a|b)+'), 1);
    expect(f.decide('PATCH', '/v2/content/hubs/x/settings')).toEqual([{ kind: 'drop' }]);
    expect(f.decide('PATCH', '/v2/content/hubs/x/y/settings')).toEqual([]);
    expect(f.decide('GET', '/v2/content/content-items/ab')).toEqual([]);
    expect(f.decide('GET', '/v2/content/content-items/(a|b)+')).toEqual([{ kind: 'latency', ms: 1 }]);
  });

  it.each([
    ['latency 100000000s 10%', /latency/],
    ['latency 61s 10%', /latency/],
    ['429 10% retry-after 1e308', /retry-after/],
    ['429 10% retry-after Infinity', /retry-after/],
    ['429 10% retry-after 86401', /retry-after/],
    ['429 10% retry-after 0.0001', /retry-after/],
    ['429 10% retry-after -1', /retry-after/],
    ['503 1e2%', /rate/],
    [`503 10% on /v2/content/${'*'.repeat(600)}`, /glob/],
  ])('the spec %s is refused', (spec, why) => {
    expect(() => parseFaults(spec)).toThrow(why);
  });

  it.each([
    [{ kind: 'latency', ms: 100_000_000, rate: 0.1 }, /latency/],
    [{ kind: 'status', status: 429, rate: 0.1, retryAfterSeconds: 1e308 }, /retry-after/],
    [{ kind: 'status', status: 429, rate: 0.1, retryAfterSeconds: Infinity }, /retry-after/],
    [{ kind: 'status', status: 418, rate: 0.1 }, /status/],
    [{ kind: 'drop', rate: 2 }, /rate/],
    [{ kind: 'drop', rate: 0.1, path: `/v2/content/${'a'.repeat(600)}` }, /glob/],
  ])('the structured rule %j is refused by the same check', (rule, why) => {
    expect(checkFaultRules([rule as FaultRule])?.message).toMatch(why);
  });

  it('retry-after takes plain decimal seconds (test suites wait 50 ms, not a second)', () => {
    expect(parseFaults('429 10% retry-after 0.05')).toEqual([{ kind: 'status', status: 429, rate: 0.1, retryAfterSeconds: 0.05, method: undefined, path: undefined }]);
    expect(checkFaultRules([{ kind: 'status', status: 429, rate: 0.1, retryAfterSeconds: 0.05 }])).toBeNull();
    expect(checkFaultRules([{ kind: 'status', status: 429, rate: 0.1, retryAfterSeconds: 0.0001 }])?.message).toMatch(/retry-after/);
  });

  it('a valid structured rule passes the check', () => {
    expect(checkFaultRules([{ kind: 'latency', ms: 60_000, rate: 1, path: '/v2/content/**' }])).toBeNull();
  });
});
