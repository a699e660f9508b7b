import type { RequestContext } from '../core/context.js';
import { link, linkSet, templated, type Links } from '../core/hal.js';
import type { Hub, HubSettings } from './store.js';

/** Hub links as in the description; each appears only if the caller may use it. */
export function hubLinks(ctx: RequestContext, hub: Hub): Links {
  const base = ctx.href(`/hubs/${hub.id}`);
  const { links, add } = linkSet(ctx, { hubId: hub.id }, { self: link(base), hub: link(base) });
  add('snapshots.list', 'snapshots', templated(`${base}/snapshots{?page,size,sort,types}`));
  add('snapshots.create', 'create-snapshot', link(`${base}/snapshots`));
  add('snapshots.batchCreate', 'batch-create-snapshots', link(`${base}/snapshots/batch`));
  add('events.list', 'events', templated(`${base}/events{?page,size,sort}`));
  add('events.create', 'create-event', link(`${base}/events`));
  add('events.archive', 'archive', templated(ctx.href('/events/{id}/archive')));
  add('editions.search', 'search-editions', templated(`${base}/editions{?rangeStart,rangeEnd,bounded,projection,page,size,sort}`));
  add('hubs.update', 'update', link(base));
  add('hubs.remove', 'delete', link(base));
  add('hubs.updateSettings', 'update-settings', link(`${base}/settings`));
  add('hubs.updatePlan', 'update-plan', link(`${base}/plan`));
  add('hubs.share', 'share', link(`${base}/share`));
  add('repositories.list', 'content-repositories', templated(`${base}/content-repositories{?page,size,sort}`));
  add('repositories.create', 'create-content-repository', link(`${base}/content-repositories`));
  add('contentTypes.register', 'register-content-type', link(`${base}/content-types`));
  add('contentTypes.list', 'content-types', templated(`${base}/content-types{?page,size,sort,status}`));
  add('schemas.create', 'create-content-type-schema', link(`${base}/content-type-schemas`));
  add('schemas.list', 'list-content-type-schemas', templated(`${base}/content-type-schemas{?page,size,sort,status}`));
  add('schemas.resolve', 'resolve-content-type-schema', link(`${base}/content-type-schemas/resolve`));
  add('search.find', 'search-content-items', templated(`${base}/content-items/find{?query,page,projection,size,sort}`));
  add('search.facet', 'facet-content-items', templated(`${base}/content-items/facet{?query,page,projection,size,sort,createdDate.dir}`));
  add('deliveryKeys.find', 'find-by-delivery-key', templated(`${base}/content-items/delivery-key{?key}`));
  add('deliveryKeys.filterByCollectionKey', 'filter-content-items', link(`${base}/content-items/filter`));
  add('localization.searchJobs', 'search-localization-jobs', templated(`${base}/localization-jobs{?page,size,sort}`));
  add('workflowStates.create', 'create-workflow-state', link(`${base}/workflow-states`));
  add('workflowStates.list', 'workflow-states', templated(`${base}/workflow-states{?page,size,sort}`));
  add('extensions.list', 'extensions', templated(`${base}/extensions{?page,size,sort}`));
  add('extensions.list', 'extensions-lite', templated(`${base}/extensions{?projection,page,size,sort}`));
  add('extensions.getByName', 'extension-by-name', templated(`${base}/extensions/{name}`));
  add('extensions.create', 'create-extension', link(`${base}/extensions`));
  add('webhooks.list', 'webhooks', templated(`${base}/webhooks{?page,size,sort}`));
  add('webhooks.create', 'create-webhook', link(`${base}/webhooks`));
  add('integrations.listForHub', 'integrations', templated(`${base}/integrations{?page,size,sort}`));
  add('searchIndexes.list', 'search-indexes', templated(`${base}/search-indexes{?parentId,projection,page,size,sort,status}`));
  add('searchIndexes.create', 'create-search-index', link(`${base}/search-indexes`));
  // The hosted service's SDK follows these names (and paths) for the same operations.
  add('searchIndexes.list', 'algolia-search-indexes', templated(ctx.href(`/algolia-search/${hub.id}/indexes{?parentId,projection,page,size,sort,status}`)));
  add('searchIndexes.create', 'create-algolia-search-index', link(ctx.href(`/algolia-search/${hub.id}/indexes`)));
  add('bulkJobs.create', 'create-bulk-job', templated(`${base}/bulk-jobs{/jobType}`));
  add('bulkJobs.get', 'bulk-job', templated(`${base}/bulk-jobs{/jobId}`));
  return links;
}

export function renderHub(ctx: RequestContext, hub: Hub) {
  const { modules: _modules, ...fields } = hub;
  return { ...fields, settings: publicSettings(hub.settings), _links: hubLinks(ctx, hub) };
}

/** API_SECRET is accepted on input and never returned. */
export function publicSettings(settings: HubSettings): HubSettings {
  const dam = settings.publishing?.platforms?.vendor_dam;
  if (!dam || !('API_SECRET' in dam)) return settings;
  const { API_SECRET: _secret, ...rest } = dam;
  return { ...settings, publishing: { ...settings.publishing, platforms: { ...settings.publishing!.platforms, vendor_dam: rest } } };
}
