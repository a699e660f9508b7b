import type { ApiClient } from '../core/client.js';
import { UsageError } from '../core/errors.js';
import type { Context } from './context.js';
import { unknownName } from './suggest.js';

const HEX_ID = /^[0-9a-f]{24}$/i;

/** A repository id from an id, or from a name within the chosen hub. */
export async function repoId(ctx: Context, value: string, hubFlag?: string, client?: ApiClient): Promise<string> {
  if (HEX_ID.test(value)) return value;
  const api = client ?? (await ctx.client());
  const hubId = await ctx.hubId(hubFlag, api);
  const names: string[] = [];
  for await (const repo of api.paginate<{ id: string; name: string }>(`/hubs/${hubId}/content-repositories`, 'content-repositories')) {
    if (repo.name === value) return repo.id;
    names.push(repo.name);
  }
  throw unknownName('repository named', value, names, 'in this hub', 'Create one with `cms repo create`.');
}
