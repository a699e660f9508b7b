import { STATUS_CODES, createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Sandbox } from './app.js';
import { DroppedConnection } from './core/dropped.js';
import { ServiceError, serviceError } from './core/errors.js';
import { BodyBudget, bodyTooLarge, serverBusy } from './core/body-budget.js';
import type { ServiceRequest } from './core/exchange.js';
import { CorsPolicy, HostCheck } from './core/host.js';
import { isStagingHostname } from './delivery/host.js';
import { MAX_BODY_BYTES } from './service.js';

export interface RunningServer {
  /** Base URL such as http://127.0.0.1:8787 */
  url: string;
  port: number;
  server: Server;
  /**
   * Stops accepting, ends keep-alive connections, waits for in-flight requests and deliveries.
   * `beforeDbClose` runs once all that is done, on the still open database (--export-on-exit).
   */
  close(beforeDbClose?: () => void): Promise<void>;
  /** The interception proxy, when asked for (ListenOptions.intercept): started with the server, stopped with it. */
  intercept?: Intercepting;
}

/** The interception proxy of a served sandbox (`--intercept`; docs/testing-with-the-sandbox.md). */
export interface Intercepting {
  /** http://127.0.0.1:<port> */
  proxyUrl: string;
  /** The CA certificate the intercepted command trusts. */
  caFile: string;
  /** The variables that send a command through the proxy (HTTPS_PROXY, NODE_EXTRA_CA_CERTS, ...). */
  env: Record<string, string>;
}

export interface InterceptOptions {
  /** The directory whose intercept/ subdirectory holds the CA (made there once). */
  caDir: string;
  /** Refuse hosts that are not intercepted, instead of passing them through. */
  offline?: boolean;
  /** Told of each refused host. */
  onRefused?: (host: string, why: string) => void;
  /** Told why an unusable CA was replaced. */
  onWarn?: (message: string) => void;
  /** The NODE_OPTIONS the command would have had (kept before the preload). */
  nodeOptions?: string;
}

export interface ListenOptions {
  /** Names served besides loopback, the bound address and staging hostnames (--allow-host): name, name:port, .domain or *. */
  allowHosts?: string[];
  /** Origins whose pages may read the delivery routes with CORS (--cors-origin): exact origins, or `*` (published content only). */
  corsOrigins?: string[];
  /** Also start the interception proxy on 127.0.0.1 (answers the hosted service's names from this sandbox). */
  intercept?: InterceptOptions;
}

/**
 * Adapts the sandbox to node:http and starts the scheduler's timer. The service takes plain
 * requests, so node's parsed request is handed over as it is: no WHATWG Request or Response is
 * built on this path (which is why no HTTP framework adapter sits here).
 */
export async function listen(sandbox: Sandbox, host = '127.0.0.1', port = 8787, options: ListenOptions = {}): Promise<RunningServer> {
  const hosts = new HostCheck({ bind: host, allow: options.allowHosts, isStagingHost: (name) => isStagingHostname(sandbox.service.db, name) });
  // A missing Host is answered by HostCheck with the error body, not by node with a bare 400.
  const cors = options.corsOrigins?.length ? new CorsPolicy(options.corsOrigins) : undefined;
  const budget = new BodyBudget();
  const server = createServer({ requireHostHeader: false }, (req, res) => {
    answer(sandbox, hosts, cors, budget, req, res).catch((err) => {
      sandbox.service.options.onError?.(err, { method: req.method ?? '', url: req.url ?? '' });
      if (!res.headersSent) res.writeHead(500).end();
      else res.destroy();
    });
  });
  // Requests node:http refuses before they reach the service (headers over 16 KB, a malformed
  // request line) still get the error body of every other refusal, not a bare status line.
  const refused = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // The parser reports each later chunk of a refused request again: let it drain, answered once.
    if (refused.has(socket)) return;
    // As node's own handler: answer unless a response on this connection has already started.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    // A client that closed mid-request (ECONNRESET, or the end of its stream in the middle of a
    // message) is gone: there is no one to answer.
    if (!socket.writable || inFlight?.headersSent || err.code === 'ECONNRESET' || err.code === 'HPE_INVALID_EOF_STATE') return socket.destroy();
    refused.add(socket);
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const message = status === 431 ? 'The request line and headers are too large' : status === 408 ? 'The request took too long to arrive' : 'The request is not valid HTTP';
    const body = JSON.stringify(serviceError(status, { code: STATUS_CODES[status]!.toUpperCase().replace(/\W+/g, '_'), message }).toBody());
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${ERROR_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    setTimeout(() => socket.destroy(), 1000).unref();
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  let intercept: Awaited<ReturnType<typeof startIntercepting>> | undefined;
  if (options.intercept) {
    try {
      intercept = await startIntercepting(sandbox, options.intercept, (req, res, url, reach) => {
        answerAdmitted(sandbox, cors, budget, req, res, url, reach).catch((err) => {
          sandbox.service.options.onError?.(err, { method: req.method ?? '', url: url.href });
          if (!res.headersSent) res.writeHead(500).end();
          else res.destroy();
        });
      });
    } catch (err) {
      server.close();
      throw err;
    }
  }
  sandbox.startScheduler();
  const address = server.address() as AddressInfo;
  // --host may be a name: the URL printed below names the address it resolved to.
  hosts.alsoServe(address.address);
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${shownHost}:${address.port}`,
    port: address.port,
    server,
    ...(intercept ? { intercept: intercept.info } : {}),
    close: (beforeDbClose) =>
      (closing ??= (async () => {
        await intercept?.proxy.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const force = setTimeout(() => server.closeAllConnections(), 3000);
        await closed;
        clearTimeout(force);
        try {
          await sandbox.idle(5000);
          beforeDbClose?.();
        } finally {
          sandbox.close();
        }
      })()),
  };
}

/** The proxy and its CA, loaded only when asked for (the CLI's other commands never load them). */
async function startIntercepting(sandbox: Sandbox, o: InterceptOptions, answer: (req: IncomingMessage, res: ServerResponse, url: URL, reach: 'all' | 'staging') => void) {
  const { loadAuthority } = await import('./intercept/ca.js');
  const { startProxy } = await import('./intercept/proxy.js');
  const { interceptEnv, writeBundle } = await import('./intercept/env.js');
  const { carriesSandboxCredential } = await import('./intercept/credentials.js');
  const authority = loadAuthority(o.caDir, o.onWarn ?? (() => {}));
  const bundleFile = writeBundle(authority.caFile);
  const proxy = await startProxy({
    authority,
    offline: o.offline ?? false,
    isStagingHost: (name) => isStagingHostname(sandbox.service.db, name),
    answer: (req, res, mapped) => answer(req, res, mapped.url, mapped.reach),
    carriesSandboxCredential: (req, url) => carriesSandboxCredential(sandbox.service.db, sandbox.service.signingKey, req, url),
    onRefused: o.onRefused,
  });
  const info: Intercepting = {
    proxyUrl: proxy.url,
    caFile: authority.caFile,
    env: interceptEnv({ proxyUrl: proxy.url, caFile: authority.caFile, bundleFile, leafSpki: authority.leafSpki, nodeOptions: o.nodeOptions }),
  };
  return { proxy, info };
}

const ERROR_TYPE = 'application/hal+json;charset=UTF-8';

/** An error the transport answers itself, before the service sees the request. */
function refuse(res: ServerResponse, err: ServiceError): void {
  const body = JSON.stringify(err.toBody());
  res.writeHead(err.status, { ...err.headers, 'Content-Type': ERROR_TYPE, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

/** Every Host header of the request (node keeps only the first in req.headers). */
function hostHeaders(raw: string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === 'host') found.push(raw[i + 1]!);
  return found;
}

async function answer(sandbox: Sandbox, hosts: HostCheck, cors: CorsPolicy | undefined, budget: BodyBudget, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Links are built from the origin the client used (its Host header), the path from the target alone.
  let url: URL;
  let reach: 'all' | 'staging';
  try {
    ({ url, reach } = hosts.admit(req.url ?? '/', hostHeaders(req.rawHeaders)));
  } catch (err) {
    if (!(err instanceof ServiceError)) throw err;
    // Refused before the service sees it, and journaled all the same (by its raw target).
    const journal = sandbox.service.journal;
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    journal.record(
      { startedAt: Date.now(), method: req.method ?? 'GET', path: q < 0 ? target : target.slice(0, q), search: q < 0 ? '' : target.slice(q), status: err.status, durationMs: 0, fault: null, clientId: null, op: null },
      journal.mark(),
    );
    return refuse(res, err);
  }
  return answerAdmitted(sandbox, cors, budget, req, res, url, reach);
}

/** Answers a request whose URL and reach are decided (by the Host check, or by the interception proxy's mapping). */
async function answerAdmitted(sandbox: Sandbox, cors: CorsPolicy | undefined, budget: BodyBudget, req: IncomingMessage, res: ServerResponse, url: URL, reach: 'all' | 'staging'): Promise<void> {
  const request: ServiceRequest = {
    method: req.method ?? 'GET',
    url: url.href,
    parsedUrl: url,
    reach,
    cors,
    header: (name) => {
      const v = req.headers[name.toLowerCase()];
      return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
    },
    text: (maxBytes = MAX_BODY_BYTES) => readText(req, maxBytes, budget, held),
  };
  // The body bytes this request holds in the budget, given back once it is answered.
  const held = { bytes: 0 };
  try {
    let reply;
    try {
      reply = await sandbox.service.handle(request);
    } catch (err) {
      if (!(err instanceof DroppedConnection)) throw err;
      req.socket.destroy();
      return;
    }
    res.writeHead(reply.status, reply.body === null ? reply.headers : { ...reply.headers, 'Content-Length': Buffer.byteLength(reply.body) });
    res.end(reply.body ?? undefined);
  } finally {
    budget.give(held.bytes);
  }
}

/**
 * The body, refused with 413 as soon as it grows past maxBytes and with 503 when the bytes all
 * requests hold would pass the budget (reserved up front from Content-Length, else as it arrives).
 * What is refused is drained, never buffered.
 */
function readText(req: IncomingMessage, maxBytes: number, budget: BodyBudget, held: { bytes: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const refuse = (err: ServiceError) => {
      req.removeAllListeners('data');
      req.resume();
      reject(err);
    };
    const reserve = (bytes: number) => {
      if (bytes <= held.bytes) return true;
      if (!budget.take(bytes - held.bytes)) return false;
      held.bytes = bytes;
      return true;
    };
    const declared = Number(req.headers['content-length']);
    if (declared > maxBytes) return refuse(bodyTooLarge(maxBytes));
    if (declared > 0 && !reserve(declared)) return refuse(serverBusy());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > maxBytes) refuse(bodyTooLarge(maxBytes));
      else if (!reserve(size)) refuse(serverBusy());
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    // A client gone mid-body gets no answer, and it is no error of the service's.
    req.on('error', () => reject(new DroppedConnection()));
  });
}
