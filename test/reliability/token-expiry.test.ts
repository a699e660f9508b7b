import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, type Exchange } from '../../src/core/client.js';
import { TokenProvider } from '../../src/core/auth.js';
import { createTransport, type Transport } from '../../src/core/transport.js';
import { CliHome } from '../helpers/cli.js';
import { Api } from '../helpers/server.js';
import { serve, type Served } from './lib/serve.js';

// A long run outlives several token lifetimes without one failed request: `cms sandbox serve
// --token-ttl 2` hands out tokens that live two seconds, and clients keep working for about
// eight: the CLI core (ApiClient + TokenProvider over HTTP, several concurrent loops; halfway the
// sandbox clock jumps 2 days, which expires nothing (lifetimes run on wall-clock time), and the
// client is deleted and created again with the same id and secret, which kills its tokens early:
// the refresh-once-on-401 path), then
// the real `cms` binary run over and over against a profile, counting token requests in --debug.

const TTL_SECONDS = 2;
const RUN_MS = 8_000;

let dir: string;
let server: Served;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cms-token-'));
  server = await serve(['--data-dir', join(dir, 'data'), '--token-ttl', String(TTL_SECONDS)], {});
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { iat: number; exp: number; jti: string };

describe(`tokens that live ${TTL_SECONDS} seconds`, () => {
  it('the CLI core keeps working for several lifetimes: fresh tokens before expiry, one refresh after an early 401', async () => {
    const admin = await new Api(server.url).login();
    const loopClient = { id: 'token-loop', secret: 'token-loop-secret', permissions: ['CONTENT:FUNCTIONAL:HUB:CREATE'], acl: [] };
    expect((await admin.post('/__sandbox/clients', loopClient)).status).toBe(201);
    const transport: Transport = await createTransport({
      profile: null,
      source: 'flag',
      embedded: false,
      apiUrl: server.url,
      authUrl: server.url,
      clientId: loopClient.id,
      clientSecret: loopClient.secret,
      dataDir: join(dir, 'unused'),
    });
    const seen = { tokenRequests: 0, unauthorized: 0, requests: 0, tokens: new Set<string>() };
    const onExchange = (x: Exchange) => {
      if (x.url.endsWith('/oauth/token')) {
        seen.tokenRequests++;
        return;
      }
      seen.requests++;
      if (x.status === 401) seen.unauthorized++;
      const auth = x.requestHeaders.authorization;
      if (auth) seen.tokens.add(auth.replace(/^Bearer /, ''));
    };
    const tokens = new TokenProvider(transport, { authUrl: server.url, clientId: loopClient.id, clientSecret: loopClient.secret }, join(dir, 'core-token-cache.json'), onExchange);
    const client = new ApiClient(transport, tokens, { apiUrl: server.url, onExchange });
    const failures: string[] = [];
    let completed = 0;
    const started = Date.now();
    const until = started + RUN_MS;
    // While the client is deleted and not yet created again, a token request is rightly refused:
    // the loops hold still (and their requests in flight land) around that window, so what they
    // meet afterwards is only a dead token, not a missing client.
    let hold: Promise<void> | null = null;
    let inFlight = 0;
    const loop = async (n: number) => {
      for (let i = 0; Date.now() < until; i++) {
        if (hold) await hold;
        inFlight++;
        try {
          if (i % 4 === 3) await client.post('/hubs', { name: `tok-${n}-${i}-${started}`, label: 'Token test' });
          else await client.get('/hubs', { query: { size: 5 } });
          completed++;
        } catch (err) {
          failures.push(`${(err as Error).message}`);
        } finally {
          inFlight--;
        }
        await new Promise((r) => setTimeout(r, 15));
      }
    };
    // Halfway, the sandbox clock jumps 2 days ahead (no token may expire for it), then the client
    // is deleted and created again: every token it holds is dead on the server while the client
    // still believes it valid. Its next requests get a 401 and refresh once.
    const jump = (async () => {
      await new Promise((r) => setTimeout(r, RUN_MS / 2));
      await admin.login(); // its own token lives 2 seconds too
      expect((await admin.post('/__sandbox/clock', { advance: '2d' })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 200));
      expect(seen.unauthorized).toBe(0);
      // A token fetched just now is one the client will use for up to a second: it is the one
      // the re-creation kills under its feet.
      await tokens.refresh();
      let release!: () => void;
      hold = new Promise((r) => (release = r));
      while (inFlight > 0) await new Promise((r) => setTimeout(r, 1));
      try {
        expect((await admin.del(`/__sandbox/clients/${loopClient.id}`)).status).toBe(204);
        expect((await admin.post('/__sandbox/clients', loopClient)).status).toBe(201);
      } finally {
        hold = null;
        release();
      }
    })();
    await Promise.all([loop(0), loop(1), loop(2), jump]);
    const elapsed = Date.now() - started;
    await client.close();

    expect(failures).toEqual([]);
    expect(completed).toBeGreaterThan(100);
    const lifetimes = elapsed / 1000 / TTL_SECONDS;
    expect(lifetimes).toBeGreaterThanOrEqual(3.5);
    // New tokens, again and again: at least one per lifetime outlived.
    expect(seen.tokenRequests).toBeGreaterThanOrEqual(Math.floor(lifetimes));
    expect(seen.tokens.size).toBeGreaterThanOrEqual(Math.floor(lifetimes));
    for (const t of seen.tokens) {
      const c = claimsOf(t);
      expect(c.exp - c.iat).toBeGreaterThanOrEqual(TTL_SECONDS);
      expect(c.exp - c.iat).toBeLessThanOrEqual(TTL_SECONDS + 1);
    }
    // The re-creation was answered with 401s, each recovered by one refresh (no request failed).
    expect(seen.unauthorized).toBeGreaterThan(0);
    console.log(
      `[reliability] token expiry (CLI core): ${completed} requests by 3 concurrent loops in ${(elapsed / 1000).toFixed(1)}s with ${TTL_SECONDS}s tokens (${lifetimes.toFixed(1)} lifetimes outlived), ` +
        `0 failed; ${seen.tokenRequests} token requests, ${seen.tokens.size} distinct tokens used, ${seen.unauthorized} early 401s (client re-created; none from a 2-day clock jump) recovered by one refresh each`,
    );
  }, 60_000);

  it('the cms binary run again and again against a profile never fails; --debug shows new tokens', async () => {
    const home = new CliHome();
    try {
      const login = await home.run(['login', '--api-url', server.url, '--client-id', 'sandbox-admin', '--client-secret', 'sandbox-secret']);
      expect(login.exitCode, login.stderr).toBe(0);
      let runs = 0;
      let tokenRequests = 0;
      const failures: string[] = [];
      const started = Date.now();
      while (Date.now() - started < RUN_MS) {
        const res = await home.run(['hub', 'list', '--debug', '-o', 'json']);
        runs++;
        if (res.exitCode !== 0) failures.push(`exit ${res.exitCode}: ${res.stderr.slice(-300)}`);
        else expect(Array.isArray(JSON.parse(res.stdout))).toBe(true);
        tokenRequests += (res.stderr.match(/^> POST \S+\/oauth\/token/gm) ?? []).length;
      }
      const elapsed = Date.now() - started;
      expect(failures).toEqual([]);
      const lifetimes = elapsed / 1000 / TTL_SECONDS;
      expect(tokenRequests).toBeGreaterThanOrEqual(Math.floor(lifetimes) - 1);
      expect(tokenRequests).toBeGreaterThanOrEqual(3);
      expect(tokenRequests).toBeLessThanOrEqual(runs);
      expect(statSync(join(home.env.CMS_CONFIG_DIR!, 'token-cache.json')).mode & 0o777).toBe(0o600);
      console.log(
        `[reliability] token expiry (cms binary): ${runs} runs of cms hub list in ${(elapsed / 1000).toFixed(1)}s with ${TTL_SECONDS}s tokens (${lifetimes.toFixed(1)} lifetimes outlived), 0 failed; ${tokenRequests} token requests in the --debug traces`,
      );
    } finally {
      home.cleanup();
    }
  }, 60_000);
});
