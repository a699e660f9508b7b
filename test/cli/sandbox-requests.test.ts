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

  it('refuses bad input with exit 2', async () => {
    for (const args of [['--limit', '0'], ['--for', '1s'], ['--follow', '-o', 'json'], ['--status', 'bad']]) {
      const res = await home.run(['sandbox', 'requests', ...args], { env });
      expect(res.exitCode, args.join(' ')).toBe(2);
      expect(res.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
