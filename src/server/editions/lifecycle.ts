import type { ServiceHost } from '../core/context.js';
import type { Db } from '../core/db.js';
import { newId } from '../core/ids.js';
import { TASK } from '../core/tasks.js';
import { runPublishingJob } from '../publishing/index.js';
import { editions, type Edition, type PublishingStatus } from './store.js';
import { items } from '../items/index.js';
import { publishingJobs, snapshots, type PublishingJob, type Snapshot, type SnapshotRoot } from '../snapshots/index.js';
import { stmt } from '../core/statements.js';
import { enqueueEvent, type WebhookEvent } from '../webhooks/index.js';
import { isCancellable } from '../snapshots/index.js';
import { publishEntries, slotsOf, snapshotUses } from './rules.js';

// An edition from scheduling to publication:
//   schedule    DRAFT -> SCHEDULING, and a task due at once (the next scheduler pass) that
//   prepares    freezes what the edition publishes into a SYSTEM snapshot, creates its publishing
//               job (WAITING for the start date) -> SCHEDULED, and a task due at the start that
//   publishes   runs the job (items at their snapshot or resolved versions) -> PUBLISHED.
//   unschedule  SCHEDULING/SCHEDULED -> DRAFT at once: the job CANCELLED, both tasks cancelled.

export const UNSCHEDULABLE_STATES: readonly PublishingStatus[] = ['SCHEDULING', 'SCHEDULED'];

/** An edition as webhook events carry it. */
export function editionPayload(edition: Edition) {
  const { hubId: _hub, resolutions: _resolutions, preview: _preview, ...fields } = edition;
  return fields;
}

function changeStatus(db: Db, edition: Edition, publishingStatus: PublishingStatus, now: number, changes: Partial<Edition> = {}, event?: WebhookEvent): Edition {
  const next = editions(db).update({ ...edition, ...changes, publishingStatus, statusUpdated: new Date(now).toISOString() });
  if (event) enqueueEvent(db, next.hubId, event, editionPayload(next), now);
  return next;
}

/** DRAFT -> SCHEDULING; the publishing job is prepared on the next scheduler pass. */
export function scheduleEdition(service: ServiceHost, edition: Edition, user: string, now: number): Edition {
  const next = changeStatus(service.db, edition, 'SCHEDULING', now, { schedulingUser: user, schedulingErrors: null });
  service.scheduler.enqueue(TASK.editionSchedule, edition.id, now);
  return next;
}

/** Task 'edition-schedule': the edition's snapshot and publishing job, then SCHEDULED. */
export function prepareEdition(service: ServiceHost, edition: Edition, now: number): Edition {
  const db = service.db;
  const snapshot = editionSnapshot(db, edition, now);
  const at = Date.parse(edition.start);
  const stamp = new Date(now).toISOString();
  const job: PublishingJob = {
    id: newId(now),
    hubId: edition.hubId,
    snapshotId: snapshot.id,
    editionId: edition.id,
    state: at > now ? 'WAITING' : 'CREATED',
    scheduledDate: edition.start,
    createdBy: edition.schedulingUser ?? snapshot.createdBy,
    createdDate: stamp,
    lastModifiedDate: stamp,
  };
  publishingJobs(db).insert(job);
  service.scheduler.enqueue(TASK.editionPublish, edition.id, at);
  return changeStatus(db, edition, 'SCHEDULED', now, { publishingJobId: job.id }, 'edition.scheduled');
}

/**
 * A SYSTEM snapshot of everything the edition publishes, at the versions it publishes them
 * (conflict resolutions applied), so the publishing job publishes exactly that.
 */
function editionSnapshot(db: Db, edition: Edition, now: number): Snapshot {
  const roots = new Map<string, SnapshotRoot>();
  for (const use of snapshotUses(db, edition)) {
    const root = snapshots(db).get(use.snapshotId)?.rootContentItem;
    if (root && !roots.has(root.id)) roots.set(root.id, root);
  }
  const rootContentItems = [...roots.values()];
  const snapshot: Snapshot = {
    id: newId(now),
    hubId: edition.hubId,
    comment: `Edition ${edition.name}`,
    createdBy: edition.schedulingUser ?? edition.lastModifiedBy,
    createdDate: new Date(now).toISOString(),
    createdFrom: 'edition',
    type: 'SYSTEM',
    // An edition of empty slots only has no snapshot root: its first slot stands in.
    rootContentItem: rootContentItems[0] ?? slotRoot(db, edition),
    rootContentItems,
    taggedEditions: [edition.id],
    locale: null,
    meta: [],
  };
  snapshots(db).insert(snapshot);
  const insert = stmt(db, 'INSERT INTO snapshot_items (snapshot_id, item_id, version) VALUES (?, ?, ?)');
  for (const entry of publishEntries(db, edition)) insert.run(snapshot.id, entry.itemId, entry.version);
  return snapshot;
}

function slotRoot(db: Db, edition: Edition): SnapshotRoot {
  const slot = slotsOf(db, edition)[0]!;
  const item = items(db).get(slot.slotId);
  return { id: slot.slotId, label: slot.slotLabel, contentTypeUri: item?.body._meta.schema ?? '' };
}

/** Task 'edition-publish': runs the job at the start date. A job cancelled meanwhile sends the edition back to DRAFT. */
export function publishEdition(service: ServiceHost, edition: Edition, now: number): Edition {
  const job = edition.publishingJobId ? runPublishingJob(service.db, edition.publishingJobId, now) : undefined;
  if (job?.state !== 'COMPLETED') return unscheduleEdition(service, edition, now);
  return changeStatus(service.db, edition, 'PUBLISHED', now, {}, 'edition.published');
}

/** Back to DRAFT: the publishing job (when still pending) CANCELLED and the edition's tasks cancelled. */
export function unscheduleEdition(service: ServiceHost, edition: Edition, now: number): Edition {
  const db = service.db;
  const job = edition.publishingJobId ? publishingJobs(db).get(edition.publishingJobId) : undefined;
  if (job && isCancellable(job)) publishingJobs(db).update({ ...job, state: 'CANCELLED', lastModifiedDate: new Date(now).toISOString() });
  service.scheduler.cancel(TASK.editionSchedule, edition.id);
  service.scheduler.cancel(TASK.editionPublish, edition.id);
  return changeStatus(db, edition, 'DRAFT', now, { publishingJobId: null }, 'edition.unscheduled');
}
