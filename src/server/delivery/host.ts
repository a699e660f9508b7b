import type { Db } from '../core/db.js';
import { stmt } from '../core/statements.js';
import type { Hub } from '../hubs/index.js';

// Virtual staging and delivery answer on the sandbox's own origin for every hub. A hub whose settings name a
// virtual staging hostname (settings.virtualStagingEnvironment.hostname) is also served there:
// a request whose Host is that hostname is answered for that hub only.

/** The configured value as a bare host: scheme, path and case dropped. */
const bareHost = (configured: string) =>
  configured
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/\/.*$/, '');

/**
 * A preview of a staging hostname, as the vendor's StagingEnvironmentFactory.generateDomain asks
 * the virtual staging API for one: `<first label>-gvzrfgnzc-<ms>.<rest>` at a time (the form the
 * SDK's own tests show; `gvzrfgnzc` is "timestamp" in ROT13) and, the sandbox's choice in the same
 * style, `<first label>-fancfubg-<snapshot id>.<rest>` ("snapshot"), both in that order when both.
 */
export interface StagingPreview {
  /** The staging hostname previewed (without the port). */
  base: string;
  at?: number;
  snapshotId?: string;
}

const PREVIEW_LABEL = /^(.+?)(?:-fancfubg-([0-9a-f]{24}))?(?:-gvzrfgnzc-(\d{1,15}))?$/;

/** A hostname that previews a staging hostname; undefined for any other name. */
export function parsePreview(hostname: string): StagingPreview | undefined {
  const dot = hostname.indexOf('.');
  if (dot < 0) return undefined;
  const m = PREVIEW_LABEL.exec(hostname.slice(0, dot));
  if (!m || (m[2] === undefined && m[3] === undefined)) return undefined;
  return { base: `${m[1]}${hostname.slice(dot)}`, ...(m[3] !== undefined ? { at: Number(m[3]) } : {}), ...(m[2] !== undefined ? { snapshotId: m[2] } : {}) };
}

/** The preview domain of a staging hostname (the virtual staging API's answer to generateDomain). */
export function previewDomain(hostname: string, preview: { at?: number; snapshotId?: string }): string {
  const dot = hostname.indexOf('.');
  const first = dot < 0 ? hostname : hostname.slice(0, dot);
  const suffix = `${preview.snapshotId !== undefined ? `-fancfubg-${preview.snapshotId}` : ''}${preview.at !== undefined ? `-gvzrfgnzc-${preview.at}` : ''}`;
  return `${first}${suffix}${dot < 0 ? '' : hostname.slice(dot)}`;
}

/** What a request on a staging host previews (a time, a snapshot), if its host is a preview domain. */
export function stagingPreview(url: URL): StagingPreview | undefined {
  return parsePreview(url.hostname);
}

/** The hub the request's host is the staging (or preview staging) hostname of, if any (with or without the port); a preview domain of it too. */
export function stagingHub(db: Db, url: URL): Hub | undefined {
  const preview = parsePreview(url.hostname);
  if (preview) return hubOfHost(db, preview.base, url.port ? `${preview.base}:${url.port}` : preview.base);
  return hubOfHost(db, url.hostname, url.host);
}

/** The hub whose staging (or preview staging) hostname is `hostname` (or `host`, with its port). */
export function hubOfHost(db: Db, hostname: string, host: string = hostname): Hub | undefined {
  const rows = stmt(
    db,
    "SELECT data FROM hubs WHERE coalesce(json_extract(data, '$.settings.virtualStagingEnvironment.hostname'), '') <> '' OR coalesce(json_extract(data, '$.settings.previewVirtualStagingEnvironment.hostname'), '') <> ''",
  )
    .pluck()
    .all() as string[];
  const names = (hub: Hub) =>
    [hub.settings.virtualStagingEnvironment?.hostname, (hub.settings as { previewVirtualStagingEnvironment?: { hostname?: string } }).previewVirtualStagingEnvironment?.hostname].flatMap((h) => (h ? [bareHost(h)] : []));
  return rows.map((r) => JSON.parse(r) as Hub).find((hub) => names(hub).some((name) => name === host || name === hostname));
}

/** Whether some hub declares this name as its virtual staging (or preview) hostname, or it previews one: the served sandbox answers to it. */
export function isStagingHostname(db: Db, name: string): boolean {
  const wanted = [name, parsePreview(name)?.base];
  const rows = stmt(
    db,
    "SELECT json_extract(data, '$.settings.virtualStagingEnvironment.hostname') AS a, json_extract(data, '$.settings.previewVirtualStagingEnvironment.hostname') AS b FROM hubs WHERE coalesce(a, b, '') <> ''",
  ).all() as { a: string | null; b: string | null }[];
  return rows.some((r) => [r.a, r.b].some((h) => h && wanted.includes(bareHost(h).replace(/:\d+$/, ''))));
}
