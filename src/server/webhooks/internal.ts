import type { ServiceHost } from '../core/context.js';
import type { Db } from '../core/db.js';
import type { Delivery } from './store.js';

/**
 * Receivers inside the sandbox. A webhook handler URL `sandbox://<receiver>/<path>` is delivered
 * in-process (the embedded mode has no server to call) to the receiver registered under that
 * name: search indexes keep their objects current this way, and the stand-in commerce platform
 * receives the commerce integration's deliveries. Attempts are logged like any other delivery.
 *
 * A receiver writes into the resource its path names (an index, a platform), so a webhook may
 * name only resources of its own hub: checked when a webhook is created or changed, and again at
 * each delivery (a row stored before the check, or written to the database by hand).
 */
export interface InternalReceiver {
  /** The hub of the resource `path` names, or null when there is no such resource. */
  hubOf(db: Db, path: string): string | null;
  /** Handles one delivery; the answer is recorded as the receiver's status and body. Runs in a transaction. */
  receive(service: ServiceHost, delivery: Delivery, path: string, body: string): { status: number; body?: string };
}

export const INTERNAL_SCHEME = 'sandbox:';

/** Filled by families.ts: the webhooks family knows no receiver. */
export const internalReceivers: Record<string, () => Promise<InternalReceiver>> = {};
const loaded = new Map<string, InternalReceiver>();

/** Loads every registered receiver, so that handlers can be checked synchronously (inside a transaction). */
export async function loadInternalReceivers(): Promise<void> {
  for (const [name, load] of Object.entries(internalReceivers)) if (!loaded.has(name)) loaded.set(name, await load());
}

/**
 * Why a webhook of `hubId` may not deliver to `handler`, or null when it may (any non-sandbox
 * URL). Unknown receivers, unknown resources and another hub's resources read alike: no probing.
 * Needs loadInternalReceivers() first (families.ts loads them with the webhook routes).
 */
export function internalHandlerProblem(db: Db, handler: string, hubId: string): string | null {
  if (!handler.startsWith(INTERNAL_SCHEME)) return null;
  let url: URL;
  try {
    url = new URL(handler);
  } catch {
    return 'is not a URL';
  }
  const receiver = Object.hasOwn(internalReceivers, url.hostname) ? loaded.get(url.hostname) : undefined;
  if (!receiver) return `names no sandbox receiver (${Object.keys(internalReceivers).join(', ')})`;
  return receiver.hubOf(db, url.pathname) === hubId ? null : `is not a resource of hub ${hubId}`;
}

/**
 * The handler as a webhook owned by a sandbox resource (an index's webhooks) means it: a handler
 * naming the owner's receiver names the owner, whatever its path. The vendor's CLI copies an
 * index's webhooks between hubs, handlers included (hub clone, search-index import --webhooks);
 * in the hosted service an index's handlers name no index, so the copy feeds the index that owns
 * it, and never reaches the index it was copied from (issue 31.4).
 */
export function ownedHandler(handler: string, owner: { kind: string; id: string } | undefined): string {
  if (!owner || !Object.hasOwn(internalReceivers, owner.kind)) return handler;
  let url: URL;
  try {
    url = new URL(handler);
  } catch {
    return handler;
  }
  return url.protocol === INTERNAL_SCHEME && url.hostname === owner.kind ? `${INTERNAL_SCHEME}//${owner.kind}/${owner.id}` : handler;
}

export async function deliverInternally(service: ServiceHost, delivery: Delivery, hubId: string, body: string): Promise<{ status: number; body: string }> {
  await loadInternalReceivers();
  const url = new URL(delivery.url);
  const receiver = Object.hasOwn(internalReceivers, url.hostname) ? loaded.get(url.hostname) : undefined;
  if (!receiver) return { status: 404, body: `no sandbox receiver '${url.hostname}'` };
  return service.db.transaction(() => {
    // Checked at the delivery too: the resource's hub is read in the same transaction as the write.
    const owner = receiver.hubOf(service.db, url.pathname);
    if (owner === null) return { status: 404, body: `${delivery.url} names no resource` };
    if (owner !== hubId) return { status: 403, body: `${delivery.url} is not a resource of hub ${hubId}: not delivered` };
    const answer = receiver.receive(service, delivery, url.pathname, body);
    return { status: answer.status, body: answer.body ?? '' };
  }).immediate();
}
