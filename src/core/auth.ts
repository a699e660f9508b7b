import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensurePrivateDir } from '../config/private-dir.js';
import { ApiError, CliError, ExitCode, looksLikeHtml, notTheService, redirectError } from './errors.js';
import { attemptDeadline, deadlineError, REQUEST_DEADLINE_MS, type ExchangeListener, type RetryInfo, type Transport, type WireResponse } from './transport.js';
import { redactUrl } from './redact.js';
import { DEFAULT_RETRY, describeNetworkError, isNetworkError, isRetryable, nextDelay, parseRetryAfter, sleep, type RetryPolicy } from './retry.js';

export interface Credentials {
  authUrl: string;
  clientId: string;
  clientSecret: string;
  /** Where the URL came from (`CMS_API_URL`, `profile 'x'`), for hints that say what to change. */
  authUrlFrom?: string;
}

/** What the API client needs of its credentials: a bearer token, and what to do after a 401. */
export interface AccessTokens {
  token(): Promise<string>;
  /** After a 401: a new token, or an error saying why there is none. */
  refresh(): Promise<string>;
  /** When the token expires (null: the token does not say), and whether it came from the cache file. */
  expiry(): Promise<{ expiresAt: Date | null; cached: boolean }>;
}

/**
 * A personal access token (`cms login --token`, CMS_ACCESS_TOKEN): sent as it is, never
 * refreshed. The service refusing it (401) means it expired or was revoked: only its owner can
 * get a new one, so the error says how instead of retrying.
 */
export class PersonalToken implements AccessTokens {
  constructor(
    private readonly value: string,
    /** Where the token came from (`CMS_ACCESS_TOKEN, in the environment`, `profile 'x'`). */
    private readonly from: string,
  ) {}

  async token(): Promise<string> {
    return this.value;
  }

  async refresh(): Promise<string> {
    const exp = jwtExpiry(this.value);
    const why = exp !== undefined && exp <= Date.now() ? `it expired at ${new Date(exp).toISOString()}` : 'it has expired or been revoked';
    throw new CliError(
      `The service refused the personal access token (401): ${why}`,
      ExitCode.AUTH,
      `Create a new token where it was issued (in the sandbox: \`cms sandbox client token <client-id>\`), then \`cms login --token-stdin\` or set CMS_ACCESS_TOKEN. The token in use came from ${this.from}.`,
      'AUTH',
    );
  }

  async expiry(): Promise<{ expiresAt: Date | null; cached: boolean }> {
    const exp = jwtExpiry(this.value);
    return { expiresAt: exp === undefined ? null : new Date(exp), cached: false };
  }
}

interface CachedToken {
  token: string;
  /** Epoch ms after which the token must not be used. */
  expiresAt: number;
}

/** Refresh this long before the service would expire the token. */
const EARLY_MS = 30_000;

/**
 * Gets access tokens with the client credentials grant and caches them until shortly before
 * expiry: in memory, and for remote services in a 0600 file so successive commands reuse them.
 */
export class TokenProvider implements AccessTokens {
  private current: CachedToken | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly transport: Transport,
    private readonly creds: Credentials,
    private readonly cacheFile: string | null,
    private readonly onExchange?: ExchangeListener,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    private readonly signal?: AbortSignal,
    private readonly deadlineMs = REQUEST_DEADLINE_MS,
    /** Told of each wait before a retry (a refused connection is said at once, not after the last try). */
    private readonly onRetry?: (info: RetryInfo) => void,
  ) {}

  async token(): Promise<string> {
    if (this.current && Date.now() < this.current.expiresAt) return this.current.token;
    const fromDisk = this.readCache();
    if (fromDisk && Date.now() < fromDisk.expiresAt) {
      this.current = fromDisk;
      return fromDisk.token;
    }
    return this.refresh();
  }

  /**
   * When the token in use expires (the JWT's exp claim, else the lifetime the service gave) and
   * whether it came from the cache file. Gets a token if there is none: that checks the credentials.
   */
  async expiry(): Promise<{ expiresAt: Date | null; cached: boolean }> {
    const cached = (this.readCache()?.expiresAt ?? 0) > Date.now();
    const token = await this.token();
    const exp = jwtExpiry(token);
    return { expiresAt: new Date(exp ?? this.current!.expiresAt + EARLY_MS), cached };
  }

  /** Forgets the cached token and gets a new one (after a 401). One request at a time. */
  refresh(): Promise<string> {
    this.pending ??= this.fetchToken().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async fetchToken(): Promise<string> {
    const url = `${this.creds.authUrl}/oauth/token`;
    const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: this.creds.clientId, client_secret: this.creds.clientSecret });
    const headers = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    // The same retry policy as every request; asking for a token changes nothing, so 503s and
    // network failures are retried as for an idempotent request.
    let res: WireResponse;
    let text: string;
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      const started = Date.now();
      // One deadline for the whole exchange, as for every request (transport.ts).
      const deadline = attemptDeadline(this.signal, this.deadlineMs);
      try {
        try {
          res = await this.transport.send({ method: 'POST', url, headers, body: body.toString(), signal: deadline.signal });
        } catch (err) {
          if (this.signal?.aborted) throw this.signal.reason ?? err;
          if (deadline.expired) throw deadlineError(url, this.deadlineMs);
          await this.onExchange?.({ method: 'POST', url, requestHeaders: headers, requestBody: body.toString(), error: err as Error, ms: Date.now() - started, attempt });
          const delay = isNetworkError(err) ? nextDelay(attempt, this.retry, waited) : undefined;
          if (delay !== undefined) {
            deadline.release();
            this.onRetry?.({ attempt: attempt + 1, delayMs: delay, status: 'network', url: redactUrl(url), problem: describeNetworkError(err, url) });
            await sleep(delay, this.signal);
            waited += delay;
            continue;
          }
          throw new CliError(`Cannot reach the authorization server at ${this.creds.authUrl}: ${describeNetworkError(err, url)}`, ExitCode.FAILURE, `Check the URL (${this.creds.authUrlFrom ?? 'the auth URL of the profile'}) and your network.`, 'UNREACHABLE');
        }
        text = await res.text();
      } catch (err) {
        if (deadline.expired && !this.signal?.aborted && !(err instanceof CliError)) throw deadlineError(url, this.deadlineMs);
        throw err;
      } finally {
        deadline.release();
      }
      await this.onExchange?.({ method: 'POST', url, requestHeaders: headers, requestBody: body.toString(), status: res.status, responseHeaders: res.headers, responseBody: text, ms: Date.now() - started, attempt });
      if (res.status >= 300 && res.status < 400) {
        const location = res.headers.get('location');
        throw redirectError(res.status, 'POST', url, location === null ? null : redactUrl(location));
      }
      const delay = isRetryable('POST', res.status, true) ? nextDelay(attempt, this.retry, waited, parseRetryAfter(res.headers.get('retry-after'))) : undefined;
      if (delay !== undefined) {
        await sleep(delay, this.signal);
        waited += delay;
        continue;
      }
      break;
    }
    let data: { access_token?: string; expires_in?: number; errors?: unknown[] } = {};
    try {
      data = JSON.parse(text);
    } catch {
      /* handled below */
    }
    if (res.status >= 300 || typeof data.access_token !== 'string') {
      // A page, a 404 or an answer without a token: the URL points somewhere else than the service.
      const contentType = res.headers.get('content-type');
      if (res.status < 300 || res.status === 404 || res.status === 405 || looksLikeHtml(contentType, text)) {
        throw notTheService('POST', url, res.status, contentType, text, 'an access token (JSON)', this.creds.authUrlFrom);
      }
      if (res.status === 400 || res.status === 401) {
        throw new CliError(`Authentication failed for client '${this.creds.clientId}': the client id or secret is not valid`, ExitCode.AUTH, 'Check the credentials with `cms profile show`, or log in again with `cms login`.');
      }
      throw new ApiError(res.status, 'POST', url, Array.isArray(data.errors) ? (data.errors as never) : []);
    }
    const lifetimeMs = (Number(data.expires_in) || 300) * 1000;
    this.current = { token: data.access_token, expiresAt: Date.now() + Math.max(lifetimeMs - EARLY_MS, lifetimeMs / 2) };
    this.writeCache(this.current);
    return this.current.token;
  }

  private cacheKey(): string {
    return createHash('sha256').update(`${this.creds.authUrl}\0${this.creds.clientId}\0${this.creds.clientSecret}`).digest('hex');
  }

  private readCache(): CachedToken | null {
    if (!this.cacheFile) return null;
    try {
      const all = JSON.parse(readFileSync(this.cacheFile, 'utf8')) as Record<string, CachedToken>;
      return all[this.cacheKey()] ?? null;
    } catch {
      return null;
    }
  }

  private writeCache(entry: CachedToken): void {
    if (!this.cacheFile) return;
    try {
      let all: Record<string, CachedToken> = {};
      try {
        all = JSON.parse(readFileSync(this.cacheFile, 'utf8'));
      } catch {
        /* start a new cache */
      }
      const now = Date.now();
      for (const [k, v] of Object.entries(all)) if (v.expiresAt < now) delete all[k];
      all[this.cacheKey()] = entry;
      ensurePrivateDir(dirname(this.cacheFile), 'config directory');
      const tmp = `${this.cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(all), { mode: 0o600 });
      renameSync(tmp, this.cacheFile);
    } catch {
      // A cache that cannot be written only costs a token request next time.
    }
  }
}

/** The exp claim of a JWT in epoch ms, or undefined for an opaque token. */
function jwtExpiry(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}
