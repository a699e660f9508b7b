// Handlers of this family: see core/route-table.ts for the operations it serves. Editions: create (or
// copy), list, search by date, get, update, delete, archive and preview. What an edition contains
// and its scheduling live in edition-slots.ts, edition-contents.ts and edition-scheduling.ts.
import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { badRequest, conflict, notFound } from '../core/errors.js';
import { pageOf, pageRequest } from '../core/hal.js';
import { newId } from '../core/ids.js';
import { loadEvent } from '../events/index.js';
import { loadHub } from '../hubs/index.js';
import { loadEdition } from './load.js';
import { UNSCHEDULABLE_STATES, unscheduleEdition } from './lifecycle.js';
import { checkEditable, snapshotUses } from './rules.js';
import { events, type CmsEvent } from '../events/index.js';
import { editionContents, editionSlots, editions, MAX_SLOTS_PER_EDITION, type Edition } from './store.js';
import { addSlots, copiedEditionSlot } from './slots.js';
import { isScheduled, renderEdition, renderPreview } from './render.js';
import { checkWindow, definedFields, refuseArchived } from '../events/index.js';
import type { Db } from '../core/db.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

const SORTABLE = ['start', 'end', 'createdDate', 'name', 'publishingStatus'] as const;
const START_ASC = [{ field: 'start', dir: 'asc' as const }];
const CREATED_ASC = [{ field: 'createdDate', dir: 'asc' as const }];

type EditionFields = Pick<Edition, 'name' | 'comment' | 'start' | 'end' | 'activeEndDate'>;

/** The editions of an event. */
export function list(ctx: RequestContext) {
  const event = loadEvent(ctx);
  const req = pageRequest(ctx, SORTABLE, START_ASC);
  const page = editions(ctx.db).page({ where: 'event_id = ?', params: [event.id] }, req);
  return ok(pageOf(ctx, 'editions', page, req, (e) => renderEdition(ctx, e, event, ctx.query.get('projection'))));
}

/**
 * Editions of a hub by date: those overlapping [rangeStart, rangeEnd), or with bounded=true those
 * entirely within it.
 */
export function search(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const range = { start: isoParam(ctx, 'rangeStart'), end: isoParam(ctx, 'rangeEnd') };
  const bounded = booleanParam(ctx, 'bounded');
  const req = pageRequest(ctx, SORTABLE, START_ASC);
  const where = bounded ? 'hub_id = ? AND start >= ? AND end <= ?' : 'hub_id = ? AND start < ? AND end > ?';
  const params = bounded ? [hubId, range.start, range.end] : [hubId, range.end, range.start];
  const eventOf = eventLookup(ctx.db);
  const page = editions(ctx.db).page({ where, params }, req);
  return ok(pageOf(ctx, 'editions', page, req, (e) => renderEdition(ctx, e, eventOf(e.eventId), ctx.query.get('projection'))));
}

/** A new DRAFT edition of the event, or with ?sourceEditionId= a copy of another edition. */
export function create(ctx: RequestContext) {
  const event = loadEvent(ctx);
  refuseArchived(event);
  const sourceId = ctx.query.get('sourceEditionId');
  const edition = sourceId ? copyEdition(ctx, event, sourceId) : newEdition(ctx, event, ctx.validate<Input<typeof bodies.createNew>>('editions.createNew', ctx.json()));
  return created(renderEdition(ctx, edition, event), ctx.href(`/editions/${edition.id}`));
}

export function get(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  return ok(renderEdition(ctx, edition, eventOf(ctx.db, edition), ctx.query.get('projection')));
}

/** PATCH: the fields given; a DRAFT edition only, its dates within its event's. */
export function update(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  checkEditable(edition);
  const input = ctx.body<Input<typeof bodies.update>>();
  const event = eventOf(ctx.db, edition);
  const next: Edition = { ...edition, ...definedFields(input), ...ctx.modifiedStamp() };
  checkWindow('Edition', next, input, event);
  editions(ctx.db).update(next);
  return ok(renderEdition(ctx, next, event), ctx.href(`/editions/${edition.id}`));
}

/** Deletes a DRAFT edition with its slots and contents (ON DELETE CASCADE). */
export function remove(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  checkEditable(edition);
  editions(ctx.db).delete(edition.id);
  return noContent();
}

/**
 * Irreversible, from any state (the description's states table). A scheduled edition is
 * unscheduled first: its publishing job cancelled, so nothing publishes at its start.
 */
export function archive(ctx: RequestContext) {
  let edition = loadEdition(ctx);
  if (edition.status === 'ARCHIVED') throw editionConflict(edition, 'EDITION_ARCHIVED', 'is already archived', 'status');
  if (UNSCHEDULABLE_STATES.includes(edition.publishingStatus)) edition = unscheduleEdition(ctx.service, edition, ctx.now());
  const next: Edition = { ...edition, status: 'ARCHIVED', ...ctx.modifiedStamp() };
  editions(ctx.db).update(next);
  return ok(renderEdition(ctx, next, eventOf(ctx.db, edition)), ctx.href(`/editions/${edition.id}`));
}

/**
 * Records a preview of a DRAFT edition: its type and the snapshots the edition publishes. A
 * lastModifiedDate older than the edition's means the caller previews a stale copy (409).
 * The edition's own lastModifiedDate stays: a preview changes no planned content.
 */
export function createPreview(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  checkEditable(edition);
  const input = ctx.body<Input<typeof bodies.preview>>();
  if (input.lastModifiedDate !== undefined && input.lastModifiedDate < edition.lastModifiedDate) {
    throw conflict(`Edition ${edition.id} changed at ${edition.lastModifiedDate}; fetch it again and preview that`, {
      code: 'EDITION_MODIFIED',
      entity: 'Edition',
      property: 'lastModifiedDate',
      invalidValue: input.lastModifiedDate,
    });
  }
  const snapshotIds = [...new Set(snapshotUses(ctx.db, edition).map((use) => use.snapshotId))];
  const preview = { type: input.type, snapshotIds, createdDate: ctx.nowIso(), createdBy: ctx.principal.clientId };
  const next = { ...edition, preview };
  editions(ctx.db).update(next);
  return created(renderPreview(ctx, next), ctx.href(`/editions/${edition.id}/preview`));
}

export function getPreview(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  const preview = edition.preview;
  if (!preview) throw notFound('EditionPreview', edition.id);
  return ok(renderPreview(ctx, { ...edition, preview }));
}

/** Removes the preview; refused while the edition is scheduled (its publication uses it). */
export function deletePreview(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  if (!edition.preview) throw notFound('EditionPreview', edition.id);
  if (isScheduled(edition)) throw editionConflict(edition, 'EDITION_SCHEDULED', `is ${edition.publishingStatus}; its preview cannot be deleted`, 'publishingStatus');
  editions(ctx.db).update({ ...edition, preview: null });
  return noContent();
}

function newEdition(ctx: RequestContext, event: CmsEvent, fields: EditionFields): Edition {
  checkWindow('Edition', fields, fields, event);
  const stamp = ctx.createdStamp();
  const edition: Edition = {
    id: newId(ctx.now()),
    hubId: event.hubId,
    eventId: event.id,
    name: fields.name,
    comment: fields.comment,
    start: fields.start,
    end: fields.end,
    activeEndDate: fields.activeEndDate,
    publishingStatus: 'DRAFT',
    publishingJobId: null,
    publishManifestId: null,
    slotsRemaining: MAX_SLOTS_PER_EDITION,
    schedulingErrors: null,
    schedulingUser: null,
    statusUpdated: stamp.createdDate,
    stagedDate: null,
    status: 'ACTIVE',
    preview: null,
    resolutions: {},
    ...stamp,
  };
  editions(ctx.db).insert(edition);
  return edition;
}

/**
 * A DRAFT copy of an edition of the same hub: the fields given, the source's for the rest, and
 * the source's edition slots (with their content), edition contents and conflict resolutions.
 */
function copyEdition(ctx: RequestContext, event: CmsEvent, sourceId: string): Edition {
  const input = ctx.validate<Input<typeof bodies.update>>('editions.update', ctx.json() ?? {});
  const source = editions(ctx.db).get(sourceId);
  if (!source) throw notFound('Edition', sourceId);
  if (source.hubId !== event.hubId) {
    throw badRequest(`Edition ${sourceId} is not in this event's hub`, { code: 'SOURCE_EDITION_NOT_IN_HUB', entity: 'Edition', property: 'sourceEditionId', invalidValue: sourceId });
  }
  const pick = <K extends keyof EditionFields>(k: K): EditionFields[K] => (input[k] ?? source[k]) as EditionFields[K];
  const copy = newEdition(ctx, event, { name: pick('name'), comment: pick('comment'), start: pick('start'), end: pick('end'), activeEndDate: pick('activeEndDate') });
  const now = ctx.nowIso();
  const bySource = { where: 'edition_id = ?', params: [source.id] };
  const slots = editionSlots(ctx.db).all(bySource, CREATED_ASC).map((slot) => copiedEditionSlot(slot, copy, now));
  // Conflict resolutions go along: the copy holds the same snapshots, so the same choices apply.
  const withSlots: Edition = { ...copy, slotsRemaining: addSlots(ctx.db, copy, slots), resolutions: { ...source.resolutions } };
  for (const content of editionContents(ctx.db).all(bySource, CREATED_ASC)) {
    editionContents(ctx.db).insert({ ...content, id: newId(ctx.now()), editionId: copy.id, createdBy: ctx.principal.clientId, createdDate: now, lastModifiedDate: now });
  }
  return editions(ctx.db).update(withSlots);
}

function editionConflict(edition: Edition, code: string, what: string, property: 'status' | 'publishingStatus') {
  return conflict(`Edition ${edition.id} ${what}`, { code, entity: 'Edition', property, invalidValue: edition[property] });
}

function eventOf(db: Db, edition: Edition): CmsEvent {
  return events(db).get(edition.eventId)!;
}

/** Events by id, each read once (a page of search results spans several events). */
function eventLookup(db: Db): (id: string) => CmsEvent {
  const seen = new Map<string, CmsEvent>();
  return (id) => {
    let event = seen.get(id);
    if (!event) seen.set(id, (event = events(db).get(id)!));
    return event;
  };
}

function isoParam(ctx: RequestContext, name: string): string {
  const raw = ctx.query.get(name);
  const at = raw ? Date.parse(raw) : NaN;
  if (Number.isNaN(at)) {
    throw badRequest(`Query parameter '${name}' is required: an ISO 8601 date-time such as 2026-12-24T09:00:00Z`, { property: name, invalidValue: raw });
  }
  return new Date(at).toISOString();
}

function booleanParam(ctx: RequestContext, name: string): boolean {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  throw badRequest(`Query parameter '${name}' must be true or false`, { property: name, invalidValue: raw });
}
