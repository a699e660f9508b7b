import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, isNetworkError, isRetryable, parseRetryAfter, retryDelay } from '../../src/core/retry.js';

describe('retry policy', () => {
  it('429 is retried for every method; 5xx and network errors only when idempotent', () => {
    expect(isRetryable('POST', 429)).toBe(true);
    expect(isRetryable('GET', 503)).toBe(true);
    expect(isRetryable('DELETE', 'network')).toBe(true);
    expect(isRetryable('POST', 503)).toBe(false);
    expect(isRetryable('PATCH', 'network')).toBe(false);
    expect(isRetryable('POST', 503, true)).toBe(true);
    expect(isRetryable('GET', 500)).toBe(false);
    expect(isRetryable('GET', 404)).toBe(false);
  });

  it('backs off exponentially with jitter, capped', () => {
    const lo = () => 0;
    const hi = () => 0.999;
    expect(retryDelay(0, DEFAULT_RETRY, undefined, lo)).toBe(125);
    expect(retryDelay(0, DEFAULT_RETRY, undefined, hi)).toBeLessThanOrEqual(250);
    expect(retryDelay(3, DEFAULT_RETRY, undefined, lo)).toBe(1000);
    expect(retryDelay(20, DEFAULT_RETRY, undefined, hi)).toBeLessThanOrEqual(DEFAULT_RETRY.maxDelayMs);
  });

  it('honours Retry-After in seconds or as a date, within a cap', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(retryDelay(0, DEFAULT_RETRY, 3_000)).toBe(3_000);
    expect(retryDelay(0, DEFAULT_RETRY, 10 * 60_000)).toBe(DEFAULT_RETRY.maxRetryAfterMs);
  });

  it('recognises connection failures', () => {
    expect(isNetworkError(Object.assign(new Error('x'), { code: 'ECONNRESET' }))).toBe(true);
    expect(isNetworkError(Object.assign(new TypeError('fetch failed'), { cause: { code: 'UND_ERR_SOCKET' } }))).toBe(true);
    expect(isNetworkError(new Error('boom'))).toBe(false);
  });
});

describe('TokenProvider under pushback', () => {
  it('asks for a token again after a 429 or 503 (a token request changes nothing), waiting the Retry-After', async () => {
    const { createServer } = await import('node:http');
    const { TokenProvider } = await import('../../src/core/auth.js');
    const { createTransport } = await import('../../src/core/transport.js');
    const answers = [429, 503, 200];
    const seen: number[] = [];
    const server = createServer((req, res) => {
      const status = answers[seen.length] ?? 200;
      seen.push(status);
      if (status !== 200) res.writeHead(status, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"errors":[]}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: 'fresh', expires_in: 300 }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const transport = await createTransport({ embedded: false, apiUrl: url, authUrl: url, clientId: 'c', clientSecret: 's' } as never);
    try {
      expect(await new TokenProvider(transport, { authUrl: url, clientId: 'c', clientSecret: 's' }, null).token()).toBe('fresh');
      expect(seen).toEqual([429, 503, 200]);
    } finally {
      await transport.close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe('the retry budget (issue 24.10)', () => {
  it('a request waits at most budgetMs in all: Retry-After 999999 s waits 60 s twice, then gives up', async () => {
    const { DEFAULT_RETRY, nextDelay } = await import('../../src/core/retry.js');
    let waited = 0;
    const waits: number[] = [];
    for (let attempt = 0; ; attempt++) {
      const delay = nextDelay(attempt, DEFAULT_RETRY, waited, 999_999_000);
      if (delay === undefined) break;
      waits.push(delay);
      waited += delay;
    }
    expect(waits).toEqual([60_000, 60_000]);
    expect(waited).toBeLessThanOrEqual(DEFAULT_RETRY.budgetMs);
  });

  it('backoff without Retry-After keeps its 5 retries within the budget', async () => {
    const { DEFAULT_RETRY, nextDelay } = await import('../../src/core/retry.js');
    const delays = [0, 1, 2, 3, 4, 5].map((a) => nextDelay(a, DEFAULT_RETRY, 0, undefined, () => 1));
    expect(delays).toEqual([250, 500, 1000, 2000, 4000, undefined]);
  });
});
