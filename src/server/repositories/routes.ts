import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { badRequest, conflict } from '../core/errors.js';
import { loadHub } from '../hubs/index.js';
import { loadRepository } from './load.js';
import { link, pageOf, pageRequest, templated } from '../core/hal.js';
import { newId } from '../core/ids.js';
import { groupLocales, repositories, type Repository } from './store.js';
import { renderRepository } from './render.js';
import { ACL_PERMISSIONS } from '../core/auth/permissions.js';
import { shareResource } from '../core/auth/share.js';
import type { Input } from '../core/validate.js';
import type * as schemas from './schemas.js';
import { stmt } from '../core/statements.js';

const SORTABLE = ['name', 'label', 'createdDate', 'lastModifiedDate'] as const;
const FEATURE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export function list(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const req = pageRequest(ctx, SORTABLE, [{ field: 'createdDate', dir: 'asc' }]);
  const page = pageOf(ctx, 'content-repositories', repositories(ctx.db).page({ where: 'hub_id = ?', params: [hubId] }, req), req, (r) =>
    renderRepository(ctx, r),
  );
  return ok(withFindLink(ctx, hubId, page));
}

export function findByFeature(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const feature = ctx.query.get('feature');
  if (!feature) throw badRequest("Query parameter 'feature' is required", { property: 'feature', invalidValue: null });
  const req = pageRequest(ctx, SORTABLE, [{ field: 'createdDate', dir: 'asc' }]);
  const filter = { where: "hub_id = ? AND EXISTS (SELECT 1 FROM json_each(data, '$.features') WHERE value = ?)", params: [hubId, feature] };
  const page = pageOf(ctx, 'content-repositories', repositories(ctx.db).page(filter, req), req, (r) => renderRepository(ctx, r));
  return ok(withFindLink(ctx, hubId, page));
}

export function create(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const input = ctx.body<Input<typeof schemas.create>>();
  assertNameFree(ctx, hubId, input.name);
  const id = newId(ctx.now());
  const repo: Repository = {
    id,
    hubId,
    name: input.name,
    label: input.label,
    status: 'ACTIVE',
    features: [],
    type: 'CONTENT',
    contentTypes: [],
    itemLocales: [],
    groupId: id,
    ...ctx.createdStamp(),
  };
  repositories(ctx.db).insert(repo);
  ctx.principal.grant('content-repositories', id, ACL_PERMISSIONS['content-repositories']);
  return created(renderRepository(ctx, repo), ctx.href(`/content-repositories/${id}`));
}

export function get(ctx: RequestContext) {
  return ok(renderRepository(ctx, loadRepository(ctx)));
}

export function update(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  const input = ctx.body<Input<typeof schemas.update>>();
  if (input.name !== undefined && input.name !== repo.name) assertNameFree(ctx, repo.hubId, input.name);
  const next = { ...repo, name: input.name ?? repo.name, label: input.label ?? repo.label, ...ctx.modifiedStamp() };
  repositories(ctx.db).update(next);
  return ok(renderRepository(ctx, next), ctx.href(`/content-repositories/${repo.id}`));
}

export function remove(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  stmt(ctx.db, "DELETE FROM acl WHERE resource_type = 'content-repositories' AND resource_id = ?").run(repo.id);
  // The full-text index is a virtual table: foreign keys do not cascade into it.
  stmt(ctx.db, 'DELETE FROM content_search WHERE rowid IN (SELECT seq FROM content_items WHERE repo_id = ?)').run(repo.id);
  repositories(ctx.db).delete(repo.id);
  return noContent();
}

export function addFeature(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  const feature = featureParam(ctx);
  if (!repo.features.includes(feature)) {
    repositories(ctx.db).update({ ...repo, features: [...repo.features, feature], ...ctx.modifiedStamp() });
  }
  return noContent(ctx.href(`/content-repositories/${repo.id}`));
}

export function removeFeature(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  const feature = featureParam(ctx);
  if (repo.features.includes(feature)) {
    repositories(ctx.db).update({ ...repo, features: repo.features.filter((f) => f !== feature), ...ctx.modifiedStamp() });
  }
  return noContent(ctx.href(`/content-repositories/${repo.id}`));
}

export function share(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  shareResource(ctx, 'content-repositories', repo.id);
  return noContent();
}

/** Item locales: items of this repository may then only take these locales. */
export function setItemLocales(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  const { itemLocales } = ctx.body<Input<typeof schemas.itemLocales>>();
  const next = { ...repo, itemLocales: [...new Set(itemLocales)], ...ctx.modifiedStamp() };
  repositories(ctx.db).update(next);
  return ok(renderRepository(ctx, next), ctx.href(`/content-repositories/${repo.id}`));
}

/** The repository named in newRepositoryId leaves its group and joins this repository's group. */
export function joinLocalizationGroup(ctx: RequestContext) {
  const target = loadRepository(ctx);
  const { newRepositoryId } = ctx.body<Input<typeof schemas.joinGroup>>();
  const store = repositories(ctx.db);
  const joining = store.get(newRepositoryId);
  if (!joining || joining.hubId !== target.hubId) {
    throw badRequest(`No repository '${newRepositoryId}' in this hub`, { entity: 'ContentRepository', property: 'newRepositoryId', invalidValue: newRepositoryId });
  }
  // The joining repository changes too: the caller needs the same rights on it.
  ctx.authorize({ hubId: joining.hubId, repoId: joining.id }, 'ContentRepository', joining.id);
  // Group ids are opaque labels: those left behind keep the old one and stay a group together.
  if (joining.groupId !== target.groupId) store.update({ ...joining, groupId: target.groupId, ...ctx.modifiedStamp() });
  return ok(renderRepository(ctx, store.get(target.id)!), ctx.href(`/content-repositories/${target.id}`));
}

export function localizationGroupLocales(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  const members = repositories(ctx.db).all({ where: 'group_id = ?', params: [repo.groupId] }, [{ field: 'createdDate', dir: 'asc' }]);
  return ok({
    locales: groupLocales(ctx.db, repo.groupId),
    repositories: members.map((r) => ({ id: r.id, name: r.name, itemLocales: r.itemLocales })),
    _links: { self: link(ctx.href(`/content-repositories/${repo.id}/localization-group/locales`)) },
  });
}

function featureParam(ctx: RequestContext): string {
  const feature = ctx.query.get('feature');
  if (!feature) throw badRequest("Query parameter 'feature' is required", { property: 'feature', invalidValue: null });
  if (!FEATURE.test(feature)) throw badRequest(`'${feature}' is not a feature name`, { property: 'feature', invalidValue: feature });
  return feature;
}

function withFindLink<T extends { _links: object }>(ctx: RequestContext, hubId: string, page: T): T {
  return {
    ...page,
    _links: {
      ...page._links,
      'search:findByFeaturesContaining': templated(ctx.href(`/hubs/${hubId}/content-repositories/search/findByFeaturesContaining{?feature,page,size,sort}`)),
    },
  };
}

function assertNameFree(ctx: RequestContext, hubId: string, name: string): void {
  if (repositories(ctx.db).find({ where: 'hub_id = ? AND name = ?', params: [hubId, name] })) {
    throw conflict(`A repository named '${name}' already exists in this hub`, {
      code: 'DUPLICATE_NAME',
      entity: 'ContentRepository',
      property: 'name',
      invalidValue: name,
    });
  }
}
