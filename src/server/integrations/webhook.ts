import type { Db } from '../core/db.js';
import { newId } from '../core/ids.js';
import { webhooks, type Webhook } from '../webhooks/index.js';
import { KINDS } from './kinds.js';
import type { Integration } from './store.js';

// Each integration owns exactly one webhook: created, changed and deleted with it. Its handler is
// the integration's platform inside the sandbox (sandbox://commerce/<id>, sandbox://marketing/<id>).

type Stamp = Pick<Webhook, 'createdBy' | 'createdDate' | 'lastModifiedBy' | 'lastModifiedDate'>;

/** What the integration's webhook must say: label, events, handler and whether it delivers. */
function expected(integration: Omit<Integration, 'webhookId'>) {
  const kind = KINDS[integration.type];
  return {
    label: kind.webhookLabel(integration),
    events: [...kind.events],
    handlers: [`sandbox://${integration.type}/${integration.id}`],
    active: kind.active(integration.settings),
  };
}

export function createOwnedWebhook(db: Db, integration: Omit<Integration, 'webhookId'>, stamp: Stamp, now: number): Webhook {
  return webhooks(db).insert({
    id: newId(now),
    hubId: integration.hubId,
    ...expected(integration),
    secret: null,
    method: 'POST',
    headers: [],
    filters: [],
    customPayload: null,
    notifications: [],
    owner: { kind: 'integration', id: integration.id },
    ...stamp,
  });
}

/**
 * Brings the webhook in line with the integration after a change; one deleted through the
 * webhooks API is created again. Returns the webhook id.
 */
export function syncOwnedWebhook(db: Db, integration: Integration, stamp: Stamp, now: number): string {
  const hook = webhooks(db).get(integration.webhookId);
  if (!hook) return createOwnedWebhook(db, integration, stamp, now).id;
  webhooks(db).update({ ...hook, ...expected(integration), lastModifiedBy: stamp.lastModifiedBy, lastModifiedDate: stamp.lastModifiedDate });
  return hook.id;
}

export function deleteOwnedWebhook(db: Db, integration: Integration): void {
  webhooks(db).delete(integration.webhookId);
}
