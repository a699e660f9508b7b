import { ok, type RequestContext } from '../core/context.js';
import { badRequest, notFound } from '../core/errors.js';
import { link } from '../core/hal.js';
import { integrations, type Integration } from './store.js';
import { liveOnSlot } from './commerce-campaigns.js';
import { campaigns, contentAssets } from './commerce-store.js';

// What the stand-in commerce platform holds, on the sandbox prefix, for whoever may read the
// integration: campaigns, the content live on a slot at a time, and content assets.

function loadCommerce(ctx: RequestContext): Integration {
  const id = ctx.params.integrationId!;
  const integration = integrations(ctx.db).get(id);
  if (integration?.type !== 'commerce') throw notFound('CommerceIntegration', id);
  ctx.authorize({ hubId: integration.hubId }, 'CommerceIntegration', id);
  return integration;
}

/** GET /__sandbox/commerce/{id}/campaigns: every campaign, the latest start first. */
export function campaignList(ctx: RequestContext) {
  const integration = loadCommerce(ctx);
  const rows = campaigns(ctx.db).all({ where: 'integration_id = ?', params: [integration.id] }, [{ field: 'start', dir: 'desc' }]);
  return ok({ _embedded: { campaigns: rows }, _links: { self: link(ctx.url.href) } });
}

/** GET /__sandbox/commerce/{id}/live?slot=&at=: the content the platform shows on a slot at a time (default now). */
export function live(ctx: RequestContext) {
  const integration = loadCommerce(ctx);
  const slot = ctx.query.get('slot');
  if (!slot) throw badRequest("Query parameter 'slot' is required: a slot content item id", { property: 'slot', invalidValue: slot });
  const rawAt = ctx.query.get('at');
  const at = rawAt ? Date.parse(rawAt) : ctx.now();
  if (Number.isNaN(at)) throw badRequest(`Query parameter 'at' must be an ISO 8601 date-time, got '${rawAt}'`, { property: 'at', invalidValue: rawAt });
  return ok({ ...liveOnSlot(ctx.db, integration.id, slot, at), _links: { self: link(ctx.url.href) } });
}

/** GET /__sandbox/commerce/{id}/assets: the content assets, the latest update first. */
export function assets(ctx: RequestContext) {
  const integration = loadCommerce(ctx);
  const rows = contentAssets(ctx.db).all({ where: 'integration_id = ?', params: [integration.id] }, [{ field: 'updatedDate', dir: 'desc' }]);
  return ok({ _embedded: { assets: rows }, _links: { self: link(ctx.url.href) } });
}
