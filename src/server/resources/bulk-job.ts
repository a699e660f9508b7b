import type { RequestContext } from '../context.js';
import { link, linkSet } from '../hal.js';
import type { BulkJob } from '../store/bulk-jobs.js';

export const bulkJobHref = (ctx: RequestContext, job: Pick<BulkJob, 'id' | 'hubId'>) => ctx.href(`/hubs/${job.hubId}/bulk-jobs/${job.id}`);

export function renderBulkJob(ctx: RequestContext, job: BulkJob) {
  const self = bulkJobHref(ctx, job);
  const { links, add } = linkSet(ctx, { hubId: job.hubId }, { self: link(self), 'bulk-job': link(self) });
  add('hubs.get', 'hub', link(ctx.href(`/hubs/${job.hubId}`)));
  const { hubId: _hub, ...fields } = job;
  return { ...fields, _links: links };
}
