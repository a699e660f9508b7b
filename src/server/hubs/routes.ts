import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { conflict } from '../core/errors.js';
import { loadHub } from './load.js';
import { pageOf, pageRequest } from '../core/hal.js';
import { newId } from '../core/ids.js';
import { defaultSettings, hubs, type Hub, type HubSettings } from './store.js';
import { renderHub } from './render.js';
import { ACL_PERMISSIONS } from '../core/auth/permissions.js';
import { shareResource } from '../core/auth/share.js';
import type { Input } from '../core/validate.js';
import type * as schemas from './schemas.js';
import { stmt } from '../core/statements.js';

const SORTABLE = ['name', 'label', 'createdDate', 'lastModifiedDate'] as const;

export function list(ctx: RequestContext) {
  const req = pageRequest(ctx, SORTABLE, [{ field: 'createdDate', dir: 'asc' }]);
  const visible = ctx.principal.visibleHubIds();
  const filter = visible === null ? { where: '1 = 1', params: [] } : { where: 'id IN (SELECT value FROM json_each(?))', params: [JSON.stringify(visible)] };
  return ok(pageOf(ctx, 'hubs', hubs(ctx.db).page(filter, req), req, (h) => renderHub(ctx, h)));
}

export function create(ctx: RequestContext) {
  const input = ctx.body<Input<typeof schemas.create>>();
  const store = hubs(ctx.db);
  assertNameFree(ctx, input.name);
  const hub: Hub = {
    id: newId(ctx.now()),
    name: input.name,
    label: input.label,
    description: input.description ?? '',
    status: 'ACTIVE',
    plan: null,
    settings: { ...defaultSettings(), ...(input.settings as Partial<HubSettings> | undefined) },
    modules: [],
    ...ctx.createdStamp(),
  };
  store.insert(hub);
  // The creator can do everything on what it created.
  ctx.principal.grant('hubs', hub.id, ACL_PERMISSIONS.hubs);
  return created(renderHub(ctx, hub), ctx.href(`/hubs/${hub.id}`));
}

export function get(ctx: RequestContext) {
  const hub = loadHub(ctx);
  return { ...ok(renderHub(ctx, hub)), headers: { 'Last-Modified': new Date(hub.lastModifiedDate).toUTCString() } };
}

export function update(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const input = ctx.body<Input<typeof schemas.update>>();
  if (input.name !== undefined && input.name !== hub.name) assertNameFree(ctx, input.name);
  const next: Hub = {
    ...hub,
    name: input.name ?? hub.name,
    label: input.label ?? hub.label,
    description: input.description === undefined ? hub.description : (input.description ?? ''),
    ...ctx.modifiedStamp(),
  };
  hubs(ctx.db).update(next);
  return ok(renderHub(ctx, next), ctx.href(`/hubs/${hub.id}`));
}

export function updateSettings(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const input = ctx.body<Input<typeof schemas.settings>>() as Partial<HubSettings>;
  const supplied = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  hubs(ctx.db).update({ ...hub, settings: { ...hub.settings, ...supplied }, ...ctx.modifiedStamp() });
  return noContent(ctx.href(`/hubs/${hub.id}`));
}

export function updatePlan(ctx: RequestContext) {
  const hub = loadHub(ctx);
  const { plan } = ctx.body<Input<typeof schemas.plan>>();
  const next = { ...hub, plan, ...ctx.modifiedStamp() };
  hubs(ctx.db).update(next);
  return ok(renderHub(ctx, next), ctx.href(`/hubs/${hub.id}`));
}

export function remove(ctx: RequestContext) {
  const hub = loadHub(ctx);
  // Repositories, items and every other hub resource go with it (foreign keys cascade).
  stmt(ctx.db, "DELETE FROM acl WHERE resource_type = 'content-repositories' AND resource_id IN (SELECT id FROM repositories WHERE hub_id = ?)").run(hub.id);
  stmt(ctx.db, "DELETE FROM acl WHERE resource_type = 'hubs' AND resource_id = ?").run(hub.id);
  // The full-text index is a virtual table: foreign keys do not cascade into it.
  stmt(ctx.db, 'DELETE FROM content_search WHERE rowid IN (SELECT seq FROM content_items WHERE hub_id = ?)').run(hub.id);
  hubs(ctx.db).delete(hub.id);
  return noContent();
}

export function share(ctx: RequestContext) {
  const hub = loadHub(ctx);
  shareResource(ctx, 'hubs', hub.id);
  return noContent();
}

function assertNameFree(ctx: RequestContext, name: string): void {
  if (hubs(ctx.db).find({ where: 'name = ?', params: [name] })) {
    throw conflict(`A hub named '${name}' already exists`, { code: 'DUPLICATE_NAME', entity: 'Hub', property: 'name', invalidValue: name });
  }
}
