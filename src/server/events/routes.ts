import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { conflict } from '../core/errors.js';
import { pageOf, pageRequest } from '../core/hal.js';
import { newId } from '../core/ids.js';
import { loadEvent } from './load.js';
import { loadHub } from '../hubs/index.js';
import { events, type CmsEvent } from './store.js';
import { editions } from '../editions/index.js';
import { editionProgress, renderEvent } from './render.js';
import { checkWindow, definedFields, refuseArchived } from './rules.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

const SORTABLE = ['start', 'end', 'createdDate', 'name'] as const;

export function list(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const req = pageRequest(ctx, SORTABLE, [{ field: 'start', dir: 'asc' }]);
  return ok(pageOf(ctx, 'events', events(ctx.db).page({ where: 'hub_id = ?', params: [hubId] }, req), req, (e) => renderEvent(ctx, e)));
}

export function create(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const input = ctx.body<Input<typeof bodies.create>>();
  checkWindow('Event', input, input);
  const event: CmsEvent = { id: newId(ctx.now()), hubId, ...input, status: 'ACTIVE', ...ctx.createdStamp() };
  events(ctx.db).insert(event);
  return created(renderEvent(ctx, event), ctx.href(`/events/${event.id}`));
}

export function get(ctx: RequestContext) {
  return ok(renderEvent(ctx, loadEvent(ctx)));
}

/** PATCH: the fields given. Dates move only while every edition is a draft that still fits. */
export function update(ctx: RequestContext) {
  const event = loadEvent(ctx);
  refuseArchived(event);
  const input = ctx.body<Input<typeof bodies.update>>();
  const next: CmsEvent = { ...event, ...definedFields(input), ...ctx.modifiedStamp() };
  checkWindow('Event', next, input);
  if (next.start !== event.start || next.end !== event.end) checkEditionsAllowMove(ctx, next);
  events(ctx.db).update(next);
  return ok(renderEvent(ctx, next), ctx.href(`/events/${event.id}`));
}

/** Deletes the event with its draft editions; refused once any edition is scheduled or published. */
export function remove(ctx: RequestContext) {
  const event = loadEvent(ctx);
  const { beyondDraft } = editionProgress(ctx.db, event.id);
  if (beyondDraft) {
    throw conflict(`Event ${event.id} has ${beyondDraft} scheduled or published edition(s); it cannot be deleted (archive it instead)`, {
      code: 'EVENT_HAS_SCHEDULED_EDITIONS',
      entity: 'Event',
      property: 'id',
      invalidValue: event.id,
    });
  }
  // Editions, their slots and contents go with the event (ON DELETE CASCADE).
  events(ctx.db).delete(event.id);
  return noContent();
}

/** Irreversible. Refused while an edition's publication is pending: unschedule it first. */
export function archive(ctx: RequestContext) {
  const event = loadEvent(ctx);
  refuseArchived(event);
  const { scheduled } = editionProgress(ctx.db, event.id);
  if (scheduled) {
    throw conflict(`Event ${event.id} has ${scheduled} scheduled edition(s); unschedule them before archiving the event`, {
      code: 'EVENT_HAS_SCHEDULED_EDITIONS',
      entity: 'Event',
      property: 'status',
      invalidValue: event.status,
    });
  }
  const next: CmsEvent = { ...event, status: 'ARCHIVED', ...ctx.modifiedStamp() };
  events(ctx.db).update(next);
  return ok(renderEvent(ctx, next), ctx.href(`/events/${event.id}`));
}

/** An event's dates move only while its editions are drafts, and only so that every one still fits. */
function checkEditionsAllowMove(ctx: RequestContext, next: CmsEvent): void {
  if (editionProgress(ctx.db, next.id).beyondDraft) {
    throw conflict(`Event ${next.id} has scheduled or published editions; its dates cannot move`, {
      code: 'EVENT_HAS_SCHEDULED_EDITIONS',
      entity: 'Event',
      property: 'start',
      invalidValue: next.start,
    });
  }
  const outside = editions(ctx.db).all({ where: 'event_id = ? AND (start < ? OR end > ?)', params: [next.id, next.start, next.end] });
  if (outside.length) {
    throw conflict(`Edition(s) ${outside.map((e) => `'${e.name}'`).join(', ')} would fall outside the event's new dates; move them first`, {
      code: 'EDITIONS_OUTSIDE_EVENT',
      entity: 'Event',
      property: outside.some((e) => e.start < next.start) ? 'start' : 'end',
      invalidValue: outside.map((e) => e.id),
    });
  }
}
