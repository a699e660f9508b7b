import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError, CliError, ExitCode } from './errors.js';
import type { Transport, WireResponse } from './transport.js';
import type { ExchangeListener } from './client.js';
import { DEFAULT_RETRY, isRetryable, parseRetryAfter, retryDelay, sleep } from './retry.js';

export interface Credentials {
  authUrl: string;
  clientId: string;
  clientSecret: string;
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
export class TokenProvider {
  private current: CachedToken | null = null;
  private pending: Promise<string> | null = null;

  constructor(
    private readonly transport: Transport,
    private readonly creds: Credentials,
    private readonly cacheFile: string | null,
    private readonly onExchange?: ExchangeListener,
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
    let res: WireResponse;
    let text: string;
    let started: number;
    // A token request changes nothing: repeated after pushback (429, 502-504) like an idempotent request.
    for (let attempt = 0; ; attempt++) {
      started = Date.now();
      try {
        res = await this.transport.send({ method: 'POST', url, headers, body: body.toString() });
      } catch (err) {
        throw new CliError(`Cannot reach the authorization server at ${this.creds.authUrl}: ${(err as Error).message}`, ExitCode.FAILURE, 'Check the auth URL of the profile and your network.');
      }
      text = await res.text();
      if (attempt >= DEFAULT_RETRY.retries || !isRetryable('POST', res.status, true)) break;
      await sleep(retryDelay(attempt, DEFAULT_RETRY, parseRetryAfter(res.headers.get('retry-after'))));
    }
    await this.onExchange?.({ method: 'POST', url, requestHeaders: headers, requestBody: body.toString(), status: res.status, responseHeaders: res.headers, responseBody: text, ms: Date.now() - started, attempt: 0 });
    let data: { access_token?: string; expires_in?: number; errors?: unknown[] } = {};
    try {
      data = JSON.parse(text);
    } catch {
      /* handled below */
    }
    if (res.status >= 300 || typeof data.access_token !== 'string') {
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
      mkdirSync(join(this.cacheFile, '..'), { recursive: true, mode: 0o700 });
      const tmp = `${this.cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(all), { mode: 0o600 });
      renameSync(tmp, this.cacheFile);
    } catch {
      // A cache that cannot be written only costs a token request next time.
    }
  }
}
