import type { Context } from '../../cli/context.js';
import type { ApiClient } from '../../core/client.js';
import { UsageError, NotFound } from '../../core/errors.js';
import { col, item, type Output } from '../../output/result.js';

export interface TypeResource {
  id: string;
  contentTypeUri: string;
  status: string;
  settings: { label: string; [other: string]: unknown };
}

const HEX_ID = /^[0-9a-f]{24}$/i;

export const TYPE_COLUMNS = [col('id'), col('label', 'settings.label'), col('status'), col('schema', 'contentTypeUri')];

/** A content type from its id, its schema URI, or its label (looked up in the hub). */
export async function findType(ctx: Context, client: ApiClient, value: string, hubFlag?: string): Promise<TypeResource> {
  if (HEX_ID.test(value)) return client.get<TypeResource>(`/content-types/${value}`);
  const hubId = await ctx.hubId(hubFlag, client);
  const byLabel: TypeResource[] = [];
  for await (const type of client.paginate<TypeResource>(`/hubs/${hubId}/content-types`, 'content-types')) {
    if (type.contentTypeUri === value) return type;
    if (type.settings?.label === value) byLabel.push(type);
  }
  if (byLabel.length === 1) return byLabel[0]!;
  if (byLabel.length > 1) throw new UsageError(`Several content types are labelled '${value}'`, `Use an id: ${byLabel.map((t) => t.id).join(', ')}`);
  throw new NotFound(`No content type '${value}' in this hub`, 'Give an id, a schema URI or a label; list them with `cms type list`.');
}

/** Archive or unarchive; the service refuses a move from the wrong state (409). */
export async function changeTypeStatus(ctx: Context, value: string, hubFlag: string | undefined, action: 'archive' | 'unarchive'): Promise<Output> {
  const client = await ctx.client();
  const type = await findType(ctx, client, value, hubFlag);
  return item(await client.post(`/content-types/${type.id}/${action}`, {}), TYPE_COLUMNS);
}
