import type { RequestContext } from '../core/context.js';
import { link, linkSet, templated } from '../core/hal.js';
import { KINDS } from './kinds.js';
import { mask } from './secrets.js';
import type { Integration } from './store.js';

export const integrationPath = (i: Pick<Integration, 'type' | 'id'>) => `/integrations/${i.type}/${i.id}`;

function integrationLinks(ctx: RequestContext, integration: Integration) {
  const { id, type, hubId } = integration;
  const self = ctx.href(integrationPath(integration));
  const { links, add } = linkSet(ctx, { hubId }, { self: link(self), integration: link(self) });
  add('hubs.get', 'hub', link(ctx.href(`/hubs/${hubId}`)));
  add(`integrations.${type}Update`, 'update', link(self));
  add(`integrations.${type}Remove`, 'delete', link(self));
  add('webhooks.get', 'webhook', link(ctx.href(`/hubs/${hubId}/webhooks/${integration.webhookId}`)));
  // What the stand-in platform holds, on the sandbox prefix.
  const platform = `${ctx.origin}/__sandbox/${type}/${id}`;
  if (type === 'commerce') {
    add('commerce.campaignList', 'campaigns', link(`${platform}/campaigns`));
    add('commerce.live', 'live', templated(`${platform}/live{?slot,at}`));
    add('commerce.assets', 'assets', link(`${platform}/assets`));
  } else {
    add('integrations.marketingDeliveries', 'deliveries', link(`${platform}/deliveries`));
  }
  return links;
}

/** An integration as returned: its settings at top level, credentials with every value masked. */
export function renderIntegration(ctx: RequestContext, integration: Integration) {
  const { settings, ...fields } = integration;
  const secret = new Set(KINDS[integration.type].secretFields);
  const shown = Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, secret.has(k) ? mask(v) : v]));
  return { ...fields, ...shown, _links: integrationLinks(ctx, integration) };
}
