import { accepted, ok, type RequestContext } from '../core/context.js';
import { badRequest, notFound } from '../core/errors.js';
import { pageOf, pageRequest } from '../core/hal.js';
import { newId } from '../core/ids.js';
import { loadHub } from '../hubs/index.js';
import { loadItem } from './load.js';
import { items } from './store.js';
import { repositories } from '../repositories/index.js';
import { localizationJobs, localizationTarget, type LocalizationJob } from './localization-jobs.js';
import { renderItem } from './render.js';
import { renderLocalizationJob } from './render-localization-job.js';
import { checkActive, checkVersion } from './rules.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

// Localization: localize an item graph into other locales of its repository's localization
// group (an asynchronous job, jobs/localize.ts), list an item's localizations, read the jobs.

const JOB_SORT = [{ field: 'createdDate', dir: 'desc' as const }];

/** Checks the request, records the job and queues it; 202 with the job while it runs. */
export function localize(ctx: RequestContext) {
  const item = loadItem(ctx);
  const input = ctx.body<Input<typeof bodies.localize>>();
  if (!item.locale) {
    throw badRequest(`Content item ${item.id} has no locale; set one before localizing it`, { code: 'ITEM_HAS_NO_LOCALE', entity: 'ContentItem', property: 'locale', invalidValue: null });
  }
  checkActive(item);
  checkVersion(item, input.version);
  const locales = [...new Set(input.locales)];
  const repo = repositories(ctx.db).get(item.contentRepositoryId)!;
  for (const locale of locales) {
    if (locale === item.locale) {
      throw badRequest(`Content item ${item.id} is already in ${locale}`, { code: 'LOCALE_IS_SOURCE', entity: 'ContentItem', property: 'locales', invalidValue: locale });
    }
    if (!localizationTarget(ctx.db, repo, locale)) {
      throw badRequest(`No repository of the localization group of ${repo.name} has item locale ${locale}`, { code: 'LOCALE_NOT_IN_GROUP', entity: 'ContentItem', property: 'locales', invalidValue: locale });
    }
  }
  const stamp = ctx.createdStamp();
  const job: LocalizationJob = {
    id: newId(ctx.now()),
    hubId: item.hubId,
    status: 'IN_PROGRESS',
    rootContentItem: { id: item.id, label: item.label, locale: item.locale },
    requestedLocales: locales,
    results: [],
    createdBy: stamp.createdBy,
    createdDate: stamp.createdDate,
    lastModifiedDate: stamp.lastModifiedDate,
  };
  localizationJobs(ctx.db).insert(job);
  // The job localizes the version the caller saw, even if the item changes before it runs.
  ctx.service.scheduler.enqueue('localize', job.id, ctx.now(), { version: item.version });
  return accepted(renderLocalizationJob(ctx, job), ctx.href(`/localization-jobs/${job.id}`));
}

/** The item's variants in other locales: items sharing its localization group. */
export function localizations(ctx: RequestContext) {
  const item = loadItem(ctx);
  const req = pageRequest(ctx, ['createdDate', 'lastModifiedDate', 'label', 'locale'], [{ field: 'createdDate', dir: 'asc' }]);
  const filter = { where: "json_extract(data, '$.localizationGroupId') = ? AND id != ?", params: [item.localizationGroupId ?? item.id, item.id] };
  return ok(pageOf(ctx, 'content-items', items(ctx.db).page(filter, req), req, (i) => renderItem(ctx, i)));
}

export function findByRoot(ctx: RequestContext) {
  const id = ctx.query.get('id');
  if (!id) throw badRequest("Query parameter 'id' is required", { property: 'id', invalidValue: null });
  const item = loadItem(ctx, id);
  return jobPage(ctx, 'root_item_id = ?', item.id);
}

export function get(ctx: RequestContext) {
  const id = ctx.params.jobId!;
  const job = localizationJobs(ctx.db).get(id);
  if (!job) throw notFound('LocalizationJob', id);
  ctx.authorize({ hubId: job.hubId }, 'LocalizationJob', id);
  return ok(renderLocalizationJob(ctx, job));
}

export function searchJobs(ctx: RequestContext) {
  return jobPage(ctx, 'hub_id = ?', loadHub(ctx).id);
}

function jobPage(ctx: RequestContext, where: string, param: string) {
  const req = pageRequest(ctx, ['createdDate'], JOB_SORT);
  return ok(pageOf(ctx, 'localization-jobs', localizationJobs(ctx.db).page({ where, params: [param] }, req), req, (j) => renderLocalizationJob(ctx, j)));
}
