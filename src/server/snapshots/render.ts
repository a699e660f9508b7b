import type { RequestContext } from '../core/context.js';
import { link, linkSet, templated } from '../core/hal.js';
import type { PublishingJob, Snapshot } from './store.js';

export function renderSnapshot(ctx: RequestContext, snapshot: Snapshot) {
  const base = ctx.href(`/snapshots/${snapshot.id}`);
  const { links, add } = linkSet(ctx, { hubId: snapshot.hubId }, { self: link(base), snapshot: link(base) });
  add('publishing.listJobs', 'publishing-jobs', templated(`${base}/publishing-jobs{?page,size,sort}`));
  add('publishing.createJob', 'create-publishing-job', link(`${base}/publishing-jobs`));
  add('hubs.get', 'hub', link(ctx.href(`/hubs/${snapshot.hubId}`)));
  add('items.get', 'content-root', link(ctx.href(`/content-items/${snapshot.rootContentItem.id}`)));
  add('snapshots.contentItem', 'snapshot-content-item', templated(`${base}/content-items{/id}`));
  const { hubId: _hub, ...fields } = snapshot;
  return { ...fields, _links: links };
}

const CANCELLABLE = new Set(['CREATED', 'WAITING', 'PREPARING']);

export function renderPublishingJob(ctx: RequestContext, job: PublishingJob) {
  const base = ctx.href(`/publishing-jobs/${job.id}`);
  const { links, add } = linkSet(ctx, { hubId: job.hubId }, { self: link(base), 'publishing-job': link(base) });
  if (CANCELLABLE.has(job.state)) add('publishing.cancelJob', 'cancel', link(base));
  add('snapshots.get', 'snapshot', link(ctx.href(`/snapshots/${job.snapshotId}`)));
  if (job.editionId) add('editions.get', 'edition', link(ctx.href(`/editions/${job.editionId}`)));
  const { hubId: _hub, ...fields } = job;
  return { ...fields, _links: links };
}

export const isCancellable = (job: PublishingJob) => CANCELLABLE.has(job.state);
