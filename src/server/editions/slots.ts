import type { Db } from '../core/db.js';
import { badRequest, conflict } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { contentTypes } from '../content-types/index.js';
import { editionSlots, type Edition, type EditionSlot } from './store.js';
import { items, type ContentItem } from '../items/index.js';
import { repositories } from '../repositories/index.js';

// Edition slots: which slot items an edition holds. Each association uses one of the edition's
// slotsRemaining (200 to begin with); a slot is associated at most once per edition.

/** The slot item an assignment names: an active content item of the hub in a repository with the slots feature (400 otherwise). */
export function slotItem(db: Db, hubId: string, id: string, property: string): ContentItem {
  const item = items(db).get(id);
  const fail = (code: string, message: string) => badRequest(message, { code, entity: 'EditionSlot', property, invalidValue: id });
  if (!item || item.hubId !== hubId) throw fail('SLOT_NOT_FOUND', `No content item ${id} in this hub`);
  if (!repositories(db).get(item.contentRepositoryId)?.features.includes('slots')) {
    throw fail('NOT_A_SLOT', `Content item ${id} is not a slot: its repository does not have the slots feature`);
  }
  if (item.status !== 'ACTIVE') throw fail('SLOT_ARCHIVED', `Slot ${id} is archived`);
  return item;
}

/** A new, empty and VALID edition slot for a slot item. */
export function newEditionSlot(db: Db, edition: Edition, slot: ContentItem, nowIso: string): EditionSlot {
  const schema = slot.body._meta.schema;
  return {
    id: newId(Date.parse(nowIso)),
    hubId: edition.hubId,
    editionId: edition.id,
    eventId: edition.eventId,
    slotId: slot.id,
    slotLabel: slot.label,
    contentTypeId: contentTypes(db).find({ where: 'hub_id = ? AND uri = ?', params: [edition.hubId, schema] })?.id ?? null,
    status: 'VALID',
    empty: true,
    conflicts: false,
    content: { body: { _meta: { schema, name: slot.body._meta.name ?? 'slot' } } },
    locale: slot.locale,
    createdDate: nowIso,
    lastModifiedDate: nowIso,
  };
}

/** A copy of an edition slot, content included, for another edition. */
export function copiedEditionSlot(source: EditionSlot, edition: Edition, nowIso: string): EditionSlot {
  return { ...source, id: newId(Date.parse(nowIso)), editionId: edition.id, eventId: edition.eventId, createdDate: nowIso, lastModifiedDate: nowIso };
}

/**
 * Associates edition slots with an edition, all or none: 409 when a slot is already in the
 * edition (or named twice) or when they outnumber slotsRemaining. Returns the slotsRemaining
 * the caller stores on the edition.
 */
export function addSlots(db: Db, edition: Edition, slots: readonly EditionSlot[]): number {
  const seen = new Set(editionSlots(db).all({ where: 'edition_id = ?', params: [edition.id] }).map((s) => s.slotId));
  for (const slot of slots) {
    if (seen.has(slot.slotId)) {
      throw conflict(`Slot ${slot.slotId} is already in edition ${edition.id}; a slot can be in an edition once`, { code: 'SLOT_ALREADY_IN_EDITION', entity: 'EditionSlot', property: 'slot', invalidValue: slot.slotId });
    }
    seen.add(slot.slotId);
  }
  if (slots.length > edition.slotsRemaining) {
    throw conflict(`Cannot add ${slots.length} slot(s): the edition has ${edition.slotsRemaining} of its slots remaining`, {
      code: 'EDITION_SLOTS_EXCEEDED',
      entity: 'Edition',
      property: 'slotsRemaining',
      invalidValue: edition.slotsRemaining,
    });
  }
  for (const slot of slots) editionSlots(db).insert(slot);
  return edition.slotsRemaining - slots.length;
}
