import type { RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { schemas, type ContentTypeSchema } from './store.js';

// Loads the resource a request names and applies the route's ACLs to it (ctx.authorize):
// a missing resource and one in a hub the caller cannot see both answer the same 404.

export function loadSchema(ctx: RequestContext, id = ctx.params.schemaId!): ContentTypeSchema {
  const schema = schemas(ctx.db).get(id);
  if (!schema) throw notFound('ContentTypeSchema', id);
  ctx.authorize({ hubId: schema.hubId }, 'ContentTypeSchema', id);
  return schema;
}
