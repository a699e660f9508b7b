import { createHmac } from 'node:crypto';
import type { ServiceHost } from '../core/context.js';
import type { Task } from '../core/tasks.js';
import type { Db } from '../core/db.js';
import { newId } from '../core/ids.js';
import { stmt } from '../core/statements.js';
import { DELIVERY_HEADER, SYNTHETIC_HEADER, deliveryKind, recordRequest, webhooks, type Delivery, type Webhook, type WebhookRequest } from './store.js';
import { INTERNAL_SCHEME, deliverInternally } from './internal.js';
import { DestinationRefused, send } from './send.js';
import { parseAllowRule, type AllowRule } from './destinations.js';
import { Principal } from '../core/auth/principal.js';
import { TemplateRenderError, renderTemplate, type TemplateHost } from './template.js';

/** Attempts per delivery, and the wait (on the sandbox clock) before each retry. */
export const MAX_ATTEMPTS = 5;
export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000];
const MAX_LOGGED_BODY = 4_000;
/** How much of a receiver's answer is read: the rest is never downloaded (the connection is dropped). */
export const MAX_ANSWER_BYTES = 4_096;

export const SIGNATURE_HEADER = 'X-Webhook-Signature';

/** The body a webhook sends: its custom payload template, or the event as JSON {id, name, hubId, createdDate, payload}. */
export function renderBody(hook: Webhook, event: Delivery['event'], host: TemplateHost): { body: string; contentType: string } {
  if (hook.customPayload?.value) return { body: renderTemplate(hook.customPayload.value, event, host), contentType: 'application/json' };
  return { body: JSON.stringify(event), contentType: 'application/json' };
}

/** Where a delivery goes: an http(s) handler is a template too (`…/indexes/<name>/{{payload.id}}`); sandbox:// ones are used as written. */
export function renderUrl(url: string, event: Delivery['event'], host: TemplateHost): string {
  if (url.startsWith(INTERNAL_SCHEME) || !url.includes('{{')) return url;
  const rendered = renderTemplate(url, event, host);
  let parsed: URL;
  try {
    parsed = new URL(rendered);
  } catch {
    throw new TemplateRenderError(`the handler URL rendered to '${rendered.slice(0, 200)}', which is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TemplateRenderError(`the handler URL rendered to a ${parsed.protocol} URL, not http(s)`);
  return parsed.href;
}

/** The user's --allow-webhook-to rules (checked when the sandbox starts: a bad one never gets here). */
function allowRules(service: ServiceHost): AllowRule[] {
  return (service.options.allowWebhookTo ?? []).map(parseAllowRule);
}

/** Whether the webhook was last written by a client that is, now, the user's own (admin, or every permission). */
function writtenByTrusted(service: ServiceHost, hook: Webhook): boolean {
  return Principal.load(service.db, hook.lastModifiedBy)?.fullyTrusted === true;
}

export const signature = (secret: string, body: string): string => createHmac('sha256', secret).update(body).digest('base64');

/** One delivery attempt: sends, records the attempt, and schedules the next one after a 5xx or a network error. */
export async function run(service: ServiceHost, task: Task): Promise<void> {
  const delivery = JSON.parse(task.payload) as Delivery;
  const hook = webhooks(service.db).get(delivery.webhookId);
  if (!hook || !hook.active) return;
  const host: TemplateHost = { db: service.db, hubId: hook.hubId, nowMs: service.clock.now() };
  let rendered: { body: string; contentType: string; url: string };
  try {
    rendered = { ...renderBody(hook, delivery.event, host), url: renderUrl(delivery.url, delivery.event, host) };
  } catch (err) {
    if (!(err instanceof TemplateRenderError)) throw err;
    // A template that fails or is cut off fails the same way every time: recorded, not retried.
    recordFailure(service, hook, delivery, `template: ${err.message}`);
    return;
  }
  const { body, contentType, url } = rendered;
  const headers: Record<string, string> = {
    'content-type': contentType,
    'user-agent': 'cms-sandbox-webhooks/1',
    'x-webhook-event': delivery.eventName,
    'x-webhook-attempt': String(delivery.attempt),
  };
  const logged: Record<string, string> = { ...headers };
  for (const h of hook.headers) {
    if (h.value === null) continue;
    headers[h.key.toLowerCase()] = h.value;
    logged[h.key.toLowerCase()] = h.secret ? '[secret]' : h.value;
  }
  // After the webhook's own headers, so none of them can remove the mark.
  headers[DELIVERY_HEADER] = logged[DELIVERY_HEADER] = delivery.deliveryId;
  if (delivery.event.synthetic) headers[SYNTHETIC_HEADER] = logged[SYNTHETIC_HEADER] = 'true';
  if (hook.secret) {
    headers[SIGNATURE_HEADER.toLowerCase()] = signature(hook.secret, body);
    logged[SIGNATURE_HEADER.toLowerCase()] = headers[SIGNATURE_HEADER.toLowerCase()]!;
  }

  const started = Date.now();
  let status: number | null = null;
  let responseBody: string | null = null;
  let responseBodyTruncated = false;
  let error: string | null = null;
  let destination: WebhookRequest['destination'] | null = null;
  try {
    if (delivery.url.startsWith(INTERNAL_SCHEME)) {
      const answer = await deliverInternally(service, delivery, hook.hubId, body);
      status = answer.status;
      responseBody = answer.body.slice(0, MAX_LOGGED_BODY);
    } else {
      const policy = { allow: allowRules(service), trustedWriter: writtenByTrusted(service, hook) };
      const sent = await send(url, { method: hook.method, headers, body: hook.method === 'DELETE' ? undefined : body, maxAnswerBytes: MAX_ANSWER_BYTES }, policy);
      status = sent.status;
      responseBody = sent.text;
      responseBodyTruncated = sent.truncated;
      destination = sent.address ? { address: sent.address, kind: sent.kind! } : null;
      // Redirects are not followed (the receiver named is the one that must answer).
      if (status >= 300 && status < 400) error = `redirect ${status} not followed${sent.location ? ` (Location: ${sent.location.slice(0, 500)})` : ''}`;
    }
  } catch (err) {
    if (err instanceof DestinationRefused) {
      // Where the webhook points is not allowed: the same every time, so recorded and not retried.
      recordFailure(service, hook, delivery, err.message, url, body);
      return;
    }
    const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
    error = e.cause?.code ?? e.code ?? e.cause?.message ?? e.message;
  }
  if (!service.db.open) return;

  // 200 only for a 2xx; a 3xx or 4xx was delivered but not processed (202, not retried).
  const result: 200 | 202 | 500 = status !== null && status < 300 ? 200 : status !== null && status < 500 ? 202 : 500;
  const retry = result === 500 && delivery.attempt < MAX_ATTEMPTS;
  const now = service.clock.now();
  const retryAt = retry ? now + RETRY_DELAYS_MS[delivery.attempt - 1]! : null;
  service.db.transaction(() => {
    recordRequest(service.db, {
      id: newId(now),
      webhookId: hook.id,
      deliveryId: delivery.deliveryId,
      eventName: delivery.eventName,
      attempt: delivery.attempt,
      url,
      method: hook.method,
      requestHeaders: logged,
      requestBody: body.slice(0, MAX_LOGGED_BODY),
      responseStatus: status,
      responseBody,
      ...(responseBodyTruncated ? { responseBodyTruncated } : {}),
      ...(destination ? { destination } : {}),
      result,
      error,
      durationMs: Date.now() - started,
      retryScheduledFor: retryAt === null ? null : new Date(retryAt).toISOString(),
      createdDate: new Date(now).toISOString(),
    });
    if (retryAt !== null) {
      stmt(service.db, 'INSERT INTO tasks (kind, ref, due_at, payload) VALUES (?, ?, ?, ?)').run(deliveryKind(delivery.url), hook.id, retryAt, JSON.stringify({ ...delivery, attempt: delivery.attempt + 1 }));
    }
  })();
}

/** A delivery that was not attempted (its template failed, its destination is not allowed): logged, not retried. */
function recordFailure(service: ServiceHost, hook: Webhook, delivery: Delivery, error: string, url = delivery.url, body = ''): void {
  if (!service.db.open) return;
  const now = service.clock.now();
  recordRequest(service.db, {
    id: newId(now),
    webhookId: hook.id,
    deliveryId: delivery.deliveryId,
    eventName: delivery.eventName,
    attempt: delivery.attempt,
    url,
    method: hook.method,
    requestHeaders: {},
    requestBody: body.slice(0, MAX_LOGGED_BODY),
    responseStatus: null,
    responseBody: null,
    result: 500,
    error,
    durationMs: 0,
    retryScheduledFor: null,
    createdDate: new Date(now).toISOString(),
  });
}


export const async = true;

/** Deliveries share the scheduler's slots by hub, then by webhook (core/scheduler.ts). */
export function tenantOf(db: Db, webhookId: string): string {
  return (stmt(db, 'SELECT hub_id FROM webhooks WHERE id = ?').pluck().get(webhookId) as string | undefined) ?? `webhook ${webhookId}`;
}
