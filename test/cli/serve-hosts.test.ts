import { networkInterfaces } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { rawRequest } from '../helpers/raw-http.js';
import { serve, type Served } from '../reliability/lib/serve.js';

// `cms sandbox serve --allow-host` over the built binary (issue 11, finding 4): by default only
// loopback names are served; --allow-host adds names; --host 0.0.0.0 serves the machine's own
// addresses; a malformed Host is a 400 with no stack trace on stderr.

const home = new CliHome();
const running: Served[] = [];
afterAll(async () => {
  for (const s of running) await s.stop();
  home.cleanup();
});

async function start(args: string[]): Promise<Served> {
  const s = await serve(args, home.env);
  running.push(s);
  return s;
}

const status = async (s: Served, host: string) => {
  const res = await rawRequest(s.url, { target: '/__sandbox/status', headers: [['Host', host]] });
  return res.status === 200 ? 200 : `${res.status} ${JSON.parse(res.text).errors[0].code}`;
};

describe('cms sandbox serve and the Host header', () => {
  it('serves loopback names only unless --allow-host names more; a malformed Host is a 400, never a stack trace', async () => {
    const plain = await start([]);
    const port = new URL(plain.url).port;
    expect(await status(plain, `127.0.0.1:${port}`)).toBe(200);
    expect(await status(plain, `localhost:${port}`)).toBe(200);
    expect(await status(plain, `rebound.example:${port}`)).toBe('400 HOST_NOT_ALLOWED');
    for (const bad of ['a b', '[', 'x:99999', '%', '<script>', 'x/__sandbox/reset?']) expect(await status(plain, bad)).toBe('400 INVALID_HOST');

    const allowing = await start(['--allow-host', 'sandbox.internal', '--allow-host', '.ci.example.test', '--allow-host', 'pinned.example.test:9000']);
    expect(await status(allowing, 'sandbox.internal')).toBe(200);
    expect(await status(allowing, 'runner-1.ci.example.test:8787')).toBe(200);
    expect(await status(allowing, 'pinned.example.test:9000')).toBe(200);
    expect(await status(allowing, 'pinned.example.test:9001')).toBe('400 HOST_NOT_ALLOWED');
    expect(await status(allowing, 'rebound.example')).toBe('400 HOST_NOT_ALLOWED');
    for (const s of [plain, allowing]) {
      expect(s.stderr()).not.toMatch(/failed|Error|    at /);
    }
  });

  it('a malformed --allow-host is a usage error (exit 2) naming the value', async () => {
    for (const bad of ['a b', 'x:99999', '.', 'http://x']) {
      const res = await home.run(['sandbox', 'serve', '--port', '0', '--allow-host', bad]);
      expect(res.exitCode, res.stderr).toBe(2);
      expect(res.stderr).toContain('--allow-host');
      expect(res.stderr).toContain(bad);
      expect(res.stderr).not.toMatch(/    at /);
    }
  });

  it('a malformed --cors-origin is a usage error (exit 2) naming the value', async () => {
    for (const bad of ['localhost:3000', 'http://localhost:3000/app', 'http://*.example.test', 'null']) {
      const res = await home.run(['sandbox', 'serve', '--port', '0', '--cors-origin', bad]);
      expect(res.exitCode, res.stderr).toBe(2);
      expect(res.stderr).toContain('--cors-origin');
      expect(res.stderr).toContain(bad);
      expect(res.stderr).not.toMatch(/    at /);
    }
  });

  it('a malformed --allow-webhook-to is a usage error (exit 2) naming the value (issue 32.2)', async () => {
    for (const bad of ['10.0.0.0/33', 'http://x', 'a b']) {
      const res = await home.run(['sandbox', 'serve', '--port', '0', '--allow-webhook-to', bad]);
      expect(res.exitCode, res.stderr).toBe(2);
      expect(res.stderr).toContain('--allow-webhook-to');
      expect(res.stderr).toContain(bad);
      expect(res.stderr).not.toMatch(/    at /);
    }
  });

  it('--host 0.0.0.0 serves the machine\'s interface addresses, and still refuses other names', async () => {
    const wide = await start(['--host', '0.0.0.0']);
    const port = new URL(wide.url).port;
    const url = `http://127.0.0.1:${port}`;
    const own = Object.values(networkInterfaces())
      .flat()
      .filter((i) => i && i.family === 'IPv4' && !i.internal)
      .map((i) => i!.address);
    for (const address of own) {
      const res = await rawRequest(url, { target: '/__sandbox/status', headers: [['Host', `${address}:${port}`]] });
      expect(res.status, `${address}: ${res.text}`).toBe(200);
    }
    // The URL it printed works as it is.
    expect(wide.url).toBe(`http://0.0.0.0:${port}`);
    expect((await fetch(`${wide.url}/__sandbox/status`)).status).toBe(200);
    const res = await rawRequest(url, { target: '/__sandbox/status', headers: [['Host', `rebound.example:${port}`]] });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).errors[0].code).toBe('HOST_NOT_ALLOWED');
  });
});
