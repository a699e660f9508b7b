import { UsageError, NotFound } from '../core/errors.js';
import { dataDir } from './paths.js';
import { readProfiles, type Profile } from './profiles.js';

export const SANDBOX = 'sandbox';
export const SANDBOX_ADMIN = { clientId: 'sandbox-admin', clientSecret: 'sandbox-secret' };

/** Where a command's requests go, and as whom. */
export interface Connection {
  /** Profile name, or null for the built-in sandbox default. */
  profile: string | null;
  /** Where the values came from, for `cms profile show`. */
  source: 'flag' | 'environment' | 'current profile' | 'sandbox default';
  embedded: boolean;
  /** Origin (and optional prefix) of the API, e.g. https://api.example.com; for the embedded sandbox its virtual origin. */
  apiUrl: string;
  authUrl: string;
  /** Content Delivery 2 base URL as given (CMS_DELIVERY_URL or the profile), `{hubName}` for the hub's name; unset: deliveryBase's default. */
  deliveryUrl?: string;
  /** Empty when a personal access token is used. */
  clientId: string;
  clientSecret: string;
  /** A personal access token (CMS_ACCESS_TOKEN or the profile's): sent as it is instead of client credentials. */
  accessToken?: string;
  hub?: string;
  /** The profile is protected: every write asks first (ApiClient's beforeWrite). */
  protected?: boolean;
  /** Data directory of the embedded sandbox. */
  dataDir: string;
  /** Where each value came from, for `cms profile show`. */
  sources?: Record<'profile' | 'apiUrl' | 'authUrl' | 'deliveryUrl' | 'clientId' | 'clientSecret' | 'accessToken' | 'hub', ValueSource>;
}

export type ValueSource = 'flag' | 'env' | 'profile' | 'default';

export const EMBEDDED_ORIGIN = 'http://sandbox.localhost';

/**
 * Precedence, per setting: command-line flag > environment > profile > sandbox default.
 * The profile is `--profile`, else CMS_PROFILE, else the current one. Environment overrides
 * (CMS_API_URL, CMS_AUTH_URL, CMS_CLIENT_ID, CMS_CLIENT_SECRET, CMS_ACCESS_TOKEN) apply to a profile chosen by
 * CMS_PROFILE or `profile use`, but not to one named with --profile: the flag wins.
 */
export function resolveConnection(flags: { profile?: string; hub?: string }, env: NodeJS.ProcessEnv = process.env): Connection {
  const file = readProfiles(env);
  let name: string | null = null;
  let source: Connection['source'] = 'sandbox default';
  if (flags.profile) {
    name = flags.profile;
    source = 'flag';
  } else if (env.CMS_PROFILE) {
    name = env.CMS_PROFILE;
    source = 'environment';
  } else if (file.current) {
    name = file.current;
    source = 'current profile';
  }
  let profile: Profile = {};
  if (name !== null) {
    const found = file.profiles[name];
    if (!found) {
      const known = Object.keys(file.profiles);
      throw new NotFound(`No profile named '${name}'`, known.length ? `Known profiles: ${known.join(', ')}` : 'Create one with `cms login`.');
    }
    profile = found;
  }
  const useEnv = source !== 'flag';
  const pick = (envName: string, value: string | undefined) => (useEnv && env[envName] ? env[envName] : value);
  const from = (envName: string, value: string | undefined): ValueSource => (useEnv && env[envName] ? 'env' : value ? 'profile' : 'default');
  if (useEnv && source === 'sandbox default' && (env.CMS_API_URL || env.CMS_CLIENT_ID || env.CMS_ACCESS_TOKEN)) source = 'environment';

  const apiUrl = pick('CMS_API_URL', profile.apiUrl);
  const embedded = !apiUrl || apiUrl === SANDBOX;
  if (!embedded) checkUrl(apiUrl, useEnv && env.CMS_API_URL ? 'CMS_API_URL' : `The API URL of profile '${name}'`);
  const authGiven = pick('CMS_AUTH_URL', profile.authUrl);
  if (authGiven) checkUrl(authGiven, useEnv && env.CMS_AUTH_URL ? 'CMS_AUTH_URL' : `The auth URL of profile '${name}'`);
  const deliveryUrl = pick('CMS_DELIVERY_URL', profile.deliveryUrl) || undefined;
  if (deliveryUrl) checkUrl(deliveryUrl.replace(/\{hubName\}/g, 'hub'), useEnv && env.CMS_DELIVERY_URL ? 'CMS_DELIVERY_URL' : `The delivery URL of profile '${name}'`);
  const base = embedded ? EMBEDDED_ORIGIN : apiUrl.replace(/\/+$/, '');
  // A personal access token stands for the credentials of its layer: CMS_ACCESS_TOKEN over the
  // profile's credentials, CMS_CLIENT_ID/SECRET over the profile's token.
  const envToken = useEnv ? env.CMS_ACCESS_TOKEN?.trim() || undefined : undefined;
  const envCreds = useEnv && Boolean(env.CMS_CLIENT_ID || env.CMS_CLIENT_SECRET);
  const accessToken = envToken ?? (envCreds ? undefined : profile.accessToken || undefined);
  const clientId = accessToken ? '' : (pick('CMS_CLIENT_ID', profile.clientId) ?? (embedded ? SANDBOX_ADMIN.clientId : undefined));
  const clientSecret = accessToken ? '' : (pick('CMS_CLIENT_SECRET', profile.clientSecret) ?? (embedded && clientId === SANDBOX_ADMIN.clientId ? SANDBOX_ADMIN.clientSecret : undefined));
  if (!accessToken && (!clientId || !clientSecret)) {
    throw new UsageError(
      `The ${name ? `profile '${name}'` : 'environment'} has no ${clientId ? 'client secret' : 'client id'}`,
      'Run `cms login`, or set CMS_CLIENT_ID and CMS_CLIENT_SECRET (or CMS_ACCESS_TOKEN).',
    );
  }
  const authUrl = (pick('CMS_AUTH_URL', profile.authUrl) || (embedded ? EMBEDDED_ORIGIN : originOf(base))).replace(/\/+$/, '');
  const hub = flags.hub || (useEnv ? env.CMS_HUB : undefined) || profile.hub || undefined;
  const sources: Connection['sources'] = {
    profile: flags.profile ? 'flag' : env.CMS_PROFILE ? 'env' : name ? 'profile' : 'default',
    apiUrl: from('CMS_API_URL', profile.apiUrl),
    authUrl: from('CMS_AUTH_URL', profile.authUrl),
    deliveryUrl: from('CMS_DELIVERY_URL', profile.deliveryUrl),
    clientId: accessToken ? 'default' : from('CMS_CLIENT_ID', profile.clientId),
    clientSecret: accessToken ? 'default' : from('CMS_CLIENT_SECRET', profile.clientSecret),
    accessToken: envToken ? 'env' : accessToken ? 'profile' : 'default',
    hub: flags.hub ? 'flag' : useEnv && env.CMS_HUB ? 'env' : profile.hub ? 'profile' : 'default',
  };
  return { profile: name, source, embedded, apiUrl: base, authUrl, ...(deliveryUrl ? { deliveryUrl } : {}), clientId: clientId!, clientSecret: clientSecret!, ...(accessToken ? { accessToken } : {}), ...(profile.protected ? { protected: true } : {}), hub, dataDir: dataDir(env), sources };
}

/** The hosted service's API host; its Content Delivery 2 is on a host of each hub's own. */
const HOSTED_API = /(^|\.)amplience\.net$/i;
/** A hub name as a DNS label: what the hosted service allows, checked before it goes into a host name. */
const HUB_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * The Content Delivery 2 URL of a connection, `{hubName}` standing for a hub's name: the
 * connection's delivery URL; else the hosted service's `https://{hubName}.cdn.content.amplience.net`
 * (the vendor's delivery SDK's default host) when the API is the hosted one; else
 * `{API origin}/cdn/{hubName}`, where a sandbox (embedded or served) serves it.
 */
export function deliveryUrlTemplate(conn: Pick<Connection, 'apiUrl' | 'deliveryUrl'>): string {
  if (conn.deliveryUrl) return conn.deliveryUrl.replace(/\/+$/, '');
  const api = new URL(conn.apiUrl);
  return HOSTED_API.test(api.hostname) ? 'https://{hubName}.cdn.content.amplience.net' : `${api.origin}/cdn/{hubName}`;
}

/** Where Content Delivery 2 answers for a hub (no trailing slash; `/content/id/...` follows). */
export function deliveryBase(conn: Pick<Connection, 'apiUrl' | 'deliveryUrl'>, hubName: string): string {
  const template = deliveryUrlTemplate(conn);
  // In a host name the hub name must be a DNS label (it comes from the service); in a path it is encoded.
  const inHost = /^https?:\/\/[^/]*\{hubName\}/i.test(template);
  if (inHost && !HUB_LABEL.test(hubName)) throw new UsageError(`The hub name '${hubName.slice(0, 64)}' cannot be part of a delivery host name`, 'Set CMS_DELIVERY_URL to the delivery URL of the hub.');
  return template.replace(/\{hubName\}/g, inHost ? hubName.toLowerCase() : encodeURIComponent(hubName));
}

/** A service URL must be http(s) with a host: refused before any connection (exit 2), naming where it came from. */
function checkUrl(value: string, what: string): void {
  let url: URL | null = null;
  try {
    url = new URL(value);
  } catch {
    /* said below */
  }
  if (url && (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname) return;
  const why = !url ? 'is not a URL' : url.protocol !== 'https:' && url.protocol !== 'http:' ? `is not an http(s) URL (${url.protocol.slice(0, 20)})` : 'has no host';
  throw new UsageError(`${what} '${value}' ${why}`, "Use the service's URL, e.g. https://api.amplience.net, or http://127.0.0.1:<port> for a served sandbox.");
}

/**
 * Where the connection's URL came from, as a hint says it: the variable to change, or the
 * profile to log in again. `embedded` connections have no URL to change.
 */
export function urlFrom(conn: Connection, setting: 'apiUrl' | 'authUrl'): string {
  const source = conn.sources?.[setting];
  if (setting === 'authUrl' && source === 'default') return urlFrom(conn, 'apiUrl');
  if (source === 'env') return `${setting === 'apiUrl' ? 'CMS_API_URL' : 'CMS_AUTH_URL'}, in the environment`;
  if (source === 'profile') return `profile '${conn.profile}': cms login --profile ${conn.profile} --${setting === 'apiUrl' ? 'api-url' : 'auth-url'} <url>`;
  if (source === 'flag') return `the --${setting === 'apiUrl' ? 'api-url' : 'auth-url'} flag`;
  // A service URL nobody gave is the sandbox's; any other URL came from somewhere the caller says.
  return conn.embedded ? 'the sandbox default' : `the ${setting === 'apiUrl' ? 'API' : 'auth'} URL given`;
}

/** Where the connection's personal access token came from, as an error's hint says it. */
export function tokenFrom(conn: Connection): string {
  const source = conn.sources?.accessToken;
  return source === 'env' ? 'CMS_ACCESS_TOKEN, in the environment' : source === 'flag' ? 'cms login --token' : `profile '${conn.profile}'`;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    throw new UsageError(`'${url}' is not a URL`, 'Set the API URL to something like https://api.example.com');
  }
}

/** Where each value of a connection came from, in words: `flag (--hub)`, `environment (CMS_HUB)`, `profile staging`, ... */
export interface ConnectionSources {
  profile: string;
  apiUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  accessToken: string;
  hub: string;
}

/** The same precedence as resolveConnection (flag > environment > profile > default), told per value. */
export function connectionSources(conn: Connection, flags: { hub?: string }, env: NodeJS.ProcessEnv = process.env): ConnectionSources {
  const profile: Profile = conn.profile ? (readProfiles(env).profiles[conn.profile] ?? {}) : {};
  const useEnv = conn.source !== 'flag';
  const from = (envName: string, key: keyof Profile, fallback: string) =>
    useEnv && env[envName] ? `environment (${envName})` : profile[key] ? `profile ${conn.profile}` : fallback;
  const defaults = conn.embedded ? 'sandbox default' : 'derived from the API URL';
  return {
    profile: conn.source === 'flag' ? 'flag (--profile)' : conn.profile && env.CMS_PROFILE ? 'environment (CMS_PROFILE)' : conn.profile ? 'current profile (cms profile use)' : 'none: the sandbox default',
    apiUrl: from('CMS_API_URL', 'apiUrl', 'sandbox default'),
    authUrl: from('CMS_AUTH_URL', 'authUrl', defaults),
    clientId: conn.accessToken ? 'none: a personal access token' : from('CMS_CLIENT_ID', 'clientId', 'sandbox default'),
    clientSecret: conn.accessToken ? 'none: a personal access token' : from('CMS_CLIENT_SECRET', 'clientSecret', 'sandbox default'),
    accessToken: conn.sources?.accessToken === 'env' ? 'environment (CMS_ACCESS_TOKEN)' : conn.accessToken ? `profile ${conn.profile}` : 'none: client credentials',
    hub: flags.hub ? 'flag (--hub)' : from('CMS_HUB', 'hub', 'the only hub'),
  };
}
