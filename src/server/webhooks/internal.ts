import type { ServiceHost } from '../core/context.js';
import type { Delivery } from './store.js';

/**
 * Receivers inside the sandbox. A webhook handler URL `sandbox://<receiver>/<path>` is delivered
 * in-process (the embedded mode has no server to call) to the receiver registered under that
 * name: search indexes keep their objects current this way, and the stand-in commerce platform
 * receives the commerce integration's deliveries. Attempts are logged like any other delivery.
 */
export interface InternalReceiver {
  /** Handles one delivery; the answer is recorded as the receiver's status and body. Runs in a transaction. */
  receive(service: ServiceHost, delivery: Delivery, path: string, body: string): { status: number; body?: string };
}

export const INTERNAL_SCHEME = 'sandbox:';

/** Filled by families.ts: the webhooks family knows no receiver. */
export const internalReceivers: Record<string, () => Promise<InternalReceiver>> = {};

export async function deliverInternally(service: ServiceHost, delivery: Delivery, body: string): Promise<{ status: number; body: string }> {
  const url = new URL(delivery.url);
  const load = internalReceivers[url.hostname];
  if (!load) return { status: 404, body: `no sandbox receiver '${url.hostname}'` };
  const receiver = await load();
  return service.db.transaction(() => {
    const answer = receiver.receive(service, delivery, url.pathname, body);
    return { status: answer.status, body: answer.body ?? '' };
  }).immediate();
}
