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

/** The hub the request's host is the staging (or preview staging) hostname of, if any (with or without the port). */
export function stagingHub(db: Db, url: URL): Hub | undefined {
  const rows = stmt(
    db,
    "SELECT data FROM hubs WHERE coalesce(json_extract(data, '$.settings.virtualStagingEnvironment.hostname'), '') <> '' OR coalesce(json_extract(data, '$.settings.previewVirtualStagingEnvironment.hostname'), '') <> ''",
  )
    .pluck()
    .all() as string[];
  const names = (hub: Hub) =>
    [hub.settings.virtualStagingEnvironment?.hostname, (hub.settings as { previewVirtualStagingEnvironment?: { hostname?: string } }).previewVirtualStagingEnvironment?.hostname].flatMap((h) => (h ? [bareHost(h)] : []));
  return rows.map((r) => JSON.parse(r) as Hub).find((hub) => names(hub).some((name) => name === url.host || name === url.hostname));
}

/** Whether some hub declares this name as its virtual staging (or preview) hostname: the served sandbox answers to it. */
export function isStagingHostname(db: Db, name: string): boolean {
  const rows = stmt(
    db,
    "SELECT json_extract(data, '$.settings.virtualStagingEnvironment.hostname') AS a, json_extract(data, '$.settings.previewVirtualStagingEnvironment.hostname') AS b FROM hubs WHERE coalesce(a, b, '') <> ''",
  ).all() as { a: string | null; b: string | null }[];
  return rows.some((r) => [r.a, r.b].some((h) => h && bareHost(h).replace(/:\d+$/, '') === name));
}
