import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// A service we do not control (CMS_API_URL) may answer without end, or with a body far larger
// than any real answer. The CLI reads at most 256 MiB of an answer and then stops with a clear
// error (exit 1): it must not buffer until the machine runs out of memory.

const MiB = 2 ** 20;
/** What the hostile server gives up at, if the client never stops reading. */
const SERVER_LIMIT = 2048 * MiB;

describe('answers without end from a hostile service', () => {
  const home = new CliHome();
  let server: Server;
  let env: Record<string, string>;
  /** Bytes the server managed to send, per path. */
  const sent = new Map<string, number>();

  /** Writes 1 MiB chunks of `[` until the client goes away (or SERVER_LIMIT). */
  function endless(res: import('node:http').ServerResponse, path: string, status: number) {
    res.writeHead(status, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(MiB, ' ');
    let total = 0;
    const pump = () => {
      while (total < SERVER_LIMIT) {
        total += chunk.length;
        sent.set(path, total);
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (total = SERVER_LIMIT));
    pump();
  }

  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/oauth/token') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ access_token: 'token', token_type: 'bearer', expires_in: 3600 }));
      }
      if (path === '/v2/content/hubs') return endless(res, path, 200);
      if (path === '/v2/content/broken') return endless(res, path, 500);
      if (path === '/v2/content/declared') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(4096 * MiB) });
        return res.write('[');
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    env = { CMS_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, CMS_CLIENT_ID: 'x', CMS_CLIENT_SECRET: 'y' };
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
    home.cleanup();
  });

  // An error answer's body only adds detail to its status: past the limit, the status alone is said.
  for (const [what, args, path, says] of [
    ['a list', ['hub', 'list'], '/v2/content/hubs', /larger than 256 MiB/],
    ['an error answer', ['api', 'GET', '/broken'], '/v2/content/broken', /500 Internal Server Error/],
  ] as const) {
    it(`${what} that never ends: exit 1, having read about 256 MiB`, { timeout: 120_000 }, async () => {
      const res = await home.run([...args], { env, timeout: 110_000 });
      expect(res.exitCode, res.stderr.slice(0, 500)).toBe(1);
      expect(res.stderr).toMatch(says);
      expect(res.stderr).not.toMatch(/unexpected failure|heap out of memory|Invalid string length|\n\s+at /);
      expect(sent.get(path)!).toBeLessThan(600 * MiB);
    });
  }

  it('an answer that declares more than the limit is refused before its body is read', { timeout: 60_000 }, async () => {
    const res = await home.run(['api', 'GET', '/declared'], { env, timeout: 50_000 });
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toMatch(/larger than 256 MiB/);
  });
});
