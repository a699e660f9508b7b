import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, unique, startServer, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, type ContentSetup } from '../../helpers/content.js';
import { rawRequest, type RawAnswer } from '../../helpers/raw-http.js';
import { parseCorsOrigin } from '../../../src/server/core/host.js';

// CORS for sites in a browser (`cms sandbox serve --cors-origin`): answered on delivery routes
// only, decided in one place (core/host.ts CorsPolicy from the route table's `cors` mark). An
// explicit origin reaches Content Delivery 2 (published) and the staging routes (latest); `*`
// reaches the published routes only; the API, the token endpoint, /__sandbox and the console
// never answer CORS, whatever the flag says.

const SITE = 'http://localhost:3000';
const EVIL = 'http://evil.example.test';

let listed: TestServer; // --cors-origin http://localhost:3000
let starred: TestServer; // --cors-origin '*'
let plain: TestServer; // no flag
const servers = () => [listed, starred, plain];
let setup: ContentSetup;
let hubName: string;
let published: string;
let draft: string;
let staging: string;

beforeAll(async () => {
  // One data directory served three ways: the same content, three policies.
  listed = await startServer({}, { corsOrigins: [SITE, 'https://shop.example.test:8443'] });
  starred = await startServer({ dataDir: listed.dataDir }, { corsOrigins: ['*'] });
  plain = await startServer({ dataDir: listed.dataDir });
  const api = await new Api(listed.url).login();
  setup = await contentSetup(api);
  hubName = (await api.get(`/hubs/${setup.hubId}`)).body.name;
  published = (await createItem(api, setup.repoId, setup.uri)).id;
  expect((await api.post(`/content-items/${published}/publish`, {})).status).toBe(204);
  draft = (await createItem(api, setup.repoId, setup.uri)).id;
  staging = `${unique('vse')}.staging.example.test`;
  expect((await api.patch(`/hubs/${setup.hubId}/settings`, { virtualStagingEnvironment: { hostname: staging } })).status).toBeLessThan(300);
  // Published before reading: the job runs when a request comes.
  expect((await api.get(`/content-items/${published}`)).body.publishingStatus).toBe('LATEST');
});
afterAll(async () => {
  await plain?.stop();
  await starred?.stop();
  await listed?.stop();
});

const host = (s: TestServer) => new URL(s.url).host;

function send(s: TestServer, method: string, target: string, headers: [string, string][] = [], body?: string): Promise<RawAnswer> {
  const all: [string, string][] = [['Host', host(s)], ['Accept', 'application/json'], ...headers];
  if (body !== undefined) all.push(['Content-Type', 'application/json'], ['Content-Length', String(Buffer.byteLength(body))]);
  return rawRequest(s.url, { method, target, headers: all, body });
}

const preflight = (s: TestServer, target: string, origin: string, method: string, headers = 'content-type', hostName = host(s)) =>
  rawRequest(s.url, {
    method: 'OPTIONS',
    target,
    headers: [['Host', hostName], ['Origin', origin], ['Access-Control-Request-Method', method], ['Access-Control-Request-Headers', headers]],
  });

const cors = (res: RawAnswer) => Object.fromEntries(Object.entries(res.headers).filter(([k]) => k.startsWith('access-control-')));

describe('CORS on Content Delivery 2 (published)', () => {
  it('an explicit origin gets the CORS headers on answers, errors included, and a preflight for POST filter', async () => {
    const byId = await send(listed, 'GET', `/cdn/${hubName}/content/id/${published}?depth=all&format=inlined`, [['Origin', SITE]]);
    expect(byId.status, byId.text).toBe(200);
    expect(byId.headers['access-control-allow-origin']).toBe(SITE);
    expect(byId.headers.vary).toMatch(/\bOrigin\b/);
    expect(byId.headers['access-control-allow-credentials']).toBeUndefined();
    // A 404 the SDK raises as ContentNotFoundError must be readable too.
    const missing = await send(listed, 'GET', `/cdn/${hubName}/content/id/${draft}`, [['Origin', SITE]]);
    expect(missing.status).toBe(404);
    expect(missing.headers['access-control-allow-origin']).toBe(SITE);
    // The second listed origin, with its port.
    const shop = await send(listed, 'GET', `/cdn/${hubName}/content/id/${published}`, [['Origin', 'https://shop.example.test:8443']]);
    expect(shop.headers['access-control-allow-origin']).toBe('https://shop.example.test:8443');

    const pre = await preflight(listed, `/cdn/${hubName}/content/filter`, SITE, 'POST', 'content-type');
    expect(pre.status).toBe(204);
    expect(cors(pre)).toMatchObject({ 'access-control-allow-origin': SITE, 'access-control-allow-methods': 'POST' });
    expect(pre.headers['access-control-allow-headers']!.toLowerCase()).toContain('content-type');
    expect(Number(pre.headers['access-control-max-age'])).toBeGreaterThan(0);
    // Every Content Delivery 2 route: hierarchies too (marked in the route table like the rest).
    const tree = await send(listed, 'GET', `/cdn/${hubName}/content/hierarchies/descendants/id/${published}`, [['Origin', SITE]]);
    expect(tree.status, tree.text).toBe(200);
    expect(tree.headers['access-control-allow-origin']).toBe(SITE);
    const filter = await send(listed, 'POST', `/cdn/${hubName}/content/filter`, [['Origin', SITE]], JSON.stringify({ filterBy: [{ path: '/_meta/schema', value: setup.uri }] }));
    expect(filter.status, filter.text).toBe(200);
    expect(filter.headers['access-control-allow-origin']).toBe(SITE);
  });

  it('an origin not listed gets no CORS headers, and its preflight is not answered as one', async () => {
    for (const origin of [EVIL, 'http://localhost:3001', 'https://localhost:3000', 'null']) {
      const res = await send(listed, 'GET', `/cdn/${hubName}/content/id/${published}`, [['Origin', origin]]);
      expect(res.status).toBe(200);
      expect(cors(res), origin).toEqual({});
      const pre = await preflight(listed, `/cdn/${hubName}/content/filter`, origin, 'POST');
      expect(pre.status).toBe(405);
      expect(cors(pre), origin).toEqual({});
    }
  });

  it('`*` answers any origin on the published routes with `*`', async () => {
    const res = await send(starred, 'GET', `/cdn/${hubName}/content/key/no/such/key`, [['Origin', EVIL]]);
    expect(res.status).toBe(404);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const pre = await preflight(starred, `/cdn/${hubName}/content/fetch`, EVIL, 'POST');
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBe('*');
  });

  it('without --cors-origin nothing changes: no CORS headers, OPTIONS is 405', async () => {
    const res = await send(plain, 'GET', `/cdn/${hubName}/content/id/${published}`, [['Origin', SITE]]);
    expect(res.status).toBe(200);
    expect(cors(res)).toEqual({});
    const pre = await preflight(plain, `/cdn/${hubName}/content/filter`, SITE, 'POST');
    expect(pre.status).toBe(405);
    expect(cors(pre)).toEqual({});
  });
});

describe('CORS on the staging routes (latest): explicit origins only', () => {
  const query = () => `/cms/content/query?store=${hubName}&query=${encodeURIComponent(JSON.stringify({ 'sys.iri': `http://content.cms.amplience.com/${draft}` }))}`;

  it('the staging query and rendering on the own origin, and a staging host\'s delivery, answer a listed origin', async () => {
    const q = await send(listed, 'GET', query(), [['Origin', SITE]]);
    expect(q.status, q.text).toBe(200);
    expect(q.headers['access-control-allow-origin']).toBe(SITE);
    const rendered = await send(listed, 'GET', `/v1/content/${hubName}/content-item/${draft}?template=default`, [['Origin', SITE]]);
    expect(rendered.status).toBe(200);
    expect(rendered.headers['access-control-allow-origin']).toBe(SITE);
    // The SDK reads the edition headers of a rendering.
    expect(rendered.headers['access-control-expose-headers']).toContain('X-Amp-Edition-ID');

    const port = new URL(listed.url).port;
    const onStaging = await rawRequest(listed.url, { target: `/content/id/${draft}`, headers: [['Host', `${staging}:${port}`], ['Origin', SITE], ['x-api-key', 'k']] });
    expect(onStaging.status, onStaging.text).toBe(200);
    expect(onStaging.headers['access-control-allow-origin']).toBe(SITE);
    // The SDK sends its previewKey as x-api-key on staging requests: a preflight allows it.
    const pre = await preflight(listed, `/content/id/${draft}`, SITE, 'GET', 'x-api-key', `${staging}:${port}`);
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-headers']!.toLowerCase()).toContain('x-api-key');
  });

  it('`*` never reaches latest content: no CORS on the staging query, rendering or a staging host', async () => {
    expect(cors(await send(starred, 'GET', query(), [['Origin', EVIL]]))).toEqual({});
    expect(cors(await send(starred, 'GET', `/v1/content/${hubName}/content-item/${draft}`, [['Origin', EVIL]]))).toEqual({});
    const port = new URL(starred.url).port;
    const onStaging = await rawRequest(starred.url, { target: `/content/id/${draft}`, headers: [['Host', `${staging}:${port}`], ['Origin', EVIL]] });
    expect(onStaging.status).toBe(200);
    expect(cors(onStaging)).toEqual({});
    // Not answered as a preflight (a staging host refuses what it does not serve: OPTIONS included).
    const pre = await preflight(starred, `/content/id/${draft}`, EVIL, 'GET', 'x-api-key', `${staging}:${port}`);
    expect(pre.status).toBe(403);
    expect(cors(pre)).toEqual({});
  });
});

describe('never CORS on the API, the token endpoint, /__sandbox or the console', () => {
  it('whatever the flag lists', async () => {
    const api = await new Api(listed.url).login();
    for (const s of servers()) {
      const origin = s === starred ? EVIL : SITE;
      for (const [method, target, body] of [
        ['GET', '/v2/content/hubs'],
        ['GET', `/v2/content/content-items/${published}`],
        ['POST', '/oauth/token', 'grant_type=client_credentials&client_id=sandbox-admin&client_secret=sandbox-secret'],
        ['GET', '/__sandbox/status'],
        ['GET', '/__sandbox/clock'],
        ['GET', '/'],
        ['GET', '/cms/schema/v1/core'],
        ['GET', `/domain/${staging}?timestamp=1`],
        ['GET', '/no/such/path'],
      ] as const) {
        const headers: [string, string][] = [['Origin', origin], ['Authorization', `Bearer ${api.token}`]];
        const res = await send(s, method, target, headers, body);
        expect(cors(res), `${method} ${target}`).toEqual({});
        const pre = await preflight(s, target, origin, method, 'authorization, content-type');
        expect(pre.status, `OPTIONS ${target}`).not.toBe(204);
        expect(cors(pre), `OPTIONS ${target}`).toEqual({});
      }
    }
    // And a staging host's refusals of the rest stay refusals, without CORS.
    const port = new URL(listed.url).port;
    const token = await rawRequest(listed.url, { method: 'OPTIONS', target: '/oauth/token', headers: [['Host', `${staging}:${port}`], ['Origin', SITE], ['Access-Control-Request-Method', 'POST']] });
    expect(token.status).toBe(403);
    expect(cors(token)).toEqual({});
  });
});

describe('--cors-origin values', () => {
  it('takes exact origins (normalised) and *; refuses paths, wildcards in names, null and other schemes', () => {
    expect(parseCorsOrigin('http://localhost:3000')).toBe('http://localhost:3000');
    expect(parseCorsOrigin('http://LocalHost:3000/')).toBe('http://localhost:3000');
    expect(parseCorsOrigin('https://shop.example.test:443')).toBe('https://shop.example.test');
    expect(parseCorsOrigin('*')).toBe('*');
    for (const bad of ['localhost:3000', 'http://localhost:3000/app', 'http://*.example.test', 'null', 'file:///x', 'http://u:p@x.test', 'http://x.test?a=1', '', 'ftp://x.test']) {
      expect(() => parseCorsOrigin(bad), bad).toThrow();
    }
  });
});
