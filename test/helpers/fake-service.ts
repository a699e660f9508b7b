import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake service answers a path: JSON, 200 unless a status is given. */
export type Answer = { status?: number; body: unknown } | undefined;

/**
 * A service on loopback (CMS_API_URL) that hands out a token at /oauth/token and answers every
 * other path with `answer(path)` (404 with an error body when it has none), for output tests
 * that need figures or names the sandbox would not hold. `env` points the CLI at it.
 */
export async function fakeService(answer: (path: string) => Answer): Promise<{ env: Record<string, string>; close(): void }> {
  const server = createServer((req, res) => {
    req.resume();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const found: Answer = path === '/oauth/token' ? { body: { access_token: 'token', token_type: 'bearer', expires_in: 3600 } } : answer(path);
    res.writeHead(found?.status ?? (found ? 200 : 404), { 'content-type': 'application/json' });
    res.end(JSON.stringify(found ? found.body : { errors: [{ level: 'ERROR', code: 'NOT_FOUND', message: `no ${path}` }] }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const env = { CMS_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, CMS_CLIENT_ID: 'x', CMS_CLIENT_SECRET: 'y' };
  return { env, close: () => server.close() };
}
