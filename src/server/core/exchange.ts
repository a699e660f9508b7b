import type { CorsPolicy } from './host.js';

// What the service takes and gives. Plain objects rather than WHATWG Request/Response: the CLI's
// embedded mode calls the service in-process without loading Node's fetch implementation (about
// 20 ms of every command's start), and Service.fetch adapts real Request/Response for `serve`.

export interface ServiceRequest {
  method: string;
  /** Absolute URL: links are built from its origin. */
  url: string;
  /** `url` already parsed (by the transport, which had to), so the service does not parse it again. */
  parsedUrl?: URL;
  /** What the request's Host may reach (core/host.ts); 'all' when not given (in-process calls). */
  reach?: 'all' | 'staging';
  /** Which origins may read delivery routes with CORS (serve --cors-origin); none when not given. */
  cors?: CorsPolicy;
  /** A request header, by case-insensitive name. */
  header(name: string): string | null;
  /** The body (empty string when there is none); a transport refuses one over maxBytes (413) without reading it whole. */
  text(maxBytes?: number): Promise<string>;
}

export interface ServiceResponse {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** A ServiceRequest over plain values (headers keyed by lower-case name). */
export function plainRequest(method: string, url: string, headers: Record<string, string>, body?: string): ServiceRequest {
  const lower: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) lower[k.toLowerCase()] = v;
  return { method, url, header: (name) => lower[name.toLowerCase()] ?? null, text: async () => body ?? '' };
}
