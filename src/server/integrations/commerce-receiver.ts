import type { ServiceHost } from '../core/context.js';
import type { Db } from '../core/db.js';
import type { Delivery } from '../webhooks/index.js';
import { integrations, type Integration } from './store.js';
import { syncCampaign } from './commerce-campaigns.js';
import { recordAsset, type PublishedItem } from './commerce-assets.js';

// The stand-in commerce platform's webhook receiver (sandbox://commerce/<integrationId>). It
// answers like a platform would, which gives the description's delivery result codes: 200 when
// processed, 4xx for a malformed delivery or one it has no use for (recorded as 202, not retried).

type Answer = { status: number; body?: string };
type Payload = Record<string, unknown> & { id: string };

/** The delivered document, or what is wrong with it. */
function parseEvent(body: string): { name: string; payload: Payload } | string {
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch {
    return 'the delivery is not JSON';
  }
  const { name, payload } = (doc ?? {}) as { name?: unknown; payload?: { id?: unknown } };
  if (typeof name !== 'string') return 'the delivery names no event (name)';
  if (!payload || typeof payload !== 'object' || typeof payload.id !== 'string') return 'the delivery carries no payload with an id';
  return { name, payload: payload as Payload };
}

function editionEvent(service: ServiceHost, integration: Integration, payload: Payload): Answer {
  const { change, campaign } = syncCampaign(service.db, integration, payload.id, service.clock.now());
  if (change === 'none') return { status: 200, body: `edition ${payload.id} is not scheduled: no campaign` };
  return { status: 200, body: campaign ? `campaign ${campaign.id} ${change} for edition ${payload.id}` : `campaign of edition ${payload.id} removed` };
}

function publishedEvent(service: ServiceHost, integration: Integration, payload: Payload): Answer {
  const version = payload.publishedVersion ?? payload.version;
  if (!Number.isInteger(version)) return { status: 400, body: 'the published item carries no version' };
  const asset = recordAsset(service.db, integration, payload as unknown as PublishedItem, service.clock.now());
  if (!asset) return { status: 404, body: `content item ${payload.id} is not content of this hub` };
  return { status: 200, body: `content asset ${asset.itemId} at version ${asset.version}` };
}

/** The hub of the commerce integration the path names (the webhooks family refuses another hub's). */
export function hubOf(db: Db, path: string): string | null {
  const integration = integrations(db).get(path.replace(/^\/+/, ''));
  return integration?.type === 'commerce' ? integration.hubId : null;
}

export function receive(service: ServiceHost, _delivery: Delivery, path: string, body: string): Answer {
  const id = path.replace(/^\/+/, '');
  const integration = integrations(service.db).get(id);
  if (integration?.type !== 'commerce') return { status: 404, body: `no commerce integration ${id}` };
  const event = parseEvent(body);
  if (typeof event === 'string') return { status: 400, body: event };
  switch (event.name) {
    case 'edition.scheduled':
    case 'edition.unscheduled':
      return editionEvent(service, integration, event.payload);
    case 'content-item.published':
      return publishedEvent(service, integration, event.payload);
    default:
      return { status: 400, body: `the commerce platform does not handle ${event.name}` };
  }
}
