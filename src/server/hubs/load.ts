import type { RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { hubs, type Hub } from './store.js';

// Loads the resource a request names and applies the route's ACLs to it (ctx.authorize):
// a missing resource and one in a hub the caller cannot see both answer the same 404.

export function loadHub(ctx: RequestContext, id = ctx.params.hubId!): Hub {
  const hub = hubs(ctx.db).get(id);
  if (!hub) throw notFound('Hub', id);
  ctx.authorize({ hubId: hub.id }, 'Hub', id);
  return hub;
}
