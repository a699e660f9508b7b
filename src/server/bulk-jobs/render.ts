import type { RequestContext } from '../core/context.js';
import { link, linkSet } from '../core/hal.js';
import type { BulkJob } from './store.js';

export const bulkJobHref = (ctx: RequestContext, job: Pick<BulkJob, 'id' | 'hubId'>) => ctx.href(`/hubs/${job.hubId}/bulk-jobs/${job.id}`);

export function renderBulkJob(ctx: RequestContext, job: BulkJob) {
  const self = bulkJobHref(ctx, job);
  const { links, add } = linkSet(ctx, { hubId: job.hubId }, { self: link(self), 'bulk-job': link(self) });
  add('hubs.get', 'hub', link(ctx.href(`/hubs/${job.hubId}`)));
  const { hubId: _hub, ...fields } = job;
  return { ...fields, _links: links };
}
