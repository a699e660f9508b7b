import type { Context } from '../../cli/context.js';
import type { OptionSpec } from '../../cli/define.js';
import type { ApiClient } from '../../core/client.js';
import { col, item, type Output } from '../../output/result.js';

export interface ItemResource {
  id: string;
  label: string;
  version: number;
  status: string;
  locale: string | null;
  folderId: string | null;
  assignees: string[];
  deliveryKey: string | null;
  body: Record<string, unknown> & { _meta: Record<string, unknown> };
}

export const ITEM_COLUMNS = [
  col('id'),
  col('label'),
  col('version'),
  col('status'),
  col('locale'),
  col('schema', (i: { schema?: string; body?: { _meta?: { schema?: string } } }) => i.body?._meta?.schema ?? i.schema),
];

export const VERSION_COLUMNS = [col('version'), col('label'), col('status'), col('modified by', 'lastModifiedBy'), col('modified', 'lastModifiedDate')];

export const itemArg = { name: 'item', description: 'content item id', required: true };
export const sortOption: OptionSpec = { flags: '--sort <field,dir>', description: 'sort order, e.g. label,asc (default: createdDate,desc)' };

/** The item as it is now: verbs that change an item send its current version with the change. */
export function fetchItem(client: ApiClient, id: string, version?: number): Promise<ItemResource> {
  return client.get<ItemResource>(`/content-items/${id}`, { query: { version } });
}

/** Runs an item operation that names the current version, which this fetches first. */
export async function withCurrentVersion(ctx: Context, id: string, send: (client: ApiClient, version: number) => Promise<unknown>): Promise<Output> {
  const client = await ctx.client();
  const current = await fetchItem(client, id);
  return item(await send(client, current.version), ITEM_COLUMNS);
}
