import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandbox, type Sandbox, type ServiceOptions } from '../../src/server/app.js';
import { listen, type ListenOptions, type RunningServer } from '../../src/server/http.js';

export interface TestServer {
  url: string;
  base: string;
  dataDir: string;
  sandbox: Sandbox;
  server: RunningServer;
  stop(): Promise<void>;
}

/** The sandbox served on a free port of 127.0.0.1, on a fresh temporary data directory. */
export async function startServer(opts: Partial<ServiceOptions> = {}, listenOpts: ListenOptions = {}): Promise<TestServer> {
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'cms-test-'));
  const sandbox = createSandbox({ onError: (err) => console.error('sandbox error', err), ...opts, dataDir });
  const server = await listen(sandbox, '127.0.0.1', 0, listenOpts);
  return {
    url: server.url,
    base: `${server.url}/v2/content`,
    dataDir,
    sandbox,
    server,
    stop: async () => {
      await server.close();
      if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A small HTTP client for contract tests: real requests to the server, with a bearer token. */
export class Api {
  token: string | null = null;

  constructor(
    readonly url: string,
    readonly clientId = 'sandbox-admin',
    readonly clientSecret = 'sandbox-secret',
  ) {}

  get base(): string {
    return `${this.url}/v2/content`;
  }

  async login(): Promise<this> {
    const res = await fetch(`${this.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: this.clientId, client_secret: this.clientSecret }),
    });
    if (res.status !== 200) throw new Error(`login failed for ${this.clientId}: ${res.status} ${await res.text()}`);
    this.token = ((await res.json()) as { access_token: string }).access_token;
    return this;
  }

  /** path: '/hubs' (under /v2/content), '/oauth/...', '/__sandbox/...' or an absolute URL. */
  async req<T = any>(method: string, path: string, body?: unknown, opts: { headers?: Record<string, string>; token?: string | null; raw?: string } = {}): Promise<Reply<T>> {
    const url = /^https?:/.test(path) ? path : /^\/(oauth|__sandbox|cms|v1|v2)/.test(path) ? this.url + path : this.base + path;
    const headers: Record<string, string> = { accept: 'application/hal+json', ...opts.headers };
    const token = opts.token === undefined ? this.token : opts.token;
    if (token) headers.authorization = `Bearer ${token}`;
    let payload: string | undefined = opts.raw;
    if (payload === undefined && body !== undefined) payload = JSON.stringify(body);
    if (payload !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    const res = await fetch(url, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }

  get<T = any>(path: string, opts?: Parameters<Api['req']>[3]) {
    return this.req<T>('GET', path, undefined, opts);
  }
  post<T = any>(path: string, body?: unknown, opts?: Parameters<Api['req']>[3]) {
    return this.req<T>('POST', path, body, opts);
  }
  patch<T = any>(path: string, body?: unknown, opts?: Parameters<Api['req']>[3]) {
    return this.req<T>('PATCH', path, body, opts);
  }
  put<T = any>(path: string, body?: unknown, opts?: Parameters<Api['req']>[3]) {
    return this.req<T>('PUT', path, body, opts);
  }
  del<T = any>(path: string, opts?: Parameters<Api['req']>[3]) {
    return this.req<T>('DELETE', path, undefined, opts);
  }

  /**
   * Moves the sandbox clock (admin endpoint) and logs in again. Tokens expire on wall-clock time
   * (a clock move expires none; test/contract/auth.test.ts holds one across 2 days): the new
   * token only keeps long test files clear of the real 300-second lifetime.
   */
  async advanceClock(change: { advance?: string; set?: string }): Promise<Reply> {
    const res = await this.post('/__sandbox/clock', change);
    if (res.status !== 200) throw new Error(`clock change failed: ${res.status} ${res.text}`);
    await this.login();
    return res;
  }

  /** Creates a restricted client through the sandbox admin endpoint and returns an Api for it. */
  async client(id: string, permissions: string[], acl: { resource: 'hubs' | 'content-repositories'; id: string; permissions: string[] }[] = []): Promise<Api> {
    const res = await this.post('/__sandbox/clients', { id, secret: `${id}-secret`, permissions, acl });
    if (res.status !== 201) throw new Error(`client create failed: ${res.status} ${res.text}`);
    return new Api(this.url, id, `${id}-secret`).login();
  }
}

let counter = 0;
/** The body of a successful answer; throws with the status and text of any other. */
export async function ok<T = any>(res: Promise<{ status: number; text: string; body: T }>): Promise<T> {
  const r = await res;
  if (r.status >= 300) throw new Error(`${r.status} ${r.text}`);
  return r.body;
}

/** A unique name for tests sharing one server. */
export const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

/** Creates a hub (as the given api's client) and returns its body. */
export async function createHub(api: Api, name = unique('hub')): Promise<any> {
  const res = await api.post('/hubs', { name, label: `Hub ${name}` });
  if (res.status !== 201) throw new Error(`hub create failed: ${res.status} ${res.text}`);
  return res.body;
}

export async function createRepo(api: Api, hubId: string, name = unique('repo')): Promise<any> {
  const res = await api.post(`/hubs/${hubId}/content-repositories`, { name, label: `Repo ${name}` });
  if (res.status !== 201) throw new Error(`repo create failed: ${res.status} ${res.text}`);
  return res.body;
}
