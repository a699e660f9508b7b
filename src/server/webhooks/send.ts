import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { destinationProblem, plainAddress, classify, type AddressKind, type DestinationPolicy } from './destinations.js';

// One HTTP delivery: to an address checked as the connection is made (destinations.ts), with
// bounded waits and a bounded read of the answer. Redirects are never followed.

/** The whole attempt, from connecting to the last byte read. */
export const TIMEOUT_MS = 10_000;
/** A receiver that accepts the connection but sends no byte of an answer is given up sooner. */
export const FIRST_BYTE_TIMEOUT_MS = 3_000;
const CONNECT_TIMEOUT_MS = 3_000;

/** A delivery the destination policy refused: not sent at all. */
export class DestinationRefused extends Error {
  readonly code = 'DESTINATION_NOT_ALLOWED';
}

export interface Sent {
  status: number;
  location: string | null;
  text: string;
  truncated: boolean;
  /** The address the request went to, and what kind it is. */
  address: string | null;
  kind: AddressKind | null;
}

export interface SendRequest {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  maxAnswerBytes: number;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Sends one request to `url` if the policy allows where it goes; throws DestinationRefused when not, or the network error. */
export async function send(url: string, req: SendRequest, policy: DestinationPolicy): Promise<Sent> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  let connected: { address: string; kind: AddressKind } | null = null;
  if (isIP(host)) {
    // The URL parser already turned 2130706433, 0177.0.0.1 and 0x7f.1 into 127.0.0.1.
    const problem = destinationProblem(policy, host, host);
    if (problem) throw new DestinationRefused(problem);
    connected = { address: plainAddress(host), kind: classify(host) };
  }
  // Names are resolved here, each address checked, and the connection made to a checked one.
  const lookup = (hostname: string, options: { all?: boolean; family?: number }, callback: LookupCallback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses) => {
      if (err) return callback(err, []);
      const problems: string[] = [];
      const allowed = addresses.filter((a) => {
        const problem = destinationProblem(policy, hostname, a.address);
        if (problem) problems.push(problem);
        return !problem;
      });
      if (!allowed.length) return callback(Object.assign(new DestinationRefused(problems[0] ?? `${hostname} resolves to no address`), { errno: 0 }) as never, []);
      connected = { address: plainAddress(allowed[0]!.address), kind: classify(allowed[0]!.address) };
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0]!.address, allowed[0]!.family);
    });
  };
  const { Agent, request } = await import('undici');
  const agent = new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS, lookup: lookup as never }, headersTimeout: FIRST_BYTE_TIMEOUT_MS, bodyTimeout: FIRST_BYTE_TIMEOUT_MS, keepAliveTimeout: 1, pipelining: 0 });
  try {
    const res = await request(target, { method: req.method as never, headers: req.headers, body: req.body, dispatcher: agent, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const location = res.headers.location;
    const { text, truncated } = await readCapped(res.body as AsyncIterable<Buffer> & { destroy(): void }, req.maxAnswerBytes);
    const at = connected as { address: string; kind: AddressKind } | null;
    return { status: res.statusCode, location: Array.isArray(location) ? location[0]! : (location ?? null), text, truncated, address: at?.address ?? null, kind: at?.kind ?? null };
  } catch (err) {
    // undici wraps what the lookup refused: surface the policy's own words.
    let e: unknown = err;
    for (let i = 0; i < 4 && e; i++) {
      if (e instanceof DestinationRefused) throw e;
      e = (e as { cause?: unknown }).cause;
    }
    throw err;
  } finally {
    agent.destroy().catch(() => undefined);
  }
}

/** The first `max` bytes of an answer; past them the stream is destroyed, which drops the connection. */
async function readCapped(body: AsyncIterable<Buffer> & { destroy(): void }, max: number): Promise<{ text: string; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > max) {
      body.destroy();
      return { text: Buffer.concat(chunks).subarray(0, max).toString('utf8'), truncated: true };
    }
  }
  return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}
