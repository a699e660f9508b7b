import { afterAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN, CliHome } from '../helpers/cli.js';

describe('the sandbox keeps its data in the data directory', () => {
  const home = new CliHome();
  afterAll(() => home.cleanup());

  it('what one process writes, another reads back', async () => {
    expect((await home.run(['hub', 'create', '--name', 'kept', '--label', 'Kept'])).exitCode).toBe(0);
    expect((await home.run(['repo', 'create', '--hub', 'kept', '--name', 'r1', '--label', 'R1'])).exitCode).toBe(0);
    const repos = await home.json(['repo', 'list', '--hub', 'kept']);
    expect(repos.map((r: { name: string }) => r.name)).toEqual(['r1']);
  });

  it('concurrent CLI processes on one data directory all succeed', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => home.run(['repo', 'create', '--hub', 'kept', '--name', `c${i}`, '--label', `C${i}`])));
    for (const r of results) expect(r.exitCode, r.stderr).toBe(0);
    expect(await home.json(['repo', 'list', '--hub', 'kept'])).toHaveLength(7);
  });

  it('cms sandbox serve shares the directory with the CLI and stops cleanly on SIGTERM', async () => {
    const server = execa(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '-o', 'json'], { env: home.env, reject: false });
    const info = await new Promise<{ url: string; clientId: string; clientSecret: string }>((resolve, reject) => {
      let buf = '';
      server.stdout!.on('data', (chunk: Buffer) => {
        buf += chunk.toString();
        const line = buf.split('\n').find((l) => l.startsWith('{'));
        if (line) resolve(JSON.parse(line));
      });
      server.on('exit', () => reject(new Error(`serve exited early: ${buf}`)));
    });
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info).toMatchObject({ clientId: 'sandbox-admin', clientSecret: 'sandbox-secret' });
    const token = await fetch(`${info.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=sandbox-admin&client_secret=sandbox-secret',
    }).then((r) => r.json() as Promise<{ access_token: string }>);
    const hubs = await fetch(`${info.url}/v2/content/hubs`, { headers: { authorization: `Bearer ${token.access_token}` } }).then((r) => r.json() as Promise<{ _embedded: { hubs: { name: string }[] } }>);
    expect(hubs._embedded.hubs.map((h) => h.name)).toContain('kept');
    // A write over HTTP is seen by the embedded CLI on the same directory.
    await fetch(`${info.url}/v2/content/hubs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'via-http', label: 'Via HTTP' }),
    });
    expect((await home.run(['hub', 'get', 'via-http', '--query', 'label'])).stdout).toBe('Via HTTP\n');
    server.kill('SIGTERM');
    const exit = await server;
    expect(exit.exitCode).toBe(0);
  });
});
