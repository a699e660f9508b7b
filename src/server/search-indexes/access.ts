import type { RequestContext } from '../core/context.js';
import { badRequest, conflict, notFound } from '../core/errors.js';
import { searchIndexes, type SearchIndex } from './store.js';

// Loading an index a request names, and the state rules every change checks.

/** The index of the path's hub, with the route's ACLs applied (404 when missing or unseen). */
export function loadSearchIndex(ctx: RequestContext, id = ctx.params.indexId!): SearchIndex {
  const index = searchIndexes(ctx.db).get(id);
  if (!index || (ctx.params.hubId !== undefined && index.hubId !== ctx.params.hubId)) throw notFound('SearchIndex', id);
  ctx.authorize({ hubId: index.hubId }, 'SearchIndex', id);
  return index;
}

/** An archived index is frozen: 409 for any change but unarchive and delete. */
export function requireActive(index: SearchIndex): void {
  if (index.status !== 'ACTIVE') {
    throw conflict(`Search index ${index.name} is archived; unarchive it first`, { code: 'INDEX_ARCHIVED', entity: 'SearchIndex', property: 'status', invalidValue: index.status });
  }
}

/** Records, assigned types and status are managed on the primary; its replicas follow it. */
export function requirePrimary(index: SearchIndex, what: string): void {
  if (index.parentId !== null) {
    throw badRequest(`${index.name} is a replica: ${what} on its primary index ${index.parentId}`, { code: 'REPLICA_INDEX', entity: 'SearchIndex', property: 'parentId', invalidValue: index.parentId });
  }
}
