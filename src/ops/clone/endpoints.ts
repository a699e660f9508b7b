import type { Context } from '../../cli/context.js';
import { dataDir } from '../../config/paths.js';
import { readProfiles } from '../../config/profiles.js';
import { EMBEDDED_ORIGIN, SANDBOX, SANDBOX_ADMIN, resolveConnection, type Connection } from '../../config/resolve.js';
import type { ApiClient } from '../../core/client.js';
import { ApiError, UsageError, NotFound } from '../../core/errors.js';
import type { RunTarget } from '../runs/journal.js';
import { NEW, isPlanned } from '../runs/reconcile.js';
import type { Side } from './context.js';

// The two ends of a clone, each `<profile>[:<hub>]`: a saved profile, or `sandbox` for the
// embedded sandbox (unless a profile has that name); an empty profile means the current one.
// The hub is a name or an id.

const HEX_ID = /^[0-9a-f]{24}$/i;
export const PLANNED_HUB = `${NEW}hub`;

export function parseSpec(spec: string): { profile: string; hub?: string } {
  const colon = spec.indexOf(':');
  if (colon < 0) return { profile: spec };
  return { profile: spec.slice(0, colon), hub: spec.slice(colon + 1) || undefined };
}

function connectionFor(ctx: Context, profile: string): Connection {
  if (!profile) return ctx.connection();
  if (profile === SANDBOX && !readProfiles(ctx.env).profiles[SANDBOX]) {
    const { clientId, clientSecret } = SANDBOX_ADMIN;
    return { profile: null, source: 'flag', embedded: true, apiUrl: EMBEDDED_ORIGIN, authUrl: EMBEDDED_ORIGIN, clientId, clientSecret, dataDir: dataDir(ctx.env) };
  }
  return resolveConnection({ profile }, ctx.env);
}

/** The source: its hub must exist (the spec's, else the profile's, else the only one). */
export async function openSource(ctx: Context, spec: string, hubId?: string): Promise<Side> {
  const { profile, hub } = parseSpec(spec);
  const connection = connectionFor(ctx, profile);
  const client = await ctx.connect(connection);
  const id = hubId ?? (await ctx.hubId(hub, client, connection));
  const found = await findHub(client, id);
  if (!found) throw new NotFound(`No hub ${id} on the source (${spec})`);
  return { spec, client, connection, hubId: found.id, hubName: found.name };
}

/**
 * The target: its hub by id or name (the spec's, else `fallbackName`), or PLANNED_HUB when it has
 * yet to be created.
 */
export async function openTarget(ctx: Context, spec: string, fallbackName: string, hubId?: string): Promise<Side> {
  const { profile, hub } = parseSpec(spec);
  const connection = connectionFor(ctx, profile);
  const client = await ctx.connect(connection);
  const name = hub ?? fallbackName;
  const wanted = hubId ?? name;
  const found = HEX_ID.test(wanted) ? await findHub(client, wanted) : await hubNamed(client, wanted);
  if (!found && HEX_ID.test(wanted)) throw new NotFound(`No hub ${wanted} on the target (${spec})`, 'Name the target hub by name to have it created.');
  return { spec, client, connection, hubId: found?.id ?? PLANNED_HUB, hubName: found?.name ?? name };
}

async function findHub(client: ApiClient, id: string): Promise<{ id: string; name: string } | undefined> {
  try {
    return await client.get<{ id: string; name: string }>(`/hubs/${id}`);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) return undefined;
    throw err;
  }
}

async function hubNamed(client: ApiClient, name: string): Promise<{ id: string; name: string } | undefined> {
  for await (const hub of client.paginate<{ id: string; name: string }>('/hubs', 'hubs')) if (hub.name === name) return hub;
  return undefined;
}

/** Where a side's requests go, for the journal (the target hub once it exists). */
export function runTarget(side: Side): RunTarget {
  return { apiUrl: side.connection.apiUrl, profile: side.connection.profile, hubId: isPlanned(side.hubId) ? undefined : side.hubId };
}
