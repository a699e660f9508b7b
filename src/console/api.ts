// The console's one HTTP client: the public API with a bearer token held in memory (never in
// storage or cookies), so a reload signs out and no other page can act with it.

export interface ApiErrorEntry {
  level?: string;
  code?: string;
  message?: string;
  property?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: ApiErrorEntry[] = [],
  ) {
    super(message);
  }
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pages: number;
}

type Query = Record<string, string | number | boolean | undefined | null>;

export const API = '/v2/content';

export class Api {
  private token: string | null = null;
  private expiresAt = 0;
  private credentials: { id: string; secret: string } | null = null;

  get signedIn(): boolean {
    return this.token !== null;
  }

  /** Exchanges client credentials for a token (POST /oauth/token). */
  async signIn(id: string, secret: string): Promise<void> {
    const res = await fetch('/oauth/token', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }),
      credentials: 'omit',
    });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new ApiError(res.status, body?.errors?.[0]?.message ?? `Sign-in failed (${res.status})`, body?.errors ?? []);
    this.token = body.access_token;
    this.expiresAt = Date.now() + (Number(body.expires_in) || 300) * 1000;
    this.credentials = { id, secret };
  }

  signOut(): void {
    this.token = null;
    this.credentials = null;
  }

  /** An absolute API path: '/hubs' is under /v2/content, '/__sandbox/…' and '/oauth/…' are as given. */
  static url(path: string, query?: Query): string {
    const base = path.startsWith('/__sandbox') || path.startsWith('/v2/') ? path : API + path;
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null && v !== '') qs.set(k, String(v));
    const s = qs.toString();
    return s ? `${base}${base.includes('?') ? '&' : '?'}${s}` : base;
  }

  async request<T = any>(method: string, path: string, body?: unknown, query?: Query): Promise<T> {
    if (!this.token) throw new ApiError(401, 'Not signed in');
    // The token is short-lived: renew it a little before it expires (the secret is in memory too).
    if (this.credentials && Date.now() > this.expiresAt - 30_000) await this.signIn(this.credentials.id, this.credentials.secret);
    const send = () =>
      fetch(Api.url(path, query), {
        method,
        headers: { Authorization: `Bearer ${this.token}`, Accept: 'application/hal+json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
      });
    let res = await send();
    // Expiry follows the sandbox clock, which the console itself may move: sign in again once.
    if (res.status === 401 && this.credentials) {
      await this.signIn(this.credentials.id, this.credentials.secret);
      res = await send();
    }
    const text = await res.text();
    const json = text ? safeJson(text) : null;
    if (!res.ok) {
      const errors: ApiErrorEntry[] = json?.errors ?? [];
      throw new ApiError(res.status, errors.map((e) => e.message).filter(Boolean).join('; ') || `${method} ${path} answered ${res.status}`, errors);
    }
    return json as T;
  }

  get = <T = any>(path: string, query?: Query) => this.request<T>('GET', path, undefined, query);
  post = <T = any>(path: string, body?: unknown, query?: Query) => this.request<T>('POST', path, body ?? {}, query);
  patch = <T = any>(path: string, body: unknown) => this.request<T>('PATCH', path, body);
  del = <T = any>(path: string) => this.request<T>('DELETE', path);

  /** One page of a HAL listing: its entries under `_embedded[key]` and the page figures. */
  async page<T = any>(path: string, key: string, query: Query = {}): Promise<Page<T>> {
    const body = await this.get(path, query);
    const p = body?.page ?? {};
    return { items: body?._embedded?.[key] ?? [], total: p.totalElements ?? 0, page: p.number ?? 0, pages: p.totalPages ?? 1 };
  }

  /** Every entry of a listing (pages of 100; for the small lists: hubs, events, schemas). */
  async all<T = any>(path: string, key: string, query: Query = {}): Promise<T[]> {
    const out: T[] = [];
    for (let n = 0; n < 50; n++) {
      const p = await this.page<T>(path, key, { ...query, page: n, size: 100 });
      out.push(...p.items);
      if (n + 1 >= p.pages || !p.items.length) break;
    }
    return out;
  }
}

function safeJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return { text };
  }
}

export const api = new Api();
