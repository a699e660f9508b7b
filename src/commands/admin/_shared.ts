import type { Context } from '../../cli/context.js';
import type { ArgSpec } from '../../cli/define.js';
import { repoId } from '../../cli/resolve.js';
import type { ApiClient } from '../../core/client.js';
import { UsageError } from '../../core/errors.js';
import { col } from '../../output/result.js';

export const RESOURCE_TYPES = ['hubs', 'content-repositories'] as const;

export const resourceArgs: ArgSpec[] = [
  { name: 'type', description: 'resource type', required: true, choices: RESOURCE_TYPES },
  { name: 'resource', description: 'hub or repository id (or name)', required: true },
];

export const MEMBER_COLUMNS = [col('sid'), col('permissions', (m: { permissions: string[] }) => m.permissions.join(','))];
export const LINK_COLUMNS = [col('operation'), col('href')];

/** `/admin/access/{type}/{id}` for a hub or repository given by id or name. */
export async function accessPath(ctx: Context, client: ApiClient, type: string, resource: string, hubFlag?: string): Promise<string> {
  if (!(RESOURCE_TYPES as readonly string[]).includes(type)) throw new UsageError(`No resource type '${type}'; use ${RESOURCE_TYPES.join(' or ')}`);
  const id = type === 'hubs' ? await ctx.hubId(resource, client) : await repoId(ctx, resource, hubFlag, client);
  return `/admin/access/${type}/${id}`;
}

/** The operations an administration resource links to, one row each. */
export function linkRows(resource: { _links?: Record<string, { href: string }> }): { operation: string; href: string }[] {
  return Object.entries(resource._links ?? {})
    .filter(([rel]) => rel !== 'self')
    .map(([operation, l]) => ({ operation, href: l.href }));
}
