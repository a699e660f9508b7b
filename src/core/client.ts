import { ApiError, CliError, ExitCode, looksLikeHtml, notTheService, redirectError, type ApiErrorEntry } from './errors.js';
import { attemptDeadline, deadlineError, REQUEST_DEADLINE_MS, type ExchangeListener, type HeaderMap, type RetryInfo, type Transport, type WireResponse } from './transport.js';
import type { AccessTokens } from './auth.js';
import { DEFAULT_RETRY, describeNetworkError, isNetworkError, isRetryable, nextDelay, parseRetryAfter, sleep, type RetryPolicy } from './retry.js';
import { redactUrl } from './redact.js';

export type { Exchange, ExchangeListener, RetryInfo } from './transport.js';


/** What a paged stream learnt: whether a limit cut it short, and the collection's total when the service said. */
export interface PageInfo {
  more: boolean;
  total?: number;
}

export type Paged<T> = AsyncGenerator<T> & { readonly info: PageInfo };

export type QueryValue = string | number | boolean | null | undefined | readonly string[];

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  /** JSON body; strings are sent as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The caller made a non-idempotent request safe to repeat (e.g. version-checked). */
  idempotent?: boolean;
  /**
   * Sent as Idempotency-Key: the service answers a repeat with the first reply, so the request
   * is retried like an idempotent one.
   */
  idempotencyKey?: string;
  signal?: AbortSignal;
  /**
   * A URL on another origin than the API's: refused unless the caller says how to send it
   * (`cms api <absolute URL>`): without the access token, or with it when the user asked.
   */
  otherOrigin?: 'anonymous' | 'token';
  /**
   * A public API (Content Delivery): sent without the access token to whatever origin the URL
   * names, the API's own included. Nothing can add the token to such a request.
   */
  anonymous?: boolean;
}

export interface ApiResponse<T = unknown> {
  status: number;
  headers: HeaderMap;
  data: T;
  url: string;
}

export interface ClientOptions {
  apiUrl: string;
  retry?: RetryPolicy;
  onExchange?: ExchangeListener;
  signal?: AbortSignal;
  /** Reports a wait before a retry (progress displays show it). */
  onRetry?: (info: RetryInfo) => void;
  /** The deadline of one attempt (REQUEST_DEADLINE_MS unless CMS_REQUEST_TIMEOUT says otherwise). */
  deadlineMs?: number;
  /** Where the API URL came from (`CMS_API_URL`, `profile 'x'`), for hints that say what to change. */
  apiUrlFrom?: string;
}

const ROOT_PREFIXES = ['/v2/', '/v1/', '/oauth/', '/__sandbox', '/cms/', '/cdn/'];

/** The one HTTP client of the CLI: auth, retries, JSON, typed errors, paging. */
export class ApiClient {
  readonly root: string;
  readonly apiBase: string;
  /** The only origin the access token is sent to (the token request goes to the auth URL, in auth.ts). */
  readonly origin: string;
  /** Dry runs set this: any request that could change something fails instead of being sent. */
  readOnly = false;
  /**
   * --dry-run: the first request that could change something is not sent; it stops the command
   * with a DryRunStop that carries it (main.ts prints it). Reads still go, so names resolve.
   */
  dryRun = false;
  /** Told of every wait before a retry (a bulk run's governor slows down on them). */
  readonly retryListeners = new Set<(info: RetryInfo) => void>();
  /** Told how long each answer took (a bulk run's governor grows while answers stay fast). */
  readonly answerListeners = new Set<(ms: number, status: number) => void>();
  private readonly retry: RetryPolicy;

  /** Called before the first byte of every write is sent; throws to refuse it (protected profiles). */
  beforeWrite?: (method: string, url: string) => Promise<void>;

  constructor(
    readonly transport: Transport,
    readonly tokens: AccessTokens,
    private readonly options: ClientOptions,
  ) {
    // The API URL may be given as the origin or with the /v2/content prefix.
    this.root = options.apiUrl.replace(/\/+$/, '').replace(/\/v2\/content$/, '');
    this.apiBase = `${this.root}/v2/content`;
    this.origin = new URL(this.root).origin;
    this.retry = options.retry ?? DEFAULT_RETRY;
  }

  /** Absolute hrefs are used as they are (request() checks their origin); `/hubs` means `{api}/v2/content/hubs`. */
  url(pathOrUrl: string, query?: Record<string, QueryValue>): string {
    let url: string;
    if (/^https?:\/\//i.test(pathOrUrl)) url = pathOrUrl;
    else {
      const path = pathOrUrl.startsWith('/') ? pathOrUrl : `/${pathOrUrl}`;
      url = ROOT_PREFIXES.some((p) => path.startsWith(p)) ? this.root + path : this.apiBase + path;
    }
    if (!query) return url;
    const u = new URL(url);
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined || v === null) continue;
      u.searchParams.delete(k);
      if (Array.isArray(v)) for (const item of v) u.searchParams.append(k, item);
      else u.searchParams.set(k, String(v));
    }
    return u.href;
  }

  get<T = any>(pathOrUrl: string, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('GET', pathOrUrl, opts).then((r) => r.data);
  }
  post<T = any>(pathOrUrl: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('POST', pathOrUrl, { ...opts, body }).then((r) => r.data);
  }
  patch<T = any>(pathOrUrl: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('PATCH', pathOrUrl, { ...opts, body }).then((r) => r.data);
  }
  put<T = any>(pathOrUrl: string, body?: unknown, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('PUT', pathOrUrl, { ...opts, body }).then((r) => r.data);
  }
  delete<T = any>(pathOrUrl: string, opts: RequestOptions = {}): Promise<T> {
    return this.request<T>('DELETE', pathOrUrl, opts).then((r) => r.data);
  }

  async request<T = any>(method: string, pathOrUrl: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
    const url = this.url(pathOrUrl, opts.query);
    // The one place credentials are attached: a link or Location the service sent that leads to
    // another origin is not followed, or the token would go to whoever the service names.
    const foreign = originOf(url) !== this.origin;
    if (foreign && !opts.otherOrigin && !opts.anonymous) {
      throw new CliError(
        `The service pointed to ${redactUrl(url)}, outside the API origin ${this.origin}; not followed (the access token is sent to the API origin only)`,
        ExitCode.FAILURE,
        'Check the API URL of the profile: the service there links to another host.',
      );
    }
    const writes = method !== 'GET' && method !== 'HEAD';
    if (this.readOnly && writes) throw new Error(`dry run: refusing to send ${method} ${url}`);
    if (this.dryRun && writes) throw new DryRunStop(method, url, opts.body);
    // The one chokepoint for writes (every verb's POST, PUT, PATCH, DELETE): a protected profile asks here.
    if (writes && this.beforeWrite) await this.beforeWrite(method, url);
    const signal = opts.signal ?? this.options.signal;
    const link = requestSignal(signal);
    try {
      const withToken = !opts.anonymous && (!foreign || opts.otherOrigin === 'token');
      return await this.attempts<T>(method, url, opts, withToken, signal, link.signal);
    } finally {
      link.release();
    }
  }

  private async attempts<T>(method: string, url: string, opts: RequestOptions, withToken: boolean, signal: AbortSignal | undefined, ownSignal: AbortSignal | undefined): Promise<ApiResponse<T>> {
    const idempotent = opts.idempotent ?? (opts.idempotencyKey ? true : undefined);
    const bodyText = opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    const deadlineMs = this.options.deadlineMs ?? REQUEST_DEADLINE_MS;
    let refreshed = false;
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { accept: 'application/hal+json, application/json', ...opts.headers };
      if (opts.idempotencyKey) headers['idempotency-key'] = opts.idempotencyKey;
      if (bodyText !== undefined) headers['content-type'] ??= 'application/json';
      if (withToken) headers.authorization = `Bearer ${await this.tokens.token()}`;
      const started = Date.now();
      // Connecting, the headers and the whole body share one deadline per attempt.
      const deadline = attemptDeadline(ownSignal, deadlineMs);
      try {
        let res: WireResponse;
        try {
          res = await this.transport.send({ method, url, headers, body: bodyText, signal: deadline.signal });
        } catch (err) {
          if (signal?.aborted) throw signal.reason ?? err;
          if (deadline.expired) throw deadlineError(url, deadlineMs);
          await this.options.onExchange?.({ method, url, requestHeaders: headers, requestBody: bodyText, error: err as Error, ms: Date.now() - started, attempt });
          const delay = isNetworkError(err) && isRetryable(method, 'network', idempotent) ? nextDelay(attempt, this.retry, waited) : undefined;
          if (delay !== undefined) {
            deadline.release();
            waited += await this.wait(attempt, delay, undefined, 'network', url, ownSignal, describeNetworkError(err, url));
            continue;
          }
          throw new CliError(`Cannot reach ${new URL(url).origin}: ${describeNetworkError(err, url)}`, ExitCode.FAILURE, `Check the API URL (${this.options.apiUrlFrom ?? 'of the profile'}) and that the service is running.`, 'UNREACHABLE');
        }
        for (const listener of this.answerListeners) listener(Date.now() - started, res.status);
        const traced = this.options.onExchange ? await res.text() : undefined;
        if (this.options.onExchange) {
          await this.options.onExchange({ method, url, requestHeaders: headers, requestBody: bodyText, status: res.status, responseHeaders: res.headers, responseBody: traced, ms: Date.now() - started, attempt });
        }
        if (res.status === 401 && !refreshed && withToken) {
          // The token may have expired early (clock moved, token revoked): one fresh token, one retry.
          refreshed = true;
          if (traced === undefined) await res.discard();
          deadline.release();
          await this.tokens.refresh();
          attempt--;
          continue;
        }
        if (res.status >= 300 && res.status < 400) {
          // Not followed: a redirect may lead to another origin, and an answer that is not the
          // resource is no success (a 3xx once printed nothing, exit 0).
          if (traced === undefined) await res.discard();
          const location = res.headers.get('location');
          throw redirectError(res.status, method, redactUrl(url), location === null ? null : redactUrl(location));
        }
        if (res.status >= 400) {
          const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
          const delay = isRetryable(method, res.status, idempotent) ? nextDelay(attempt, this.retry, waited, retryAfter) : undefined;
          if (delay !== undefined) {
            if (traced === undefined) await res.discard();
            deadline.release();
            waited += await this.wait(attempt, delay, retryAfter, res.status, url, ownSignal);
            continue;
          }
          const body = traced ?? (await res.text().catch(() => ''));
          // An error page rather than the service's JSON errors: the URL is something else (a web server, a proxy).
          if (looksLikeHtml(res.headers.get('content-type'), body)) throw notTheService(method, redactUrl(url), res.status, res.headers.get('content-type'), body, "the service's JSON", this.options.apiUrlFrom);
          throw new ApiError(res.status, method, redactUrl(url), readErrors(body), retryAfter);
        }
        const text = traced ?? (await res.text());
        let data: unknown = undefined;
        if (text) {
          try {
            data = JSON.parse(text);
          } catch {
            data = text;
          }
        }
        return { status: res.status, headers: res.headers, data: data as T, url };
      } catch (err) {
        if (deadline.expired && !signal?.aborted && !(err instanceof CliError)) throw deadlineError(url, deadlineMs);
        throw err;
      } finally {
        deadline.release();
      }
    }
  }

  /** Waits `delayMs` before the next attempt (and says so when asked); returns the time waited. */
  private async wait(attempt: number, delayMs: number, retryAfterMs: number | undefined, status: number | 'network', url: string, signal?: AbortSignal, problem?: string): Promise<number> {
    const info: RetryInfo = { attempt: attempt + 1, delayMs, status, url: redactUrl(url), retryAfterMs, problem };
    this.options.onRetry?.(info);
    for (const listener of this.retryListeners) listener(info);
    await sleep(delayMs, signal);
    return delayMs;
  }

  /**
   * Streams the items of a paged collection, one page in memory at a time, following page
   * numbers until the last page or `limit` items. `info` tells, once the stream ends, whether a
   * limit cut it short and how many there were in all (the renderer says so on stderr).
   */
  paginate<T = any>(pathOrUrl: string, key: string, opts: { query?: Record<string, QueryValue>; pageSize?: number; limit?: number } = {}): Paged<T> {
    const info: PageInfo = { more: false };
    return Object.assign(this.pageItems<T>(pathOrUrl, key, opts, info), { info });
  }

  private async *pageItems<T>(pathOrUrl: string, key: string, opts: { query?: Record<string, QueryValue>; pageSize?: number; limit?: number }, info: PageInfo): AsyncGenerator<T> {
    const size = opts.pageSize ?? 100;
    let page = 0;
    let yielded = 0;
    for (;;) {
      const data = await this.get<{ _embedded?: Record<string, T[]>; page?: { number: number; totalPages: number; totalElements?: number } }>(pathOrUrl, {
        query: { ...opts.query, page, size },
      });
      const items = data?._embedded?.[key] ?? [];
      const p = data?.page;
      if (typeof p?.totalElements === 'number') info.total = p.totalElements;
      for (let i = 0; i < items.length; i++) {
        yield items[i]!;
        if (opts.limit && ++yielded >= opts.limit) {
          info.more = i + 1 < items.length || (p ? p.number + 1 < p.totalPages : false);
          return;
        }
      }
      if (!p || !items.length || p.number + 1 >= p.totalPages) return;
      page = p.number + 1;
    }
  }

  /** Streams a cursor-paged collection (integrations): `{_embedded: {key: []}, cursor}`. */
  paginateCursor<T = any>(pathOrUrl: string, key: string, opts: { query?: Record<string, QueryValue>; pageSize?: number; limit?: number } = {}): Paged<T> {
    const info: PageInfo = { more: false };
    return Object.assign(this.cursorItems<T>(pathOrUrl, key, opts, info), { info });
  }

  private async *cursorItems<T>(pathOrUrl: string, key: string, opts: { query?: Record<string, QueryValue>; pageSize?: number; limit?: number }, info: PageInfo): AsyncGenerator<T> {
    let cursor: string | undefined;
    let yielded = 0;
    for (;;) {
      const data = await this.get<{ _embedded?: Record<string, T[]>; cursor?: string | null }>(pathOrUrl, {
        query: { ...opts.query, size: opts.pageSize ?? 100, cursor },
      });
      const items = data?._embedded?.[key] ?? [];
      for (let i = 0; i < items.length; i++) {
        yield items[i]!;
        if (opts.limit && ++yielded >= opts.limit) {
          info.more = i + 1 < items.length || Boolean(data?.cursor);
          return;
        }
      }
      if (!data?.cursor) return;
      cursor = data.cursor;
    }
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

/** The request a --dry-run stopped before sending: what the command would have sent. */
export class DryRunStop extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly body: unknown,
  ) {
    super(`dry run: ${method} ${url} not sent`);
  }
}

/**
 * A signal for one request that follows the long-lived one (Ctrl-C). A Request made with the
 * long-lived signal itself leaves a listener on it until garbage collection: a bulk run of
 * thousands of requests would pile them up (and warn about a listener leak).
 */
function requestSignal(parent?: AbortSignal): { signal?: AbortSignal; release(): void } {
  if (!parent) return { release() {} };
  const controller = new AbortController();
  const follow = () => controller.abort(parent.reason);
  if (parent.aborted) follow();
  else parent.addEventListener('abort', follow, { once: true });
  return { signal: controller.signal, release: () => parent.removeEventListener('abort', follow) };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function readErrors(text: string): ApiErrorEntry[] {
  try {
    const data = JSON.parse(text) as { errors?: ApiErrorEntry[]; message?: string; error?: string | { type?: string; message?: string } };
    if (Array.isArray(data.errors)) return data.errors;
    // The delivery API's shape: {"error": {"type", "message", "data"}}.
    if (data.error && typeof data.error === 'object') return [{ code: String(data.error.type ?? ''), message: String(data.error.message ?? data.error.type ?? '') }];
    if (data.message || data.error) return [{ message: data.message ?? (data.error as string) }];
  } catch {
    /* not JSON */
  }
  return text ? [{ message: text.slice(0, 300) }] : [];
}
