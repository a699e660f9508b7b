import type { RequestContext } from '../core/context.js';
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
