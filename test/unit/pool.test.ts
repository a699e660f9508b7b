import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/core/client.js';
import { TokenProvider } from '../../src/core/auth.js';
import { createTransport } from '../../src/core/transport.js';
import type { Connection } from '../../src/config/resolve.js';
import { Governor, MAX_CONCURRENCY, START_CONCURRENCY, WorkQueue, runPool } from '../../src/ops/runs/pool.js';

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

/** Runs `n` units that each take `ms`, recording how many ran at once. */
async function measure(governor: Governor, n: number, ms = 10) {
  let active = 0;
  let peak = 0;
  await runPool(
    Array.from({ length: n }, (_, i) => i),
    async () => {
      peak = Math.max(peak, ++active);
      await tick(ms);
      active--;
      governor.success();
    },
    governor,
  );
  return peak;
}

describe('Governor and runPool', () => {
  it('never runs more units at once than the concurrency', async () => {
    expect(await measure(new Governor(3), 20)).toBe(3);
    expect(await measure(new Governor(1), 5)).toBe(1);
  });

  it('halves the slots when the service pushes back and pauses new work for Retry-After', async () => {
    const governor = new Governor(8);
    governor.throttle(150);
    expect(governor.limit).toBe(4);
    const started = Date.now();
    const release = await governor.acquire();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    release();
    governor.throttle();
    governor.throttle();
    governor.throttle();
    expect(governor.limit).toBe(1);
  });

  it('lets one more unit in after a run of successes, up to the configured concurrency (AIMD)', async () => {
    const governor = new Governor(4);
    governor.throttle();
    governor.throttle();
    expect(governor.limit).toBe(1);
    // Growth needs the slots in use: take each slot as it opens.
    const held = [await governor.acquire()];
    governor.success();
    expect(governor.limit).toBe(2);
    for (let i = 0; i < 100; i++) {
      if (governor.running < governor.limit) held.push(await governor.acquire());
      governor.success();
    }
    expect(governor.limit).toBe(4);
    held.forEach((release) => release());
  });

  it('waits for the units in flight, then reports the first failure', async () => {
    const finished: number[] = [];
    const run = runPool(
      [1, 2, 3, 4, 5, 6],
      async (n) => {
        await tick(n === 1 ? 1 : 20);
        if (n === 1) throw new Error('unit 1 failed');
        finished.push(n);
      },
      new Governor(3),
    );
    await expect(run).rejects.toThrow('unit 1 failed');
    // Units already running finished; no new unit started after the failure was seen.
    expect(finished.sort()).toEqual([2, 3]);
  });

  it('stops taking work when aborted', async () => {
    const abort = new AbortController();
    let ran = 0;
    const run = runPool(
      Array.from({ length: 100 }, (_, i) => i),
      async () => {
        ran++;
        await tick(5);
        if (ran === 3) abort.abort(new Error('interrupted'));
      },
      new Governor(1),
      abort.signal,
    );
    await expect(run).rejects.toThrow('interrupted');
    expect(ran).toBe(3);
  });
});

/** A governor on a clock the test moves, with `busy` slots taken (growth needs the slots in use). */
async function governed(concurrency?: number) {
  const clock = { t: 1_000_000 };
  const governor = new Governor(concurrency, { now: () => clock.t });
  const held: (() => void)[] = [];
  const fill = async () => {
    while (governor.running < governor.limit) held.push(await governor.acquire());
  };
  return { governor, clock, fill, releaseAll: () => held.splice(0).forEach((r) => r()) };
}

describe('Governor growth and backoff (no --concurrency)', () => {
  it('starts where it always did and doubles per round of successes while answers stay fast, up to the cap', async () => {
    const { governor, fill } = await governed();
    expect(governor.limit).toBe(START_CONCURRENCY);
    expect(governor.max).toBe(MAX_CONCURRENCY);
    const rounds: number[] = [];
    while (governor.limit < MAX_CONCURRENCY && rounds.length < 10) {
      await fill();
      const n = governor.limit;
      for (let i = 0; i < n; i++) {
        governor.answered(40);
        governor.success();
      }
      rounds.push(governor.limit);
    }
    expect(rounds).toEqual([16, 32, 64]);
    governor.success();
    expect(governor.limit).toBe(MAX_CONCURRENCY);
  });

  it('does not grow while most slots are idle (the run, not the service, is the limit)', async () => {
    const { governor } = await governed();
    const one = await governor.acquire();
    for (let i = 0; i < 50; i++) {
      governor.answered(40);
      governor.success();
    }
    expect(governor.limit).toBe(START_CONCURRENCY);
    one();
  });

  it('stops growing while answers take more than twice as long as when they were fastest', async () => {
    const { governor, fill } = await governed();
    await fill();
    for (let i = 0; i < 10; i++) governor.answered(40);
    for (let i = 0; i < 30; i++) governor.answered(400);
    for (let i = 0; i < 50; i++) governor.success();
    expect(governor.limit).toBe(START_CONCURRENCY);
    // Fast again: growth resumes, one slot per `limit` successes (slow start ended with the slow answers).
    for (let i = 0; i < 60; i++) governor.answered(40);
    for (let i = 0; i < START_CONCURRENCY; i++) governor.success();
    expect(governor.limit).toBe(START_CONCURRENCY + 1);
  });

  it('judges by medians: a few slow answers (a busy machine, the first requests) do not stop growth', async () => {
    const { governor, fill } = await governed();
    await fill();
    for (let i = 0; i < 3; i++) governor.answered(500);
    for (let i = 0; i < 20; i++) governor.answered(i % 5 === 0 ? 300 : 40);
    governor.success();
    expect(governor.limit).toBe(START_CONCURRENCY + 1);
  });

  it('a stray pushback delays only its own request: no cut, no pause, growth goes on one slot per round', async () => {
    const { governor, fill } = await governed();
    await fill();
    for (let i = 0; i < 19; i++) governor.answered(40);
    governor.pushback(1000);
    expect(governor.limit).toBe(START_CONCURRENCY);
    expect(governor.pauseMs).toBe(0);
    for (let i = 0; i < START_CONCURRENCY - 1; i++) governor.success();
    expect(governor.limit).toBe(START_CONCURRENCY);
    governor.success();
    expect(governor.limit).toBe(START_CONCURRENCY + 1);
    // Another pushback restarts the count of successes in a row.
    for (let i = 0; i < START_CONCURRENCY; i++) governor.success();
    governor.pushback(1000);
    for (let i = 0; i < START_CONCURRENCY + 1; i++) governor.success();
    expect(governor.limit).toBe(START_CONCURRENCY + 2);
  });

  it('sustained pushback (a rate limit) halves the slots and pauses new work for Retry-After, once per episode', async () => {
    const { governor, clock, fill } = await governed();
    await fill();
    for (let i = 0; i < 24; i++) {
      await fill();
      governor.success();
    }
    expect(governor.limit).toBe(32);
    for (let i = 0; i < 9; i++) governor.answered(40);
    governor.pushback(1000);
    governor.pushback(1000);
    expect(governor.limit).toBe(32);
    governor.pushback(1000);
    expect(governor.limit).toBe(16);
    expect(governor.pauseMs).toBe(1000);
    // The answers to requests sent before the cut are the same episode.
    for (let i = 0; i < 10; i++) governor.pushback(1000);
    expect(governor.limit).toBe(16);
    clock.t += 1000;
    expect(governor.pauseMs).toBe(0);
    // Still refused after the pause: the next episode.
    governor.pushback(1000);
    expect(governor.limit).toBe(8);
    expect(governor.pauseMs).toBe(1000);
  });

  it('work that holds much memory per unit sets a lower ceiling (export pages)', async () => {
    const clock = { t: 0 };
    const governor = new Governor(undefined, { max: 16, now: () => clock.t });
    const held: (() => void)[] = [];
    for (let i = 0; i < 40; i++) {
      while (governor.running < governor.limit) held.push(await governor.acquire());
      governor.success();
    }
    expect(governor.limit).toBe(16);
    held.forEach((release) => release());
    expect(new Governor(undefined, { max: 4 }).limit).toBe(4);
  });

  it('--concurrency N fixes the ceiling: starts at N, never above, regrows to N after a cut', async () => {
    const { governor, fill, releaseAll } = await governed(5);
    expect(governor.limit).toBe(5);
    await fill();
    for (let i = 0; i < 100; i++) governor.success();
    expect(governor.limit).toBe(5);
    releaseAll();
    governor.throttle();
    expect(governor.limit).toBe(2);
    await fill();
    for (let i = 0; i < 2; i++) governor.success();
    expect(governor.limit).toBe(3);
    for (let i = 0; i < 100; i++) governor.success();
    expect(governor.limit).toBe(5);
  });
});

describe('WorkQueue', () => {
  it('hands out work pushed while other work runs, and ends when closed', async () => {
    const queue = new WorkQueue<number>();
    const seen: number[] = [];
    queue.push([1]);
    await runPool(
      queue,
      async (n) => {
        seen.push(n);
        await tick(1);
        if (n < 5) queue.push([n + 1]);
        else queue.close();
      },
      new Governor(2),
    );
    expect(seen).toEqual([1, 2, 3, 4, 5]);
  });

  it('keeps order over many items and rejects a waiting take on abort', async () => {
    const queue = new WorkQueue<number>();
    queue.push(Array.from({ length: 5000 }, (_, i) => i));
    queue.close();
    const out: number[] = [];
    for await (const n of queue) out.push(n);
    expect(out).toEqual(Array.from({ length: 5000 }, (_, i) => i));

    const abort = new AbortController();
    const waiting = new WorkQueue<number>(abort.signal)[Symbol.asyncIterator]().next();
    abort.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});

describe('Governor.watch(client)', () => {
  let server: Server;
  let url: string;
  let throttled = 0;
  beforeAll(async () => {
    // A real HTTP service that asks for a pause (429, Retry-After 0.2 s) on every other request.
    let n = 0;
    server = createServer((req, res) => {
      if (req.url === '/oauth/token') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 't', expires_in: 300 }));
        return;
      }
      if (n++ % 2 === 0) {
        throttled++;
        res.writeHead(429, { 'retry-after': '0.2', 'content-type': 'application/json' }).end('{"errors":[]}');
      } else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('slows down and pauses when the client keeps waiting before retries', async () => {
    const conn = { embedded: false, apiUrl: url, authUrl: url, clientId: 'c', clientSecret: 's' } as Connection;
    const transport = await createTransport(conn);
    const client = new ApiClient(transport, new TokenProvider(transport, { authUrl: url, clientId: 'c', clientSecret: 's' }, null), { apiUrl: url });
    const governor = new Governor(8);
    const stop = governor.watch(client);
    const started = Date.now();
    // Every other request is refused: sustained pushback, judged once a few answers are in.
    for (let i = 0; i < 6; i++) expect(await client.get('/thing')).toEqual({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(throttled).toBe(6);
    expect(governor.limit).toBe(4);
    // New work waits out the pause the service asked for (it has passed by now).
    const release = await governor.acquire();
    release();
    stop();
    await client.get('/thing');
    expect(governor.limit).toBe(4);
    await transport.close();
  });
});
