import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { startServer, type TestServer } from '../helpers/server.js';

// Personal access tokens (issue 34, "what users of the peers have"): `cms login --token`,
// CMS_ACCESS_TOKEN, sent as they are and never refreshed; the sandbox mints them for a client.
describe('personal access tokens against a served sandbox', () => {
  const home = new CliHome();
  let server: TestServer;
  const admin = () => ({ CMS_API_URL: server.url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' });
  const mint = async (client = 'sandbox-admin', extra: string[] = []) => {
    const res = await home.run(['sandbox', 'client', 'token', client, ...extra], { env: admin() });
    expect(res.exitCode, res.stderr).toBe(0);
    return res.stdout.trim();
  };

  beforeAll(async () => {
    server = await startServer();
    expect((await home.run(['hub', 'create', '--name', 'served-hub', '--label', 'S'], { env: admin() })).exitCode).toBe(0);
    expect((await home.run(['login', '--profile', 'creds', '--api-url', server.url, '--client-id', 'sandbox-admin', '--client-secret', 'sandbox-secret'])).exitCode).toBe(0);
  });
  afterAll(async () => {
    await server.stop();
    home.cleanup();
  });

  it('the sandbox mints a token for a client: only the token piped, its expiry with -o json', async () => {
    const token = await mint();
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const json = await home.json(['sandbox', 'client', 'token', 'sandbox-admin', '--expires-in', '30d'], { env: admin() });
    expect(json.clientId).toBe('sandbox-admin');
    expect(json.expiresInSeconds).toBe(30 * 86400);
    expect(Date.parse(json.expiresAt)).toBeGreaterThan(Date.now() + 29 * 86400_000);
    // Bad input: a clear error, no token.
    const bad = await home.run(['sandbox', 'client', 'token', 'sandbox-admin', '--expires-in', '400d'], { env: admin() });
    expect(bad.exitCode).not.toBe(0);
    expect(bad.stderr).toContain('366d');
    const unknown = await home.run(['sandbox', 'client', 'token', 'nobody'], { env: admin() });
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toMatch(/nobody/);
  });

  it('login --token-stdin saves a profile that works, never echoing the token; stored 0600 like the secret', async () => {
    const token = await mint();
    const login = await home.run(['login', '--profile', 'sso', '--api-url', server.url, '--token-stdin'], { input: `${token}\n` });
    expect(login.exitCode, login.stderr).toBe(0);
    expect(login.stdout + login.stderr).not.toContain(token);
    const file = join(home.env.CMS_CONFIG_DIR!, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8')).profiles.sso;
    expect(saved).toEqual({ apiUrl: server.url, accessToken: token });

    const hubs = await home.run(['hub', 'list', '--query', '[].name', '--debug']);
    expect(hubs.exitCode, hubs.stderr).toBe(0);
    expect(hubs.stdout.trim()).toBe('served-hub');
    // Sent as it is: no token request at all, and the trace never shows it.
    expect(hubs.stderr).not.toContain('/oauth/token');
    expect(hubs.stderr).not.toContain(token);
  });

  it('profile show and auth status say a token is set and where from, never the token', async () => {
    const token = await mint();
    const env = { CMS_ACCESS_TOKEN: token, CMS_PROFILE: 'creds' };
    const show = await home.run(['profile', 'show'], { env });
    expect(show.exitCode, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/^accessToken\t\(set; never shown\)\tenv$/m);
    expect(show.stdout).toMatch(/^clientSecret\t\(not set\)\tdefault$/m);
    expect(show.stdout).not.toContain(token);
    const json = await home.json(['profile', 'show', 'sso']);
    expect(json.accessToken).toBe('(set; never shown)');
    expect(json.sources.accessToken).toBe('profile');
    expect(JSON.stringify(json)).not.toContain(token.slice(-20));
    const status = await home.run(['auth', 'status', '-o', 'json'], { env });
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.stdout).not.toContain(token);
    expect(JSON.parse(status.stdout).accessToken.source).toBe('environment (CMS_ACCESS_TOKEN)');
    expect(JSON.parse(status.stdout).token.kind).toMatch(/personal access token/);
  });

  it('precedence stays flag > environment > profile: CMS_ACCESS_TOKEN over a profile, not over --profile', async () => {
    const dead = 'not.a.token';
    // The environment's token replaces the current profile's credentials...
    const viaEnv = await home.run(['hub', 'list'], { env: { CMS_ACCESS_TOKEN: dead, CMS_PROFILE: 'creds' } });
    expect(viaEnv.exitCode).toBe(4);
    expect(viaEnv.stderr).toContain('CMS_ACCESS_TOKEN');
    // ...but a profile named with --profile wins over the environment.
    const viaFlag = await home.run(['hub', 'list', '--profile', 'creds', '--query', '[].name'], { env: { CMS_ACCESS_TOKEN: dead } });
    expect(viaFlag.exitCode, viaFlag.stderr).toBe(0);
    // CMS_CLIENT_ID/SECRET in the environment win over a profile's token.
    const creds = await home.run(['hub', 'list', '--query', '[].name'], { env: { CMS_PROFILE: 'sso', CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' } });
    expect(creds.exitCode, creds.stderr).toBe(0);
  });

  it('a token past its expiry on the sandbox clock fails with exit 4 naming expiry and how to get a new one; never refreshed', async () => {
    const token = await mint('sandbox-admin', ['--expires-in', '1h']);
    const env = { CMS_ACCESS_TOKEN: token, CMS_API_URL: server.url };
    expect((await home.run(['hub', 'list'], { env })).exitCode).toBe(0);
    expect((await home.run(['sandbox', 'clock', 'advance', '2h'], { env: admin() })).exitCode).toBe(0);
    try {
      const res = await home.run(['hub', 'list'], { env });
      expect(res.exitCode).toBe(4);
      expect(res.stderr).toContain('The service refused the personal access token (401): it has expired or been revoked');
      expect(res.stderr).toContain('cms sandbox client token');
      expect(res.stderr).toContain('CMS_ACCESS_TOKEN, in the environment');
      expect(res.stderr).not.toMatch(/\n\s+at /);
      // One 401, no token request, no retry with another token.
      const traced = await home.run(['hub', 'list', '--debug'], { env });
      expect(traced.stderr).not.toContain('/oauth/token');
      expect(traced.stderr.split('The access token has expired; request a new one').length - 1).toBe(1);
      const json = await home.run(['hub', 'list', '-o', 'json'], { env });
      expect(json.exitCode).toBe(4);
      expect(json.stderr).toContain('"AUTH"');
      // Tokens of the token endpoint still run on wall-clock time (wire contract 3).
      expect((await home.run(['hub', 'list', '--profile', 'creds'])).exitCode).toBe(0);
    } finally {
      await home.run(['sandbox', 'clock', 'reset'], { env: admin() });
    }
  });

  it("a token dies with its client, and acts with that client's permissions only", async () => {
    const created = await home.run(['sandbox', 'client', 'create', '--id', 'reader', '--secret', 's3cret', '--permission', 'CONTENT:FUNCTIONAL:CONTENT_ITEM:READ', '--acl', 'hub:served-hub:READ'], { env: admin() });
    expect(created.exitCode, created.stderr).toBe(0);
    const token = await mint('reader');
    const env = { CMS_ACCESS_TOKEN: token, CMS_API_URL: server.url };
    expect((await home.run(['hub', 'list', '--query', '[].name'], { env })).stdout.trim()).toBe('served-hub');
    const write = await home.run(['repo', 'create', '--hub', 'served-hub', '--name', 'r', '--label', 'R'], { env });
    expect(write.exitCode).toBe(4);
    expect(write.stderr).not.toContain('personal access token (401)');
    expect((await home.run(['api', 'DELETE', '/__sandbox/clients/reader'], { env: admin() })).exitCode).toBe(0);
    const after = await home.run(['hub', 'list'], { env });
    expect(after.exitCode).toBe(4);
    expect(after.stderr).toContain('expired or been revoked');
  });

  it('login refuses a token with client credentials, and a token that is not one word (exit 2)', async () => {
    const both = await home.run(['login', '--profile', 'x', '--api-url', server.url, '--token', 'abc', '--client-id', 'sandbox-admin', '--no-verify']);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('not both');
    const spaced = await home.run(['login', '--profile', 'x', '--api-url', server.url, '--token-stdin', '--no-verify'], { input: 'Bearer abc' });
    expect(spaced.exitCode).toBe(2);
    const refused = await home.run(['login', '--profile', 'x', '--api-url', server.url, '--token', 'not.a.token']);
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toContain('cms login --token');
  });
});
