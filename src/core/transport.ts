import type { Dispatcher } from 'undici';
import type { Connection } from '../config/resolve.js';
import { CliError } from './errors.js';

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

/** One request and its answer (or network error), as the --debug trace shows it. */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody?: string;
  status?: number;
  responseHeaders?: HeaderMap;
  responseBody?: string;
  error?: Error;
  ms: number;
  attempt: number;
}

/** Sees every exchange (the --debug trace). Only when one is set are response bodies copied. */
export type ExchangeListener = (exchange: Exchange) => void | Promise<void>;

/** A wait before the next attempt of a request, as the client reports it (progress, "retrying…"). */
export interface RetryInfo {
  attempt: number;
  delayMs: number;
  status: number | 'network';
  url: string;
  /** What the service asked for in Retry-After, when it did. */
  retryAfterMs?: number;
  /** For a network failure: what happened, in words (connection refused). */
  problem?: string;
}


/**
 * How long one attempt of a request may take in all (connect, headers and the whole body): a
 * service that drips its answer a byte at a time would otherwise hold the CLI for ever, since
 * the transport's body timeout starts again with every chunk. CMS_REQUEST_TIMEOUT (seconds) sets it.
 */
export const REQUEST_DEADLINE_MS = 120_000;

/** A signal for one attempt: aborts at the deadline, or with `parent` (Ctrl-C). Release it when the attempt ends. */
export function attemptDeadline(parent: AbortSignal | undefined, ms: number): { signal: AbortSignal; readonly expired: boolean; release(): void } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new Error(`deadline of ${ms} ms passed`));
  }, ms);
  const follow = () => controller.abort(parent!.reason);
  if (parent?.aborted) follow();
  else parent?.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    get expired() {
      return expired;
    },
    release() {
      clearTimeout(timer);
      parent?.removeEventListener('abort', follow);
    },
  };
}

/** An attempt that passed REQUEST_DEADLINE_MS (or CMS_REQUEST_TIMEOUT): exit 1, naming the deadline. */
export function deadlineError(url: string, ms: number): CliError {
  return new CliError(
    `No complete answer from ${new URL(url).origin} within ${Math.round(ms / 1000)} s; the request was abandoned`,
    1,
    'The service is stalled or far too slow. CMS_REQUEST_TIMEOUT=<seconds> allows longer (default 120).',
  );
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
  // Loaded side by side (inProcessTransport's imports too): each import waits on file reads, which overlap.
  const [{ createSandbox }] = await Promise.all([import('../server/app.js'), import('../server/core/dropped.js'), import('../server/core/exchange.js')]);
  let sandbox: Sandbox;
  try {
    sandbox = createSandbox({ dataDir });
  } catch (err) {
    throw sandboxOpenError(err);
  }
  return inProcessTransport(sandbox);
}

type Sandbox = ReturnType<typeof import('../server/app.js').createSandbox>;

/** Requests to a sandbox of this process, answered without a socket; close() closes the sandbox. */
export async function inProcessTransport(sandbox: Sandbox): Promise<Transport> {
  const [{ DroppedConnection }, { plainRequest }] = await Promise.all([import('../server/core/dropped.js'), import('../server/core/exchange.js')]);
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

/** A damaged sandbox.db, named with the way out (reset and status move it aside); other errors as they are. */
export function sandboxOpenError(err: unknown): unknown {
  if ((err as Error)?.name !== 'DamagedDatabase') return err;
  const { file, reason } = err as Error & { file: string; reason: string };
  return new CliError(`The sandbox database ${file} is damaged (${reason})`, 1, 'Move it aside and start an empty sandbox: cms sandbox reset --yes (the file is kept, renamed). Or restore it from a backup.', 'SANDBOX_DAMAGED');
}

async function httpTransport(): Promise<Transport> {
  const { Agent, request } = await import('undici');
  // As many connections as a bulk run's governor may keep requests in flight (MAX_CONCURRENCY in
  // ops/runs/pool.ts): with fewer, requests past them wait in the agent's queue, which looks like a slow service.
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: 64, connect: { timeout: 15_000 }, headersTimeout: 120_000, bodyTimeout: 300_000 });
  return {
    kind: 'http',
    send: async (req) => {
      const res = await request(req.url, { method: req.method as never, headers: req.headers, body: req.body, dispatcher: agent, signal: req.signal });
      return { status: res.statusCode, headers: new HeaderMap(res.headers), text: () => cappedText(res, req.url), discard: () => res.body.dump() };
    },
    close: () => agent.close(),
  };
}

/**
 * The most of one answer the CLI reads. A service we do not control could answer without end; the
 * largest real answers (pages of large items) are far smaller, and V8 cannot hold a string of more
 * than about 512 MiB anyway.
 */
export const MAX_ANSWER_BYTES = 256 * 2 ** 20;

/** An answer's text, refused (exit 1) past MAX_ANSWER_BYTES, declared or read, without reading further. */
async function cappedText(res: Dispatcher.ResponseData, url: string): Promise<string> {
  const tooLarge = () => {
    res.body.destroy();
    return new CliError(`The answer from ${new URL(url).origin} is larger than ${MAX_ANSWER_BYTES / 2 ** 20} MiB; it was not read further`, 1, 'Check the API URL: no answer of the service is that large.');
  };
  if (Number(res.headers['content-length'] ?? 0) > MAX_ANSWER_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size).toString('utf8');
}
