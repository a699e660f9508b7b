import { STATUS_CODES, createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, isIPv6, type AddressInfo, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { Authority } from './ca.js';
import { intercepted, mapRequest, type Mapped } from './hosts.js';

// The interception proxy (`cms sandbox exec --intercept`): an HTTP proxy on 127.0.0.1 that answers
// the hosted service's names from the sandbox and passes every other host through unchanged (or,
// offline, refuses it naming the host). It speaks both ways clients use a proxy: CONNECT (a
// tunnel; for an intercepted name on 443 the proxy ends TLS itself with a leaf of the CA for that
// exact name, for any other name it only relays bytes and never presents a certificate) and
// absolute-form requests (`GET https://api.amplience.net/...` sent in plain to the proxy, as
// older axios does). Requests in origin-form (`GET /`) are refused: the proxy is no web server,
// so a web page whose DNS name is rebound to 127.0.0.1 gets nothing from it.

export interface ProxyOptions {
  authority: Authority;
  /** Refuse every host that is not intercepted (hermetic tests). */
  offline: boolean;
  isStagingHost(name: string): boolean;
  /** Answers an intercepted request from the sandbox at this URL. */
  answer(req: IncomingMessage, res: ServerResponse, mapped: Mapped): void;
  /** Whether a request about to pass through carries a credential of the sandbox's (then it is refused). */
  carriesSandboxCredential(req: IncomingMessage, url: URL): boolean;
  /** Told of each refused host (what `sandbox exec` prints). */
  onRefused?(host: string, why: string): void;
}

export interface RunningProxy {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** An idle tunnel or pass-through request is ended after this long. */
const IDLE_MS = 120_000;
const MAX_CONNECTIONS = 512;
const AUTHORITY_FORM = /^(\[[0-9a-f:.]{2,45}\]|[a-z0-9_](?:[a-z0-9_.-]{0,252})):(\d{1,5})$/i;
/** Headers about this hop only (RFC 9110 7.6.1), never relayed; proxy credentials never either. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export const isLoopbackAddress = (address: string | undefined): boolean =>
  !!address && (address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(address));

export async function startProxy(o: ProxyOptions): Promise<RunningProxy> {
  const isIntercepted = (name: string, port: number, tls: boolean) => port === (tls ? 443 : 80) && intercepted(name, o.isStagingHost);
  const sockets = new Set<Socket>();

  // The requests inside a tunnel the proxy ended TLS on: the name is the tunnel's, not the Host's.
  const tunnelled = new WeakMap<Socket, string>();
  const inner = createServer((req, res) => {
    const name = tunnelled.get(req.socket);
    if (!name) return void res.destroy();
    answerIntercepted(req, res, 'https', name, req.url ?? '/');
  });
  inner.keepAliveTimeout = 65_000;

  const answerIntercepted = (req: IncomingMessage, res: ServerResponse, scheme: 'http' | 'https', name: string, path: string) => {
    const mapped = mapRequest(scheme, name, path);
    if ('status' in mapped) return reply(res, mapped.status, { errors: [{ code: 'NOT_SERVED_BY_THE_SANDBOX', message: mapped.message }] });
    o.answer(req, res, mapped);
  };

  const refuse = (host: string, why: string) => {
    o.onRefused?.(host, why);
    return `cms sandbox proxy: refused ${host}: ${why}`;
  };

  const server = createServer((req, res) => {
    // Absolute-form only (a proxy request); the target names scheme, host and path.
    const target = req.url ?? '';
    let url: URL | null = null;
    if (/^https?:\/\//i.test(target)) {
      try {
        url = new URL(target);
      } catch {
        url = null;
      }
    }
    if (!url) return reply(res, 400, 'cms sandbox proxy: this is an HTTP proxy; send absolute URLs (http://host/path) or CONNECT host:port');
    const tls = url.protocol === 'https:';
    const name = url.hostname.toLowerCase();
    const port = Number(url.port || (tls ? 443 : 80));
    if (isIntercepted(name, port, tls)) return answerIntercepted(req, res, tls ? 'https' : 'http', name, url.pathname + url.search);
    const host = `${name}:${port}`;
    if (o.offline) return reply(res, 403, refuse(host, 'not a name of the service, and the proxy is offline (--offline)'));
    if (o.carriesSandboxCredential(req, url)) return reply(res, 403, refuse(host, "the request carries the sandbox's credentials, which never leave this machine"));
    try {
      passThrough(req, res, url, tls);
    } catch (err) {
      reply(res, 502, `cms sandbox proxy: could not send to ${host}: ${(err as Error).message}`);
    }
  });

  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const m = AUTHORITY_FORM.exec(req.url ?? '');
    const port = m ? Number(m[2]) : 0;
    if (!m || port < 1 || port > 65535 || (m[1]!.startsWith('[') && !isIPv6(m[1]!.slice(1, -1)))) return endTunnel(client, 400, 'cms sandbox proxy: CONNECT takes host:port');
    const name = m[1]!.toLowerCase().replace(/\.$/, '');
    client.setTimeout(IDLE_MS, () => client.destroy());
    if (isIntercepted(name, port, true)) {
      let secureContext;
      try {
        secureContext = o.authority.contextFor(name);
      } catch {
        return endTunnel(client, 502, `cms sandbox proxy: no certificate could be made for ${name}`);
      }
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) client.unshift(head);
      const secure = new TLSSocket(client, { isServer: true, secureContext, ALPNProtocols: ['http/1.1'] });
      secure.on('error', () => client.destroy());
      tunnelled.set(secure, name);
      inner.emit('connection', secure);
      return;
    }
    const host = `${name}:${port}`;
    if (o.offline) return endTunnel(client, 403, refuse(host, 'not a name of the service, and the proxy is offline (--offline)'));
    // Any other name: bytes relayed as they are; the proxy never sees inside, never presents a certificate.
    const upstream = connect({ host: name.startsWith('[') ? name.slice(1, -1) : name, port });
    upstream.setTimeout(IDLE_MS, () => upstream.destroy());
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (err: NodeJS.ErrnoException) => {
      if (client.writable && !upstream.readable) endTunnel(client, 502, `cms sandbox proxy: could not reach ${host}: ${err.code ?? err.message}`);
      else client.destroy();
    });
    client.on('error', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
  });

  // Only this machine: the proxy listens on 127.0.0.1, and a connection from anywhere else is closed unread.
  server.on('connection', (socket: Socket) => {
    if (!isLoopbackAddress(socket.remoteAddress)) return void socket.destroy();
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.maxConnections = MAX_CONNECTIONS;
  server.on('clientError', (_err, socket: Socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        inner.close();
        // Tunnels and keep-alive connections end with the sandbox: a proxy left half-open would hang its client.
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
        inner.closeAllConnections();
      })),
  };
}

/** A request for any other host, sent on as the client sent it (minus this hop's headers), its answer relayed. */
function passThrough(req: IncomingMessage, res: ServerResponse, url: URL, tls: boolean): void {
  const headers: OutgoingHttpHeaders = {};
  const named = new Set((req.headers.connection ?? '').toLowerCase().split(',').map((s) => s.trim()));
  for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && !named.has(k) && v !== undefined) headers[k] = v;
  headers.host = url.host;
  const send = tls ? httpsRequest : httpRequest;
  const upstream = send({ hostname: url.hostname.replace(/^\[|\]$/g, ''), port: url.port || (tls ? 443 : 80), path: url.pathname + url.search, method: req.method, headers, timeout: IDLE_MS }, (answer) => {
    const out: OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(answer.headers)) if (!HOP.has(k) && v !== undefined) out[k] = v;
    res.writeHead(answer.statusCode ?? 502, out);
    answer.pipe(res);
  });
  upstream.on('timeout', () => upstream.destroy(new Error('timed out')));
  upstream.on('error', (err: NodeJS.ErrnoException) => {
    if (!res.headersSent) reply(res, 502, `cms sandbox proxy: could not reach ${url.host}: ${err.code ?? err.message}`);
    else res.destroy();
  });
  req.pipe(upstream);
}

function reply(res: ServerResponse, status: number, body: string | object): void {
  const text = typeof body === 'string' ? `${body}\n` : JSON.stringify(body);
  res.writeHead(status, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function endTunnel(client: Socket, status: number, message: string): void {
  const body = `${message}\n`;
  client.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
