import { isIPv4, isIPv6 } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';
import { serviceError, type ServiceError } from './errors.js';
import type { RouteDef } from './route-table.js';

// Which Host names the served sandbox answers to, and the URL of a request. The path comes from
// the request target alone (origin-form, `/...`); the Host only names the origin links are built
// on, so it must be one well-formed host[:port]. By default only loopback names are served, so a
// web page whose DNS name is rebound to 127.0.0.1 cannot reach the sandbox from a browser.

/**
 * What a Host may reach: `all` routes (loopback, the bound address, --allow-host), or only what a
 * hub's staging host serves (`staging`: a name from the data, which a client with HUB:EDIT or a
 * cloned hub's settings can set, so a rebound DNS name must not reach tokens, the API or admin).
 */
export type HostReach = 'all' | 'staging';

/**
 * The one decision of which Host reaches which routes: a staging name reaches only routes marked
 * `staging` in the route table (the staging query, rendering, delivery). Anything else, an
 * unknown path included, is a 403 naming the rule, before authentication or the body is read.
 */
export function assertReachable(route: RouteDef | undefined, reach: HostReach | undefined, path: string): void {
  if (reach !== 'staging' || route?.staging) return;
  throw serviceError(403, {
    code: 'HOST_NOT_ALLOWED_HERE',
    property: 'Host',
    invalidValue: clip(path),
    message: "A hub's staging hostname serves only the staging query (/cms/content/query), rendering (/v1/content/...) and delivery (/content/...); use the sandbox's own origin for the rest",
  });
}

export interface HostName {
  /** Lower case, IPv6 in brackets, without a trailing dot. */
  name: string;
  /** The port given, or null. */
  port: number | null;
}

type Rule = { kind: 'any' } | { kind: 'name'; name: string; port: number | null } | { kind: 'suffix'; domain: string };

const LABEL = '[a-z0-9_](?:[a-z0-9_-]{0,62})';
const HOST = new RegExp(`^(?:(\\[[0-9a-f:.]+\\])|(${LABEL}(?:\\.${LABEL})*)\\.?)(?::(\\d{1,5}))?$`, 'i');

/** A Host header value as host[:port], or null when it is not one. */
export function parseHost(value: string): HostName | null {
  if (value.length > 260) return null;
  const m = HOST.exec(value);
  if (!m) return null;
  if (m[1] && !isIPv6(m[1].slice(1, -1))) return null;
  const port = m[3] === undefined ? null : Number(m[3]);
  if (port !== null && (port < 1 || port > 65535)) return null;
  const name = m[1] ? normalizeIPv6(m[1]) : m[2]!.toLowerCase();
  // What URL would refuse (999.1.1.1, 1.2.3.4.5: names ending in a number are read as IPv4).
  if (!URL.canParse(`http://${name}/`)) return null;
  return { name, port };
}

/** [::0001] and [0:0:0:0:0:0:0:1] are both [::1]. */
const normalizeIPv6 = (bracketed: string) => new URL(`http://${bracketed}/`).hostname;

const isLoopback = (name: string) =>
  name === 'localhost' || name.endsWith('.localhost') || (isIPv4(name) && name.startsWith('127.')) || name === '[::1]' || name === '[::ffff:7f00:1]';

const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]']);

/** An --allow-host value: a name, name:port, a .domain suffix, or *; throws with what is wrong. */
export function parseAllowHost(value: string): Rule {
  const v = value.trim();
  if (v === '*') return { kind: 'any' };
  const parsed = parseHost(v.startsWith('.') ? v.slice(1) : v);
  if (!parsed) throw new Error(`'${value}' is not a host name, name:port, .domain or *`);
  if (v.startsWith('.')) {
    if (parsed.port !== null || parsed.name.startsWith('[')) throw new Error(`'${value}': a .domain suffix takes no port and no IPv6 address`);
    return { kind: 'suffix', domain: parsed.name };
  }
  return { kind: 'name', name: parsed.name, port: parsed.port };
}

export interface HostCheckOptions {
  /** The address the server is bound to (--host); 0.0.0.0 or :: also serve the machine's interface addresses. */
  bind?: string;
  /** --allow-host values. */
  allow?: string[];
  /** Whether a name is a virtual staging hostname some hub declares. */
  isStagingHost?: (name: string) => boolean;
}

export class HostCheck {
  private readonly rules: Rule[];
  private readonly names = new Set<string>();
  /** Origins of Host values allowed whatever the data says, so a repeated Host costs no parsing. */
  private readonly known = new Map<string, string>();

  constructor(private readonly options: HostCheckOptions = {}) {
    this.rules = (options.allow ?? []).map(parseAllowHost);
    const bind = options.bind?.toLowerCase();
    if (bind && WILDCARD_BINDS.has(bind)) {
      // The printed URL names the bound address itself (http://0.0.0.0:8787).
      this.names.add(bind === '0.0.0.0' ? bind : '[::]');
      this.names.add(hostname().toLowerCase());
      for (const list of Object.values(networkInterfaces())) for (const i of list ?? []) this.names.add(i.family === 'IPv6' ? normalizeIPv6(`[${i.address.split('%')[0]}]`) : i.address);
    } else if (bind) this.alsoServe(bind);
  }

  /** Serves an address the server turned out to be bound to (the one its printed URL names). */
  alsoServe(address: string): void {
    const own = parseHost(isIPv6(address) ? `[${address}]` : address);
    if (own) this.names.add(own.name);
  }

  allows(host: HostName): boolean {
    return this.allowsAlways(host) || (this.options.isStagingHost?.(host.name) ?? false);
  }

  /** Allowed whatever the data says (loopback, bound address, --allow-host): a verdict that never changes. */
  private allowsAlways(host: HostName): boolean {
    if (isLoopback(host.name) || this.names.has(host.name)) return true;
    for (const r of this.rules) {
      if (r.kind === 'any') return true;
      if (r.kind === 'suffix' && (host.name === r.domain || host.name.endsWith(`.${r.domain}`))) return true;
      if (r.kind === 'name' && host.name === r.name && (r.port === null || r.port === (host.port ?? 80))) return true;
    }
    return false;
  }

  /**
   * The absolute URL of a request: the origin from its one Host header, the path and query from
   * its target. A 400 with the service's error body when either is not acceptable.
   */
  requestUrl(target: string, hosts: string[]): string {
    return this.requestTarget(target, hosts).href;
  }

  /** requestUrl as a parsed URL (the service reads it as it is, without parsing it again). */
  requestTarget(target: string, hosts: string[]): URL {
    return this.admit(target, hosts).url;
  }

  /** requestTarget and what the Host may reach (assertReachable applies it once the route is known). */
  admit(target: string, hosts: string[]): { url: URL; reach: HostReach } {
    // Absolute-form (http://other/...), authority-form and `*` name no path on this origin.
    if (!target.startsWith('/')) {
      throw serviceError(400, { code: 'INVALID_REQUEST_TARGET', property: 'request-target', invalidValue: clip(target), message: 'The request target must be a path starting with / (absolute URLs and * are not served)' });
    }
    if (hosts.length !== 1) {
      throw invalidHost(hosts.length ? 'Send exactly one Host header' : 'The Host header is required', hosts.length ? hosts.map(clip) : null);
    }
    const known = this.known.get(hosts[0]!);
    const origin = known ?? this.origin(hosts[0]!);
    let url: URL;
    try {
      url = new URL(origin + target);
    } catch {
      throw serviceError(400, { code: 'INVALID_REQUEST_TARGET', property: 'request-target', invalidValue: clip(target), message: 'The request target is not a valid path' });
    }
    // Known origins are always-allowed ones; any other that passed is a staging name from the data.
    const reach: HostReach = known !== undefined || this.allowsAlways(parseHost(url.host)!) ? 'all' : 'staging';
    return { url, reach };
  }

  /** The origin a Host header value names, or a 400 when it is malformed or not served. */
  private origin(raw: string): string {
    const value = raw.trim();
    const host = parseHost(value);
    if (!host) throw invalidHost(`The Host header '${clip(value)}' is not a host name or address with an optional port`, clip(value));
    if (!this.allows(host)) {
      throw serviceError(400, {
        code: 'HOST_NOT_ALLOWED',
        property: 'Host',
        invalidValue: clip(value),
        message: `The sandbox does not answer to the host '${clip(value)}': it serves localhost, 127.0.0.1, [::1], the address it is bound to and the hubs' staging hostnames; add others with cms sandbox serve --allow-host <name>`,
      });
    }
    const origin = `http://${host.name}${host.port === null ? '' : `:${host.port}`}`;
    // Remembered only when no data decides it: a staging hostname is looked up on every request.
    if (this.allowsAlways(host)) {
      if (this.known.size >= 64) this.known.clear();
      this.known.set(raw, origin);
    }
    return origin;
  }
}

const invalidHost = (message: string, invalidValue: unknown): ServiceError => serviceError(400, { code: 'INVALID_HOST', property: 'Host', invalidValue, message });

const clip = (s: string) => (s.length > 200 ? `${s.slice(0, 200)}…` : s);

// CORS (`cms sandbox serve --cors-origin`): for sites under development that run in a browser on
// another origin. Decided here, from the route table's `cors` mark, so a route nobody marked never
// answers it: the token endpoint, the API, /__sandbox and the console are not marked, and a mark on
// anything that is not public is ignored. No credentials are ever allowed (delivery reads no token).

/** What a route serves a site: Content Delivery 2's `published` versions, or `latest` (staging). */
export type CorsMark = 'published' | 'latest';

/** Request headers the delivery SDK sends: JSON bodies (filter, fetch) and its preview key. */
const ALLOWED_HEADERS = 'Content-Type, X-Api-Key, Accept';
/** Response headers the SDK reads (a rendering's edition). */
const EXPOSED_HEADERS = 'X-Amp-Edition-ID, X-Amp-Edition-Start-Time, X-Amp-Edition-End-Time, X-Amp-Lifecycle-Expiry-Time';
const MAX_AGE_SECONDS = '600';

/** A --cors-origin value as the serialized origin a browser sends, or `*`; throws with what is wrong. */
export function parseCorsOrigin(value: string): string {
  const v = value.trim();
  if (v === '*') return v;
  if (v.length > 300 || !/^https?:\/\//i.test(v)) throw new Error(`'${clip(value)}' is not an origin (http(s)://name[:port]) or *`);
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new Error(`'${clip(value)}' is not an origin (http(s)://name[:port]) or *`);
  }
  // An origin is scheme, name and port: nothing else may be given (a path would never match).
  if (url.username || url.password || url.search || url.hash || (url.pathname !== '/' && url.pathname !== '') || v.includes('?') || v.includes('#')) {
    throw new Error(`'${clip(value)}' is not an origin: give scheme, name and port only (e.g. http://localhost:3000)`);
  }
  if (!parseHost(url.host)) throw new Error(`'${clip(value)}' names no host (wildcards are not origins; use * for every origin)`);
  return url.origin;
}

export class CorsPolicy {
  private readonly origins: Set<string>;
  private readonly any: boolean;

  constructor(values: string[]) {
    const parsed = values.map(parseCorsOrigin);
    this.any = parsed.includes('*');
    this.origins = new Set(parsed.filter((o) => o !== '*'));
  }

  get enabled(): boolean {
    return this.any || this.origins.size > 0;
  }

  /**
   * The CORS headers for a request from `origin` to `route` (the route of the method a preflight
   * asks for), or null when none are due: a route not marked, not public or not reachable from
   * this Host, an origin not listed, or `*` on latest content.
   */
  headers(route: RouteDef | undefined, reach: HostReach | undefined, origin: string | null, preflight: boolean): Record<string, string> | null {
    if (!origin || !route?.cors || !route.public || route.sandboxAdmin) return null;
    if (reach === 'staging' && !route.staging) return null;
    let allow: string;
    if (this.origins.has(origin)) allow = origin;
    else if (this.any && route.cors === 'published') allow = '*';
    else return null;
    const headers: Record<string, string> = { 'Access-Control-Allow-Origin': allow };
    // The answer depends on the Origin when it names one: caches must keep them apart.
    if (allow !== '*') headers.Vary = 'Origin';
    if (preflight) {
      headers['Access-Control-Allow-Methods'] = route.method;
      headers['Access-Control-Allow-Headers'] = ALLOWED_HEADERS;
      headers['Access-Control-Max-Age'] = MAX_AGE_SECONDS;
    } else headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
    return headers;
  }
}
