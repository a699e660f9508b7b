import type { Connection } from '../config/resolve.js';

/**
 * How requests reach the service. The client never knows which one it has: the embedded sandbox
 * (in-process, no socket) or a remote service over HTTP (undici, keep-alive).
 */
export interface Transport {
  readonly kind: 'embedded' | 'http';
  send(req: Request): Promise<Response>;
  /** Lets background work finish (embedded webhook deliveries) and releases connections. */
  close(): Promise<void>;
}

export async function createTransport(conn: Connection): Promise<Transport> {
  return conn.embedded ? embeddedTransport(conn.dataDir) : httpTransport();
}

async function embeddedTransport(dataDir: string): Promise<Transport> {
  const { createSandbox } = await import('../server/app.js');
  const { DroppedConnection } = await import('../server/dropped.js');
  const sandbox = createSandbox({ dataDir });
  return {
    kind: 'embedded',
    send: (req) =>
      sandbox.fetch(req).catch((err: unknown) => {
        // An injected dropped connection looks to the client like a reset socket.
        if (err instanceof DroppedConnection) throw Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNRESET' } });
        throw err;
      }),
    close: async () => {
      await sandbox.idle(10_000);
      sandbox.close();
    },
  };
}

async function httpTransport(): Promise<Transport> {
  const { Agent, fetch } = await import('undici');
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 16, connect: { timeout: 15_000 }, headersTimeout: 120_000, bodyTimeout: 300_000 });
  return {
    kind: 'http',
    send: async (req) => {
      const body = req.body ? await req.arrayBuffer() : undefined;
      const res = await fetch(req.url, { method: req.method, headers: req.headers as never, body, dispatcher: agent, signal: req.signal as never, redirect: 'manual' });
      return res as unknown as Response;
    },
    close: () => agent.close(),
  };
}
