import type { RequestContext } from '../core/context.js';
import { link, linkSet, templated } from '../core/hal.js';
import type { Webhook } from './store.js';

/** A webhook as returned: secret header values come back as null. */
export function renderWebhook(ctx: RequestContext, hook: Webhook) {
  const base = ctx.href(`/hubs/${hook.hubId}/webhooks/${hook.id}`);
  const { links, add } = linkSet(ctx, { hubId: hook.hubId }, { self: link(base), webhook: link(base) });
  add('hubs.get', 'hub', link(ctx.href(`/hubs/${hook.hubId}`)));
  add('webhooks.requests', 'requests', templated(`${base}/requests{?cursor,limit}`));
  add('webhooks.update', 'update', link(base));
  add('webhooks.remove', 'delete', link(base));
  const { hubId: _hub, createdBy: _by, lastModifiedBy: _lastBy, ...fields } = hook;
  return { ...fields, headers: hook.headers.map((h) => ({ key: h.key, value: h.secret ? null : h.value, secret: h.secret })), _links: links };
}
