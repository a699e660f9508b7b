import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { serveSandbox } from '../helpers/serve.js';

// `cms sandbox exec --intercept` and `cms sandbox serve --intercept`, the built binary: a command
// given nothing but the environment reaches the sandbox at the service's own names; --offline
// refuses other hosts naming them; the CA lives in the data directory (or the run's private
// directory, gone after it) and its key is never printed.

const home = new CliHome();
afterAll(() => home.cleanup());

const node = (code: string) => ['node', '--input-type=module', '-e', code];

describe('cms sandbox exec --intercept', { timeout: 120_000 }, () => {
  it("runs a command whose clients use the service's built-in hosts against the sandbox; the run's CA is gone after it", async () => {
    const script = `
      import { DynamicContent } from 'dc-management-sdk-js';
      import { existsSync } from 'node:fs';
      const token = await (await fetch('https://auth.amplience.net/oauth/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: process.env.CMS_CLIENT_ID, client_secret: process.env.CMS_CLIENT_SECRET }) })).json();
      const made = await fetch('https://api.amplience.net/v2/content/hubs', { method: 'POST', headers: { authorization: 'Bearer ' + token.access_token, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'intercepted', label: 'Intercepted' }) });
      const dc = new DynamicContent({ client_id: process.env.CMS_CLIENT_ID, client_secret: process.env.CMS_CLIENT_SECRET });
      const hubs = (await dc.hubs.list()).getItems().map((h) => h.name);
      console.log(JSON.stringify({ made: made.status, hubs, ca: process.env.NODE_EXTRA_CA_CERTS, caThere: existsSync(process.env.NODE_EXTRA_CA_CERTS), proxy: process.env.HTTPS_PROXY }));
    `;
    // Run from the repository (the test's cwd), so the vendor SDK resolves as in a project that has it.
    const res = await home.run(['sandbox', 'exec', '--intercept', '--', ...node(script)]);
    expect(res.exitCode, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout.trim().split('\n').pop()!);
    expect(out).toMatchObject({ made: 201, hubs: ['intercepted'], caThere: true });
    expect(out.proxy).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // In memory: the CA was the run's own, in a private directory removed when it ended.
    expect(out.ca).toMatch(/cms-intercept-[^/]+\/intercept\/ca\.pem$/);
    expect(existsSync(out.ca)).toBe(false);
    expect(res.stdout + res.stderr).not.toContain('PRIVATE KEY');
  });

  it('--offline refuses another host, naming it on stderr; the service\'s names still answer', async () => {
    const script = `
      const other = await fetch('https://example.org/').then((r) => r.status, () => 'refused');
      const own = await fetch('https://auth.amplience.net/oauth/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: process.env.CMS_CLIENT_ID, client_secret: process.env.CMS_CLIENT_SECRET }) });
      console.log(JSON.stringify({ other, own: own.status }));
    `;
    const res = await home.run(['sandbox', 'exec', '--intercept', '--offline', '--', ...node(script)]);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout.trim())).toEqual({ other: 'refused', own: 200 });
    expect(res.stderr).toContain('cms: refused example.org:443: not a name of the service, and the proxy is offline (--offline)');
  });

  it('--offline without --intercept is a usage error', async () => {
    const res = await home.run(['sandbox', 'exec', '--offline', '--', 'true']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('--offline needs --intercept');
  });

  it('with --data-dir, the CA is made there once and kept', async () => {
    const dir = join(home.dir, 'exec-data');
    const first = await home.run(['sandbox', 'exec', '--intercept', '--data-dir', dir, '--', ...node('console.log(process.env.NODE_EXTRA_CA_CERTS)')]);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe(join(dir, 'intercept', 'ca.pem'));
    const pemBefore = readFileSync(join(dir, 'intercept', 'ca.pem'), 'utf8');
    expect(statSync(join(dir, 'intercept', 'ca-key.pem')).mode & 0o777).toBe(0o600);
    const second = await home.run(['sandbox', 'exec', '--intercept', '--data-dir', dir, '--', 'true']);
    expect(second.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'intercept', 'ca.pem'), 'utf8')).toBe(pemBefore);
  });
});

describe('cms sandbox serve --intercept', { timeout: 120_000 }, () => {
  it('prints the environment to export (-o json), its CA in the data directory; a corrupt one is replaced with a message', async () => {
    const served = await serveSandbox(home.env, ['--intercept']);
    await served.stop();
    const out = String((await served.process).stdout).split('\n').find((l) => l.startsWith('{'))!;
    const parsed = JSON.parse(out);
    const dataDir = home.env.CMS_DATA_DIR!;
    expect(parsed.intercept.proxyUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(parsed.intercept.env).toMatchObject({ HTTPS_PROXY: parsed.intercept.proxyUrl, NODE_EXTRA_CA_CERTS: join(dataDir, 'intercept', 'ca.pem'), SSL_CERT_FILE: join(dataDir, 'intercept', 'bundle.pem'), NODE_USE_ENV_PROXY: '1' });
    expect(parsed.intercept.env.NODE_OPTIONS).toMatch(/^--import ".*preload\.js"$/);
    expect(out).not.toContain('PRIVATE KEY');
    // The bundle: the roots a runtime would have, and the CA.
    const bundle = readFileSync(join(dataDir, 'intercept', 'bundle.pem'), 'utf8');
    expect(bundle.endsWith(readFileSync(join(dataDir, 'intercept', 'ca.pem'), 'utf8'))).toBe(true);
    expect(bundle.split('BEGIN CERTIFICATE').length).toBeGreaterThan(50);

    writeFileSync(join(dataDir, 'intercept', 'ca-key.pem'), 'garbage', { mode: 0o600 });
    const again = await serveSandbox(home.env, ['--intercept']);
    await again.stop();
    const stderr = String((await again.process).stderr);
    expect(stderr).toMatch(/warning: The interception CA in .*intercept could not be read .*: made a new one/);
    expect(stderr).not.toContain('PRIVATE KEY');
  });

  it('prints the export lines in the table', async () => {
    const { execa } = await import('execa');
    const { BIN } = await import('../helpers/cli.js');
    const child = execa(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--intercept', '--offline'], { env: home.env, reject: false });
    const text = await new Promise<string>((resolve) => {
      let buf = '';
      child.stdout!.on('data', (c: Buffer) => {
        buf += c;
        if (buf.includes('Press Ctrl-C')) resolve(buf);
      });
    });
    child.kill('SIGTERM');
    await child;
    expect(text).toMatch(/Intercepting {3}http:\/\/127\.0\.0\.1:\d+ \(offline: other hosts refused\); for a command to use it, export:/);
    expect(text).toMatch(/^ {4}export HTTPS_PROXY='http:\/\/127\.0\.0\.1:\d+'$/m);
    expect(text).toMatch(/^ {4}export NODE_EXTRA_CA_CERTS='.*\/intercept\/ca\.pem'$/m);
  });
});
