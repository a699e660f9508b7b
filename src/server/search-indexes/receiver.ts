import type { ServiceHost } from '../core/context.js';
import type { Db } from '../core/db.js';
import type { Delivery } from '../webhooks/index.js';
import { searchIndexes } from './store.js';
import { deleteEverywhere, isAssigned, objectFor, upsertEverywhere, type ItemPayload } from './sync.js';

/**
 * Receives the deliveries of an index's webhooks (sandbox://search-index/<indexId>): a published
 * item of an assigned type is written to the index and its replicas, an archived one removed.
 * An archived index keeps its records as they are. Runs inside the delivery's transaction.
 */
/** The hub of the index the path names (the webhooks family refuses another hub's). */
export function hubOf(db: Db, path: string): string | null {
  return searchIndexes(db).get(path.replace(/^\/+/, ''))?.hubId ?? null;
}

export function receive(service: ServiceHost, delivery: Delivery, path: string): { status: number; body?: string } {
  const indexId = path.replace(/^\/+/, '');
  const index = searchIndexes(service.db).get(indexId);
  if (!index) return { status: 404, body: `no search index ${indexId}` };
  if (index.status === 'ARCHIVED') return { status: 200, body: 'index archived: change ignored' };
  const item = delivery.event.payload as ItemPayload;
  if (!isAssigned(service.db, index.id, item.body?._meta?.schema)) return { status: 200, body: 'content type not assigned to this index: ignored' };
  if (item.status === 'ARCHIVED') {
    const removed = deleteEverywhere(service.db, index, item.id);
    return { status: 200, body: removed ? `removed ${item.id}` : `${item.id} was not in the index` };
  }
  if (delivery.eventName !== 'content-item.published') return { status: 200, body: 'not a publication: ignored' };
  upsertEverywhere(service.db, index, objectFor(service.db, item));
  return { status: 200, body: `indexed ${item.id}` };
}
