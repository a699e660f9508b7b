import { accepted, ok, type RequestContext } from '../core/context.js';
import { conflict, notFound } from '../core/errors.js';
import { pageOf, pageRequest } from '../core/hal.js';
import { newId } from '../core/ids.js';
import { loadHub } from '../hubs/index.js';
import { bulkJobs } from '../bulk-jobs/index.js';
import { publishingJobs } from '../snapshots/index.js';
import { stmt } from '../core/statements.js';
import { deliveryKind, webhooks, type Delivery, type WebhookRequest } from '../webhooks/index.js';
import { renderBulkJob } from '../bulk-jobs/index.js';
import { renderPublishingJob } from '../snapshots/index.js';

// Operations the console needs that the public API does not offer: the jobs of a hub as one list
// (the API reads a bulk job by id and publishing jobs per snapshot) and re-sending a webhook
// delivery. They sit under /__sandbox, need a token, and apply the hub's ACLs like the API.

/** GET /__sandbox/hubs/{hub}/bulk-jobs: newest first, paged. */
export function listBulkJobs(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const req = pageRequest(ctx, ['createdDate'], [{ field: 'createdDate', dir: 'desc' }]);
  return ok(pageOf(ctx, 'bulk-jobs', bulkJobs(ctx.db).page({ where: 'hub_id = ?', params: [hub.id] }, req), req, (j) => renderBulkJob(ctx, j)));
}

/** GET /__sandbox/hubs/{hub}/publishing-jobs: newest first, paged. */
export function listPublishingJobs(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const req = pageRequest(ctx, ['createdDate', 'scheduledDate', 'state'], [{ field: 'createdDate', dir: 'desc' }]);
  return ok(pageOf(ctx, 'publishing-jobs', publishingJobs(ctx.db).page({ where: 'hub_id = ?', params: [hub.id] }, req), req, (j) => renderPublishingJob(ctx, j)));
}

/**
 * POST /__sandbox/hubs/{hub}/webhooks/{webhook}/requests/{request}/resend: delivers the event of a
 * recorded attempt again, as a new delivery (attempt 1, its own retries) to the same handler.
 */
export function resendRequest(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const hook = webhooks(ctx.db).get(ctx.params.webhookId!);
  if (!hook || hook.hubId !== hub.id) throw notFound('Webhook', ctx.params.webhookId);
  const data = stmt(ctx.db, 'SELECT data FROM webhook_requests WHERE id = ? AND webhook_id = ?').pluck().get(ctx.params.requestId, hook.id) as string | undefined;
  if (!data) throw notFound('WebhookRequest', ctx.params.requestId);
  const request = JSON.parse(data) as WebhookRequest;
  const event = eventOf(request);
  if (!event) throw conflict('This attempt sent a custom payload (or a truncated one); its event cannot be rebuilt to send again', { entity: 'WebhookRequest', invalidValue: request.id });
  const delivery: Delivery = { deliveryId: newId(ctx.now()), webhookId: hook.id, eventName: request.eventName, url: request.url, attempt: 1, event };
  ctx.service.scheduler.enqueue(deliveryKind(delivery.url), hook.id, ctx.now(), delivery);
  return accepted({ deliveryId: delivery.deliveryId, webhookId: hook.id, eventName: delivery.eventName, url: delivery.url });
}

/** The event document a default-format delivery sent as its body. */
function eventOf(request: WebhookRequest): Delivery['event'] | null {
  try {
    const doc = JSON.parse(request.requestBody) as Delivery['event'];
    return doc && typeof doc.id === 'string' && doc.name === request.eventName && 'payload' in doc ? doc : null;
  } catch {
    return null;
  }
}
