import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { badRequest, notFound } from '../core/errors.js';
import { intParam, link, pageOf, pageRequest } from '../core/hal.js';
import { newId } from '../core/ids.js';
import { loadHub } from '../hubs/index.js';
import { cancelDeliveries, listRequests, webhooks, type Webhook, type WebhookHeader, type WebhookRequest } from './store.js';
import { renderWebhook } from './render.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';
import { internalHandlerProblem, ownedHandler } from './internal.js';
import { templateProblem } from './template.js';
import { literalProblem, parseAllowRule } from './destinations.js';

export function list(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const req = pageRequest(ctx, ['createdDate', 'label'], [{ field: 'createdDate', dir: 'asc' }]);
  return ok(pageOf(ctx, 'webhooks', webhooks(ctx.db).page({ where: 'hub_id = ?', params: [hubId] }, req), req, (w) => renderWebhook(ctx, w)));
}

export function create(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const input = ctx.body<Input<typeof bodies.create>>();
  checkHandlers(ctx, input.handlers, hubId);
  checkTemplates(input);
  checkHubLimits(ctx, hubId, input.handlers, null);
  const hook: Webhook = {
    id: newId(ctx.now()),
    hubId,
    label: input.label,
    events: input.events,
    handlers: input.handlers,
    active: input.active,
    secret: input.secret ?? null,
    method: input.method,
    headers: mergeHeaders(input.headers, []),
    filters: input.filters,
    customPayload: input.customPayload ?? null,
    notifications: input.notifications,
    ...ctx.createdStamp(),
  };
  webhooks(ctx.db).insert(hook);
  return created(renderWebhook(ctx, hook), ctx.href(`/hubs/${hubId}/webhooks/${hook.id}`));
}

export function get(ctx: RequestContext) {
  return ok(renderWebhook(ctx, load(ctx)));
}

export function update(ctx: RequestContext) {
  const hook = load(ctx);
  const input = ctx.body<Input<typeof bodies.update>>();
  // An index's own webhook feeds that index whatever index its handler names (issue 31.4).
  const handlers = input.handlers && [...new Set(input.handlers.map((h) => ownedHandler(h, hook.owner)))];
  if (handlers) checkHandlers(ctx, handlers, hook.hubId);
  checkTemplates(input);
  if (handlers && !hook.owner) checkHubLimits(ctx, hook.hubId, handlers, hook.id);
  const next: Webhook = {
    ...hook,
    ...Object.fromEntries(Object.entries(input).filter(([k, v]) => v !== undefined && k !== 'headers')),
    ...(handlers ? { handlers } : {}),
    headers: input.headers ? mergeHeaders(input.headers, hook.headers) : hook.headers,
    ...ctx.modifiedStamp(),
  };
  webhooks(ctx.db).update(next);
  if (!next.active) cancelDeliveries(ctx.db, hook.id);
  return ok(renderWebhook(ctx, next), ctx.href(`/hubs/${hook.hubId}/webhooks/${hook.id}`));
}

export function remove(ctx: RequestContext) {
  const hook = load(ctx);
  webhooks(ctx.db).delete(hook.id);
  cancelDeliveries(ctx.db, hook.id);
  return noContent();
}

/** Delivery attempts, newest first, cursor-paged: `{_embedded: {requests}, cursor}`. */
export function requests(ctx: RequestContext) {
  const hook = load(ctx);
  const limit = intParam(ctx.query.get('limit'), 'limit', 20, 1, 100);
  const rawCursor = ctx.query.get('cursor');
  if (rawCursor !== null && rawCursor !== '' && !/^\d+$/.test(rawCursor)) throw badRequest(`'${rawCursor}' is not a cursor from a previous page`, { property: 'cursor', invalidValue: rawCursor });
  const { requests: rows, next } = listRequests(ctx.db, hook.id, limit, rawCursor ? Number(rawCursor) : null);
  // Payloads are content: a caller who may manage webhooks but not read content sees the attempts without them.
  // What a receiver on this machine or its network answered (anything but a public address) is
  // shown to the user's own clients only (admin, or every permission): a webhook must not be a way to read the user's own services.
  const readsContent = ctx.can('items.list', { hubId: hook.hubId });
  const shown = rows.map((r) => {
    let shownRow: Omit<WebhookRequest, 'requestBody'> & { requestBody: string | null; payloadWithheld?: true; responseWithheld?: true } = readsContent ? r : { ...r, requestBody: null, responseBody: null, payloadWithheld: true };
    if (!ctx.principal.fullyTrusted && r.destination && r.destination.kind !== 'public' && shownRow.responseBody !== null) shownRow = { ...shownRow, responseBody: null, responseWithheld: true };
    return shownRow;
  });
  const base = ctx.href(`/hubs/${hook.hubId}/webhooks/${hook.id}/requests`);
  return ok({
    _embedded: { requests: shown },
    cursor: next === null ? null : String(next),
    _links: { self: link(ctx.url.href), ...(next === null ? {} : { next: link(`${base}?cursor=${next}&limit=${limit}`) }) },
  });
}

/**
 * Header edits: clients send back the headers they fetched, where secret values read null;
 * null keeps the stored value of that header, anything else replaces it.
 */
function mergeHeaders(given: Input<typeof bodies.update>['headers'] & object, stored: WebhookHeader[]): WebhookHeader[] {
  return given.map((h) => {
    const secret = h.secret === true;
    const value = h.value ?? stored.find((s) => s.key.toLowerCase() === h.key.toLowerCase())?.value ?? null;
    if (value === null) throw badRequest(`Header ${h.key} needs a value`, { entity: 'Webhook', property: 'headers', invalidValue: h.key });
    return { key: h.key, value, secret };
  });
}

/**
 * A receiver inside the sandbox may be named only for a resource of the webhook's own hub (issue
 * 24.6); an address the caller may not deliver to (destinations.ts) is refused when written
 * literally: names are checked at each delivery, on what they resolve to then.
 */
function checkHandlers(ctx: RequestContext, handlers: string[], hubId: string): void {
  const policy = { allow: (ctx.service.options.allowWebhookTo ?? []).map(parseAllowRule), trustedWriter: ctx.principal.fullyTrusted };
  for (const handler of handlers) {
    if (!handler.startsWith('sandbox:')) {
      let url: URL | null = null;
      try {
        // Template tags stand for text of their own: what is checked here is the URL around them.
        url = new URL(handler.replace(/\{\{\{?[^{}]*\}\}\}?/g, 'x'));
      } catch {
        url = null;
      }
      const problem = url && literalProblem(policy, url);
      if (problem) throw badRequest(`Handler ${handler}: ${problem}`, { entity: 'Webhook', property: 'handlers', invalidValue: handler });
      continue;
    }
    const problem = internalHandlerProblem(ctx.db, handler, hubId);
    if (problem) {
      throw badRequest(`Handler ${handler} ${problem.replace(`hub ${hubId}`, 'this hub')}: a sandbox receiver accepts only resources of the webhook's own hub`, {
        entity: 'Webhook',
        property: 'handlers',
        invalidValue: handler,
      });
    }
  }
}

/**
 * Webhooks a client makes, per hub, and the network handlers over all of them: bounded, so one
 * hub cannot queue an unbounded number of deliveries per event (issue 32.3). Webhooks a search
 * index or an integration owns deliver inside the sandbox and do not count.
 */
const HUB_LIMITS = { webhooks: 100, networkHandlers: 100 } as const;

function checkHubLimits(ctx: RequestContext, hubId: string, handlers: string[], replacing: string | null): void {
  const network = (hs: string[]) => hs.filter((h) => !h.startsWith('sandbox:')).length;
  const others = webhooks(ctx.db)
    .all({ where: 'hub_id = ?', params: [hubId] })
    .filter((w) => !w.owner && w.id !== replacing);
  if (replacing === null && others.length >= HUB_LIMITS.webhooks) {
    throw badRequest(`A hub holds at most ${HUB_LIMITS.webhooks} webhooks (besides those its search indexes and integrations own); delete one first`, { entity: 'Webhook', property: 'hubId', invalidValue: hubId });
  }
  const total = others.reduce((n, w) => n + network(w.handlers), 0) + network(handlers);
  if (total > HUB_LIMITS.networkHandlers) {
    throw badRequest(`A hub's webhooks have at most ${HUB_LIMITS.networkHandlers} http(s) handlers in all; this would make ${total}`, { entity: 'Webhook', property: 'handlers', invalidValue: handlers.length });
  }
}

/** Payloads and http(s) handler URLs are Handlebars templates: one that does not compile is refused, naming the line. */
function checkTemplates(input: { customPayload?: { value: string } | null; handlers?: string[] }): void {
  const payload = input.customPayload?.value;
  const problem = payload ? templateProblem(payload) : null;
  if (problem) throw badRequest(`customPayload: the template does not compile: ${problem}`, { entity: 'Webhook', property: 'customPayload', invalidValue: problem });
  for (const handler of input.handlers ?? []) {
    if (handler.startsWith('sandbox:') || !handler.includes('{{')) continue;
    const bad = templateProblem(handler);
    if (bad) throw badRequest(`Handler ${handler}: the URL template does not compile: ${bad}`, { entity: 'Webhook', property: 'handlers', invalidValue: handler });
  }
}

function load(ctx: RequestContext): Webhook {
  const hub = loadHub(ctx);
  const hook = webhooks(ctx.db).get(ctx.params.webhookId!);
  if (!hook || hook.hubId !== hub.id) throw notFound('Webhook', ctx.params.webhookId);
  return hook;
}
