import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import type { Sandbox } from './app.js';
import { DroppedConnection } from './dropped.js';

export interface RunningServer {
  /** Base URL such as http://127.0.0.1:8787 */
  url: string;
  port: number;
  server: Server;
  /** Stops accepting, ends keep-alive connections, waits for in-flight requests and deliveries. */
  close(): Promise<void>;
}

/** Adapts the sandbox handler to node:http and starts the scheduler's timer. */
export async function listen(sandbox: Sandbox, host = '127.0.0.1', port = 8787): Promise<RunningServer> {
  const server = createServer(
    getRequestListener(async (req, env) => {
      try {
        return await sandbox.fetch(req);
      } catch (err) {
        if (!(err instanceof DroppedConnection)) throw err;
        (env as HttpBindings).incoming.socket.destroy();
        // Nothing can be written on a destroyed socket; the adapter's write of this is a no-op.
        return new Response(null, { status: 204 });
      }
    }),
  );
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  sandbox.startScheduler();
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    server,
    close: () =>
      (closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), 3000);
        await closed;
        clearTimeout(force);
        await sandbox.idle(5000);
        sandbox.close();
      })()),
  };
}
