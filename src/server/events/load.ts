import type { RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { events, type CmsEvent } from './store.js';

// Loads the resource a request names and applies the route's ACLs to it (ctx.authorize):
// a missing resource and one in a hub the caller cannot see both answer the same 404.

export function loadEvent(ctx: RequestContext, id = ctx.params.eventId!): CmsEvent {
  const event = events(ctx.db).get(id);
  if (!event) throw notFound('Event', id);
  ctx.authorize({ hubId: event.hubId }, 'Event', id);
  return event;
}
