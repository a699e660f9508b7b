import type { RequestContext } from '../core/context.js';
import { notFound } from '../core/errors.js';
import { editions, type Edition } from './store.js';

/** The edition the path names, with the route's ACLs applied (404 for one in a hub the caller cannot see). */
export function loadEdition(ctx: RequestContext, id = ctx.params.editionId!): Edition {
  const edition = editions(ctx.db).get(id);
  if (!edition) throw notFound('Edition', id);
  ctx.authorize({ hubId: edition.hubId }, 'Edition', id);
  return edition;
}

/** Records a change to what the edition contains: its lastModifiedDate is what schedule and resolve compare with. */
export function touchEdition(ctx: RequestContext, edition: Edition, changes: Partial<Edition> = {}): Edition {
  return editions(ctx.db).update({ ...edition, ...changes, ...ctx.modifiedStamp() });
}
