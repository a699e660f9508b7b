import type { ServiceHost } from '../core/context.js';
import type { Db } from '../core/db.js';
import type { Delivery } from '../webhooks/index.js';
import { stmt } from '../core/statements.js';
import { integrations } from './store.js';

// The stand-in marketing platform (sandbox://marketing/<integrationId>): it records every
// delivery it gets, so what the integration's webhook sent can be seen.

export interface MarketingDelivery {
  deliveryId: string;
  eventName: string;
  receivedDate: string;
  /** The delivered document {id, name, hubId, createdDate, payload}. */
  event: unknown;
}

/** The hub of the marketing integration the path names (the webhooks family refuses another hub's). */
export function hubOf(db: Db, path: string): string | null {
  const integration = integrations(db).get(path.replace(/^\/+/, ''));
  return integration?.type === 'marketing' ? integration.hubId : null;
}

export function receive(service: ServiceHost, delivery: Delivery, path: string, body: string): { status: number; body?: string } {
  const id = path.replace(/^\/+/, '');
  const integration = integrations(service.db).get(id);
  if (integration?.type !== 'marketing') return { status: 404, body: `no marketing integration ${id}` };
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    return { status: 400, body: 'the delivery is not JSON' };
  }
  const received: MarketingDelivery = { deliveryId: delivery.deliveryId, eventName: delivery.eventName, receivedDate: new Date(service.clock.now()).toISOString(), event };
  stmt(service.db, 'INSERT INTO marketing_deliveries (integration_id, received_date, data) VALUES (?, ?, ?)').run(id, received.receivedDate, JSON.stringify(received));
  return { status: 200, body: `recorded ${delivery.eventName}` };
}

/** What an integration's platform received, newest first (the last 100). */
export function marketingDeliveriesOf(db: Db, integrationId: string): MarketingDelivery[] {
  const rows = stmt(db, 'SELECT data FROM marketing_deliveries WHERE integration_id = ? ORDER BY seq DESC LIMIT 100').pluck().all(integrationId) as string[];
  return rows.map((r) => JSON.parse(r) as MarketingDelivery);
}
