import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve.js';

// cms sandbox requests: the served sandbox's request journal through the built binary.

describe('cms sandbox requests', () => {
  const home = new CliHome();
  let served: ServedSandbox;
  let env: Record<string, string>;

  beforeAll(async () => {
    served = await serveSandbox(home.env);
    env = { CMS_API_URL: `${served.url}/v2/content`, CMS_AUTH_URL: served.url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
  });
  afterAll(async () => {
    await served?.stop();
    home.cleanup();
  });
  beforeEach(async () => {
    expect((await home.run(['sandbox', 'reset', '--yes'], { env })).exitCode).toBe(0);
  });

  it('lists what the sandbox answered, as a table and as NDJSON, with filters', async () => {
    expect((await home.run(['hub', 'list'], { env })).exitCode).toBe(0);
    expect((await home.run(['hub', 'get', 'no-such-hub-id-000000000'], { env })).exitCode).not.toBe(0);
    const table = await home.run(['sandbox', 'requests'], { env });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/GET\t\/v2\/content\/hubs\S*\t200/);
    const nd = await home.run(['sandbox', 'requests', '-o', 'ndjson', '--method', 'get', '--path', '/v2/content/hubs**'], { env });
    expect(nd.exitCode, nd.stderr).toBe(0);
    const rows = nd.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.length).toBeGreaterThanOrEqual(1);
    for (const r of rows) expect(r).toMatchObject({ method: 'GET', clientId: 'sandbox-admin', fault: null });
    const failed = await home.json(['sandbox', 'requests', '--status', '4xx'], { env });
    expect(failed.every((r: { status: number }) => r.status >= 400 && r.status < 500)).toBe(true);
    // No secret in what it prints: the client secret went to the token endpoint.
    await fetch(`${served.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&client_id=sandbox-admin&client_secret=sandbox-secret' });
    const all = await home.run(['sandbox', 'requests', '-o', 'json'], { env });
    expect(all.stdout).toContain('/oauth/token');
    expect(all.stdout).not.toContain('sandbox-secret');
  });

  it('--follow prints new requests as they arrive, and stops after --for', async () => {
    const following = home.run(['sandbox', 'requests', '--follow', '--for', '3s', '--interval', '100ms', '-o', 'ndjson', '--path', '/v2/content/hubs'], { env });
    await new Promise((r) => setTimeout(r, 1000));
    await fetch(`${served.url}/v2/content/hubs`);
    const res = await following;
    expect(res.exitCode, res.stderr).toBe(0);
    const rows = res.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(rows.map((r) => [r.method, r.path, r.status])).toContainEqual(['GET', '/v2/content/hubs', 401]);
  });

  it('with the embedded profile reads the local serve on --port, and says when none answers (exit 1)', async () => {
    // The served sandbox shares the home's data directory: the embedded profile's local serve.
    const port = new URL(served.url).port;
    const local = await home.json(['sandbox', 'requests', '--port', port, '--method', 'POST', '--path', '/__sandbox/reset']);
    expect(local).toHaveLength(0); // the reset cleared the journal, itself included
    await fetch(`${served.url}/v2/content/hubs`);
    expect(await home.json(['sandbox', 'requests', '--port', port, '--path', '/v2/content/hubs'])).toHaveLength(1);
    const none = await home.run(['sandbox', 'requests', '--port', '1']);
    expect(none.exitCode).toBe(1);
    expect(none.stderr).toContain('No sandbox answers at http://127.0.0.1:1');
    expect(none.stderr).toContain('cms sandbox serve --port 1');
    expect((await home.run(['sandbox', 'requests', '--port', 'web'])).exitCode).toBe(2);
  });

  it('holds no secret the binary sent: the login form, a client secret, a webhook signing secret, secret headers, a handler URL key', async () => {
    const secrets = { client: 'client-secret-0123456789', signing: 'signing-secret-0123456789', header: 'header-secret-0123456789', key: 'url-key-0123456789' };
    expect((await home.run(['hub', 'create', '--name', 'journal', '--label', 'Journal'], { env })).exitCode).toBe(0);
    const client = await home.run(['sandbox', 'client', 'create', '--id', 'journal-reader', '--secret-stdin', '--permission', 'all'], { env, input: secrets.client });
    expect(client.exitCode, client.stderr).toBe(0);
    const hook = await home.run(
      ['webhook', 'create', '--hub', 'journal', '--label', 'hook', '--event', 'content-item.created', '--handler', `https://hooks.example/in?key=${secrets.key}`, '--secret-stdin', '--secret-header', `X-Api-Key=${secrets.header}`],
      { env, input: secrets.signing },
    );
    expect(hook.exitCode, hook.stderr).toBe(0);
    // The new client logs in (its secret in the token form) and lists hubs.
    const asReader = { ...env, CMS_CLIENT_ID: 'journal-reader', CMS_CLIENT_SECRET: secrets.client };
    expect((await home.run(['hub', 'list'], { env: asReader })).exitCode).toBe(0);
    const out = await home.run(['sandbox', 'requests', '-o', 'ndjson'], { env });
    expect(out.exitCode, out.stderr).toBe(0);
    for (const secret of [...Object.values(secrets), 'sandbox-secret']) expect(out.stdout).not.toContain(secret);
    const lines = out.stdout.trim().split('\n').map((l) => JSON.parse(l) as { op: string; path: string; clientId: string | null; body?: string });
    // What is not secret stays: who logged in, what was created.
    expect(lines.filter((r) => r.path === '/oauth/token').map((r) => r.clientId)).toContain('journal-reader');
    expect(lines.find((r) => r.op === 'webhooks.create')?.body).toContain('https://hooks.example/in?key=[redacted]');
  });

  it('verify through the binary (cms api): 200 exit 0, a mismatch 417 exit 1 with the near misses, a malformed body exit 2', async () => {
    await fetch(`${served.url}/v2/content/hubs`);
    const verify = (body: string) => home.run(['api', 'POST', '/__sandbox/requests/verify', '--input', '-'], { env, input: body });
    const ok = await verify(JSON.stringify({ method: 'GET', path: '/v2/content/hubs', count: 1 }));
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, matched: 1 });
    const miss = await verify(JSON.stringify({ method: 'DELETE', path: '/v2/content/hubs' }));
    expect(miss.exitCode).toBe(1);
    expect(miss.stderr).toMatch(/^error: 417 Expectation Failed: .*"nearMisses"/m);
    for (const body of ['{"path": "/x"', JSON.stringify({ path: 'no-slash' }), JSON.stringify({ path: '/x', count: -1 })]) {
      const bad = await verify(body);
      expect(bad.exitCode, body).toBe(2);
      expect(bad.stderr, body).toMatch(/^error: /m);
      expect(bad.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('refuses bad input with exit 2', async () => {
    for (const args of [['--limit', '0'], ['--for', '1s'], ['--follow', '-o', 'json'], ['--status', 'bad']]) {
      const res = await home.run(['sandbox', 'requests', ...args], { env });
      expect(res.exitCode, args.join(' ')).toBe(2);
      expect(res.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
