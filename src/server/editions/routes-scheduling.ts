import { ok, type RequestContext } from '../core/context.js';
import { badRequest, conflict as conflictError, notFound, serviceError, type ErrorDetail } from '../core/errors.js';
import { intParam, link } from '../core/hal.js';
import { loadEdition, touchEdition } from './load.js';
import { checkEditable, conflicts as editionConflicts, scheduleProblems, slotCollisions as editionSlotCollisions, isEditable, whatIsPossible, type Conflict } from './rules.js';
import { UNSCHEDULABLE_STATES, scheduleEdition, unscheduleEdition } from './lifecycle.js';
import { renderEdition } from './render.js';
import { events } from '../events/index.js';
import { editions, type Edition } from './store.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

/** The edition as schedule and unschedule answer it. */
function editionReply(ctx: RequestContext, edition: Edition) {
  return ok(renderEdition(ctx, edition, events(ctx.db).get(edition.eventId)!), ctx.href(`/editions/${edition.id}`));
}

/**
 * POST …/schedule{?ignoreWarnings}: 409 with every unmet precondition (errors always, warnings
 * unless ignored), kept on the edition as schedulingErrors; otherwise SCHEDULING, and the
 * publishing job follows on the next scheduler pass.
 */
export function schedule(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  const { lastModifiedDate } = ctx.body<Input<typeof bodies.schedule>>();
  const problems = scheduleProblems(ctx.db, edition, ctx.now(), ctx.query.get('ignoreWarnings') === 'true', lastModifiedDate);
  if (problems.length) {
    // Answered, not thrown: the transaction keeps the errors on the draft.
    if (isEditable(edition)) editions(ctx.db).update({ ...edition, schedulingErrors: problems });
    return { status: 409, body: { errors: problems, _links: {} } };
  }
  return editionReply(ctx, scheduleEdition(ctx.service, edition, ctx.principal.clientId, ctx.now()));
}

/** DELETE …/schedule: a SCHEDULING or SCHEDULED edition returns to DRAFT at once and its job is cancelled. */
export function unschedule(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  if (!UNSCHEDULABLE_STATES.includes(edition.publishingStatus)) {
    const state = edition.publishingStatus;
    const message =
      state === 'PUBLISHED'
        ? `Edition ${edition.id} is PUBLISHED and can no longer be unscheduled (${whatIsPossible(state)})`
        : state === 'DRAFT'
          ? `Edition ${edition.id} is DRAFT: it is not scheduled, so there is nothing to unschedule`
          : `Edition ${edition.id} is ${state}; only a scheduled edition can be unscheduled (${whatIsPossible(state)})`;
    throw conflictError(message, {
      code: 'EDITION_NOT_SCHEDULED',
      entity: 'Edition',
      property: 'publishingStatus',
      invalidValue: edition.publishingStatus,
    });
  }
  return editionReply(ctx, unscheduleEdition(ctx.service, edition, ctx.now()));
}

function renderConflict(ctx: RequestContext, edition: Edition, c: Conflict) {
  const base = ctx.href(`/editions/${edition.id}`);
  const self = `${base}/conflicts/findByIdAndVersion?id=${encodeURIComponent(c.id)}&version=${c.versions[0]!.version}`;
  return { ...c, _links: { self: link(self), edition: link(base), 'content-item': link(ctx.href(`/content-items/${c.id}`)) } };
}

function conflictsReply(ctx: RequestContext, edition: Edition) {
  const href = ctx.href(`/editions/${edition.id}/conflicts`);
  return ok({ _embedded: { conflicts: editionConflicts(ctx.db, edition).map((c) => renderConflict(ctx, edition, c)) }, _links: { self: link(href) } }, href);
}

/** GET …/conflicts: items the edition's snapshots hold at different versions. */
export function conflicts(ctx: RequestContext) {
  return conflictsReply(ctx, loadEdition(ctx));
}

/** GET …/conflicts/findByIdAndVersion?id=&version=: the conflict of that item that involves that version. */
export function conflict(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  const id = ctx.query.get('id');
  if (!id) throw badRequest("Query parameter 'id' is required: a content item id", { property: 'id', invalidValue: id });
  if (ctx.query.get('version') === null) throw badRequest("Query parameter 'version' is required", { property: 'version', invalidValue: null });
  const version = intParam(ctx.query.get('version'), 'version', 0, 1, Number.MAX_SAFE_INTEGER);
  const found = editionConflicts(ctx.db, edition).find((c) => c.id === id && c.versions.some((v) => v.version === version));
  if (!found) throw notFound('EditionConflict', `${id}/${version}`);
  return ok(renderConflict(ctx, edition, found));
}

/**
 * POST …/conflicts/resolve: chooses the version the edition publishes for items in conflict.
 * Each resolution must name an item in conflict and one of its conflicting versions (400).
 */
export function resolveConflicts(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  checkEditable(edition);
  const input = ctx.body<Input<typeof bodies.resolve>>();
  if (input.lastModifiedDate !== undefined && Date.parse(input.lastModifiedDate) < Date.parse(edition.lastModifiedDate)) {
    throw conflictError(`Edition ${edition.id} changed at ${edition.lastModifiedDate}, after ${input.lastModifiedDate}; fetch it again`, {
      code: 'EDITION_MODIFIED',
      entity: 'Edition',
      property: 'lastModifiedDate',
      invalidValue: input.lastModifiedDate,
    });
  }
  const current = editionConflicts(ctx.db, edition);
  const problems: ErrorDetail[] = input.resolutions.flatMap((r, i) => resolutionProblem(current, r, `resolutions[${i}]`));
  if (problems.length) throw serviceError(400, problems);
  const resolutions = { ...edition.resolutions, ...Object.fromEntries(input.resolutions.map((r) => [r.id, r.version])) };
  return conflictsReply(ctx, touchEdition(ctx, edition, { resolutions }));
}

function resolutionProblem(current: readonly Conflict[], r: { id: string; version: number }, at: string): ErrorDetail[] {
  const found = current.find((c) => c.id === r.id);
  if (!found) return [{ code: 'CONFLICT_NOT_FOUND', entity: 'EditionConflict', property: `${at}.id`, invalidValue: r.id, message: `${at}.id: content item ${r.id} is not in conflict in this edition` }];
  const versions = [...new Set(found.versions.map((v) => v.version))];
  if (versions.includes(r.version)) return [];
  return [{ code: 'VERSION_NOT_IN_CONFLICT', entity: 'EditionConflict', property: `${at}.version`, invalidValue: r.version, message: `${at}.version: choose one of the conflicting versions ${versions.join(', ')}` }];
}

/** GET …/slot-collisions: slots that editions overlapping this one in time also use. */
export function slotCollisions(ctx: RequestContext) {
  const edition = loadEdition(ctx);
  const href = ctx.href(`/editions/${edition.id}/slot-collisions`);
  return ok({ _embedded: { 'slot-collisions': editionSlotCollisions(ctx.db, edition) }, _links: { self: link(href) } });
}
