import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { badRequest, notFound } from '../core/errors.js';
import { intParam, link, pageOf, pageRequest, sortParam } from '../core/hal.js';
import { newId } from '../core/ids.js';
import { loadHub } from '../hubs/index.js';
import { COMMERCE, MARKETING, type IntegrationKind } from './kinds.js';
import { unmask } from './secrets.js';
import { INTEGRATION_SORT, integrations, type Integration } from './store.js';
import { createOwnedWebhook, deleteOwnedWebhook, syncOwnedWebhook } from './webhook.js';
import { marketingDeliveriesOf } from './marketing-receiver.js';
import { integrationPath, renderIntegration } from './render.js';
import type { SortSpec } from '../core/collection.js';

// Commerce and marketing platform integrations. Both kinds work alike; IntegrationKind holds what
// differs. Each integration owns one webhook, kept in step with it (integrations/webhook.ts).

const DEFAULT_SORT: SortSpec[] = [{ field: 'createdDate', dir: 'asc' }];

/** The fields of a create or update body (after its schema). */
type IntegrationInput = { hubId?: string; label?: string } & Record<string, unknown>;

/** GET /hubs/{hubId}/integrations: every integration of the hub, paged, each with its type. */
export function listForHub(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const req = pageRequest(ctx, INTEGRATION_SORT, DEFAULT_SORT);
  return ok(pageOf(ctx, 'integrations', integrations(ctx.db).page({ where: 'hub_id = ?', params: [hub.id] }, req), req, (i) => renderIntegration(ctx, i)));
}

/** A cursor names the next page of one listing: its page number, size and sort. Opaque to clients. */
interface Cursor {
  page: number;
  size: number;
  sort: SortSpec[];
}

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');

function decodeCursor(raw: string): Cursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as Cursor;
    if (Number.isInteger(c.page) && c.page > 0 && Number.isInteger(c.size) && c.size > 0 && Array.isArray(c.sort)) return c;
  } catch {
    // reported below
  }
  throw badRequest(`'${raw}' is not a cursor from a previous page`, { property: 'cursor', invalidValue: raw });
}

/** The page a list request asks for: the cursor's, or the first one of size and sort. */
function cursorRequest(ctx: RequestContext): Cursor {
  const raw = ctx.query.get('cursor');
  if (raw) return decodeCursor(raw);
  return { page: 0, size: intParam(ctx.query.get('size'), 'size', 20, 1, 100), sort: sortParam(ctx.query.getAll('sort'), INTEGRATION_SORT, DEFAULT_SORT) };
}

/** GET /integrations/{type}?hubId=: the hub's integrations of the type, cursor-paged: {_embedded, cursor}. */
function list(kind: IntegrationKind) {
  return (ctx: RequestContext) => {
    const hubId = ctx.query.get('hubId');
    if (!hubId) throw badRequest("Query parameter 'hubId' is required", { entity: kind.entity, property: 'hubId', invalidValue: hubId });
    const hub = loadHub(ctx, hubId);
    const req = cursorRequest(ctx);
    const result = integrations(ctx.db).page({ where: 'hub_id = ? AND type = ?', params: [hub.id, kind.type] }, req);
    const cursor = (req.page + 1) * req.size < result.total ? encodeCursor({ ...req, page: req.page + 1 }) : null;
    const href = ctx.href(`/integrations/${kind.type}?hubId=${encodeURIComponent(hub.id)}`);
    return ok({
      _embedded: { integrations: result.items.map((i) => renderIntegration(ctx, i)) },
      cursor,
      _links: { self: link(ctx.url.href), ...(cursor ? { next: link(`${href}&cursor=${cursor}`) } : {}) },
    });
  };
}

/** The settings after a create or update: given fields replace stored ones; masked credentials keep theirs. */
function settingsFrom(kind: IntegrationKind, input: IntegrationInput, stored: Record<string, unknown>): Record<string, unknown> {
  const settings = { ...stored };
  for (const field of kind.settingsFields) {
    if (input[field] === undefined) continue;
    settings[field] = kind.secretFields.includes(field) ? unmask(input[field], stored[field], field, kind.entity) : input[field];
  }
  return settings;
}

/** POST /integrations/{type}: the integration in the body's hub, with its webhook. */
function create(kind: IntegrationKind) {
  return (ctx: RequestContext) => {
    const input = ctx.body<IntegrationInput & { hubId: string; label: string }>();
    const hub = loadHub(ctx, input.hubId);
    const stamp = ctx.createdStamp();
    const draft = { id: newId(ctx.now()), hubId: hub.id, type: kind.type, label: input.label, settings: settingsFrom(kind, input, {}), ...stamp };
    const hook = createOwnedWebhook(ctx.db, draft, stamp, ctx.now());
    const integration = integrations(ctx.db).insert({ ...draft, webhookId: hook.id });
    return created(renderIntegration(ctx, integration), ctx.href(integrationPath(integration)));
  };
}

function load(ctx: RequestContext, kind: IntegrationKind): Integration {
  const id = ctx.params.integrationId!;
  const integration = integrations(ctx.db).get(id);
  if (!integration || integration.type !== kind.type) throw notFound(kind.entity, id);
  ctx.authorize({ hubId: integration.hubId }, kind.entity, id);
  return integration;
}

function get(kind: IntegrationKind) {
  return (ctx: RequestContext) => ok(renderIntegration(ctx, load(ctx, kind)));
}

/** PATCH: the fields given replace the stored ones (objects whole); the webhook follows the label and active flag. */
function update(kind: IntegrationKind) {
  return (ctx: RequestContext) => {
    const current = load(ctx, kind);
    const input = ctx.body<IntegrationInput>();
    if (input.hubId !== undefined && input.hubId !== current.hubId) {
      throw badRequest(`An integration stays in its hub ${current.hubId}`, { entity: kind.entity, property: 'hubId', invalidValue: input.hubId });
    }
    const changed: Integration = { ...current, label: input.label ?? current.label, settings: settingsFrom(kind, input, current.settings), ...ctx.modifiedStamp() };
    const next = integrations(ctx.db).update({ ...changed, webhookId: syncOwnedWebhook(ctx.db, changed, ctx.createdStamp(), ctx.now()) });
    return ok(renderIntegration(ctx, next), ctx.href(integrationPath(next)));
  };
}

/** DELETE: the integration, its webhook and what its platform held. */
function remove(kind: IntegrationKind) {
  return (ctx: RequestContext) => {
    const integration = load(ctx, kind);
    deleteOwnedWebhook(ctx.db, integration);
    integrations(ctx.db).delete(integration.id);
    return noContent();
  };
}

export const commerceList = list(COMMERCE);
export const commerceCreate = create(COMMERCE);
export const commerceGet = get(COMMERCE);
export const commerceUpdate = update(COMMERCE);
export const commerceRemove = remove(COMMERCE);

export const marketingList = list(MARKETING);
export const marketingCreate = create(MARKETING);
export const marketingGet = get(MARKETING);
export const marketingUpdate = update(MARKETING);
export const marketingRemove = remove(MARKETING);

/** GET /__sandbox/marketing/{id}/deliveries: what the stand-in marketing platform received, newest first. */
export function marketingDeliveries(ctx: RequestContext) {
  const integration = load(ctx, MARKETING);
  return ok({ _embedded: { deliveries: marketingDeliveriesOf(ctx.db, integration.id) }, _links: { self: link(ctx.url.href) } });
}
