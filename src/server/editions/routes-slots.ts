import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { badRequest, conflict, notFound, serviceError, type ErrorDetail } from '../core/errors.js';
import { link, pageOf, pageRequest } from '../core/hal.js';
import { loadEdition, touchEdition } from './load.js';
import { checkEditable, conflictedSlotIds } from './rules.js';
import { addSlots, copiedEditionSlot, newEditionSlot, slotItem } from './slots.js';
import { slotLinks, slotState } from './slot-content.js';
import { renderEditionSlot } from './render-slot.js';
import { editionSlots, type Edition, type EditionSlot } from './store.js';
import { items } from '../items/index.js';
import { snapshots } from '../snapshots/index.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

/** Renders slots of one edition, computing its conflicts once. */
function slotRenderer(ctx: RequestContext, edition: Edition) {
  const conflicted = conflictedSlotIds(ctx.db, edition);
  return (slot: EditionSlot) => renderEditionSlot(ctx, slot, edition, conflicted.has(slot.id));
}

/** POST …/slots: associates slot items, or (?sourceEditionSlotId=) a copy of another edition's slot with its content. */
export function assign(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  checkEditable(edition);
  const now = ctx.nowIso();
  const sourceId = ctx.query.get('sourceEditionSlotId');
  const requested = ctx.body<Input<typeof bodies.assignSlots>>();
  const slots = sourceId
    ? [copiedEditionSlot(sourceSlot(ctx, edition, sourceId), edition, now)]
    : requested.map((r, i) => newEditionSlot(ctx.db, edition, slotItem(ctx.db, edition.hubId, r.slot, `[${i}].slot`), now));
  if (!slots.length) throw badRequest('Name at least one slot: [{"slot": "<slot item id>"}]', { code: 'VALIDATION_FAILED', entity: 'EditionSlot', invalidValue: [] });
  const updated = touchEdition(ctx, edition, { slotsRemaining: addSlots(ctx.db, edition, slots) });
  const render = slotRenderer(ctx, updated);
  const href = ctx.href(`/editions/${edition.id}/slots`);
  return created({ _embedded: { 'edition-slots': slots.map(render) }, _links: { self: link(href) } }, href);
}

/** The edition slot a copy starts from: one of another edition of the same hub. */
function sourceSlot(ctx: RequestContext, edition: Edition, id: string): EditionSlot {
  const source = editionSlots(ctx.db).get(id);
  if (!source || source.hubId !== edition.hubId) {
    throw badRequest(`No edition slot ${id} in this hub`, { code: 'EDITION_SLOT_NOT_FOUND', entity: 'EditionSlot', property: 'sourceEditionSlotId', invalidValue: id });
  }
  return source;
}

/** GET …/slots: the edition's slots, oldest first; includedSlots keeps those of the given slot items. */
export function list(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  const req = pageRequest(ctx, ['createdDate', 'slotLabel', 'lastModifiedDate'], [{ field: 'createdDate', dir: 'asc' }]);
  const included = ctx.query.getAll('includedSlots').flatMap((v) => v.split(',')).map((s) => s.trim()).filter(Boolean);
  const filter = included.length
    ? { where: 'edition_id = ? AND slot_id IN (SELECT value FROM json_each(?))', params: [edition.id, JSON.stringify(included)] }
    : { where: 'edition_id = ?', params: [edition.id] };
  return ok(pageOf(ctx, 'edition-slots', editionSlots(ctx.db).page(filter, req), req, slotRenderer(ctx, edition)));
}

export function get(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  return ok(slotRenderer(ctx, edition)(loadSlot(ctx, edition)));
}

/** Removes a slot from the edition; it gives its place back to slotsRemaining. */
export function remove(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  checkEditable(edition);
  const slot = loadSlot(ctx, edition);
  editionSlots(ctx.db).delete(slot.id);
  touchEdition(ctx, edition, { slotsRemaining: edition.slotsRemaining + 1 });
  return noContent();
}

/**
 * PUT …/slots/{id}/content{?lastModifiedDate}: the slot content. Every content link must name a
 * snapshot of the hub, or be null (the slot is then INVALID). A lastModifiedDate older than the
 * slot's means someone changed it since the caller read it.
 */
export function setContent(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  checkEditable(edition);
  const slot = loadSlot(ctx, edition);
  checkUnchangedSince(ctx, slot);
  const content = ctx.body<Input<typeof bodies.slotContent>>();
  const links = slotLinks(content);
  checkSnapshotLinks(ctx, edition.hubId, links);
  const saved = editionSlots(ctx.db).update({ ...slot, content, ...slotState(links), lastModifiedDate: ctx.nowIso() });
  const updated = touchEdition(ctx, edition);
  return ok(slotRenderer(ctx, updated)(saved), ctx.href(`/editions/${edition.id}/slots/${slot.id}`));
}

function checkUnchangedSince(ctx: RequestContext, slot: EditionSlot): void {
  const since = ctx.query.get('lastModifiedDate');
  if (since === null || since === '') return;
  const at = Date.parse(since);
  if (Number.isNaN(at)) throw badRequest("Query parameter 'lastModifiedDate' must be an ISO 8601 date-time", { property: 'lastModifiedDate', invalidValue: since });
  if (at < Date.parse(slot.lastModifiedDate)) {
    throw conflict(`Edition slot ${slot.id} changed at ${slot.lastModifiedDate}, after ${since}; fetch it again`, { code: 'EDITION_SLOT_MODIFIED', entity: 'EditionSlot', property: 'lastModifiedDate', invalidValue: since });
  }
}

/** 400 naming every link whose id is not a snapshot of the hub (a content item id is the usual mistake). */
function checkSnapshotLinks(ctx: RequestContext, hubId: string, links: ReturnType<typeof slotLinks>): void {
  const problems: ErrorDetail[] = [];
  for (const { path, id } of links) {
    if (id === null || snapshots(ctx.db).get(id)?.hubId === hubId) continue;
    const isItem = items(ctx.db).get(id)?.hubId === hubId;
    problems.push({
      code: 'SNAPSHOT_NOT_FOUND',
      entity: 'EditionSlot',
      property: `${path}.id`,
      invalidValue: id,
      message: isItem ? `${path}.id: ${id} is a content item id; slot content links name snapshots (create one from the item)` : `${path}.id: no snapshot ${id} in this hub`,
    });
  }
  if (problems.length) throw serviceError(400, problems);
}

function loadSlot(ctx: RequestContext, edition: Edition): EditionSlot {
  const id = ctx.params.editionSlotId!;
  const slot = editionSlots(ctx.db).get(id);
  if (!slot || slot.editionId !== edition.id) throw notFound('EditionSlot', id);
  return slot;
}
