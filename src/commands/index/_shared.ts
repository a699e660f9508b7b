import type { ApiClient } from '../../core/client.js';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import { col } from '../../output/result.js';
import { unknownName } from '../../cli/suggest.js';

const HEX_ID = /^[0-9a-f]{24}$/i;

export const INDEX_COLUMNS = [col('id'), col('name'), col('label'), col('type'), col('status'), col('replicas', 'replicaCount'), col('parent', 'parentId')];

export const indexArg = { name: 'index', description: 'index id, name (<hub>.<suffix>) or suffix', required: true };

export interface IndexRef {
  client: ApiClient;
  hubId: string;
  id: string;
  /** `/hubs/{hubId}/search-indexes/{id}`: every index operation lives under it. */
  path: string;
}

/** The hub and index a verb works on: the index given by id, full name or suffix. */
export async function resolveIndex(ctx: Context, value: string, hubFlag?: string): Promise<IndexRef> {
  const client = await ctx.client();
  const hubId = await ctx.hubId(hubFlag, client);
  const id = HEX_ID.test(value) ? value : await indexIdByName(client, hubId, value);
  return { client, hubId, id, path: `/hubs/${hubId}/search-indexes/${id}` };
}

async function indexIdByName(client: ApiClient, hubId: string, value: string): Promise<string> {
  const names: string[] = [];
  for await (const index of client.paginate<{ id: string; name: string; suffix: string }>(`/hubs/${hubId}/search-indexes`, 'indexes')) {
    if (index.name === value || index.suffix === value) return index.id;
    names.push(index.name);
  }
  throw unknownName('search index named', value, names, 'in this hub', 'Create one with `cms index create`.');
}
