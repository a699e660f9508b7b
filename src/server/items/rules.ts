import type { RequestContext, Scope } from '../core/context.js';
import { badRequest, conflict, forbidden, serviceError, validationFailed } from '../core/errors.js';
import { SchemaDocumentError, compile, validate } from '../schemas/index.js';
import { contentTypes, type ContentType } from '../content-types/index.js';
import { folders } from '../folders/index.js';
import { HUB_MODULES, hubs } from '../hubs/index.js';
import { items, type ContentItem } from './store.js';
import type { Repository } from '../repositories/index.js';
import { findSchemaDocument } from '../schemas/index.js';
import { checkSlotSampleData } from '../content-types/index.js';
import type { Db } from '../core/db.js';

// The rules every path that writes an item body applies (create, update, copy, bulk, import).

/** The content type named by body._meta.schema, which must be active and assigned to the repository. */
export function assignedType(ctx: Pick<RequestContext, 'db'>, repo: Repository, schemaUri: unknown): ContentType {
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

/**
 * Validates a body: a slot needs sample data (always), then the type's cached schema (unless
 * validation is skipped); 400 with one entry per problem.
 */
export function checkBody(ctx: RequestContext, repo: Repository, type: ContentType, body: Record<string, unknown>): void {
  checkSlotSampleData(ctx, repo, type, body);
  if (skipsValidation(ctx, type.hubId)) return;
  let fn;
  try {
    fn = compile(type.cachedSchema, (ref) => findSchemaDocument(ctx.db, type.hubId, ref));
  } catch (err) {
    if (!(err instanceof SchemaDocumentError)) throw err;
    // A reference that does not resolve (yet) or never can names itself: code and invalid value.
    const ref = err.code ? err.problems[0]!.invalidValue : type.contentTypeUri;
    throw badRequest(`The schema of content type ${type.contentTypeUri} cannot be used: ${err.message}`, { code: err.code ?? 'SCHEMA_INVALID', entity: 'ContentType', property: 'cachedSchema', invalidValue: ref });
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
export function checkFolder(ctx: Pick<RequestContext, 'db'>, repo: Repository, folderId: string | null | undefined): void {
  if (folderId === null || folderId === undefined) return;
  const folder = folders(ctx.db).get(folderId);
  if (!folder || folder.repositoryId !== repo.id) {
    throw badRequest(`No folder ${folderId} in repository ${repo.name}`, { code: 'FOLDER_NOT_FOUND', entity: 'ContentItem', property: 'folderId', invalidValue: folderId });
  }
}

/** An item changes only from its current version: a stale one is a conflict (400 where the description says so). */
export function checkVersion(item: ContentItem, version: number, status = 409): void {
  if (version === item.version) return;
  throw serviceError(status, {
    code: 'VERSION_CONFLICT',
    entity: 'ContentItem',
    property: 'version',
    invalidValue: version,
    message: `Version ${version} is not the current version of content item ${item.id} (${item.version}); fetch it again and retry`,
  });
}

/** An archived item must be unarchived before it changes. */
export function checkActive(item: ContentItem): void {
  if (item.status === 'ACTIVE') return;
  throw conflict(`Content item ${item.id} is archived; unarchive it first`, { code: 'ITEM_ARCHIVED', entity: 'ContentItem', property: 'status', invalidValue: item.status });
}

/**
 * Applies another operation's permissions (functional and ACL) to a second resource the request
 * touches: the source of a copy must be readable by the caller.
 */
export function authorizeAs(ctx: RequestContext, op: string, scope: Scope, entity: string, id: string): void {
  const route = ctx.service.routeByOp(op)!;
  const missing = (route.fn ?? []).find((f) => !ctx.principal.hasFunctional(f));
  if (missing) throw forbidden(`Access denied: ${entity} ${id} requires the functional permission ${missing}`, { code: 'ACCESS_DENIED', entity, property: 'permission', invalidValue: missing });
  ctx.authorize(scope, entity, id, route);
}

const DELIVERY_KEY_CHARS = /^[A-Za-z0-9_/-]+$/;
const DELIVERY_KEY_MAX = 150;

/**
 * A delivery key (Content Delivery 2): the hub must have the module, the key must be well
 * formed, and no other item of the hub may hold it.
 */
export function checkDeliveryKey(db: Db, hubId: string, itemId: string, key: string, property = 'deliveryKey'): void {
  if (!hubs(db).get(hubId)?.modules.includes(HUB_MODULES['content-delivery-2'])) {
    throw badRequest('Delivery keys need the Content Delivery 2 module, which is not enabled on the hub (an administrator enables it)', {
      code: 'CONTENT_DELIVERY_2_NOT_ENABLED',
      entity: 'ContentItem',
      property,
      invalidValue: key,
    });
  }
  const problem = deliveryKeyProblem(key);
  if (problem) throw badRequest(`${property}: ${problem}`, { code: 'INVALID_DELIVERY_KEY', entity: 'ContentItem', property, invalidValue: key });
  const holder = items(db).find({ where: 'hub_id = ? AND delivery_key = ? AND id != ?', params: [hubId, key, itemId] });
  if (holder) {
    throw conflict(`Delivery key '${key}' is already used by content item ${holder.id} in this hub`, { code: 'DELIVERY_KEY_TAKEN', entity: 'ContentItem', property, invalidValue: key });
  }
}

/** What is wrong with a key's form: 1..150 letters, digits, - _ and /, no leading slash, no `//`. */
function deliveryKeyProblem(key: string): string | null {
  if (key.length < 1 || key.length > DELIVERY_KEY_MAX) return `must be 1 to ${DELIVERY_KEY_MAX} characters`;
  if (!DELIVERY_KEY_CHARS.test(key)) return 'may hold only letters, digits, hyphens, underscores and slashes';
  if (key.startsWith('/')) return 'must not start with a slash';
  if (key.includes('//')) return 'must not contain two consecutive slashes';
  return null;
}

/** The item holding `key` (or none), with the top-level field and body._meta.deliveryKey in step. */
export function withDeliveryKey(item: ContentItem, key: string | null): ContentItem {
  const { deliveryKey: _old, ...meta } = item.body._meta;
  return { ...item, deliveryKey: key, body: { ...item.body, _meta: key === null ? meta : { ...meta, deliveryKey: key } } };
}

/**
 * The delivery key an item should hold after a write. Clients move keys in body._meta.deliveryKey
 * and send whole fetched items back, so whichever of it and the top-level field differs from the
 * current key is the change; when neither does (or both are absent) the key stays.
 */
export function requestedDeliveryKey(current: string | null, body: { _meta: { deliveryKey?: string | null } } | undefined, topLevel: string | null | undefined): string | null {
  const inBody = body && 'deliveryKey' in body._meta ? (body._meta.deliveryKey ?? null) : undefined;
  if (inBody !== undefined && inBody !== current) return inBody;
  if (topLevel !== undefined && topLevel !== current) return topLevel;
  return current;
}
