import type { RequestContext } from '../core/context.js';
import { link, linkSet, templated } from '../core/hal.js';
import type { CmsEvent } from '../events/index.js';
import type { Edition, PublishingStatus } from './store.js';
import { isEditable } from './rules.js';
import { UNSCHEDULABLE_STATES } from './lifecycle.js';

/** States of an edition whose publication is pending or under way. */
export const IN_PUBLICATION: ReadonlySet<PublishingStatus> = new Set(['SCHEDULING', 'SCHEDULED', 'PUBLISHING', 'UNSCHEDULING']);

/**
 * Scheduled: its publication is pending or under way. Its preview cannot be deleted (archiving
 * it cancels the publication).
 */
export const isScheduled = (edition: Edition): boolean => IN_PUBLICATION.has(edition.publishingStatus);

/** The event as the withEvent projection embeds it. */
const eventSummary = (event: CmsEvent) => ({ id: event.id, name: event.name, comment: event.comment, start: event.start, end: event.end, brief: event.brief });

/**
 * An edition with the links its state and the caller's permissions allow. `event` is the edition's
 * own event: its editions cannot be scheduled once it is archived.
 */
export function renderEdition(ctx: RequestContext, edition: Edition, event: CmsEvent, projection?: string | null) {
  const e = edition;
  const fields = {
    id: e.id,
    name: e.name,
    comment: e.comment,
    start: e.start,
    end: e.end,
    activeEndDate: e.activeEndDate,
    eventId: e.eventId,
    publishingStatus: e.publishingStatus,
    publishingJobId: e.publishingJobId,
    slotsRemaining: e.slotsRemaining,
    schedulingErrors: e.schedulingErrors,
    statusUpdated: e.statusUpdated,
    status: e.status,
    preview: e.preview,
    createdBy: e.createdBy,
    createdDate: e.createdDate,
    lastModifiedBy: e.lastModifiedBy,
    lastModifiedDate: e.lastModifiedDate,
  };
  return { ...fields, ...(projection === 'withEvent' ? { event: eventSummary(event) } : {}), _links: editionLinks(ctx, e, event) };
}

function editionLinks(ctx: RequestContext, edition: Edition, event: CmsEvent) {
  const base = ctx.href(`/editions/${edition.id}`);
  const { links, add } = linkSet(ctx, { hubId: edition.hubId }, { self: link(base), edition: link(base) });
  const schedule = templated(`${base}/schedule{?ignoreWarnings}`);
  add('events.get', 'event', link(ctx.href(`/events/${edition.eventId}`)));
  if (isEditable(edition)) {
    add('editions.update', 'update', link(base));
    add('editions.remove', 'delete', link(base));
    add('editions.createPreview', 'create-preview', link(`${base}/preview`));
    add('editionSlots.assign', 'slots', link(`${base}/slots`));
    add('editionContents.create', 'create-edition-content', link(`${base}/contents`));
    add('editionScheduling.resolveConflicts', 'resolve-conflicts', link(`${base}/conflicts/resolve`));
    if (event.status === 'ACTIVE') add('editionScheduling.schedule', 'schedule', schedule);
  } else if (UNSCHEDULABLE_STATES.includes(edition.publishingStatus)) add('editionScheduling.unschedule', 'schedule', schedule);
  if (edition.status === 'ACTIVE') add('editions.archive', 'archive', link(`${base}/archive`));
  if (edition.preview) add('editions.getPreview', 'preview', link(`${base}/preview`));
  add('editionSlots.list', 'list-slots', templated(`${base}/slots{?includedSlots,page,size,sort}`));
  add('editionContents.list', 'edition-contents', templated(`${base}/contents{?page,size}`));
  add('editionScheduling.conflicts', 'edition-conflicts', link(`${base}/conflicts`));
  add('editionScheduling.conflict', 'edition-conflict', templated(`${base}/conflicts/findByIdAndVersion{?id,version}`));
  add('editionScheduling.slotCollisions', 'slot-collisions', link(`${base}/slot-collisions`));
  return links;
}

/** The preview of an edition: what it recorded, and its edition. */
export function renderPreview(ctx: RequestContext, edition: Edition & { preview: NonNullable<Edition['preview']> }) {
  const base = ctx.href(`/editions/${edition.id}/preview`);
  const { links, add } = linkSet(ctx, { hubId: edition.hubId }, { self: link(base), preview: link(base) });
  add('editions.get', 'edition', link(ctx.href(`/editions/${edition.id}`)));
  if (!isScheduled(edition)) add('editions.deletePreview', 'delete', link(base));
  return { editionId: edition.id, ...edition.preview, _links: links };
}
