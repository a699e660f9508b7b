import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';
import { stmt } from '../core/statements.js';
import { newId } from '../core/ids.js';

export const WEBHOOK_EVENTS = [
  'content-item.created',
  'content-item.updated',
  'content-item.assigned',
  'content-item.workflow.updated',
  'content-item.published',
  'edition.scheduled',
  'edition.unscheduled',
  'edition.published',
  'snapshot.published',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Clients of the hosted service also write event names with a `dynamic-content.` prefix. */
export const EVENT_PREFIX = 'dynamic-content.';
export const canonicalEvent = (name: string): string => (name.startsWith(EVENT_PREFIX) ? name.slice(EVENT_PREFIX.length) : name);

export interface WebhookHeader {
  key: string;
  value: string | null;
  secret: boolean;
}

export interface WebhookFilter {
  type: 'equal' | 'in';
  arguments: ({ jsonPath: string } | { value: unknown })[];
}

export interface Webhook {
  id: string;
  hubId: string;
  label: string;
  events: string[];
  handlers: string[];
  active: boolean;
  secret: string | null;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers: WebhookHeader[];
  filters: WebhookFilter[];
  customPayload: { type: string; value: string } | null;
  notifications: unknown[];
  /** Set when a system owns the webhook (an integration, a search index) */
  owner?: { kind: string; id: string };
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

/** One delivery attempt, as `requests` lists it. Secret header values are never stored. */
export interface WebhookRequest {
  id: string;
  webhookId: string;
  deliveryId: string;
  eventName: string;
  attempt: number;
  url: string;
  method: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  /** The receiver's status, or null when the connection failed. */
  responseStatus: number | null;
  responseBody: string | null;
  /** Set when the receiver answered more than the sandbox reads (deliver.ts MAX_ANSWER_BYTES). */
  responseBodyTruncated?: boolean;
  /** The address the request went to and its kind (webhooks/destinations.ts); absent for sandbox:// receivers. */
  destination?: { address: string; kind: string };
  /** 200 delivered; 202 delivered but the receiver answered 3xx (not followed) or 4xx (not retried); 500 receiver 5xx or network error (retried). */
  result: 200 | 202 | 500;
  error: string | null;
  durationMs: number;
  retryScheduledFor: string | null;
  createdDate: string;
}

export const webhooks = (db: Db) =>
  new Collection<Webhook>(db, 'webhooks', { hub_id: (w) => w.hubId, created_date: (w) => w.createdDate }, { createdDate: 'created_date' });

export interface Delivery {
  deliveryId: string;
  webhookId: string;
  eventName: string;
  url: string;
  attempt: number;
  /** The event document `{name, payload}`, without the webhook's own formatting. */
  event: { id: string; name: string; hubId: string; createdDate: string; synthetic?: true; payload: unknown };
}

export interface EnqueueOptions {
  /** Only this webhook of the hub, whatever events it subscribes to and whatever its filters (cms sandbox trigger --webhook). */
  webhookId?: string;
  /** The event did not happen: `cms sandbox trigger` made it up (the body says "synthetic": true, the delivery carries SYNTHETIC_HEADER). */
  synthetic?: boolean;
}

/** Marks a delivery of a synthetic event (cms sandbox trigger): receivers can tell it from a real one. */
export const SYNTHETIC_HEADER = 'x-webhook-synthetic';

/** Marks a request as a delivery: a request carrying it triggers no further deliveries (service.ts). */
export const DELIVERY_HEADER = 'x-webhook-delivery';

/** Databases whose current (synchronous) handler runs for a webhook delivery: its changes enqueue no events. */
const quiet = new WeakSet<Db>();

/**
 * Runs `fn` (a synchronous handler) without enqueueing deliveries: a request that is itself a
 * delivery (it carries deliver.ts DELIVERY_HEADER) must not feed a webhook loop.
 */
export function withoutEvents<T>(db: Db, fn: () => T): T {
  quiet.add(db);
  try {
    return fn();
  } finally {
    quiet.delete(db);
  }
}

/**
 * The task kind of a delivery to `url` (core/tasks.ts TASK): over the network it waits for one of
 * the scheduler's shared slots; to a receiver inside the sandbox (sandbox://, a search index's
 * sync) it takes none, so no receiver elsewhere can hold it up.
 */
export function deliveryKind(url: string): 'webhook-delivery' | 'webhook-internal' {
  return url.startsWith('sandbox:') ? 'webhook-internal' : 'webhook-delivery';
}

/** Cancels the deliveries of a webhook not yet attempted (it was deactivated or deleted). */
export function cancelDeliveries(db: Db, webhookId: string): number {
  return stmt(db, "UPDATE tasks SET state = 'cancelled' WHERE kind IN ('webhook-delivery', 'webhook-internal') AND ref = ? AND state = 'pending'").run(webhookId).changes;
}

/**
 * Records an event: one delivery task per handler of every active webhook of the hub that
 * subscribes to it and whose filters pass. Runs in the caller's transaction, so the deliveries
 * exist exactly when the change that caused them does.
 */
export function enqueueEvent(db: Db, hubId: string, name: WebhookEvent, payload: unknown, nowMs: number, payloadJson?: string, options: EnqueueOptions = {}): number {
  if (quiet.has(db)) return 0;
  const rows = options.webhookId
    ? (stmt(db, 'SELECT data FROM webhooks WHERE hub_id = ? AND id = ?').pluck().all(hubId, options.webhookId) as string[])
    : (stmt(db, 'SELECT data FROM webhooks WHERE hub_id = ?').pluck().all(hubId) as string[]);
  if (!rows.length) return 0;
  // `synthetic` comes before payload: deliveryJson splices a serialized payload in last.
  const event: Delivery['event'] = { id: newId(nowMs), name, hubId, createdDate: new Date(nowMs).toISOString(), ...(options.synthetic ? { synthetic: true as const } : {}), payload };
  const insert = stmt(db, 'INSERT INTO tasks (kind, ref, due_at, payload) VALUES (?, ?, ?, ?)');
  let count = 0;
  for (const row of rows) {
    const hook = JSON.parse(row) as Webhook;
    if (!hook.active) continue;
    // A webhook named explicitly gets the event whatever it subscribes to and filters.
    if (!options.webhookId && (!hook.events.some((e) => canonicalEvent(e) === name) || !filtersPass(hook.filters, event))) continue;
    for (const url of hook.handlers) {
      const delivery: Delivery = { deliveryId: newId(nowMs), webhookId: hook.id, eventName: name, url, attempt: 1, event };
      insert.run(deliveryKind(url), hook.id, nowMs, deliveryJson(delivery, payloadJson));
      count++;
    }
  }
  return count;
}

/**
 * A delivery's stored JSON. A payload already serialized by the caller (`payloadJson`, the JSON of
 * event.payload) is spliced in rather than encoded again: payload is the event's last field and
 * the event is the delivery's last.
 */
function deliveryJson(delivery: Delivery, payloadJson: string | undefined): string {
  if (payloadJson === undefined) return JSON.stringify(delivery);
  const { payload: _payload, ...event } = delivery.event;
  const head = JSON.stringify({ ...delivery, event });
  return `${head.slice(0, -2)},"payload":${payloadJson}}}`;
}

/** Filters: `equal` (the value at jsonPath equals value) and `in` (it is one of the values). */
export function filtersPass(filters: readonly WebhookFilter[], doc: unknown): boolean {
  return filters.every((f) => {
    const path = f.arguments.find((a): a is { jsonPath: string } => 'jsonPath' in a)?.jsonPath;
    const expected = f.arguments.find((a): a is { value: unknown } => 'value' in a)?.value;
    if (!path) return true;
    const actual = readJsonPath(doc, path);
    if (f.type === 'in') return Array.isArray(expected) && expected.some((v) => v === actual);
    return actual === expected;
  });
}

/** The value at a simple JSONPath ($.payload.status, $.payload.tags[0], payload.id). */
export function readJsonPath(doc: unknown, path: string): unknown {
  const parts = path
    .replace(/^\$\.?/, '')
    .split(/\.|\[(\d+)\]/)
    .filter((p) => p !== undefined && p !== '');
  let v: unknown = doc;
  for (const p of parts) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

export function recordRequest(db: Db, request: WebhookRequest): void {
  stmt(db, 'INSERT INTO webhook_requests (id, webhook_id, created_date, data) VALUES (?, ?, ?, ?)').run(request.id, request.webhookId, request.createdDate, JSON.stringify(request));
}

/** Delivery attempts of a webhook, newest first, after a cursor (a seq) when given. */
export function listRequests(db: Db, webhookId: string, limit: number, cursor: number | null): { requests: WebhookRequest[]; next: number | null } {
  const rows = stmt(db, `SELECT seq, data FROM webhook_requests WHERE webhook_id = ? ${cursor === null ? '' : 'AND seq < ?'} ORDER BY seq DESC LIMIT ?`).all(
    ...(cursor === null ? [webhookId, limit + 1] : [webhookId, cursor, limit + 1]),
  ) as { seq: number; data: string }[];
  const page = rows.slice(0, limit);
  return { requests: page.map((r) => JSON.parse(r.data) as WebhookRequest), next: rows.length > limit ? page[page.length - 1]!.seq : null };
}
