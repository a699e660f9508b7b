import type { RequestContext } from '../core/context.js';
import { link, linkSet } from '../core/hal.js';
import type { Extension } from './store.js';

export const extensionHref = (ctx: RequestContext, id: string) => ctx.href(`/extensions/${id}`);

function extensionLinks(ctx: RequestContext, ext: Extension) {
  const self = extensionHref(ctx, ext.id);
  const { links, add } = linkSet(ctx, { hubId: ext.hubId }, { self: link(self), extension: link(self) });
  add('hubs.get', 'hub', link(ctx.href(`/hubs/${ext.hubId}`)));
  add('extensions.update', 'update', link(self));
  add('extensions.remove', 'delete', link(self));
  return links;
}

export function renderExtension(ctx: RequestContext, ext: Extension) {
  return { ...ext, _links: extensionLinks(ctx, ext) };
}

/** The lite projection: enough to list and open extensions. */
export function renderExtensionLite(ctx: RequestContext, ext: Extension) {
  const { id, name, label, category, url } = ext;
  return { id, name, label, category, url, _links: extensionLinks(ctx, ext) };
}
