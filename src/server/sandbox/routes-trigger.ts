import { accepted, type RequestContext, type Reply } from '../core/context.js';
import { badRequest, conflict, notFound } from '../core/errors.js';
import { loadHub } from '../hubs/index.js';
import { loadItem, publicItem } from '../items/index.js';
import { editionPayload, loadEdition } from '../editions/index.js';
import { snapshots } from '../snapshots/index.js';
import { WEBHOOK_EVENTS, canonicalEvent, enqueueEvent, webhooks, type WebhookEvent } from '../webhooks/index.js';
import type { Input } from '../core/validate.js';
import type * as schemas from './schemas.js';

// cms sandbox trigger: an event that did not happen, delivered through the webhooks as a real one
// would be (the same signing, headers, retries and request log), changing no content. It is
// marked: the event document says "synthetic": true and each delivery carries
// X-Webhook-Synthetic: true. Its payload is built from the item, edition or snapshot named, as
// the real event's would be, then `set` overrides fields of it.

/** POST /__sandbox/hubs/{hub}/webhook-events {event, itemId | editionId | snapshotId, webhookId?, set?} */
export function trigger(ctx: RequestContext): Reply {
  const input = ctx.body<Input<typeof schemas.trigger>>();
  const hub = loadHub(ctx);
  const name = canonicalEvent(input.event);
  if (!(WEBHOOK_EVENTS as readonly string[]).includes(name)) {
    throw badRequest(`Unknown event '${input.event}'; use one of ${WEBHOOK_EVENTS.join(', ')}`, { entity: 'WebhookEvent', property: 'event', invalidValue: input.event });
  }
  if (input.webhookId) {
    const hook = webhooks(ctx.db).get(input.webhookId);
    if (!hook || hook.hubId !== hub.id) throw notFound('Webhook', input.webhookId);
    if (!hook.active) throw conflict(`Webhook '${hook.id}' is inactive: it delivers nothing`, { entity: 'Webhook', property: 'active', invalidValue: false });
  }
  // A copy: the item's fields may be shared with cached rows, which `set` must not change.
  let payload = input.set ? structuredClone(eventPayload(ctx, hub.id, name as WebhookEvent, input)) : eventPayload(ctx, hub.id, name as WebhookEvent, input);
  for (const [path, value] of Object.entries(input.set ?? {})) payload = setField(payload, path, value);
  const deliveries = enqueueEvent(ctx.db, hub.id, name as WebhookEvent, payload, ctx.now(), undefined, { webhookId: input.webhookId, synthetic: true });
  return accepted({ event: name, hubId: hub.id, synthetic: true, deliveries, webhookId: input.webhookId ?? null });
}

/** The payload the real event carries, from the resource it is about. */
function eventPayload(ctx: RequestContext, hubId: string, name: WebhookEvent, input: Input<typeof schemas.trigger>): unknown {
  const need = (field: 'itemId' | 'editionId' | 'snapshotId', flag: string) => {
    const id = input[field];
    if (!id) throw badRequest(`${name} is about a ${flag.slice(2)}: name one (${field}, cms sandbox trigger ${flag} <id>)`, { entity: 'WebhookEvent', property: field, invalidValue: null });
    return id;
  };
  if (name.startsWith('content-item.')) {
    const item = loadItem(ctx, need('itemId', '--item'));
    if (item.hubId !== hubId) throw notFound('ContentItem', item.id);
    const payload = publicItem(item);
    return name === 'content-item.published' ? { ...payload, publishedVersion: item.version } : payload;
  }
  if (name.startsWith('edition.')) {
    const edition = loadEdition(ctx, need('editionId', '--edition'));
    if (edition.hubId !== hubId) throw notFound('Edition', edition.id);
    return editionPayload(edition);
  }
  const id = need('snapshotId', '--snapshot');
  const snapshot = snapshots(ctx.db).get(id);
  if (!snapshot || snapshot.hubId !== hubId) throw notFound('Snapshot', id);
  // The same shape as a real publication's event (publishing/publish.ts): the snapshot itself, and under `snapshot`.
  const published = { id: snapshot.id, comment: snapshot.comment, rootContentItem: snapshot.rootContentItem, type: snapshot.type };
  return { ...published, snapshot: published, publishingJobId: null, editionId: null };
}

const UNSAFE_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

/** `payload` with the field at `path` (payload.a.b, payload.list[0].x) set; only the payload may change. */
function setField(payload: unknown, path: string, value: unknown): unknown {
  const parts: (string | number)[] = [];
  for (const segment of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d{1,3}\])*)$/.exec(segment);
    if (!m || (!m[1] && !m[2])) throw badRequest(`'${path}' is not a field path such as payload.label or payload.body.items[0].name`, { entity: 'WebhookEvent', property: 'set', invalidValue: path });
    if (m[1]) parts.push(m[1]);
    for (const idx of m[2]!.matchAll(/\[(\d+)\]/g)) parts.push(Number(idx[1]));
  }
  if (parts[0] !== 'payload') throw badRequest(`'${path}': only fields of the payload can be set (payload.…); the event's id, name, hub and date are the sandbox's`, { entity: 'WebhookEvent', property: 'set', invalidValue: path });
  if (parts.length > 32 || parts.some((p) => typeof p === 'string' && UNSAFE_KEYS.has(p))) throw badRequest(`'${path}' cannot be set`, { entity: 'WebhookEvent', property: 'set', invalidValue: path });
  if (parts.length === 1) return value;
  const root: Record<string, unknown> = { payload: payload ?? {} };
  let node: any = root;
  for (let i = 0; i < parts.length - 1; i++) {
    const key = parts[i]!;
    if (node[key] === null || typeof node[key] !== 'object') node[key] = typeof parts[i + 1] === 'number' ? [] : {};
    node = node[key];
  }
  node[parts[parts.length - 1]!] = value;
  return root.payload;
}
