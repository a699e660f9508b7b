import type { RequestContext } from '../core/context.js';
import { link, linkSet, templated } from '../core/hal.js';
import type { LocalizationJob } from './localization-jobs.js';

/** A localization job: its root item, the requested locales and, once it ran, one result per locale. */
export function renderLocalizationJob(ctx: RequestContext, job: LocalizationJob) {
  const { hubId: _hub, ...fields } = job;
  const rootId = job.rootContentItem.id;
  const { links, add } = linkSet(ctx, { hubId: job.hubId }, { self: link(ctx.href(`/localization-jobs/${job.id}`)) });
  add('items.get', 'content-root', link(ctx.href(`/content-items/${rootId}`)));
  add('localization.findByRoot', 'findByRootContentItem', templated(ctx.href(`/localization-jobs/search/findByRootContentItem?id=${rootId}{&page,size,sort}`)));
  return { ...fields, _links: links };
}
