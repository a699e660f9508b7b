import type { RequestContext } from '../core/context.js';
import { badRequest } from '../core/errors.js';
import type { ContentType } from './store.js';
import type { Db } from '../core/db.js';
import type { Repository } from '../repositories/index.js';
import { schemaByUri } from '../schemas/index.js';

// Slot items: content items of a slot type (a content type whose schema has validation level
// SLOT), kept in repositories with the slots feature.

/** Whether a content type is a slot type: its schema was created with validationLevel SLOT. */
export function isSlotType(db: Db, type: ContentType): boolean {
  return schemaByUri(db, type.hubId, type.contentTypeUri)?.validationLevel === 'SLOT';
}

/** Something a planner filled in: text, a number, a flag, or a list or object holding one. */
function hasData(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.some(hasData);
  if (typeof value === 'object') return Object.values(value).some(hasData);
  return true;
}

/**
 * "Sample data is required before it can be saved": a slot item whose body holds nothing but
 * _meta (or only empty values) is refused with 400 SLOT_SAMPLE_DATA_REQUIRED. Items of other
 * types pass.
 */
export function checkSlotSampleData(ctx: Pick<RequestContext, 'db'>, repo: Repository, type: ContentType, body: Record<string, unknown>): void {
  if (!isSlotType(ctx.db, type)) return;
  if (Object.entries(body).some(([key, value]) => key !== '_meta' && hasData(value))) return;
  throw badRequest(`A slot needs sample data before it can be saved: fill in at least one field of ${type.contentTypeUri} (repository ${repo.name})`, {
    code: 'SLOT_SAMPLE_DATA_REQUIRED',
    entity: 'ContentItem',
    property: 'body',
    invalidValue: body,
  });
}
