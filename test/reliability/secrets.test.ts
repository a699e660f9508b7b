import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome, type CliResult } from '../helpers/cli.js';
import { Receiver } from '../helpers/receiver.js';
import { serve, type Served } from './lib/serve.js';

// Secrets never leak: client secrets, access tokens, the vendor_dam API_SECRET, secret webhook
// header values and integration credentials must not appear in any output of the real `cms`
// binary (stdout and stderr, tables and JSON, --debug traces, error messages), nor in what the
// service returns, nor in the sandbox server's own log. Every output is searched for each secret
// value and for anything shaped like a JWT. The credentials file and the token cache are 0600.
// And `cms sandbox serve` binds loopback unless told otherwise, warning when it is not.

const SECRETS = {
  clientSecret: 'cli-secret-Zq81x',
  otherClientSecret: 'other-client-secret-Pw44',
  wrongSecret: 'wrong-secret-Kk09',
  envSecret: 'env-secret-Rr62',
  adminSecret: 'sandbox-secret',
  apiSecret: 'dam-api-secret-7731',
  headerSecret: 'hdr-secret-5521',
  commerceSecret: 'shop-secret-9911',
  cmsSecret: 'cms-cred-secret-3307',
  mailPassword: 'mail-pass-4410',
};
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/;

const home = new CliHome();
let server: Served;
let receiver: Receiver;
let probes = 0;
/** Outputs that showed a secret (only the known leak below may). */
const leaks: string[] = [];

/** Searches one output for every secret value and for JWTs. */
function probe(what: string, text: string): void {
  probes++;
  const found = Object.entries(SECRETS)
    .filter(([, value]) => text.includes(value))
    .map(([name]) => name);
  if (JWT.test(text)) found.push('a JWT');
  if (found.length) leaks.push(`${what}: ${found.join(', ')}`);
  expect(found, `${what} shows ${found.join(', ')}:\n${text.slice(0, 2000)}`).toEqual([]);
}

/** Runs the binary and probes its stdout and stderr. */
async function cms(args: string[], opts: { env?: Record<string, string>; input?: string; exit?: number } = {}): Promise<CliResult> {
  const res = await home.run(args, { env: opts.env, input: opts.input });
  const what = `cms ${args.join(' ')}`;
  probe(`${what} (stdout)`, res.stdout);
  probe(`${what} (stderr)`, res.stderr);
  expect(res.exitCode, `${what}: ${res.stderr}`).toBe(opts.exit ?? 0);
  return res;
}

beforeAll(async () => {
  receiver = await new Receiver().start();
  server = await serve(['--data-dir', join(home.dir, 'served')], {});
  // The admin logs in (its well-known secret may be typed; never printed) and makes a client with a secret of its own.
  await cms(['login', '--profile', 'admin', '--api-url', server.url, '--client-id', 'sandbox-admin', '--client-secret-stdin'], { input: `${SECRETS.adminSecret}\n` });
  await cms(['sandbox', 'client', 'create', '--id', 'sec-client', '--secret', SECRETS.clientSecret, '--permission', 'all']);
  await cms(['login', '--profile', 'main', '--api-url', server.url, '--client-id', 'sec-client', '--client-secret', SECRETS.clientSecret]);
  await cms(['hub', 'create', '--name', 'sec-hub', '--label', 'Secrets']);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await receiver?.stop();
  home.cleanup();
  console.log(`[reliability] secrets: ${probes} outputs probed for ${Object.keys(SECRETS).length} secret values and JWTs; leaks found: ${leaks.length ? leaks.join('; ') : 'none'}`);
});

describe('secrets stay secret', { timeout: 90_000 }, () => {
  it('login, profile show and list', async () => {
    await cms(['login', '--profile', 'again', '--api-url', server.url, '--client-id', 'sec-client', '--client-secret-stdin', '--debug'], { input: `${SECRETS.clientSecret}\n` });
    for (const args of [['profile', 'show'], ['profile', 'show', '-o', 'json'], ['profile', 'show', '-o', 'yaml'], ['profile', 'list'], ['profile', 'list', '-o', 'json'], ['profile', 'show', '--profile', 'admin', '-o', 'json']]) {
      await cms(args);
    }
    // The secrets are stored, in files only their owner can read.
    const config = join(home.env.CMS_CONFIG_DIR!, 'config.json');
    expect(readFileSync(config, 'utf8')).toContain(SECRETS.clientSecret);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    const cache = join(home.env.CMS_CONFIG_DIR!, 'token-cache.json');
    expect(readFileSync(cache, 'utf8')).toMatch(JWT);
    expect(statSync(cache).mode & 0o777).toBe(0o600);
    expect(statSync(home.env.CMS_CONFIG_DIR!).mode & 0o077).toBe(0);
  });

  it('failing commands with bad credentials name the problem, not the secret', async () => {
    const bad = await cms(['login', '--profile', 'bad', '--api-url', server.url, '--client-id', 'sec-client', '--client-secret', SECRETS.wrongSecret, '--debug'], { exit: 4 });
    expect(bad.stderr).toMatch(/not valid/);
    const env = { CMS_API_URL: server.url, CMS_CLIENT_ID: 'sec-client', CMS_CLIENT_SECRET: SECRETS.envSecret };
    const viaEnv = await cms(['hub', 'list', '--debug'], { env, exit: 4 });
    // The trace shows the token request, with the secret redacted.
    expect(viaEnv.stderr).toMatch(/> POST \S+\/oauth\/token/);
    expect(viaEnv.stderr).toContain('client_secret=[redacted]');
    // The failed login saved no profile: an unknown profile is not found (exit 1).
    await cms(['hub', 'list', '--profile', 'bad'], { exit: 1 });
    // A token that is not valid: the API error is shown, the token is not.
    await cms(['api', 'GET', '/hubs', '-H', 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlLXRoYXQtZmFpbHM', '--debug'], { exit: 0 });
  });

  it('cms api with --debug redacts the Authorization header and token answers', async () => {
    const res = await cms(['api', 'GET', '/hubs', '--debug']);
    expect(res.stderr).toMatch(/authorization: Bearer \[redacted\]/);
    await cms(['api', 'POST', '/hubs', '-f', 'name=sec-api-hub', '-f', 'label=Api', '--debug', '-i']);
    // A fresh process with an expired cache asks for a token: its answer is redacted in the trace.
    const cache = join(home.env.CMS_CONFIG_DIR!, 'token-cache.json');
    writeFileSync(cache, '{}', { mode: 0o600 });
    const fresh = await cms(['api', 'GET', '/hubs', '--debug']);
    expect(fresh.stderr).toMatch(/"access_token":"\[redacted\]"/);
  });

  it('hub settings with a vendor_dam API_SECRET: accepted, never returned or printed', async () => {
    const file = join(home.dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ publishing: { platforms: { vendor_dam: { API_KEY: 'dam-key', API_SECRET: SECRETS.apiSecret, endpoint: 'https://dam.example.com' } } } }));
    const set = await cms(['hub', 'settings', 'sec-hub', '--body-file', file, '-o', 'json', '--debug']);
    expect(set.stdout).toContain('dam-key');
    expect(set.stderr).toMatch(/"API_SECRET":"\[redacted\]"/);
    await cms(['hub', 'settings', 'sec-hub']);
    await cms(['hub', 'get', 'sec-hub', '-o', 'json']);
    await cms(['hub', 'list', '-o', 'yaml']);
    await cms(['api', 'GET', '/hubs', '--paginate']);
  });

  it('sandbox client create and list never show a secret', async () => {
    await cms(['sandbox', 'client', 'create', '--profile', 'admin', '--id', 'other-client', '--secret', SECRETS.otherClientSecret, '--permission', 'CONTENT:FUNCTIONAL:HUB:CREATE', '-o', 'json', '--debug']);
    await cms(['sandbox', 'client', 'list', '--profile', 'admin']);
    await cms(['sandbox', 'client', 'list', '--profile', 'admin', '-o', 'json', '--debug']);
    // Only the admin may list clients; the refusal shows no secret either.
    await cms(['sandbox', 'client', 'list'], { exit: 4 });
    // The new client's secret works (it was stored), though nothing shows it.
    await cms(['login', '--profile', 'other', '--api-url', server.url, '--client-id', 'other-client', '--client-secret-stdin'], { input: SECRETS.otherClientSecret });
    await cms(['profile', 'use', 'main']);
  });

  it('webhook secret headers: used on deliveries, shown nowhere (get, list, requests)', async () => {
    const hook = JSON.parse(
      (await cms(['webhook', 'create', '--hub', 'sec-hub', '--label', 'Secret hook', '--event', 'content-item.created', '--handler', `${receiver.url}/hook`, '--secret-header', `X-Api-Key=${SECRETS.headerSecret}`, '-o', 'json'])).stdout,
    );
    await cms(['webhook', 'update', hook.id, '--hub', 'sec-hub', '--label', 'Renamed hook', '-o', 'json']);
    await cms(['webhook', 'get', hook.id, '--hub', 'sec-hub', '-o', 'json']);
    await cms(['webhook', 'list', '--hub', 'sec-hub', '-o', 'json']);
    // Content whose creation fires the webhook.
    const hub = JSON.parse((await cms(['hub', 'get', 'sec-hub', '-o', 'json'])).stdout);
    const uri = 'https://schemas.example.com/secret-type.json';
    const schema = { $schema: 'https://schemas.example.com/cms/schema/v1/schema#', id: uri, title: 'T', type: 'object', allOf: [{ $ref: 'https://schemas.example.com/cms/schema/v1/core#/definitions/content' }], properties: { title: { type: 'string' } } };
    const input = join(home.dir, 'schema.json');
    writeFileSync(input, JSON.stringify({ schemaId: uri, body: JSON.stringify(schema), validationLevel: 'CONTENT_TYPE' }));
    await cms(['api', 'POST', `/hubs/${hub.id}/content-type-schemas`, '--input', input]);
    const type = JSON.parse((await cms(['api', 'POST', `/hubs/${hub.id}/content-types`, '-f', `contentTypeUri=${uri}`, '-F', 'settings={"label":"T"}'])).stdout);
    const repo = JSON.parse((await cms(['api', 'POST', `/hubs/${hub.id}/content-repositories`, '-f', 'name=sec-repo', '-f', 'label=Repo'])).stdout);
    await cms(['api', 'POST', `/content-repositories/${repo.id}/content-types`, '-f', `contentTypeId=${type.id}`]);
    await cms(['api', 'POST', `/content-repositories/${repo.id}/content-items`, '-f', 'label=fires', '-F', `body={"_meta":{"schema":"${uri}"},"title":"x"}`]);
    // The receiver got the real header value; the request log shows it masked.
    const [delivery] = await receiver.waitFor(1, (r) => r.url === '/hook');
    expect(delivery!.headers['x-api-key']).toBe(SECRETS.headerSecret);
    let requests: any[] = [];
    for (let i = 0; i < 50 && !requests.length; i++) {
      requests = JSON.parse((await cms(['webhook', 'requests', hook.id, '--hub', 'sec-hub', '-o', 'json'])).stdout);
      if (!requests.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(requests.length).toBeGreaterThan(0);
    await cms(['webhook', 'requests', hook.id, '--hub', 'sec-hub']);
    await cms(['webhook', 'requests', hook.id, '--hub', 'sec-hub', '--debug', '-o', 'yaml']);
  });

  // KNOWN LEAK, outside this suite's files: src/core/redact.ts redacts by key name, so the --debug
  // trace of a request body shows {"key":"X-Api-Key","value":"<the secret>","secret":true}.
  // Marked as failing until the trace redacts the value of a header marked secret.
  it('the --debug trace of webhook create hides secret header values', async () => {
    await cms(['webhook', 'create', '--hub', 'sec-hub', '--label', 'Traced hook', '--event', 'content-item.created', '--handler', `${receiver.url}/traced`, '--secret-header', `X-Api-Key=${SECRETS.headerSecret}`, '--debug']);
  });

  it('integration credentials are masked in every answer and output', async () => {
    const hub = JSON.parse((await cms(['hub', 'get', 'sec-hub', '-o', 'json'])).stdout);
    const commerceFile = join(home.dir, 'commerce.json');
    writeFileSync(
      commerceFile,
      JSON.stringify({
        hubId: hub.id,
        label: 'Shop',
        'commerce-credentials': { clientId: 'shop-client', clientSecret: SECRETS.commerceSecret },
        'cms-credentials': { clientId: 'cms-client', clientSecret: SECRETS.cmsSecret },
        'commerce-api': { url: 'https://shop.example.com/api', siteId: 'RefArch' },
        rendering: { templateName: 'default' },
      }),
    );
    const commerce = JSON.parse((await cms(['api', 'POST', '/integrations/commerce', '--input', commerceFile, '--debug'])).stdout);
    const marketingFile = join(home.dir, 'marketing.json');
    writeFileSync(
      marketingFile,
      JSON.stringify({
        hubId: hub.id,
        label: 'Mail',
        active: true,
        'marketing-credentials': { username: 'mailer', password: SECRETS.mailPassword },
        'cms-credentials': { clientId: 'cms-client', clientSecret: SECRETS.cmsSecret },
        rendering: { templateName: 'email' },
        contentAssets: { folder: 'email' },
      }),
    );
    const marketing = JSON.parse((await cms(['api', 'POST', '/integrations/marketing', '--input', marketingFile])).stdout);
    await cms(['api', 'GET', `/integrations/commerce/${commerce.id}`]);
    await cms(['api', 'GET', `/integrations/marketing/${marketing.id}`, '--debug']);
    await cms(['api', 'GET', `/hubs/${hub.id}/integrations`]);
    // The integration verbs, where the CLI has them.
    for (const kind of ['commerce', 'marketing']) {
      const id = kind === 'commerce' ? commerce.id : marketing.id;
      if ((await home.run(['integration', kind, 'get', '--help'])).exitCode !== 0) continue;
      await cms(['integration', kind, 'get', id, '-o', 'json', '--debug']);
      await cms(['integration', kind, 'get', id]);
      await cms(['integration', kind, 'list', '--hub', 'sec-hub', '-o', 'json']);
    }
  });

  it("the sandbox server's own log holds no secret", () => {
    probe('cms sandbox serve (stderr)', server.stderr());
  });
});

describe('cms sandbox serve binds loopback unless told otherwise', { timeout: 60_000 }, () => {
  it('by default it listens on 127.0.0.1 and says nothing about exposure', async () => {
    const local = await serve(['--data-dir', join(home.dir, 'loopback')], {});
    try {
      expect(local.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${local.url}/__sandbox/status`);
      expect(res.status).toBe(200);
    } finally {
      await local.stop();
    }
    expect(local.stderr()).not.toMatch(/bound to/);
    probe('cms sandbox serve on loopback (stderr)', local.stderr());
  });

  it('bound to 0.0.0.0 it warns on stderr', async () => {
    const open = await serve(['--host', '0.0.0.0', '--data-dir', join(home.dir, 'open')], {});
    try {
      expect(open.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      // Reachable on loopback too (it is bound to every interface).
      const port = new URL(open.url).port;
      expect((await fetch(`http://127.0.0.1:${port}/__sandbox/status`)).status).toBe(200);
      // The warning comes right after listening; give stderr a moment to arrive.
      for (let i = 0; i < 50 && !/bound to 0\.0\.0\.0/.test(open.stderr()); i++) await new Promise((r) => setTimeout(r, 20));
    } finally {
      await open.stop();
    }
    expect(open.stderr()).toMatch(/bound to 0\.0\.0\.0: anyone who can reach this address can use it/);
  });
});
