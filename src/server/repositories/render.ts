import type { RequestContext } from '../core/context.js';
import { link, linkSet, templated, type Links } from '../core/hal.js';
import type { Repository } from './store.js';

export function repositoryLinks(ctx: RequestContext, repo: Repository): Links {
  const base = ctx.href(`/content-repositories/${repo.id}`);
  const hubBase = ctx.href(`/hubs/${repo.hubId}`);
  const { links, add } = linkSet(ctx, { hubId: repo.hubId, repoId: repo.id }, { self: link(base), 'content-repository': link(base) });
  add('repositories.update', 'update', link(base));
  add('repositories.remove', 'delete', link(base));
  add('hubs.get', 'hub', link(hubBase));
  add('items.create', 'create-content-item', templated(`${base}/content-items{?ignoreSchemaValidation}`));
  add('search.find', 'search-content-items', templated(`${hubBase}/content-items/find{?query,page,projection,size,sort}`));
  add('search.facet', 'facet-content-items', templated(`${hubBase}/content-items/facet{?query,page,projection,size,sort,createdDate.dir}`));
  add('items.list', 'content-items', templated(`${base}/content-items{?folderId,page,projection,size,sort,status,excludeHierarchicalChildren}`));
  add('repositories.share', 'share', link(`${base}/share`));
  add('contentTypes.assign', 'assign-content-type', link(`${base}/content-types`));
  add('contentTypes.unassign', 'unassign-content-type', templated(`${base}/content-types/{id}`));
  add('folders.list', 'folders', templated(`${base}/folders{?page,size,sort}`));
  add('folders.create', 'create-folder', link(`${base}/folders`));
  add('repositories.addFeature', 'features', templated(`${base}/features{?feature}`));
  add('items.bulkUpdate', 'update-content-items', link(ctx.href('/content-items')));
  add('repositories.setItemLocales', 'set-item-locales', link(`${base}/item-locales`));
  add('repositories.joinLocalizationGroup', 'join-localization-group', link(`${base}/localization-group`));
  add('repositories.localizationGroupLocales', 'localization-group-locales', link(`${base}/localization-group/locales`));
  return links;
}

export function renderRepository(ctx: RequestContext, repo: Repository) {
  const { groupId: _group, ...fields } = repo;
  return { ...fields, _links: repositoryLinks(ctx, repo) };
}
