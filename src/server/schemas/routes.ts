import { created, ok, type RequestContext } from '../core/context.js';
import { badRequest, conflict, serviceError } from '../core/errors.js';
import { intParam, link, pageOf, pageRequest, statusList } from '../core/hal.js';
import { loadHub } from '../hubs/index.js';
import { loadSchema } from './load.js';
import { newId } from '../core/ids.js';
import { hubStatusFilter, saveSchema, schemaByUri, schemaVersion, schemaVersions, schemas, type ContentTypeSchema } from './store.js';
import { renderSchema, renderSchemaVersion } from './render.js';
import { checkSchemaDocument, inlineSchemaRefs, parseSchemaBody, schemaDocumentId } from './rules.js';
import type { Input } from '../core/validate.js';
import type * as bodies from './schemas.js';

const SORTABLE = ['schemaId', 'version', 'status', 'validationLevel', 'createdDate', 'lastModifiedDate'] as const;
const STATUSES = ['ACTIVE', 'ARCHIVED'] as const;

/** Clients send and expect the document as a string; an object body is stored as indented JSON. */
const schemaText = (body: string | Record<string, unknown>): string => (typeof body === 'string' ? body : JSON.stringify(body, null, 2));

export function create(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const input = ctx.body<Input<typeof bodies.create>>();
  if (schemaByUri(ctx.db, hubId, input.schemaId)) {
    throw conflict(`A schema with id ${input.schemaId} already exists in this hub`, { code: 'DUPLICATE_SCHEMA_ID', entity: 'ContentTypeSchema', property: 'schemaId', invalidValue: input.schemaId });
  }
  checkSchemaDocument(ctx.db, hubId, input.schemaId, input.body, input.validationLevel);
  const schema: ContentTypeSchema = {
    id: newId(ctx.now()),
    hubId,
    schemaId: input.schemaId,
    body: schemaText(input.body),
    version: 1,
    validationLevel: input.validationLevel,
    status: 'ACTIVE',
    ...ctx.createdStamp(),
  };
  saveSchema(ctx.db, schema, true);
  return created(renderSchema(ctx, schema), ctx.href(`/content-type-schemas/${schema.id}`));
}

/** The hub's schemas; `status` filters by a comma list (all statuses when absent). */
export function list(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const req = pageRequest(ctx, SORTABLE, [{ field: 'createdDate', dir: 'asc' }]);
  const filter = hubStatusFilter(hubId, statusList(ctx, STATUSES));
  return ok(pageOf(ctx, 'content-type-schemas', schemas(ctx.db).page(filter, req), req, (s) => renderSchema(ctx, s)));
}

export function get(ctx: RequestContext) {
  return ok(renderSchema(ctx, loadSchema(ctx)));
}

export function getVersion(ctx: RequestContext) {
  const schema = loadSchema(ctx);
  const version = intParam(ctx.params.version!, 'version', 1, 1, Number.MAX_SAFE_INTEGER);
  const found = schemaVersion(ctx.db, schema.id, version);
  if (!found) throw versionNotFound(schema, version);
  return ok(renderSchemaVersion(ctx, found));
}

/** Every version of a schema, newest first (sort=version,asc for oldest first). */
export function history(ctx: RequestContext) {
  const schema = loadSchema(ctx);
  const req = pageRequest(ctx, ['version'], [{ field: 'version', dir: 'desc' }]);
  const page = schemaVersions(ctx.db, schema.id, req.page, req.size, req.sort[0]?.dir === 'asc');
  return ok(pageOf(ctx, 'content-type-schemas', page, req, (s) => renderSchemaVersion(ctx, s)));
}

/** A new version from a new body and/or validation level, checked like a new schema. */
export function update(ctx: RequestContext) {
  const schema = loadSchema(ctx);
  const input = ctx.body<Input<typeof bodies.update>>();
  if (input.body === undefined && input.validationLevel === undefined) {
    throw badRequest('Give body and/or validationLevel to make a new version', { code: 'VALIDATION_FAILED', entity: 'ContentTypeSchema', property: 'body', invalidValue: null });
  }
  if (schema.status !== 'ACTIVE') {
    throw conflict(`Schema ${schema.schemaId} is archived; unarchive it before updating`, { code: 'SCHEMA_ARCHIVED', entity: 'ContentTypeSchema', property: 'status', invalidValue: schema.status });
  }
  if (input.version !== undefined) assertCurrentVersion(schema, input.version);
  const validationLevel = input.validationLevel ?? schema.validationLevel;
  const body = input.body === undefined ? schema.body : schemaText(input.body);
  checkSchemaDocument(ctx.db, schema.hubId, schema.schemaId, body, validationLevel);
  const next: ContentTypeSchema = { ...schema, body, validationLevel, version: schema.version + 1, ...ctx.modifiedStamp() };
  saveSchema(ctx.db, next, false);
  return ok(renderSchema(ctx, next), ctx.href(`/content-type-schemas/${schema.id}`));
}

export function archive(ctx: RequestContext) {
  return changeStatus(ctx, 'ACTIVE', 'ARCHIVED');
}

export function unarchive(ctx: RequestContext) {
  return changeStatus(ctx, 'ARCHIVED', 'ACTIVE');
}

/**
 * Resolves a schema: the given body, or the hub's schema named by schemaId, with every $ref to
 * another schema of the hub inlined.
 */
export function resolve(ctx: RequestContext) {
  const hubId = loadHub(ctx).id;
  const input = ctx.body<Input<typeof bodies.resolve>>();
  const doc = parseSchemaBody(input.body ?? storedBody(ctx, hubId, input.schemaId!));
  return ok({
    schemaId: input.schemaId ?? schemaDocumentId(doc) ?? null,
    body: schemaText(inlineSchemaRefs(ctx.db, hubId, doc)),
    resolved: true,
    _links: { self: link(ctx.href(`/hubs/${hubId}/content-type-schemas/resolve`)) },
  });
}

/** The document of the hub's schema with this id URL; 400 naming schemaId when there is none. */
function storedBody(ctx: RequestContext, hubId: string, schemaId: string): string {
  const stored = schemaByUri(ctx.db, hubId, schemaId);
  if (!stored) {
    throw badRequest(`No content type schema with id ${schemaId} in this hub`, { code: 'SCHEMA_NOT_FOUND', entity: 'ContentTypeSchema', property: 'schemaId', invalidValue: schemaId });
  }
  return stored.body;
}

/** Archive and unarchive: the body's version must be current and the schema in state `from`. */
function changeStatus(ctx: RequestContext, from: ContentTypeSchema['status'], to: ContentTypeSchema['status']) {
  const schema = loadSchema(ctx);
  const { version } = ctx.body<Input<typeof bodies.version>>();
  if (schema.status !== from) {
    const code = to === 'ARCHIVED' ? 'SCHEMA_ALREADY_ARCHIVED' : 'SCHEMA_NOT_ARCHIVED';
    const state = to === 'ARCHIVED' ? 'already archived' : 'not archived';
    throw conflict(`Schema ${schema.schemaId} is ${state}`, { code, entity: 'ContentTypeSchema', property: 'status', invalidValue: schema.status });
  }
  assertCurrentVersion(schema, version);
  const next: ContentTypeSchema = { ...schema, status: to, ...ctx.modifiedStamp() };
  saveSchema(ctx.db, next, false);
  return ok(renderSchema(ctx, next), ctx.href(`/content-type-schemas/${schema.id}`));
}

/** Optimistic concurrency: a change names the version it was made from. */
function assertCurrentVersion(schema: ContentTypeSchema, version: number): void {
  if (version !== schema.version) {
    throw conflict(`Version ${version} of schema ${schema.schemaId} is not the current version (${schema.version}); fetch it again`, {
      code: 'VERSION_CONFLICT',
      entity: 'ContentTypeSchema',
      property: 'version',
      invalidValue: version,
    });
  }
}

function versionNotFound(schema: ContentTypeSchema, version: number) {
  return serviceError(404, { entity: 'ContentTypeSchema', property: 'version', invalidValue: version, message: `Schema ${schema.schemaId} has no version ${version}` });
}
