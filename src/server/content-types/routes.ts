import { created, noContent, ok, type RequestContext } from '../core/context.js';
import { badRequest, conflict, notFound, serviceError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { link, pageOf, pageRequest, statusList } from '../core/hal.js';
import { loadContentType } from './load.js';
import { loadHub } from '../hubs/index.js';
import { loadRepository } from '../repositories/index.js';
import { contentTypes, type ContentType } from './store.js';
import { repositories } from '../repositories/index.js';
import { hubStatusFilter, schemaByUri, type ContentTypeSchema } from '../schemas/index.js';
import { renderCachedSchema, renderContentType } from './render.js';
import { renderRepository } from '../repositories/index.js';
import { effectiveSchema } from '../schemas/index.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

const SORTABLE = ['contentTypeUri', 'status', 'settings.label', 'createdDate', 'lastModifiedDate'] as const;
const STATUSES = ['ACTIVE', 'ARCHIVED'] as const;

/** Registers a schema of the hub as a content type; its document becomes the cached schema. */
export function register(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const input = ctx.body<Input<typeof bodies.register>>();
  const schema = schemaByUri(ctx.db, hubId, input.contentTypeUri);
  if (!schema || schema.status !== 'ACTIVE') {
    throw badRequest(`No active content type schema with id ${input.contentTypeUri} in this hub; create it first`, {
      code: 'SCHEMA_NOT_FOUND',
      entity: 'ContentType',
      property: 'contentTypeUri',
      invalidValue: input.contentTypeUri,
    });
  }
  if (contentTypes(ctx.db).find({ where: 'hub_id = ? AND uri = ?', params: [hubId, input.contentTypeUri] })) {
    throw conflict(`A content type for ${input.contentTypeUri} is already registered in this hub`, {
      code: 'DUPLICATE_CONTENT_TYPE',
      entity: 'ContentType',
      property: 'contentTypeUri',
      invalidValue: input.contentTypeUri,
    });
  }
  const type: ContentType = {
    id: newId(ctx.now()),
    hubId,
    contentTypeUri: input.contentTypeUri,
    status: 'ACTIVE',
    settings: input.settings,
    ...cachedFrom(schema),
    ...ctx.createdStamp(),
  };
  contentTypes(ctx.db).insert(type);
  return created(renderContentType(ctx, type), ctx.href(`/content-types/${type.id}`));
}

/** The hub's content types; `status` filters by a comma list (all statuses when absent). */
export function list(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const req = pageRequest(ctx, SORTABLE, [{ field: 'createdDate', dir: 'asc' }]);
  const filter = hubStatusFilter(hubId, statusList(ctx, STATUSES));
  return ok(pageOf(ctx, 'content-types', contentTypes(ctx.db).page(filter, req), req, (t) => renderContentType(ctx, t)));
}

export function get(ctx: RequestContext) {
  return ok(renderContentType(ctx, loadContentType(ctx)));
}

/** The settings object replaces the stored one whole (nested objects in a PATCH replace). */
export function update(ctx: RequestContext) {
  const type = loadContentType(ctx);
  const { settings } = ctx.body<Input<typeof bodies.update>>();
  if (type.status !== 'ACTIVE') {
    throw conflict(`Content type ${type.contentTypeUri} is archived; unarchive it before updating`, { code: 'CONTENT_TYPE_ARCHIVED', entity: 'ContentType', property: 'status', invalidValue: type.status });
  }
  return saved(ctx, { ...type, settings, ...ctx.modifiedStamp() });
}

export function archive(ctx: RequestContext) {
  return changeStatus(ctx, 'ACTIVE', 'ARCHIVED');
}

export function unarchive(ctx: RequestContext) {
  return changeStatus(ctx, 'ARCHIVED', 'ACTIVE');
}

export function getSchema(ctx: RequestContext) {
  return ok(renderCachedSchema(ctx, loadContentType(ctx)));
}

/** Sync: the cached schema (what item bodies are validated against) becomes the schema's current version. */
export function syncSchema(ctx: RequestContext) {
  const type = loadContentType(ctx);
  const schema = schemaByUri(ctx.db, type.hubId, type.contentTypeUri);
  if (!schema) throw notFound('ContentTypeSchema', type.contentTypeUri);
  const next: ContentType = { ...type, ...cachedFrom(schema), ...ctx.modifiedStamp() };
  contentTypes(ctx.db).update(next);
  return ok(renderCachedSchema(ctx, next), ctx.href(`/content-types/${type.id}/schema`));
}

/**
 * The effective content type: a JSON Schema document, the cached schema with every reference
 * (other schemas of the hub, core, localization) inlined and its allOf merged, so top-level
 * `properties` lists every property an item can have (wire-contract §6.6), plus `_links`.
 */
export function effective(ctx: RequestContext) {
  const type = loadContentType(ctx);
  const self = ctx.href(`/content-types/${type.id}`);
  return ok({
    ...effectiveSchema(ctx.db, type.hubId, type.cachedSchema),
    _links: { self: link(`${self}/effective-content-type`), 'content-type': link(self), 'content-type-schema': link(`${self}/schema`) },
  });
}

/** Assigns a content type of the hub to a repository: items of that type may then be created there. */
export function assign(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  const { contentTypeId } = ctx.body<Input<typeof bodies.assign>>();
  const type = contentTypes(ctx.db).get(contentTypeId);
  if (!type || type.hubId !== repo.hubId) {
    throw badRequest(`No content type ${contentTypeId} in this hub`, { code: 'CONTENT_TYPE_NOT_FOUND', entity: 'ContentRepository', property: 'contentTypeId', invalidValue: contentTypeId });
  }
  if (type.status !== 'ACTIVE') throw conflict(`Content type ${contentTypeId} is archived`, { code: 'CONTENT_TYPE_ARCHIVED', property: 'contentTypeId', invalidValue: contentTypeId });
  let next = repo;
  if (!repo.contentTypes.some((t) => t.hubContentTypeId === type.id)) {
    next = { ...repo, contentTypes: [...repo.contentTypes, { hubContentTypeId: type.id, contentTypeUri: type.contentTypeUri }], ...ctx.modifiedStamp() };
    repositories(ctx.db).update(next);
  }
  return ok(renderRepository(ctx, next), ctx.href(`/content-repositories/${repo.id}`));
}

/** Removes a content type from a repository; 404 when it is not assigned there. */
export function unassign(ctx: RequestContext) {
  const repo = loadRepository(ctx);
  const typeId = ctx.params.typeId!;
  if (!repo.contentTypes.some((t) => t.hubContentTypeId === typeId)) {
    throw serviceError(404, { code: 'CONTENT_TYPE_NOT_ASSIGNED', entity: 'ContentType', property: 'id', invalidValue: typeId, message: `Content type ${typeId} is not assigned to repository ${repo.name}` });
  }
  repositories(ctx.db).update({ ...repo, contentTypes: repo.contentTypes.filter((t) => t.hubContentTypeId !== typeId), ...ctx.modifiedStamp() });
  return noContent();
}

/** Archive and unarchive: a content type moves only from `from` to `to`. */
function changeStatus(ctx: RequestContext, from: ContentType['status'], to: ContentType['status']) {
  const type = loadContentType(ctx);
  if (type.status !== from) {
    const code = to === 'ARCHIVED' ? 'CONTENT_TYPE_ALREADY_ARCHIVED' : 'CONTENT_TYPE_NOT_ARCHIVED';
    const state = to === 'ARCHIVED' ? 'already archived' : 'not archived';
    throw conflict(`Content type ${type.contentTypeUri} is ${state}`, { code, entity: 'ContentType', property: 'status', invalidValue: type.status });
  }
  return saved(ctx, { ...type, status: to, ...ctx.modifiedStamp() });
}

function saved(ctx: RequestContext, type: ContentType) {
  contentTypes(ctx.db).update(type);
  return ok(renderContentType(ctx, type), ctx.href(`/content-types/${type.id}`));
}

/** The schema's current document as a type's cached schema: what item bodies are validated against. */
function cachedFrom(schema: ContentTypeSchema): Pick<ContentType, 'cachedSchema' | 'cachedSchemaVersion'> {
  return { cachedSchema: JSON.parse(schema.body) as Record<string, unknown>, cachedSchemaVersion: schema.version };
}
