import type { RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { items, type ContentItem } from './store.js';

// Loads the resource a request names and applies the route's ACLs to it (ctx.authorize):
// a missing resource and one in a hub the caller cannot see both answer the same 404.

export function loadItem(ctx: RequestContext, id = ctx.params.itemId!): ContentItem {
  const item = items(ctx.db).get(id);
  if (!item) throw notFound('ContentItem', id);
  ctx.authorize({ hubId: item.hubId, repoId: item.contentRepositoryId }, 'ContentItem', id);
  return item;
}
