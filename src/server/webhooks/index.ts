// What other families use of webhooks, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { internalReceivers, loadInternalReceivers } from './internal.js';
export { type Delivery, type Webhook, type WebhookEvent, type WebhookFilter, type WebhookRequest, WEBHOOK_EVENTS, canonicalEvent, deliveryKind, enqueueEvent, webhooks } from './store.js';
