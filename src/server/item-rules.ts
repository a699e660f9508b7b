import type { RequestContext } from './context.js';
import { badRequest, validationFailed } from './errors.js';
import { SchemaDocumentError, compile, validate } from './json-schema.js';
import { contentTypes, type ContentType } from './store/content-types.js';
import { folders } from './store/folders.js';
import { hubs } from './store/hubs.js';
import type { Repository } from './store/repositories.js';
import { findSchemaDocument } from './store/schemas.js';

// The rules every path that writes an item body applies (create, update, copy, bulk, import).

/** The content type named by body._meta.schema, which must be active and assigned to the repository. */
export function assignedType(ctx: RequestContext, repo: Repository, schemaUri: unknown): ContentType {
  if (typeof schemaUri !== 'string' || !schemaUri) {
    throw badRequest('body._meta.schema is required: the content type URI of the item', { code: 'VALIDATION_FAILED', entity: 'ContentItem', property: 'body._meta.schema', invalidValue: schemaUri ?? null });
  }
  const assigned = repo.contentTypes.find((t) => t.contentTypeUri === schemaUri);
  const type = assigned ? contentTypes(ctx.db).get(assigned.hubContentTypeId) : undefined;
  if (!type) {
    throw badRequest(`Content type ${schemaUri} is not assigned to repository ${repo.name}`, { code: 'CONTENT_TYPE_NOT_ASSIGNED', entity: 'ContentItem', property: 'body._meta.schema', invalidValue: schemaUri });
  }
  if (type.status !== 'ACTIVE') {
    throw badRequest(`Content type ${schemaUri} is archived`, { code: 'CONTENT_TYPE_ARCHIVED', entity: 'ContentItem', property: 'body._meta.schema', invalidValue: schemaUri });
  }
  return type;
}

/** Whether schema validation is skipped: ?ignoreSchemaValidation=true or the hub's setting. */
export function skipsValidation(ctx: RequestContext, hubId: string): boolean {
  if (ctx.query.get('ignoreSchemaValidation') === 'true') return true;
  return hubs(ctx.db).get(hubId)?.settings.contentItems?.validation?.ignoreSchemaValidation === true;
}

/** Validates a body against the type's cached schema; 400 with one entry per problem. */
export function checkBody(ctx: RequestContext, type: ContentType, body: Record<string, unknown>): void {
  if (skipsValidation(ctx, type.hubId)) return;
  let fn;
  try {
    fn = compile(type.cachedSchema, (ref) => findSchemaDocument(ctx.db, type.hubId, ref));
  } catch (err) {
    if (!(err instanceof SchemaDocumentError)) throw err;
    throw badRequest(`The schema of content type ${type.contentTypeUri} cannot be used: ${err.message}`, { code: 'SCHEMA_INVALID', entity: 'ContentType', property: 'cachedSchema', invalidValue: type.contentTypeUri });
  }
  const problems = validate(fn, body, 'body');
  if (problems.length) {
    throw validationFailed(problems.map((p) => ({ entity: 'ContentItem', property: p.property, invalidValue: p.invalidValue, message: `${p.property}: ${p.message}` })));
  }
}

/** A locale must be one of the repository's item locales when it has any. */
export function checkLocale(repo: Repository, locale: string | null | undefined): void {
  if (locale === null || locale === undefined) return;
  if (repo.itemLocales.length && !repo.itemLocales.includes(locale)) {
    throw badRequest(`Locale ${locale} is not one of the item locales of repository ${repo.name} (${repo.itemLocales.join(', ')})`, {
      code: 'LOCALE_NOT_ALLOWED',
      entity: 'ContentItem',
      property: 'locale',
      invalidValue: locale,
    });
  }
}

/** A folder must exist in the same repository. */
export function checkFolder(ctx: RequestContext, repo: Repository, folderId: string | null | undefined): void {
  if (folderId === null || folderId === undefined) return;
  const folder = folders(ctx.db).get(folderId);
  if (!folder || folder.repositoryId !== repo.id) {
    throw badRequest(`No folder ${folderId} in repository ${repo.name}`, { code: 'FOLDER_NOT_FOUND', entity: 'ContentItem', property: 'folderId', invalidValue: folderId });
  }
}
