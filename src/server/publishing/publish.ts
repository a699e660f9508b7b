import type { RequestContext } from '../core/context.js';
import type { Db } from '../core/db.js';
import { newId } from '../core/ids.js';
import { TASK } from '../core/tasks.js';
import { items, publicItem, touchItem, type ContentItem } from '../items/index.js';
import { conflict } from '../core/errors.js';
import { createSnapshot, publishingJobs, snapshotItems, snapshots, type PublishingJob, type Snapshot } from '../snapshots/index.js';
import { enqueueEvent } from '../webhooks/index.js';

/** A job that publishes the snapshot at `at` (sandbox time), queued for the scheduler. */
export function schedulePublishingJob(ctx: RequestContext, snapshot: Snapshot, at: number): PublishingJob {
  const stamp = ctx.nowIso();
  const job: PublishingJob = {
    id: newId(ctx.now()),
    hubId: snapshot.hubId,
    snapshotId: snapshot.id,
    editionId: null,
    state: at > ctx.now() ? 'WAITING' : 'CREATED',
    scheduledDate: new Date(at).toISOString(),
    createdBy: ctx.principal.clientId,
    createdDate: stamp,
    lastModifiedDate: stamp,
  };
  publishingJobs(ctx.db).insert(job);
  ctx.service.scheduler.enqueue(TASK.publishingJob, job.id, at);
  return job;
}

/**
 * Marks items published at the given versions: last published version and date, and LATEST
 * when that is the item's current version (EARLY when newer versions exist). Each publication
 * notifies content-item.published.
 */
export function publishItems(db: Db, hubId: string, entries: readonly { itemId: string; version: number }[], nowMs: number): number {
  const table = items(db);
  const date = new Date(nowMs).toISOString();
  let count = 0;
  for (const { itemId, version } of entries) {
    const item = table.get(itemId);
    if (!item) continue;
    const published = touchItem(db, {
      ...item,
      lastPublishedVersion: version,
      lastPublishedDate: date,
      publishingStatus: version >= item.version ? 'LATEST' : 'EARLY',
    });
    enqueueEvent(db, hubId, 'content-item.published', { ...publicItem(published), publishedVersion: version }, nowMs);
    count++;
  }
  return count;
}

/**
 * Runs a publishing job: publishes its snapshot's items at their snapshot versions, or at the
 * versions an edition's conflict resolutions chose. A cancelled or finished job does nothing.
 */
export function runPublishingJob(db: Db, jobId: string, nowMs: number, versionOverrides: Record<string, number> = {}): PublishingJob | undefined {
  const jobs = publishingJobs(db);
  const job = jobs.get(jobId);
  if (!job || job.state === 'CANCELLED' || job.state === 'COMPLETED' || job.state === 'FAILED') return job;
  const snapshot = snapshots(db).get(job.snapshotId);
  const stamp = new Date(nowMs).toISOString();
  if (!snapshot) {
    const failed = { ...job, state: 'FAILED' as const, publishErrorStatus: 'SNAPSHOT_NOT_FOUND', lastModifiedDate: stamp };
    jobs.update(failed);
    return failed;
  }
  const entries = snapshotItems(db, snapshot.id).map((e) => ({ itemId: e.itemId, version: versionOverrides[e.itemId] ?? e.version }));
  publishItems(db, snapshot.hubId, entries, nowMs);
  const completed = { ...job, state: 'COMPLETED' as const, lastModifiedDate: stamp };
  jobs.update(completed);
  // The payload is the snapshot itself (the vendor's search-index templates read `payload.id` and
  // `payload.rootContentItem.id`), with `snapshot` kept for receivers written against its first form.
  const published = { id: snapshot.id, comment: snapshot.comment, rootContentItem: snapshot.rootContentItem, type: snapshot.type };
  enqueueEvent(db, snapshot.hubId, 'snapshot.published', { ...published, snapshot: published, publishingJobId: job.id, editionId: job.editionId }, nowMs);
  return completed;
}

/** Publishes an item now: a snapshot of it and its linked content, and a job that runs at once. */
export function publishItem(ctx: RequestContext, item: ContentItem): PublishingJob {
  if (item.status !== 'ACTIVE') throw conflict(`Content item ${item.id} is archived`, { code: 'ITEM_ARCHIVED', entity: 'ContentItem', property: 'status', invalidValue: item.status });
  const snapshot = createSnapshot(ctx.db, { hubId: item.hubId, rootId: item.id, comment: `Publish ${item.label}`, createdFrom: 'content-item', type: 'SYSTEM', createdBy: ctx.principal.clientId, now: ctx.now() });
  return schedulePublishingJob(ctx, snapshot, ctx.now());
}
