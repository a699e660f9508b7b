// Which of the hosted service's names the interception proxy answers from the sandbox, and how
// (docs/testing-with-the-sandbox.md, "A site or tool that cannot be pointed at the sandbox"). The
// names are the vendor clients' own defaults: dc-management-sdk-js (DynamicContent: apiUrl
// https://api.amplience.net/v2/content, authUrl https://auth.amplience.net + /oauth/token),
// dc-delivery-sdk-js (createContentClient: https://<hubName>.cdn.content.amplience.net;
// StagingEnvironmentFactory: https://virtual-staging.amplience.net; stagingEnvironment:
// https://<staging hostname>), which dc-cli uses too. What the sandbox does not serve (the Fresh
// API, CD1's cdn.c1.amplience.net, DAM) is not intercepted: it passes through, or is refused
// offline.

export const API_HOST = 'api.amplience.net';
export const AUTH_HOST = 'auth.amplience.net';
export const VIRTUAL_STAGING_HOST = 'virtual-staging.amplience.net';
export const CDN_SUFFIX = '.cdn.content.amplience.net';

/** One DNS label (a hub name as a CD2 host carries it). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A request the sandbox answers: the URL it sees (its origin is the name the client used, so its links stay on it) and what it may reach. */
export interface Mapped {
  url: URL;
  reach: 'all' | 'staging';
}

export interface Refusal {
  status: number;
  message: string;
}

/**
 * Where a staging hostname from the data may be intercepted: the hosted service's own staging
 * domain, and names reserved for testing (RFC 2606, RFC 6761) or local use. A staging hostname
 * is data (HUB:EDIT, a seed from a pull request, a cloned hub), so it must not capture somebody
 * else's host for the intercepted command (`registry.npmjs.org` as a "staging hostname" would
 * send the command's npm token to the sandbox): any other name passes through (or is refused).
 */
const STAGING_SUFFIXES = ['.staging.bigcontent.io', '.test', '.example', '.invalid', '.localhost', '.local', '.internal', '.example.com', '.example.net', '.example.org'];

export const mayInterceptStaging = (name: string): boolean => STAGING_SUFFIXES.some((suffix) => name.endsWith(suffix));

/**
 * Whether `name` (lower case, no port) is answered from the sandbox. A hub's staging hostname
 * (or preview domain of one) is decided by the data, through `isStagingHost`, within
 * mayInterceptStaging's domains.
 */
export function intercepted(name: string, isStagingHost: (name: string) => boolean): boolean {
  if (name === API_HOST || name === AUTH_HOST || name === VIRTUAL_STAGING_HOST) return true;
  if (name.endsWith(CDN_SUFFIX)) return LABEL.test(name.slice(0, -CDN_SUFFIX.length));
  return mayInterceptStaging(name) && isStagingHost(name);
}

/**
 * The sandbox request for `path` (origin-form, as the client sent it) on an intercepted name and
 * scheme, or a refusal for a path the sandbox does not serve there. The mapped path is checked
 * after the URL is parsed, so a `..` (or `%2e%2e`) cannot climb out of the prefix.
 */
export function mapRequest(scheme: 'http' | 'https', name: string, path: string): Mapped | Refusal {
  if (!path.startsWith('/')) return { status: 400, message: 'The request target must be a path starting with /' };
  const origin = `${scheme}://${name}`;
  let prefix: string;
  let target: string;
  let reach: Mapped['reach'] = 'all';
  if (name === API_HOST) [prefix, target] = ['/v2/content', path];
  else if (name === AUTH_HOST) [prefix, target] = ['/oauth/token', path];
  else if (name === VIRTUAL_STAGING_HOST) [prefix, target] = ['/domain/', path];
  else if (name.endsWith(CDN_SUFFIX)) {
    prefix = `/cdn/${name.slice(0, -CDN_SUFFIX.length)}/`;
    target = prefix.slice(0, -1) + path;
  } else {
    // A staging hostname: the sandbox decides what that Host reaches (core/host.ts assertReachable).
    [prefix, target, reach] = ['/', path, 'staging'];
  }
  let url: URL;
  try {
    url = new URL(origin + target);
  } catch {
    return { status: 400, message: 'The request target is not a valid path' };
  }
  const p = url.pathname;
  if (!(p === prefix || p.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`))) {
    return { status: 404, message: `The sandbox answers ${name} at ${prefix}${prefix.endsWith('/') ? '…' : ''} only (cms sandbox exec --intercept)` };
  }
  return { url, reach };
}
