import { noContent, ok, type RequestContext } from '../context.js';
import { loadHub } from '../load.js';
import { link } from '../hal.js';
import { HUB_MODULES as MODULES, hubs } from '../store/hubs.js';

// Administration. Hub modules: the search index module and the Content Delivery 2 module.

export function modules(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const base = ctx.href(`/admin/hubs/${hub.id}/modules`);
  return ok({
    hubId: hub.id,
    modules: Object.values(MODULES).map((name) => ({ name, enabled: hub.modules.includes(name) })),
    _links: {
      self: link(base),
      'enable-search-index': link(`${base}/search-index`),
      'enable-content-delivery-2': link(`${base}/content-delivery-2`),
    },
  });
}

function enable(ctx: RequestContext, name: string) {
  const hub = loadHub(ctx);
  if (!hub.modules.includes(name)) hubs(ctx.db).update({ ...hub, modules: [...hub.modules, name], ...ctx.modifiedStamp() });
  return noContent(ctx.href(`/admin/hubs/${hub.id}/modules`));
}

export const enableSearchIndex = (ctx: RequestContext) => enable(ctx, MODULES['search-index']);
export const enableContentDelivery2 = (ctx: RequestContext) => enable(ctx, MODULES['content-delivery-2']);
