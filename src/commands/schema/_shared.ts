import type { Context } from '../../cli/context.js';
import type { OptionSpec } from '../../cli/define.js';
import type { ApiClient } from '../../core/client.js';
import { UsageError, NotFound } from '../../core/errors.js';
import { col, item, type Output } from '../../output/result.js';

export interface SchemaResource {
  id: string;
  schemaId: string;
  body: string;
  version: number;
  validationLevel: string;
  status: string;
}

const HEX_ID = /^[0-9a-f]{24}$/i;

export const VALIDATION_LEVELS = ['CONTENT_TYPE', 'SLOT', 'PARTIAL'] as const;
export const STATUSES = ['ACTIVE', 'ARCHIVED'] as const;

export const schemaFileOption: OptionSpec = { flags: '--file <file>', description: 'the JSON Schema document (- for stdin)' };
export const validationLevelOption: OptionSpec = { flags: '--validation-level <level>', description: 'what the document is validated as', choices: VALIDATION_LEVELS };
export const statusOption: OptionSpec = { flags: '--status <list>', description: 'only these statuses (comma list of ACTIVE, ARCHIVED; default: all)', upperCase: true };
export const sortOption: OptionSpec = { flags: '--sort <field,dir>', description: 'sort order, e.g. createdDate,desc' };

export const SCHEMA_COLUMNS = [col('id'), col('schema id', 'schemaId'), col('version'), col('level', 'validationLevel'), col('status')];

/** A schema from its id or its schema id URL (looked up in the hub). */
export async function findSchema(ctx: Context, client: ApiClient, value: string, hubFlag?: string): Promise<SchemaResource> {
  if (HEX_ID.test(value)) return client.get<SchemaResource>(`/content-type-schemas/${value}`);
  const hubId = await ctx.hubId(hubFlag, client);
  for await (const schema of client.paginate<SchemaResource>(`/hubs/${hubId}/content-type-schemas`, 'content-type-schemas')) {
    if (schema.schemaId === value) return schema;
  }
  throw new NotFound(`No content type schema with id ${value} in this hub`, 'List them with `cms schema list`.');
}

/** The id URL a schema document names itself by: $id in draft-07, id in the service dialect. */
export function documentId(doc: Record<string, unknown>): string | undefined {
  const draft07 = typeof doc.$schema === 'string' && /json-schema\.org\/draft-07\//.test(doc.$schema);
  const id = draft07 ? (doc.$id ?? doc.id) : (doc.id ?? doc.$id);
  return typeof id === 'string' ? id : undefined;
}

/** A JSON document printed as JSON even in table mode: a schema reads best as itself. */
export const documentOutput = (doc: unknown): Output => ({ kind: 'item', data: doc, raw: true });

/** Archive or unarchive: both name the current version, which this fetches. */
export async function changeSchemaStatus(ctx: Context, value: string, hubFlag: string | undefined, action: 'archive' | 'unarchive'): Promise<Output> {
  const client = await ctx.client();
  const schema = await findSchema(ctx, client, value, hubFlag);
  return item(await client.post(`/content-type-schemas/${schema.id}/${action}`, { version: schema.version }), SCHEMA_COLUMNS);
}
