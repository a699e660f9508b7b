import type { RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { contentTypes, type ContentType } from './store.js';

// Loads the resource a request names and applies the route's ACLs to it (ctx.authorize):
// a missing resource and one in a hub the caller cannot see both answer the same 404.

export function loadContentType(ctx: RequestContext, id = ctx.params.typeId!): ContentType {
  const type = contentTypes(ctx.db).get(id);
  if (!type) throw notFound('ContentType', id);
  ctx.authorize({ hubId: type.hubId }, 'ContentType', id);
  return type;
}
