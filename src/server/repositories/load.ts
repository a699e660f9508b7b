import type { RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { repositories, type Repository } from './store.js';

// Loads the resource a request names and applies the route's ACLs to it (ctx.authorize):
// a missing resource and one in a hub the caller cannot see both answer the same 404.

export function loadRepository(ctx: RequestContext, id = ctx.params.repoId!): Repository {
  const repo = repositories(ctx.db).get(id);
  if (!repo) throw notFound('ContentRepository', id);
  ctx.authorize({ hubId: repo.hubId, repoId: repo.id }, 'ContentRepository', id);
  return repo;
}
