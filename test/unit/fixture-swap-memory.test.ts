import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/fixture/index.js';
import { nativeKept } from '../../src/server/core/native-keep.js';

// Issue 32 point 10: a restore in memory that is not a rollback swaps a new database in (the
// snapshot's bytes) and closes the previous one. A loop of restores (a suite's beforeEach over
// thousands of tests, or one test alternating two snapshots) must not keep anything per swap:
// 5,000 swaps kept ~6 KB each (8 to 37 MB). Measured by what the native keeper holds (a count, the
// holder found) and by the heap after full collections (growth per swap), never by time. The holder
// was V8's own: objects a WeakRef is made to (the native keeper makes one per database and
// statement) stay alive until the job ends, and a loop of restores that resolve at once is one job.

/** V8's full collection, for this test only. */
function collector(): () => void {
  setFlagsFromString('--expose-gc');
  try {
    return runInNewContext('gc') as () => void;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

describe('restores that swap the in-memory database', () => {
  it('keep no memory per swap: closed databases are let go even when the loop never yields to a timer', async () => {
    const gc = collector();
    await using sb = await startSandbox();
    const token = ((await (await fetch(`${sb.authUrl}/oauth/token`, { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: sb.clientId, client_secret: sb.clientSecret }) })).json()) as { access_token: string }).access_token;
    const hub = (name: string) => fetch(`${sb.apiUrl}/hubs`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ name, label: name }) });
    expect((await hub('first')).status).toBe(201);
    const a = await sb.snapshot('a');
    expect((await hub('second')).status).toBe(201);
    const b = await sb.snapshot('b');
    const heap = () => {
      for (let i = 0; i < 3; i++) gc();
      return process.memoryUsage().heapUsed;
    };
    // Warm: every statement and cache a restore uses exists once.
    for (let i = 0; i < 40; i++) await sb.restore(i % 2 ? a : b);
    await new Promise((r) => setTimeout(r, 50));
    const before = heap();
    const SWAPS = 600;
    // Awaiting restore() resolves at once: no timer runs in this loop (as in a tight test loop).
    for (let i = 0; i < SWAPS; i++) await sb.restore(i % 2 ? a : b);
    const kept = nativeKept();
    const perSwap = (heap() - before) / SWAPS;
    console.log(`[memory] ${SWAPS} swaps: ${perSwap.toFixed(0)} bytes of heap kept per swap after full collections; native keeper ${JSON.stringify(kept)}`);
    // The databases swapped out are let go as they go (at most one batch of 32 waits), not kept.
    expect(kept.closed, JSON.stringify(kept)).toBeLessThanOrEqual(40);
    expect(kept.open, JSON.stringify(kept)).toBeLessThanOrEqual(3);
    // Before the fix: ~5,300 bytes a swap (the closed databases and their statements).
    expect(perSwap, `${perSwap.toFixed(0)} bytes of heap kept per swap`).toBeLessThan(1500);
    expect((await (await fetch(`${sb.apiUrl}/hubs`, { headers: { authorization: `Bearer ${token}` } })).json())._embedded.hubs.map((h: { name: string }) => h.name)).toEqual(['first']);
  }, 120_000);
});
