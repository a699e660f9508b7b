// What editions plan for content items: which edition slots use a slot item, and which version of
// an item will be live at a given time. Read-only queries for the items handlers.
import type { Db } from '../core/db.js';
import { stmt } from '../core/statements.js';
import { items } from '../items/index.js';
import { editions, type Edition, type PublishingStatus } from './store.js';
import { publishEntries } from './rules.js';

export interface EditionSlotAssociation {
  editionId: string;
  editionSlotId: string;
  eventId: string;
  editionName: string;
  start: string;
  end: string;
  publishingStatus: PublishingStatus;
}

/** Every edition slot that uses a slot item, by edition start. */
export function editionSlotAssociations(db: Db, itemId: string): EditionSlotAssociation[] {
  const rows = stmt(db, 'SELECT s.id AS slotId, e.data AS edition FROM edition_slots s JOIN editions e ON e.id = s.edition_id WHERE s.slot_id = ? ORDER BY e.start, e.rowid').all(itemId) as {
    slotId: string;
    edition: string;
  }[];
  return rows.map((row) => {
    const e = JSON.parse(row.edition) as Edition;
    return { editionId: e.id, editionSlotId: row.slotId, eventId: e.eventId, editionName: e.name, start: e.start, end: e.end, publishingStatus: e.publishingStatus };
  });
}

const WILL_PUBLISH: readonly PublishingStatus[] = ['SCHEDULED', 'PUBLISHING', 'PUBLISHED'];

/**
 * The version of an item that will be live at `atMs`: the one the latest-starting edition that
 * publishes it by then carries (its snapshot's version, or the one a conflict resolution chose), else the
 * item's last published version, else null. An edition whose content expires at its end
 * (activeEndDate) no longer counts after it.
 */
export function plannedVersion(db: Db, itemId: string, atMs: number): number | null {
  const item = items(db).get(itemId);
  if (!item) return null;
  const at = new Date(atMs).toISOString();
  const candidates = editions(db).all(
    { where: 'hub_id = ? AND start <= ? AND publishing_status IN (SELECT value FROM json_each(?))', params: [item.hubId, at, JSON.stringify(WILL_PUBLISH)] },
    [{ field: 'start', dir: 'desc' }],
  );
  for (const edition of candidates) {
    if (edition.activeEndDate && edition.end <= at) continue;
    const entry = publishEntries(db, edition).find((e) => e.itemId === itemId);
    if (entry) return entry.version;
  }
  return item.lastPublishedVersion ?? null;
}
