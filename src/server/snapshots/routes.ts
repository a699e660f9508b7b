import { created, ok, type RequestContext } from '../core/context.js';
import { badRequest, notFound } from '../core/errors.js';
import { link, pageOf, pageRequest } from '../core/hal.js';
import { loadHub } from '../hubs/index.js';
import { items, itemVersion } from '../items/index.js';
import { createSnapshot, snapshots, snapshotItems, type Snapshot } from './store.js';
import { renderSnapshot } from './render.js';
import { renderItem } from '../items/index.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

const TYPES = ['USER', 'SYSTEM', 'GENERATED'];

export function list(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const req = pageRequest(ctx, ['createdDate', 'type'], [{ field: 'createdDate', dir: 'desc' }]);
  const types = ctx.query.getAll('types').concat(ctx.query.getAll('type')).flatMap((t) => t.split(',')).map((t) => t.trim().toUpperCase()).filter(Boolean);
  for (const t of types) if (!TYPES.includes(t)) throw badRequest(`Unknown snapshot type '${t}'; use user, system or generated`, { property: 'types', invalidValue: t });
  const filter = types.length ? { where: 'hub_id = ? AND type IN (SELECT value FROM json_each(?))', params: [hubId, JSON.stringify(types)] } : { where: 'hub_id = ?', params: [hubId] };
  return ok(pageOf(ctx, 'snapshots', snapshots(ctx.db).page(filter, req), req, (s) => renderSnapshot(ctx, s)));
}

export function create(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const snapshot = make(ctx, hubId, ctx.body<Input<typeof bodies.create>>());
  return created(renderSnapshot(ctx, snapshot), ctx.href(`/snapshots/${snapshot.id}`));
}

/** POST …/snapshots/batch: a JSON array in, `{hubId, snapshots}` out. */
export function batchCreate(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const made = ctx.body<Input<typeof bodies.batch>>().map((entry) => make(ctx, hubId, entry));
  return { status: 201, body: { hubId, snapshots: made.map((s) => renderSnapshot(ctx, s)), _links: { self: link(ctx.href(`/hubs/${hubId}/snapshots/batch`)) } } };
}

export function get(ctx: RequestContext) {
  return ok(renderSnapshot(ctx, load(ctx)));
}

/** An item as the snapshot froze it. */
export function contentItem(ctx: RequestContext) {
  const snapshot = load(ctx);
  const itemId = ctx.params.itemId!;
  const entry = snapshotItems(ctx.db, snapshot.id).find((e) => e.itemId === itemId);
  const frozen = entry && itemVersion(ctx.db, itemId, entry.version);
  if (!frozen) throw notFound('ContentItem', itemId);
  return ok(renderItem(ctx, frozen));
}

function make(ctx: RequestContext, hubId: string, input: { comment: string; createdFrom: Snapshot['createdFrom']; type: Snapshot['type']; contentRoot: string }): Snapshot {
  const root = items(ctx.db).get(input.contentRoot);
  if (!root || root.hubId !== hubId) {
    throw badRequest(`No content item ${input.contentRoot} in this hub`, { code: 'CONTENT_ROOT_NOT_FOUND', entity: 'Snapshot', property: 'contentRoot', invalidValue: input.contentRoot });
  }
  return createSnapshot(ctx.db, { hubId, rootId: root.id, comment: input.comment, createdFrom: input.createdFrom, type: input.type, createdBy: ctx.principal.clientId, now: ctx.now() });
}

function load(ctx: RequestContext): Snapshot {
  const id = ctx.params.snapshotId!;
  const snapshot = snapshots(ctx.db).get(id);
  if (!snapshot) throw notFound('Snapshot', id);
  ctx.authorize({ hubId: snapshot.hubId }, 'Snapshot', id);
  return snapshot;
}
