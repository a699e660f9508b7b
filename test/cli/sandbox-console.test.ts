import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve.js';

describe('cms sandbox console', () => {
  const home = new CliHome();
  let served: ServedSandbox;
  let port: string;

  beforeAll(async () => {
    served = await serveSandbox(home.env);
    port = new URL(served.url).port;
  });
  afterAll(async () => {
    await served?.stop();
    home.cleanup();
  });

  it('prints the URL of the console the local serve answers at', async () => {
    const out = await home.json(['sandbox', 'console', '--port', port]);
    expect(out).toEqual({ url: `${served.url}/__sandbox/console` });
    const page = await fetch(out.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('/__sandbox/console/app.js');
    const table = await home.run(['sandbox', 'console', '--port', port]);
    expect(table.exitCode).toBe(0);
    expect(table.stdout).toContain(`${served.url}/__sandbox/console`);
  });

  it('uses the served sandbox of an HTTP profile', async () => {
    const env = { CMS_API_URL: `${served.url}/v2/content`, CMS_AUTH_URL: served.url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
    const out = await home.json(['sandbox', 'console'], { env });
    expect(out.url).toBe(`${served.url}/__sandbox/console`);
  });

  it('fails with what to do when no sandbox is served there (exit 1)', async () => {
    const res = await home.run(['sandbox', 'console', '--port', '1']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain('No sandbox answers at http://127.0.0.1:1');
    expect(res.stderr).toContain('cms sandbox serve --port 1');
    expect(res.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('refuses a port that is not one (exit 2)', async () => {
    const res = await home.run(['sandbox', 'console', '--port', 'web']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('--port must be 1..65535');
  });

  it('--open opens the URL with $BROWSER', async () => {
    const seen = join(home.dir, 'opened.txt');
    const browser = join(home.dir, 'browser.sh');
    writeFileSync(browser, `#!/bin/sh\necho "$1" > '${seen}'\n`);
    chmodSync(browser, 0o755);
    const out = await home.json(['sandbox', 'console', '--port', port, '--open'], { env: { BROWSER: browser } });
    expect(out).toEqual({ url: `${served.url}/__sandbox/console`, opened: true });
    for (let i = 0; i < 100 && !existsSync(seen); i++) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(seen, 'utf8').trim()).toBe(`${served.url}/__sandbox/console`);
  });

  it('--open says so when no browser can be started, and still prints the URL', async () => {
    const res = await home.run(['sandbox', 'console', '--port', port, '--open', '-o', 'json'], { env: { BROWSER: join(home.dir, 'no-such-browser') } });
    expect(res.exitCode).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ url: `${served.url}/__sandbox/console`, opened: false });
    expect(res.stderr).toContain('could not open a browser');
  });
});
