import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe as suite, expect, it } from 'vitest';
import { routes } from '../../src/server/core/route-table.js';
import { Api, startServer, unique, type TestServer } from '../helpers/server.js';
import { contentSetup, createItem } from '../helpers/content.js';
import { buildWorld, type World } from './lib/world.js';
import { bodySchemaOf, describe, problemWith, resolve, routeSeed, send, specArb, type Resolved, type Tokens } from './lib/fuzz.js';
import { NASTY_STRINGS } from './lib/arbitraries.js';
import { checkDatabase } from './lib/db.js';
import { rawCases, type RawCase } from './lib/raw-fuzz.js';
import { rawRequest } from '../helpers/raw-http.js';

// Hostile input, over real HTTP on 127.0.0.1, to every route of the route table: path
// parameters filled with ids of real resources, missing ids and garbage; bodies shaped by each
// route's schema, with wrong types, unknown fields, broken and trailing JSON, huge strings and
// arrays, deep nesting; wrong content types, Accept headers and tokens; bad query parameters.
// Then, over raw sockets, what fetch cannot send: hostile Host headers (each must be refused),
// request targets, Content-Length / Transfer-Encoding framing and Content-Types, over many routes.
// Every answer must be a 2xx or a 4xx with the error body, never a 5xx, never a hang; the
// service must keep serving after every batch, and the database must be sound at the end.
//
// Replay: FUZZ_SEED=<seed> (and FUZZ_ROUTE='<METHOD> <path>' for one route, FUZZ_RUNS=<n> per route).

const SEED = Number(process.env.FUZZ_SEED ?? 20240611);
const RUNS = Number(process.env.FUZZ_RUNS ?? 24);
const ONLY = process.env.FUZZ_ROUTE;
const TIMEOUT_MS = 20_000;

let srv: TestServer;
let dataDir: string;
let admin: Api;
let world: World;
let tokens: Tokens;
let memberId: string;

const MEMBER_FN = ['REPOSITORY', 'CONTENT_ITEM', 'CONTENT_TYPE', 'EDITION', 'EVENT', 'WEBHOOK'].map((a) => `CONTENT:FUNCTIONAL:${a}:READ`);

async function newMember(): Promise<Api> {
  memberId = unique('fuzz-member');
  return admin.client(memberId, MEMBER_FN);
}

async function setUp(): Promise<void> {
  admin = await new Api(srv.url).login();
  const member = await newMember();
  world = await buildWorld(admin, memberId);
  tokens = { admin: admin.token!, member: member.token! };
}

/** Undoes what a batch may have broken: faults, the clock, tokens, deleted or archived resources. */
async function restore(rebuild: boolean): Promise<void> {
  const fresh = await new Api(srv.url).login();
  expect((await fresh.del('/__sandbox/faults')).status).toBe(204);
  expect((await fresh.post('/__sandbox/clock', { resume: true })).status).toBe(200);
  expect((await fresh.post('/__sandbox/clock', { set: new Date().toISOString() })).status).toBe(200);
  if (rebuild) return setUp();
  admin = await new Api(srv.url).login();
  const member = await new Api(srv.url, memberId, `${memberId}-secret`).login().catch(() => null);
  if (!member) return setUp();
  tokens = { admin: admin.token!, member: member.token! };
}

/** Routes that answered a 2xx at least once: the fuzz got past validation into the handler. */
const succeeded = new Set<string>();
const debugCodes: Record<string, Set<string>> = {};

const stats = {
  requests: 0,
  byStatus: {} as Record<string, number>,
  byKind: {} as Record<string, number>,
  routes: 0,
  batches: 0,
  healthChecks: 0,
  rebuilds: 0,
  failures: [] as string[],
};

function tally(r: Resolved, status: number) {
  stats.requests++;
  const cls = `${Math.floor(status / 100)}xx`;
  stats.byStatus[cls] = (stats.byStatus[cls] ?? 0) + 1;
  for (const k of r.kinds.length ? r.kinds : ['plain']) stats.byKind[k] = (stats.byKind[k] ?? 0) + 1;
}

async function exchange(r: Resolved, where: string): Promise<number> {
  try {
    const answer = await send(r, TIMEOUT_MS);
    tally(r, answer.status);
    const problem = problemWith(r.method, answer, r.url);
    if (process.env.FUZZ_DEBUG && answer.status >= 400) {
      const key = where.split(' #')[0]!;
      (debugCodes[key] ??= new Set()).add(`${answer.status}:${answer.text.slice(0, 160)}`);
    }
    if (problem) stats.failures.push(`${problem} [${where}, seed ${SEED}]\n  ${describe(r)}\n  answer: ${answer.text.slice(0, 400)}`);
    return answer.status;
  } catch (err) {
    tally(r, 0);
    stats.failures.push(`no answer: ${(err as Error).message} ${(err as Error & { cause?: Error }).cause?.message ?? ''} [${where}, seed ${SEED}]\n  ${describe(r)}`);
    return 0;
  }
}

/** After every batch: the service answers its status and a real read. */
async function healthy(after: string): Promise<void> {
  stats.healthChecks++;
  const status = await fetch(`${srv.url}/__sandbox/status`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  expect(status.status, `status after ${after} (seed ${SEED}): ${await status.text()}\n${stats.failures.slice(-5).join('\n')}`).toBe(200);
  const hubs = await admin.get('/hubs?size=1');
  expect(hubs.status, `a read after ${after} (seed ${SEED}): ${hubs.text}`).toBe(200);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cms-fuzz-'));
  srv = await startServer({ dataDir });
  await setUp();
}, 120_000);

afterAll(async () => {
  await srv?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

suite('fuzzing every route of the route table', () => {
  it(
    'answers every hostile request with a 2xx or a 4xx error body, never a 5xx or a hang, and keeps serving',
    async () => {
      const started = Date.now();
      const targets = routes.filter((r) => !ONLY || `${r.method} ${r.path}` === ONLY);
      expect(targets.length).toBeGreaterThan(0);
      const pools = { strings: [...world.strings, ...NASTY_STRINGS.slice(0, 10)] };
      for (const route of targets) {
        const schema = await bodySchemaOf(route);
        const seed = routeSeed(SEED, route);
        const specs = fc.sample(specArb(route, schema, pools, world.examples[route.op], world.queries[route.op]), { seed, numRuns: RUNS });
        let rebuild = false;
        let restoreNeeded = !!route.sandboxAdmin;
        for (const [i, spec] of specs.entries()) {
          const r = resolve(srv.url, route, spec, world, tokens);
          const status = await exchange(r, `${route.method} ${route.path} #${i}, route seed ${seed}`);
          if (status >= 200 && status < 300) succeeded.add(`${route.method} ${route.path}`);
          // A snapshot restore replaces the world as a reset does.
          if (status >= 200 && status < 300 && (route.method === 'DELETE' || /\/(archive|reset)$/.test(route.path) || route.path === '/__sandbox/snapshots/:name/restore')) rebuild = true;
          if (status === 401 && spec.auth.kind === 'admin') restoreNeeded = true;
        }
        stats.routes++;
        stats.batches++;
        if (rebuild || restoreNeeded) {
          if (rebuild) stats.rebuilds++;
          await restore(rebuild);
        }
        await healthy(`${route.method} ${route.path}`);
      }
      if (!ONLY) await routingBatch();
      await healthy('the routing batch');
      if (!ONLY) await rawBatch();
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const neverOk = targets.filter((r) => !succeeded.has(`${r.method} ${r.path}`)).map((r) => `${r.method} ${r.path}`);
      if (process.env.FUZZ_DEBUG) for (const r of neverOk) console.log(r, [...(debugCodes[r] ?? [])].filter((t) => !/^40[16]|MALFORMED|UNSUPPORTED|NOT_ACCEPTABLE/.test(t)).slice(0, 40));
      console.log(`[reliability] fuzz: ${targets.length - neverOk.length}/${targets.length} routes answered at least one 2xx; never: ${neverOk.join(', ')}`);
      console.log(
        `[reliability] fuzz: seed ${SEED}, ${stats.requests} requests to ${stats.routes} routes (+ routing batch) in ${seconds}s; by status ${JSON.stringify(stats.byStatus)}; ` +
          `by kind ${JSON.stringify(Object.fromEntries(Object.entries(stats.byKind).sort()))}; ${stats.healthChecks} health checks; ${stats.rebuilds} world rebuilds; ${stats.failures.length} failures`,
      );
      const byProblem: Record<string, number> = {};
      for (const f of stats.failures) byProblem[f.split(' [')[0]!] = (byProblem[f.split(' [')[0]!] ?? 0) + 1;
      expect(stats.failures.slice(0, 20), `${stats.failures.length} failures (seed ${SEED}) ${JSON.stringify(byProblem)}:\n${stats.failures.slice(0, 20).join('\n')}`).toEqual([]);
    },
    600_000,
  );

  it('leaves a database that passes the integrity checks', async () => {
    await srv.stop();
    const report = checkDatabase(dataDir);
    console.log(`[reliability] fuzz database: integrity ${report.integrity.join(',')}, ${report.items} items, ${report.versions} versions, ${report.foreignKeyViolations} foreign key violations`);
    expect(report.integrity).toEqual(['ok']);
    expect(report.foreignKeyViolations).toBe(0);
    expect(report.problems).toEqual([]);
  }, 60_000);
});

// The inputs that broke the service when this fuzzer first ran, kept as fixed cases (each one
// answered a 5xx, a bare status line, or left the full-text index behind before its fix).
suite('what the fuzzer found', () => {
  let s: TestServer;
  let api: Api;
  beforeAll(async () => {
    s = await startServer();
    api = await new Api(s.url).login();
  });
  afterAll(() => s?.stop());

  const expectErrorBody = (res: { status: number; headers: Headers; text: string }, status: number) => {
    expect(res.status, res.text).toBe(status);
    expect(problemWith('GET', { status: res.status, contentType: res.headers.get('content-type'), text: res.text })).toBeNull();
  };

  it('a body nested deeper than 1000 levels is a 400, not a stack overflow (500)', async () => {
    const deep = `{"name":"x","label":${'['.repeat(20_000)}1${']'.repeat(20_000)}}`;
    const res = await api.post('/hubs', undefined, { raw: deep });
    expectErrorBody(res, 400);
    expect(res.body.errors[0].code).toBe('MALFORMED_JSON');
    // 1000 levels are still read (and refused by the schema, as any wrong type).
    expectErrorBody(await api.post('/hubs', undefined, { raw: `{"name":"x","label":${'['.repeat(998)}1${']'.repeat(998)}}` }), 400);
  });

  it('a request line over 16 KB gets 431 with the error body, not a bare status line', async () => {
    expectErrorBody(await api.get(`/hubs?q=${'q'.repeat(100_000)}`), 431);
    // The connection pool recovers: the next request is served.
    expect((await api.get('/hubs')).status).toBe(200);
  });

  it('a sandbox clock moved past the year 9999 is refused (it used to make every later answer a 500)', async () => {
    for (const change of [{ advance: 1e300 }, { advance: '999999999w' }, { set: '+275760-09-13T00:00:00.000Z' }, { advance: -1e15 }]) {
      const res = await api.post('/__sandbox/clock', change);
      expectErrorBody(res, 400);
    }
    expect((await api.get('/__sandbox/clock')).status).toBe(200);
    expect((await api.get('/__sandbox/status')).status).toBe(200);
    expect((await api.get('/hubs')).status).toBe(200);
  });

  it('an epoch beyond the last representable date is a 400 on planned, not a 500', async () => {
    const c = await contentSetup(api);
    const item = await createItem(api, c.repoId, c.uri);
    for (const epoch of ['99999999999999999999999', '1e300', '9007199254740993']) expectErrorBody(await api.get(`/content-items/${item.id}/planned?epoch=${epoch}`), 400);
    expect((await api.get(`/content-items/${item.id}/planned?epoch=${Math.floor(Date.now() / 1000)}`)).status).toBe(200);
  });

  it('deleting a hub or a repository takes its items out of the full-text index', async () => {
    const c = await contentSetup(api);
    await createItem(api, c.repoId, c.uri);
    const other = await contentSetup(api);
    await createItem(api, other.repoId, other.uri);
    expect((await api.del(`/content-repositories/${c.repoId}`)).status).toBe(204);
    expect((await api.del(`/hubs/${other.hubId}`)).status).toBe(204);
    const db = s.sandbox.service.db;
    const orphans = db.prepare('SELECT count(*) FROM content_search WHERE rowid NOT IN (SELECT seq FROM content_items)').pluck().get();
    expect(orphans).toBe(0);
  });
});

/** Hostile Host headers, request targets, framing and Content-Types over raw sockets, one kind at a time. */
async function rawBatch(): Promise<void> {
  const cases = rawCases({ port: new URL(srv.url).port, seed: SEED, world, token: tokens.admin, routes, perKind: Math.max(4, Math.round(RUNS / 2)) });
  for (const kind of ['host', 'target', 'framing', 'content-type'] as const) {
    for (const [i, c] of cases.filter((x) => x.kind === kind).entries()) await rawExchange(c, `raw ${kind} #${i}`);
    await restore(true);
    await healthy(`the raw ${kind} batch`);
    stats.batches++;
  }
}

async function rawExchange(c: RawCase, where: string): Promise<void> {
  const r: Resolved = { method: c.method, url: c.target, headers: Object.fromEntries(c.headers), body: c.body, kinds: [`raw:${c.kind}`] };
  const shown = `${c.what}: ${c.method} ${JSON.stringify(c.target).slice(0, 120)} ${JSON.stringify(c.headers.filter(([k]) => k !== 'Authorization')).slice(0, 200)}`;
  try {
    const answer = await rawRequest(srv.url, { method: c.method, target: c.target, headers: c.headers, body: c.body, end: c.end, timeoutMs: TIMEOUT_MS });
    tally(r, answer.status);
    if (answer.status === 0) {
      if (!c.end) stats.failures.push(`no answer [${where}, seed ${SEED}]\n  ${shown}`);
      return;
    }
    const problem = problemWith(c.method, { status: answer.status, contentType: answer.headers['content-type'] ?? null, text: answer.text }, c.target.startsWith('/') ? c.target : undefined);
    if (problem) stats.failures.push(`${problem} [${where}, seed ${SEED}]\n  ${shown}\n  answer: ${answer.text.slice(0, 400)}`);
    else if (c.mustRefuse && answer.status < 400) stats.failures.push(`a hostile Host was served (${answer.status}) [${where}, seed ${SEED}]\n  ${shown}`);
  } catch (err) {
    tally(r, 0);
    stats.failures.push(`no answer: ${(err as Error).message} [${where}, seed ${SEED}]\n  ${shown}`);
  }
}

/** Requests the route table does not describe: unknown paths, wrong methods, mangled paths. */
async function routingBatch(): Promise<void> {
  const methods = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND'];
  const mangle = fc.tuple(
    fc.constantFrom(...routes),
    fc.constantFrom(...methods),
    fc.constantFrom('trailing-slash', 'double-slash', 'extra-segment', 'drop-segment', 'upper-case', 'dot-segment', 'encoded-slash', 'no-prefix'),
  );
  const samples = fc.sample(mangle, { seed: SEED, numRuns: 8 * RUNS });
  for (const [i, [route, method, how]] of samples.entries()) {
    let path = route.path.replace(/[:*](\w+)/g, (_, name: string) => world.params[name]?.[0] ?? 'x');
    if (how === 'trailing-slash') path += '/';
    else if (how === 'double-slash') path = path.replace('/', '//');
    else if (how === 'extra-segment') path += '/extra';
    else if (how === 'drop-segment') path = path.split('/').slice(0, -1).join('/') || '/';
    else if (how === 'upper-case') path = path.toUpperCase();
    else if (how === 'dot-segment') path = path.replace(/\/([^/]+)$/, '/%2e%2e/$1');
    else if (how === 'encoded-slash') path = path.replace(/\/([^/]+)$/, '%2F$1');
    else path = path.replace('/v2/content', '');
    const r: Resolved = { method, url: srv.url + path, headers: { authorization: `Bearer ${tokens.admin}`, accept: 'application/hal+json' }, kinds: [`routing:${how}`] };
    const status = await exchange(r, `routing #${i}`);
    if (status >= 200 && status < 300 && method === 'DELETE') await restore(true);
  }
  await restore(false);
  stats.batches++;
}

// Regex cost (issue 24.3): patterns from schemas run in linear time. Catastrophic-backtracking
// patterns, fixed and generated (nested quantifiers over a generated alphabet), in `pattern`,
// `patternProperties` and draft-07 `propertyNames`, each with an input built to blow up a
// backtracking engine. Every write answers (201 or 400 naming the property), and while the
// hostile writes are in flight another client's read is answered too.
suite('regex cost', () => {
  let s: TestServer;
  let api: Api;
  let hubId: string;
  let repoId: string;
  beforeAll(async () => {
    s = await startServer();
    api = await new Api(s.url).login();
    hubId = (await api.post('/hubs', { name: unique('regex'), label: 'Regex' })).body.id;
    repoId = (await api.post(`/hubs/${hubId}/content-repositories`, { name: unique('regex'), label: 'Regex' })).body.id;
  });
  afterAll(() => s?.stop());

  const FIXED = ['^(a+)+$', '^(a|aa)+$', '^(a|a?)+$', '^(\\w+\\s?)*$', '^(x+x+)+y$', '(.*a){12}$', '^([a-z]+)*[0-9]$'];
  const nested = fc.tuple(fc.constantFrom('a', 'b', '\\w', '[ab]', '.'), fc.constantFrom('+', '*', '{1,30}'), fc.constantFrom('+', '*', '{2,}')).map(([atom, inner, outer]) => `^(${atom}${inner})${outer}$`);

  async function typeWith(properties: Record<string, unknown>): Promise<string> {
    const uri = `https://schemas.example.com/${unique('regex')}.json`;
    const doc = { $schema: 'http://json-schema.org/draft-07/schema#', $id: uri, type: 'object', properties };
    const made = await api.post(`/hubs/${hubId}/content-type-schemas`, { schemaId: uri, body: JSON.stringify(doc), validationLevel: 'CONTENT_TYPE' });
    expect(made.status, made.text).toBe(201);
    const type = await api.post(`/hubs/${hubId}/content-types`, { contentTypeUri: uri, settings: { label: unique('regex') } });
    expect((await api.post(`/content-repositories/${repoId}/content-types`, { contentTypeId: type.body.id })).status).toBe(200);
    return uri;
  }

  it('hostile patterns answer promptly, correctly, and never stall another client', async () => {
    const patterns = [...FIXED, ...fc.sample(nested, { seed: SEED, numRuns: 12 })];
    const evil = `${'a'.repeat(48)}!`;
    let answered = 0;
    for (const pattern of patterns) {
      const uri = await typeWith({ title: { type: 'string', pattern }, map: { type: 'object', patternProperties: { [pattern]: { type: 'string' } }, additionalProperties: { type: 'integer' } }, keys: { type: 'object', propertyNames: { pattern } } });
      const writes = [{ title: evil }, { map: { [evil]: 1 } }, { keys: { [evil]: 1 } }].map((fields) =>
        api.post(`/content-repositories/${repoId}/content-items`, { label: 'r', body: { _meta: { schema: uri }, ...fields } }),
      );
      // Another client's read, sent while the writes are in flight.
      const started = Date.now();
      const read = await api.get(`/hubs/${hubId}`);
      expect(read.status).toBe(200);
      expect(Date.now() - started, `a read waited behind ${pattern}`).toBeLessThan(10_000);
      for (const res of await Promise.all(writes)) {
        expect([201, 400], `${pattern}: ${res.text}`).toContain(res.status);
        if (res.status === 400) expect(res.body.errors[0].property, pattern).toMatch(/^body\.(title|map|keys)/);
        answered++;
      }
    }
    console.log(`[reliability] regex cost: ${patterns.length} hostile patterns, ${answered} writes answered`);
    expect(answered).toBe(patterns.length * 3);
  }, 120_000);
});
