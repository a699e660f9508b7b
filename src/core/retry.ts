// When and how long to wait before trying a request again.

export interface RetryPolicy {
  /** Attempts after the first. */
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Upper bound for a server-requested Retry-After. */
  maxRetryAfterMs: number;
  /** The most one request waits between its attempts in all: past it, the last answer is the result. */
  budgetMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { retries: 5, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000, budgetMs: 120_000 };

/** Waits this long or longer are said on stderr before they start (a silent minute looks like a hang). */
export const ANNOUNCE_WAIT_MS = 2_000;

/**
 * The wait before attempt `attempt + 1`, or undefined when there is none: the retries are used up,
 * or the wait would take the request's waits (`waitedMs` so far) past the policy's time budget.
 */
export function nextDelay(attempt: number, policy: RetryPolicy, waitedMs: number, retryAfterMs?: number, random = Math.random): number | undefined {
  if (attempt >= policy.retries) return undefined;
  const delay = retryDelay(attempt, policy, retryAfterMs, random);
  return waitedMs + delay > (policy.budgetMs ?? Infinity) ? undefined : delay;
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * 429 means the request was not processed, so any method may repeat it. 502/503/504 and
 * connection failures may follow a processed request: only idempotent methods repeat them.
 */
export function isRetryable(method: string, status: number | 'network', idempotent = IDEMPOTENT.has(method)): boolean {
  if (status === 429) return true;
  if (status === 'network' || status === 502 || status === 503 || status === 504) return idempotent;
  return false;
}

/** Exponential backoff with full jitter, or the server's Retry-After when it gave one. */
export function retryDelay(attempt: number, policy: RetryPolicy, retryAfterMs?: number, random = Math.random): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, policy.maxRetryAfterMs);
  const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
  return Math.round(cap / 2 + (random() * cap) / 2);
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Errors from the network layer (reset, refused, closed socket) that a retry may cure. */
export function isNetworkError(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string }; name?: string; message?: string };
  const code = e?.code ?? e?.cause?.code;
  if (code && /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|EAI_AGAIN|UND_ERR_SOCKET|UND_ERR_CLOSED|UND_ERR_CONNECT_TIMEOUT|UND_ERR_HEADERS_TIMEOUT|ENOTFOUND)$/.test(code)) return true;
  return e?.name === 'TypeError' && /fetch failed|terminated|other side closed/i.test(e.message ?? '');
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  EPIPE: 'connection closed',
  UND_ERR_SOCKET: 'connection closed',
  UND_ERR_CLOSED: 'connection closed',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  TimeoutError: 'timed out',
};

/** A network error code in words with the code kept for searching (`connection refused (ECONNREFUSED)`), or undefined for an unknown code. */
export const networkErrorWords = (code: string): string | undefined => (Object.hasOwn(NETWORK_WORDS, code) ? `${NETWORK_WORDS[code]} (${code})` : undefined);

/**
 * A network failure in words (`connection refused (ECONNREFUSED)`), never the TLS library's raw
 * text: https to a server that speaks http fails inside OpenSSL with a dump of its internals.
 */
export function describeNetworkError(err: unknown, url?: string): string {
  const e = err as { code?: string; cause?: { code?: string; message?: string }; message?: string };
  const code = e?.cause?.code ?? e?.code;
  const text = `${e?.cause?.message ?? ''} ${e?.message ?? ''}`;
  if (code === 'EPROTO' || /wrong version number|SSL routines|ssl3_|tls_|packet length too long/i.test(text)) {
    const plain = url?.startsWith('https:') ? ` (is it ${originOf(url).replace(/^https:/, 'http:')}?)` : '';
    return `the TLS handshake failed: the server does not speak https${plain}`;
  }
  if (/certificate|CERT_|self.signed/i.test(`${code ?? ''} ${text}`)) return `its TLS certificate was refused (${code ?? 'certificate'})`;
  const words = code ? networkErrorWords(code) : undefined;
  if (words) return words;
  // Anything else: the first line only, and no longer than a line.
  return (code ?? e?.cause?.message ?? e?.message ?? String(err)).split('\n')[0]!.slice(0, 200);
}

/** Waits, or rejects when the signal aborts; the abort listener goes away either way (a long run sleeps thousands of times on one signal). */
export const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
