import type { RequestContext } from '../core/context.js';
import { conflict, validationFailed, type ErrorDetail } from '../core/errors.js';
import type { Db } from '../core/db.js';
import { link, linkSet, templated } from '../core/hal.js';
import { stmt } from '../core/statements.js';
import type { CmsEvent } from './store.js';
import { IN_PUBLICATION } from '../editions/index.js';

export interface EditionProgress {
  /** Editions past DRAFT (scheduled, publishing or published): the event keeps its dates and is not deleted. */
  beyondDraft: number;
  /** Editions whose publication is pending or under way: the event is not archived. */
  scheduled: number;
}

export function editionProgress(db: Db, eventId: string): EditionProgress {
  return stmt(
    db,
    `SELECT count(*) FILTER (WHERE publishing_status <> 'DRAFT') AS beyondDraft,
            count(*) FILTER (WHERE publishing_status IN (SELECT value FROM json_each(?))) AS scheduled
     FROM editions WHERE event_id = ?`,
  ).get(JSON.stringify([...IN_PUBLICATION]), eventId) as EditionProgress;
}

/** An event; an archived one is read-only (no update, archive or create-edition). */
export function renderEvent(ctx: RequestContext, event: CmsEvent) {
  const base = ctx.href(`/events/${event.id}`);
  const progress = editionProgress(ctx.db, event.id);
  const { links, add } = linkSet(ctx, { hubId: event.hubId }, { self: link(base), event: link(base) });
  add('hubs.get', 'hub', link(ctx.href(`/hubs/${event.hubId}`)));
  add('editions.list', 'editions', templated(`${base}/editions{?projection,page,size,sort}`));
  if (event.status === 'ACTIVE') {
    add('events.update', 'update', link(base));
    add('editions.create', 'create-edition', templated(`${base}/editions{?sourceEditionId}`));
    if (!progress.scheduled) add('events.archive', 'archive', link(`${base}/archive`));
  }
  if (!progress.beyondDraft) add('events.remove', 'delete', link(base));
  const { hubId: _hub, ...fields } = event;
  return { ...fields, _links: links };
}

// Rules the event and edition handlers share.

export function refuseArchived(event: CmsEvent): void {
  if (event.status === 'ARCHIVED') {
    throw conflict(`Event ${event.id} is archived and can no longer change`, { code: 'EVENT_ARCHIVED', entity: 'Event', property: 'status', invalidValue: event.status });
  }
}

/** The fields a partial body gave (undefined means "not sent"). */
export function definedFields<T extends object>(input: T): Partial<T> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as Partial<T>;
}

interface Window {
  start: string;
  end: string;
}

/**
 * Start must come before end, and a window placed in another (an edition in its event) must lie
 * within it. Each problem names the property to fix: the one the request changed.
 */
export function checkWindow(entity: string, window: Window, changed: Partial<Window>, within?: Window): void {
  const problems: ErrorDetail[] = [];
  if (window.start >= window.end) {
    const property = changed.end !== undefined || changed.start === undefined ? 'end' : 'start';
    const message = property === 'end' ? `end: must be after start (${window.start})` : `start: must be before end (${window.end})`;
    problems.push({ entity, property, invalidValue: window[property], message });
  }
  if (within && window.start < within.start) {
    problems.push({ entity, property: 'start', invalidValue: window.start, message: `start: must not be before the event starts (${within.start})` });
  }
  if (within && window.end > within.end) {
    problems.push({ entity, property: 'end', invalidValue: window.end, message: `end: must not be after the event ends (${within.end})` });
  }
  if (problems.length) throw validationFailed(problems);
}
