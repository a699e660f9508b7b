import type { Connection } from '../config/resolve.js';

/**
 * How requests reach the service. The client never knows which one it has: the embedded sandbox
 * (in-process, no socket, no fetch machinery) or a remote service over HTTP (undici, keep-alive).
 * Requests and responses are plain objects, so neither side builds WHATWG Request/Response.
 */
export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export interface WireResponse {
  status: number;
  headers: HeaderMap;
  text(): Promise<string>;
  /** Releases a body the caller will not read (frees the connection). */
  discard(): Promise<void>;
}

export interface Transport {
  readonly kind: 'embedded' | 'http';
  send(req: WireRequest): Promise<WireResponse>;
  /** Lets background work finish (embedded webhook deliveries) and releases connections. */
  close(): Promise<void>;
}

/** Response headers by case-insensitive name. */
export class HeaderMap {
  private readonly map = new Map<string, string>();
  constructor(headers: Record<string, string | string[] | undefined>) {
    for (const [k, v] of Object.entries(headers)) if (v !== undefined) this.map.set(k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v);
  }
  get(name: string): string | null {
    return this.map.get(name.toLowerCase()) ?? null;
  }
  forEach(fn: (value: string, name: string) => void): void {
    this.map.forEach(fn);
  }
}

export async function createTransport(conn: Connection): Promise<Transport> {
  return conn.embedded ? embeddedTransport(conn.dataDir) : httpTransport();
}

async function embeddedTransport(dataDir: string): Promise<Transport> {
  // Loaded side by side: each import waits on file reads, which overlap.
  const [{ createSandbox }, { DroppedConnection }, { plainRequest }] = await Promise.all([
    import('../server/app.js'),
    import('../server/core/dropped.js'),
    import('../server/core/exchange.js'),
  ]);
  const sandbox = createSandbox({ dataDir });
  return {
    kind: 'embedded',
    send: async (req) => {
      // The service answers in-process without waiting on I/O: yield to the event loop first, so
      // a signal (Ctrl-C) is handled between requests rather than after a whole bulk run.
      await new Promise((resolve) => setImmediate(resolve));
      req.signal?.throwIfAborted();
      try {
        const reply = await sandbox.service.handle(plainRequest(req.method, req.url, req.headers, req.body));
        return { status: reply.status, headers: new HeaderMap(reply.headers), text: async () => reply.body ?? '', discard: async () => {} };
      } catch (err) {
        // An injected dropped connection looks to the client like a reset socket.
        if (err instanceof DroppedConnection) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
        throw err;
      }
    },
    close: async () => {
      await sandbox.idle(10_000);
      sandbox.close();
    },
  };
}

async function httpTransport(): Promise<Transport> {
  const { Agent, request } = await import('undici');
  // As many connections as a bulk run's governor may keep requests in flight (MAX_CONCURRENCY in
  // ops/pool.ts): with fewer, requests past them wait in the agent's queue, which looks like a slow service.
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64, connect: { timeout: 15_000 }, headersTimeout: 120_000, bodyTimeout: 300_000 });
  return {
    kind: 'http',
    send: async (req) => {
      const res = await request(req.url, { method: req.method as never, headers: req.headers, body: req.body, dispatcher: agent, signal: req.signal });
      return { status: res.statusCode, headers: new HeaderMap(res.headers), text: () => res.body.text(), discard: () => res.body.dump() };
    },
    close: () => agent.close(),
  };
}
