import { createServer as createHttpServer, request, type Server } from 'node:http';
import { createServer as createTlsServer, connect as tlsConnect } from 'node:tls';
import { connect, type AddressInfo } from 'node:net';
import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { startSandbox, type SandboxFixture } from '../../../src/fixture/index.js';
import { issueCertificate, pem } from '../../../src/server/intercept/x509.js';
import { Api, unique } from '../../helpers/server.js';
import { contentSetup, createItem, enableDeliveryKeys, itemBody } from '../../helpers/content.js';

// Clients that have no setting for the sandbox's address, unchanged, against the sandbox through
// the interception proxy (startSandbox({ intercept: true }), what `cms sandbox exec --intercept`
// starts): each runs in a child Node process given only fixture.intercept.env (and the admin
// credentials), as a command under `sandbox exec --intercept` is. Then the proxy's trust rules.

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

let sb: SandboxFixture;
let offline: SandboxFixture;
let api: Api;
let hubName: string;
let itemId: string;
const staging = `${unique('vse')}.staging.example.test`;
/** A loopback stand-in for "another host": plain HTTP, records what reached it. */
let standIn: Server;
let standInPort: number;
const reachedStandIn: { url: string; authorization?: string }[] = [];

/** Runs an ES module in a child node with the interception environment (cwd: the repo, so the vendor SDKs resolve). */
async function child(code: string, fixture = sb, extra: Record<string, string> = {}) {
  const env: Record<string, string | undefined> = { ...process.env, ...fixture.intercept!.env, CMS_CLIENT_ID: fixture.clientId, CMS_CLIENT_SECRET: fixture.clientSecret, ...extra };
  const res = await execa(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, env, extendEnv: false, reject: false, timeout: 60_000 });
  if (res.exitCode !== 0) throw new Error(`child exited ${res.exitCode}: ${res.stderr}`);
  return JSON.parse(String(res.stdout).trim().split('\n').pop()!);
}

beforeAll(async () => {
  sb = await startSandbox({ intercept: true });
  offline = await startSandbox({ intercept: { offline: true } });
  api = await new Api(sb.url).login();
  const setup = await contentSetup(api);
  hubName = (await api.get(`/hubs/${setup.hubId}`)).body.name;
  await enableDeliveryKeys(api, setup.hubId);
  itemId = (await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'Published' }, { deliveryKey: 'pages/home' }) })).id;
  expect((await api.post(`/content-items/${itemId}/publish`, {})).status).toBe(204);
  // A draft after publishing: delivery reads the published version, staging the latest.
  const item = (await api.get(`/content-items/${itemId}`)).body;
  expect((await api.patch(`/content-items/${itemId}`, { version: item.version, body: { ...item.body, title: 'Draft' } })).status).toBe(200);
  expect((await api.patch(`/hubs/${setup.hubId}/settings`, { virtualStagingEnvironment: { hostname: staging } })).status).toBe(204);
  standIn = createHttpServer((req, res) => {
    reachedStandIn.push({ url: req.url!, authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`stand-in saw ${req.method} ${req.url}`);
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  standInPort = (standIn.address() as AddressInfo).port;
}, 120_000);

afterAll(async () => {
  await sb?.close();
  await offline?.close();
  standIn?.close();
});

describe('clients unchanged, through the proxy', { timeout: 120_000 }, () => {
  it("the vendor's management SDK with its built-in hosts (no URL given) lists the sandbox's hubs and follows its links", async () => {
    const out = await child(`
      import { DynamicContent } from 'dc-management-sdk-js';
      const dc = new DynamicContent({ client_id: process.env.CMS_CLIENT_ID, client_secret: process.env.CMS_CLIENT_SECRET });
      const hubs = await dc.hubs.list();
      const hub = hubs.getItems().find((h) => h.name === ${JSON.stringify(hubName)});
      const repos = await hub.related.contentRepositories.list();
      console.log(JSON.stringify({ names: hubs.getItems().map((h) => h.name), self: hub._links.self.href, repos: repos.getItems().length }));
    `);
    expect(out.names).toContain(hubName);
    // The service's own links, on the name the client used: the SDK's next calls go the same way.
    expect(out.self).toMatch(/^https:\/\/api\.amplience\.net\/v2\/content\/hubs\//);
    expect(out.repos).toBe(1);
  });

  it("the vendor's delivery SDK with only hubName (no baseUrl) reads published content", async () => {
    const out = await child(`
      import { ContentClient } from 'dc-delivery-sdk-js';
      const client = new ContentClient({ hubName: ${JSON.stringify(hubName)} });
      const item = await client.getContentItemByKey('pages/home');
      console.log(JSON.stringify(item.toJSON()));
    `);
    expect(out).toMatchObject({ title: 'Published', _meta: { deliveryId: itemId, deliveryKey: 'pages/home' } });
  });

  it('a plain fetch to https://<hub>.cdn.content.amplience.net/content/key/... (Node\'s own fetch, through the preload)', async () => {
    const out = await child(`
      const res = await fetch('https://${hubName}.cdn.content.amplience.net/content/key/pages/home?depth=all&format=inlined');
      console.log(JSON.stringify({ status: res.status, body: await res.json() }));
    `);
    expect(out.status).toBe(200);
    expect(out.body.content).toMatchObject({ title: 'Published', _meta: { deliveryKey: 'pages/home' } });
    // Journaled as the sandbox's own request: the mapped path.
    const seen = (await sb.requests()) as { path: string; status: number }[];
    expect(seen.some((r) => r.path === `/cdn/${hubName}/content/key/pages/home` && r.status === 200)).toBe(true);
  });

  it("a hub's staging hostname answers the latest version", async () => {
    const out = await child(`
      const res = await fetch('https://${staging}/content/id/${itemId}?depth=all&format=inlined');
      const api = await fetch('https://${staging}/v2/content/hubs');
      console.log(JSON.stringify({ status: res.status, body: await res.json(), api: api.status }));
    `);
    expect(out.status).toBe(200);
    expect(out.body.content).toMatchObject({ title: 'Draft' });
    // What a staging host reaches is the sandbox's rule (core/host.ts): never the API.
    expect(out.api).toBe(403);
  });

  it('axios (its own proxy support, CONNECT) reads delivery, and the token endpoint answers at auth.amplience.net', async () => {
    const out = await child(`
      import axios from 'axios';
      const res = await axios.get('https://${hubName}.cdn.content.amplience.net/content/id/${itemId}');
      const token = await axios.post('https://auth.amplience.net/oauth/token', new URLSearchParams({ grant_type: 'client_credentials', client_id: process.env.CMS_CLIENT_ID, client_secret: process.env.CMS_CLIENT_SECRET }));
      console.log(JSON.stringify({ title: res.data.content.title, token: typeof token.data.access_token }));
    `);
    expect(out).toEqual({ title: 'Published', token: 'string' });
  });

  it('another host passes through unchanged (a loopback stand-in), in absolute form and through a tunnel', async () => {
    const absolute = await viaProxy(sb, `http://127.0.0.1:${standInPort}/hello?x=1`);
    expect(absolute).toEqual({ status: 200, body: 'stand-in saw GET /hello?x=1\n'.trimEnd() });
    // CONNECT to a name that is not intercepted: bytes relayed, plain HTTP inside the tunnel.
    const tunnelled = await tunnel(sb, `127.0.0.1:${standInPort}`, `GET /tunnelled HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    expect(tunnelled).toMatch(/^HTTP\/1\.1 200 Connection Established\r\n\r\nHTTP\/1\.1 200 OK\r\n[\s\S]*stand-in saw GET \/tunnelled/);
  });

  it('offline, another host is refused naming it (absolute form, CONNECT, and a client in a child process)', async () => {
    const before = reachedStandIn.length;
    const absolute = await viaProxy(offline, `http://127.0.0.1:${standInPort}/nope`);
    expect(absolute.status).toBe(403);
    expect(absolute.body).toContain(`refused 127.0.0.1:${standInPort}`);
    const tunnelled = await tunnel(offline, `example.org:443`, '');
    expect(tunnelled).toMatch(/^HTTP\/1\.1 403 Forbidden[\s\S]*refused example\.org:443/);
    const out = await child(`
      const res = await fetch('https://example.org/').then((r) => r.status, (e) => 'failed: ' + String(e.cause?.message ?? e.message));
      const own = await fetch('https://auth.amplience.net/oauth/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: process.env.CMS_CLIENT_ID, client_secret: process.env.CMS_CLIENT_SECRET }) });
      console.log(JSON.stringify({ other: res, own: own.status }));
    `, offline);
    // undici reports a refused CONNECT in its own words; the proxy's answer (and `sandbox exec`'s stderr) names the host.
    expect(String(out.other)).toMatch(/^failed: /);
    expect(out.own).toBe(200);
    expect(reachedStandIn.length).toBe(before);
  });
});

describe("the proxy's trust rules", { timeout: 60_000 }, () => {
  it('a CONNECT to a name that is not intercepted never gets a certificate of the CA: the far end\'s own is seen', async () => {
    // A TLS stand-in with a certificate of its own (not the sandbox CA's).
    const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const now = Date.now();
    const own = pem(issueCertificate({ subjectKey: keys.publicKey, issuerKey: keys.privateKey, issuerPublicKey: keys.publicKey, issuerName: 'stand-in', notBefore: new Date(now - 3_600_000), notAfter: new Date(now + 86_400_000), dnsNames: ['stand-in.test'] }));
    const server = createTlsServer({ key: keys.privateKey.export({ format: 'pem', type: 'pkcs8' }), cert: own }, (s) => s.end('hi'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const seen = await tlsThroughProxy(sb, `127.0.0.1:${port}`, 'stand-in.test');
      expect(seen.issuer).toMatch(/ stand-in$/);
      expect(seen.issuer).not.toContain('interception CA');
      // An intercepted name gets a leaf of the CA, for exactly that name.
      const leaf = await tlsThroughProxy(sb, 'api.amplience.net:443', 'api.amplience.net');
      expect(leaf.issuer).toContain('cms sandbox interception CA');
      expect(leaf.subjectAltName).toBe('DNS:api.amplience.net');
      // The same name on another port is not intercepted (and here reaches nothing).
      expect(await tunnel(offline, 'api.amplience.net:8443', '')).toMatch(/^HTTP\/1\.1 403/);
    } finally {
      server.close();
    }
  });

  it('an absolute URL for another host carrying the sandbox\'s credentials is refused, never forwarded; other credentials pass', async () => {
    const token = (await new Api(sb.url).login()).token!;
    const before = reachedStandIn.length;
    const withToken = await viaProxy(sb, `http://127.0.0.1:${standInPort}/leak`, { authorization: `Bearer ${token}` });
    expect(withToken.status).toBe(403);
    expect(withToken.body).toContain("carries the sandbox's credentials");
    const withSecret = await viaProxy(sb, `http://127.0.0.1:${standInPort}/leak`, { authorization: `Basic ${Buffer.from(`${sb.clientId}:${sb.clientSecret}`).toString('base64')}` });
    expect(withSecret.status).toBe(403);
    const inQuery = await viaProxy(sb, `http://127.0.0.1:${standInPort}/oauth/token?client_id=${sb.clientId}&client_secret=${sb.clientSecret}`);
    expect(inQuery.status).toBe(403);
    expect(reachedStandIn.length).toBe(before);
    const other = await viaProxy(sb, `http://127.0.0.1:${standInPort}/fine`, { authorization: 'Bearer someone-elses' });
    expect(other.status).toBe(200);
    expect(reachedStandIn.at(-1)).toEqual({ url: '/fine', authorization: 'Bearer someone-elses' });
  });

  it("a staging hostname naming somebody else's host is not intercepted: it passes through (here: refused offline)", async () => {
    const call = await new Api(offline.url).login();
    const hubId = (await call.post('/hubs', { name: unique('hub'), label: 'Hub' })).body.id;
    expect((await call.patch(`/hubs/${hubId}/settings`, { virtualStagingEnvironment: { hostname: 'registry.npmjs.org' } })).status).toBe(204);
    expect(await tunnel(offline, 'registry.npmjs.org:443', '')).toMatch(/^HTTP\/1\.1 403 Forbidden[\s\S]*refused registry\.npmjs\.org:443/);
    // The same hub with a name of the service's staging domain is.
    expect((await call.patch(`/hubs/${hubId}/settings`, { virtualStagingEnvironment: { hostname: 'abc123.staging.bigcontent.io' } })).status).toBe(204);
    const leaf = await tlsThroughProxy(offline, 'abc123.staging.bigcontent.io:443', 'abc123.staging.bigcontent.io');
    expect(leaf.subjectAltName).toBe('DNS:abc123.staging.bigcontent.io');
  });

  it('a path that climbs out of the mapped prefix is not served (.. and %2e%2e)', async () => {
    for (const path of ['/../__sandbox/requests', '/%2e%2e/%2e%2e/__sandbox/requests', '/v2/content/../../__sandbox/requests']) {
      const res = await viaProxy(sb, `http://api.amplience.net${path}`);
      expect(res.status, path).toBe(404);
    }
    const cdn = await viaProxy(sb, `http://${hubName}.cdn.content.amplience.net/../../v2/content/hubs`);
    // Resolved by the URL parser before mapping: still under /cdn/<hub>/, which has no such route.
    expect(cdn.status).toBe(404);
  });

  it('listens on loopback only; a request that is not a proxy request (a rebound DNS name, a form post) gets nothing', async () => {
    const proxy = new URL(sb.intercept!.proxyUrl);
    expect(proxy.hostname).toBe('127.0.0.1');
    const external = Object.values(networkInterfaces()).flat().find((i) => i && i.family === 'IPv4' && !i.internal);
    if (external) {
      const err = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
        const s = connect(Number(proxy.port), external.address);
        s.once('connect', () => (s.destroy(), resolve(null)));
        s.once('error', resolve);
      });
      expect(err?.code).toBe('ECONNREFUSED');
    }
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: proxy.port, path: '/v2/content/hubs', headers: { host: 'evil.example' } }, (r) => {
        let body = '';
        r.on('data', (c) => (body += c));
        r.on('end', () => resolve({ status: r.statusCode!, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(400);
    expect(res.body).toContain('this is an HTTP proxy');
  });

  it('the environment names only the CA certificate, never its key', () => {
    const env = sb.intercept!.env;
    expect(env.NODE_EXTRA_CA_CERTS).toBe(sb.intercept!.caFile);
    expect(new X509Certificate(readFileSync(env.NODE_EXTRA_CA_CERTS!)).ca).toBe(true);
    expect(Object.values(env).join('\n')).not.toMatch(/key\.pem|PRIVATE KEY/);
    expect(env.NO_PROXY).toBe('localhost,127.0.0.1,::1');
    expect(env.NODE_USE_ENV_PROXY).toBe('1');
  });
});

/** An absolute-form request through the proxy. */
function viaProxy(fixture: SandboxFixture, url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const proxy = new URL(fixture.intercept!.proxyUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: proxy.hostname, port: proxy.port, path: url, headers: { host: new URL(url).host, ...headers } }, (r) => {
      let body = '';
      r.on('data', (c) => (body += c));
      r.on('end', () => resolve({ status: r.statusCode!, body: body.trimEnd() }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A raw CONNECT, then `payload` in the tunnel; everything read until the end. */
function tunnel(fixture: SandboxFixture, target: string, payload: string): Promise<string> {
  const proxy = new URL(fixture.intercept!.proxyUrl);
  return new Promise((resolve, reject) => {
    const s = connect(Number(proxy.port), proxy.hostname);
    let got = '';
    s.on('data', (c) => {
      got += c;
      if (payload && got.includes('\r\n\r\n') && !s.writableEnded && got.startsWith('HTTP/1.1 200')) s.write(payload), (payload = '');
    });
    s.on('end', () => resolve(got));
    s.on('error', reject);
    s.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
  });
}

/** The certificate a TLS client sees through a CONNECT tunnel (not verified: only looked at). */
function tlsThroughProxy(fixture: SandboxFixture, target: string, servername: string): Promise<{ issuer: string; subjectAltName?: string }> {
  const proxy = new URL(fixture.intercept!.proxyUrl);
  return new Promise((resolve, reject) => {
    const s = connect(Number(proxy.port), proxy.hostname);
    s.once('data', (c) => {
      if (!String(c).startsWith('HTTP/1.1 200')) return reject(new Error(String(c)));
      const t = tlsConnect({ socket: s, servername, rejectUnauthorized: false }, () => {
        const cert = t.getPeerCertificate();
        resolve({ issuer: `${cert.issuer.O ?? ''} ${cert.issuer.CN ?? ''}`, subjectAltName: cert.subjectaltname });
        t.destroy();
      });
      t.on('error', reject);
    });
    s.on('error', reject);
    s.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`);
  });
}
