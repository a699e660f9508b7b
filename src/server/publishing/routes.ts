import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { conflict, notFound } from '../core/errors.js';
import { pageOf, pageRequest } from '../core/hal.js';
import { loadItem } from '../items/index.js';
import { touchItem } from '../items/index.js';
import { publishingJobs, snapshots, type PublishingJob, type Snapshot } from '../snapshots/index.js';
import { schedulePublishingJob } from './publish.js';
import { publishItem as publishNow } from './publish.js';
import { isCancellable, renderPublishingJob } from '../snapshots/index.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';
import { TASK } from '../core/tasks.js';

export function listJobs(ctx: RequestContext) {
  const snapshot = loadSnapshot(ctx);
  const req = pageRequest(ctx, ['createdDate', 'scheduledDate', 'state'], [{ field: 'createdDate', dir: 'desc' }]);
  return ok(pageOf(ctx, 'publishing-jobs', publishingJobs(ctx.db).page({ where: 'snapshot_id = ?', params: [snapshot.id] }, req), req, (j) => renderPublishingJob(ctx, j)));
}

/** A job that publishes the snapshot at scheduledDate (on the sandbox clock). */
export function createJob(ctx: RequestContext) {
  const snapshot = loadSnapshot(ctx);
  const { scheduledDate } = ctx.body<Input<typeof bodies.publishingJob>>();
  const job = schedulePublishingJob(ctx, snapshot, Date.parse(scheduledDate));
  return created(renderPublishingJob(ctx, job), ctx.href(`/publishing-jobs/${job.id}`));
}

export function getJob(ctx: RequestContext) {
  return ok(renderPublishingJob(ctx, loadJob(ctx)));
}

export function cancelJob(ctx: RequestContext) {
  const job = loadJob(ctx);
  if (!isCancellable(job)) {
    throw conflict(`Publishing job ${job.id} is ${job.state} and can no longer be cancelled`, { code: 'JOB_NOT_CANCELLABLE', entity: 'PublishingJob', property: 'state', invalidValue: job.state });
  }
  const cancelled: PublishingJob = { ...job, state: 'CANCELLED', lastModifiedDate: ctx.nowIso() };
  publishingJobs(ctx.db).update(cancelled);
  ctx.service.scheduler.cancel(TASK.publishingJob, job.id);
  return ok(renderPublishingJob(ctx, cancelled), ctx.href(`/publishing-jobs/${job.id}`));
}

/**
 * Publishes an item now: a snapshot of it and its linked content, and a job that runs at once.
 * 204 + Location of the job (wire contract): clients of the hosted service take any other
 * status as a failed publish.
 */
export function publishItem(ctx: RequestContext) {
  const job = publishNow(ctx, loadItem(ctx));
  return noContent(ctx.href(`/publishing-jobs/${job.id}`));
}

/**
 * Takes an item out of publication: UNPUBLISHED, with the date and the version taken down (the
 * one last published), so a client waiting for lastUnpublishedDate >= lastPublishedDate sees it
 * done. Delivery answers 404 for it from now on. No new version of the item.
 */
export function unpublishItem(ctx: RequestContext) {
  const item = loadItem(ctx);
  touchItem(ctx.db, { ...item, publishingStatus: 'UNPUBLISHED', lastUnpublishedDate: ctx.nowIso(), lastUnpublishedVersion: item.lastPublishedVersion ?? item.version });
  return noContent(ctx.href(`/content-items/${item.id}`));
}

function loadSnapshot(ctx: RequestContext): Snapshot {
  const id = ctx.params.snapshotId!;
  const snapshot = snapshots(ctx.db).get(id);
  if (!snapshot) throw notFound('Snapshot', id);
  ctx.authorize({ hubId: snapshot.hubId }, 'Snapshot', id);
  return snapshot;
}

function loadJob(ctx: RequestContext): PublishingJob {
  const id = ctx.params.jobId!;
  const job = publishingJobs(ctx.db).get(id);
  if (!job) throw notFound('PublishingJob', id);
  ctx.authorize({ hubId: job.hubId }, 'PublishingJob', id);
  return job;
}
