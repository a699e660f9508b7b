import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { conflict, notFound } from '../core/errors.js';
import { pageOf, pageRequest } from '../core/hal.js';
import { newId } from '../core/ids.js';
import { loadHub } from '../hubs/index.js';
import { extensions, type Extension } from './store.js';
import { extensionHref, renderExtension, renderExtensionLite } from './render.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

// Extensions of a hub (dashboard and content field applications), unique by name in the hub.

/** Full extensions, or the lite projection with ?projection=lite or ?show-full=false. */
export function list(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const lite = ctx.query.get('projection') === 'lite' || ctx.query.get('show-full') === 'false';
  const req = pageRequest(ctx, ['createdDate', 'name', 'label'], [{ field: 'createdDate', dir: 'asc' }]);
  const page = extensions(ctx.db).page({ where: 'hub_id = ?', params: [hub.id] }, req);
  return ok(pageOf(ctx, 'extensions', page, req, (e) => (lite ? renderExtensionLite(ctx, e) : renderExtension(ctx, e))));
}

export function create(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const input = ctx.body<Input<typeof bodies.create>>();
  checkNameFree(ctx, hub.id, input.name);
  const ext: Extension = { id: newId(ctx.now()), hubId: hub.id, ...input, ...ctx.createdStamp() };
  extensions(ctx.db).insert(ext);
  return created(renderExtension(ctx, ext), extensionHref(ctx, ext.id));
}

export function get(ctx: RequestContext) {
  return ok(renderExtension(ctx, load(ctx)));
}

export function getByName(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const ext = extensions(ctx.db).find({ where: 'hub_id = ? AND name = ?', params: [hub.id, ctx.params.name!] });
  if (!ext) throw notFound('Extension', ctx.params.name);
  return ok(renderExtension(ctx, ext));
}

export function update(ctx: RequestContext) {
  const ext = load(ctx);
  const input = ctx.body<Input<typeof bodies.update>>();
  if (input.name !== undefined && input.name !== ext.name) checkNameFree(ctx, ext.hubId, input.name);
  const given = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const next: Extension = { ...ext, ...given, ...ctx.modifiedStamp() };
  extensions(ctx.db).update(next);
  return ok(renderExtension(ctx, next), extensionHref(ctx, ext.id));
}

export function remove(ctx: RequestContext) {
  extensions(ctx.db).delete(load(ctx).id);
  return noContent();
}

function load(ctx: RequestContext): Extension {
  const id = ctx.params.extensionId!;
  const ext = extensions(ctx.db).get(id);
  if (!ext) throw notFound('Extension', id);
  ctx.authorize({ hubId: ext.hubId }, 'Extension', id);
  return ext;
}

function checkNameFree(ctx: RequestContext, hubId: string, name: string): void {
  if (extensions(ctx.db).find({ where: 'hub_id = ? AND name = ?', params: [hubId, name] })) {
    throw conflict(`An extension named '${name}' already exists in this hub`, { code: 'EXTENSION_NAME_TAKEN', entity: 'Extension', property: 'name', invalidValue: name });
  }
}
