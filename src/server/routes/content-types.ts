import { created, ok, type RequestContext } from '../context.js';
import { badRequest, conflict } from '../errors.js';
import { newId } from '../ids.js';
import { loadContentType, loadHub, loadRepository } from '../load.js';
import { contentTypes, type ContentType } from '../store/content-types.js';
import { repositories } from '../store/repositories.js';
import { schemas } from '../store/schemas.js';
import { renderContentType } from '../resources/content-type.js';
import { renderRepository } from '../resources/repository.js';
import type { Input } from '../validate.js';
import type * as bodies from '../schemas/content-types.js';

/** Registers a schema of the hub as a content type; its document becomes the cached schema. */
export function register(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const input = ctx.body<Input<typeof bodies.register>>();
  const schema = schemas(ctx.db).find({ where: 'hub_id = ? AND schema_id = ?', params: [hubId, input.contentTypeUri] });
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
    cachedSchema: JSON.parse(schema.body) as Record<string, unknown>,
    cachedSchemaVersion: schema.version,
    ...ctx.createdStamp(),
  };
  contentTypes(ctx.db).insert(type);
  return created(renderContentType(ctx, type), ctx.href(`/content-types/${type.id}`));
}

export function get(ctx: RequestContext) {
  return ok(renderContentType(ctx, loadContentType(ctx)));
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
