import { getEventListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_ADMIN } from '../../src/config/resolve.js';
import { sleep } from '../../src/core/retry.js';
import { CliHome } from '../helpers/cli.js';
import { serve, type Served } from './lib/serve.js';

// The token request is retried like every other request: 429 (any method) and 503 (the token
// request is safe to repeat) with Retry-After. `cms sandbox serve` faults only POST /oauth/token,
// seeded so the same faults strike in the same order; every `cms hub list` starts with a cold
// token cache (its own config directory), so each one has to get a token through them.

const RUNS = 15;
const FAULTS = '429 20% retry-after 0.05 on POST /oauth/token; 503 20% retry-after 0.05 on POST /oauth/token';

let dir: string;
let server: Served;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cms-token-retry-'));
  server = await serve(['--data-dir', join(dir, 'data'), '--faults', FAULTS, '--faults-seed', '7'], {});
}, 60_000);

afterAll(async () => {
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('token endpoint answering 429 and 503', () => {
  it(`${RUNS} cold-cache \`cms hub list\` all succeed`, async () => {
    const failures: string[] = [];
    const env = { CMS_API_URL: server.url, CMS_CLIENT_ID: SANDBOX_ADMIN.clientId, CMS_CLIENT_SECRET: SANDBOX_ADMIN.clientSecret };
    for (let i = 0; i < RUNS; i++) {
      const home = new CliHome();
      try {
        const res = await home.run(['hub', 'list', '-o', 'json'], { env });
        if (res.exitCode !== 0) failures.push(`run ${i}: exit ${res.exitCode}: ${res.stderr.trim()}`);
      } finally {
        home.cleanup();
      }
    }
    expect(failures).toEqual([]);
    // The faults did strike the token endpoint, more than once.
    const home = new CliHome();
    const report = await home.json<{ rules: { status: number; injected: number }[] }>(['api', 'GET', '/__sandbox/faults'], { env });
    home.cleanup();
    expect(report.rules.reduce((n, r) => n + r.injected, 0)).toBeGreaterThan(RUNS / 3);
  }, 120_000);
});

describe('retry sleep', () => {
  it('leaves no abort listener behind on the long-lived signal', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 20; i++) await sleep(1, controller.signal);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });
});
