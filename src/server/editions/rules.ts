import type { Db } from '../core/db.js';
import { conflict } from '../core/errors.js';
import { editionContents, editionSlots, editions, type Edition, type EditionSlot } from './store.js';
import { events } from '../events/index.js';
import { items } from '../items/index.js';
import { snapshotItems } from '../snapshots/index.js';
import { slotSnapshotIds } from './slot-content.js';

// What an edition contains and whether it can be scheduled: pure reads over (db, edition).
// The edition's snapshots come from its slot contents and its edition contents; the items it
// publishes are the items those snapshots froze, at their frozen (or resolved) versions.

/** A snapshot the edition uses, and the edition slot whose content names it (none for edition content). */
export interface SnapshotUse {
  snapshotId: string;
  editionSlotId?: string;
}

/** One content item at one version, as one snapshot of the edition holds it. */
export interface ItemUse extends SnapshotUse {
  itemId: string;
  version: number;
}

export interface Conflict {
  /** The content item id. */
  id: string;
  label: string;
  versions: { version: number; snapshotId: string; editionSlotId?: string }[];
  /** The version the edition publishes, once a resolution chose one of the conflicting versions. */
  resolvedVersion?: number;
}

export interface SlotCollision {
  slotId: string;
  slotLabel: string;
  editionSlotId: string;
  collidingEditions: { editionId: string; name: string; start: string; end: string; publishingStatus: string }[];
}

export interface SchedulingProblem {
  level: 'ERROR' | 'WARNING';
  code: string;
  message: string;
  entity: 'Edition';
  property?: string;
  invalidValue?: unknown;
  [meta: string]: unknown;
}

const SCHEDULED_STATES = new Set(['SCHEDULING', 'SCHEDULED', 'PUBLISHING']);

/** Only a DRAFT edition that is not archived can change. */
export const isEditable = (edition: Edition): boolean => edition.publishingStatus === 'DRAFT' && edition.status !== 'ARCHIVED';

/** 409 unless the edition can change. */
export function checkEditable(edition: Edition): void {
  if (isEditable(edition)) return;
  const archived = edition.status === 'ARCHIVED';
  throw conflict(
    archived ? `Edition ${edition.id} is archived and can no longer change` : `Edition ${edition.id} is ${edition.publishingStatus}; only a DRAFT edition can change (${whatIsPossible(edition.publishingStatus)})`,
    { code: 'EDITION_NOT_DRAFT', entity: 'Edition', property: archived ? 'status' : 'publishingStatus', invalidValue: archived ? edition.status : edition.publishingStatus },
  );
}

/** What can be done with an edition that cannot change, by its publishing state. */
export function whatIsPossible(state: Edition['publishingStatus']): string {
  if (state === 'SCHEDULING' || state === 'SCHEDULED') return 'unschedule it first';
  if (state === 'PUBLISHED') return 'a published edition stays as it is: copy it into a new edition, or archive it';
  return 'it is being published or unscheduled; wait until it is PUBLISHED or DRAFT';
}

/** Whether two editions' [start, end] ranges overlap; one ending exactly when the other starts hands over, it does not overlap. */
export function timesOverlap(a: Pick<Edition, 'start' | 'end'>, b: Pick<Edition, 'start' | 'end'>): boolean {
  return Date.parse(a.start) < Date.parse(b.end) && Date.parse(b.start) < Date.parse(a.end);
}

export function slotsOf(db: Db, edition: Edition): EditionSlot[] {
  return editionSlots(db).all({ where: 'edition_id = ?', params: [edition.id] });
}

/** The snapshot ids the edition's edition contents name. */
function contentSnapshotIds(db: Db, edition: Edition): string[] {
  return editionContents(db)
    .all({ where: 'edition_id = ?', params: [edition.id] })
    .flatMap((c) => c.content.body.contents.map((entry) => entry.id));
}

/** Every snapshot the edition uses: slot contents first (in slot order), then edition contents. */
export function snapshotUses(db: Db, edition: Edition): SnapshotUse[] {
  const fromSlots = slotsOf(db, edition).flatMap((slot) => slotSnapshotIds(slot.content).map((snapshotId) => ({ snapshotId, editionSlotId: slot.id })));
  const fromContents = contentSnapshotIds(db, edition).map((snapshotId) => ({ snapshotId }));
  return [...fromSlots, ...fromContents];
}

/** Every (item, version) the edition's snapshots froze, once per snapshot use. */
export function itemUses(db: Db, edition: Edition): ItemUse[] {
  return snapshotUses(db, edition).flatMap((use) => snapshotItems(db, use.snapshotId).map((e) => ({ ...use, itemId: e.itemId, version: e.version })));
}

/** Uses grouped by item, in the order items first appear. */
function usesByItem(db: Db, edition: Edition): Map<string, ItemUse[]> {
  const byItem = new Map<string, ItemUse[]>();
  for (const use of itemUses(db, edition)) byItem.set(use.itemId, [...(byItem.get(use.itemId) ?? []), use]);
  return byItem;
}

const distinctVersions = (uses: readonly ItemUse[]): number[] => [...new Set(uses.map((u) => u.version))].sort((a, b) => a - b);

/** A resolution counts only while it names one of the versions still in conflict. */
function resolvedVersion(edition: Edition, itemId: string, versions: readonly number[]): number | undefined {
  const chosen = edition.resolutions?.[itemId];
  return chosen !== undefined && versions.includes(chosen) ? chosen : undefined;
}

/** Items the edition's snapshots hold at different versions. */
export function conflicts(db: Db, edition: Edition): Conflict[] {
  const found: Conflict[] = [];
  for (const [itemId, uses] of usesByItem(db, edition)) {
    const versions = distinctVersions(uses);
    if (versions.length < 2) continue;
    const resolved = resolvedVersion(edition, itemId, versions);
    found.push({
      id: itemId,
      label: items(db).get(itemId)?.label ?? '',
      versions: uses.map(({ version, snapshotId, editionSlotId }) => ({ version, snapshotId, ...(editionSlotId ? { editionSlotId } : {}) })),
      ...(resolved !== undefined ? { resolvedVersion: resolved } : {}),
    });
  }
  return found;
}

export const unresolvedConflicts = (db: Db, edition: Edition): Conflict[] => conflicts(db, edition).filter((c) => c.resolvedVersion === undefined);

/** Ids of the edition slots whose content takes part in an unresolved conflict. */
export function conflictedSlotIds(db: Db, edition: Edition): Set<string> {
  return new Set(unresolvedConflicts(db, edition).flatMap((c) => c.versions.flatMap((v) => (v.editionSlotId ? [v.editionSlotId] : []))));
}

/**
 * What publishing the edition publishes: each item once, at its only version, or at the resolved
 * version of a conflict (the newest when unresolved, which scheduling never lets through).
 */
export function publishEntries(db: Db, edition: Edition): { itemId: string; version: number }[] {
  return [...usesByItem(db, edition)].map(([itemId, uses]) => {
    const versions = distinctVersions(uses);
    return { itemId, version: resolvedVersion(edition, itemId, versions) ?? versions[versions.length - 1]! };
  });
}

export const invalidSlots = (db: Db, edition: Edition): EditionSlot[] => slotsOf(db, edition).filter((s) => s.status === 'INVALID');

/** Empty: no slot at all and no edition content naming a snapshot. */
export const isEmpty = (db: Db, edition: Edition): boolean => slotsOf(db, edition).length === 0 && contentSnapshotIds(db, edition).length === 0;

/** The hub's other non-archived editions whose time range overlaps this one. */
function overlappingEditions(db: Db, edition: Edition): Edition[] {
  return editions(db)
    .all({ where: 'hub_id = ? AND id != ?', params: [edition.hubId, edition.id] })
    .filter((other) => other.status !== 'ARCHIVED' && timesOverlap(other, edition));
}

/** Slots of this edition that an overlapping edition of the hub also uses. */
export function slotCollisions(db: Db, edition: Edition): SlotCollision[] {
  const slots = slotsOf(db, edition);
  if (!slots.length) return [];
  const others = overlappingEditions(db, edition);
  return slots.flatMap((slot) => {
    const users = new Set(editionSlots(db).all({ where: 'slot_id = ? AND edition_id != ?', params: [slot.slotId, edition.id] }).map((s) => s.editionId));
    const colliding = others.filter((o) => users.has(o.id));
    if (!colliding.length) return [];
    return [{
      slotId: slot.slotId,
      slotLabel: slot.slotLabel,
      editionSlotId: slot.id,
      collidingEditions: colliding.map((o) => ({ editionId: o.id, name: o.name, start: o.start, end: o.end, publishingStatus: o.publishingStatus })),
    }];
  });
}

/** Scheduled (or publishing) editions of the hub, overlapping in time, that publish any of the same items. */
export function scheduleOverlaps(db: Db, edition: Edition): Edition[] {
  const mine = new Set(publishEntries(db, edition).map((e) => e.itemId));
  if (!mine.size) return [];
  return overlappingEditions(db, edition)
    .filter((other) => SCHEDULED_STATES.has(other.publishingStatus))
    .filter((other) => publishEntries(db, other).some((e) => mine.has(e.itemId)));
}

/**
 * Every reason the edition cannot be scheduled now. Errors always block; warnings (slot
 * collisions, schedule overlaps) are left out when the caller ignores warnings.
 * `lastModifiedDate` is what the caller last saw of the edition, when it says.
 */
export function scheduleProblems(db: Db, edition: Edition, now: number, ignoreWarnings: boolean, lastModifiedDate?: string): SchedulingProblem[] {
  const problems: SchedulingProblem[] = [];
  const error = (code: string, message: string, meta: Partial<SchedulingProblem> = {}) => problems.push({ level: 'ERROR', code, message, entity: 'Edition', ...meta });
  const warning = (code: string, message: string, meta: Partial<SchedulingProblem> = {}) => problems.push({ level: 'WARNING', code, message, entity: 'Edition', ...meta });

  if (!isEditable(edition)) {
    const archived = edition.status === 'ARCHIVED';
    error('EDITION_NOT_DRAFT', archived ? 'The edition is archived' : `The edition is ${edition.publishingStatus}; only a DRAFT edition can be scheduled`, {
      property: archived ? 'status' : 'publishingStatus',
      invalidValue: archived ? edition.status : edition.publishingStatus,
    });
  }
  if (events(db).get(edition.eventId)?.status === 'ARCHIVED') error('EVENT_ARCHIVED', "The edition's event is archived", { property: 'eventId', invalidValue: edition.eventId });
  if (lastModifiedDate !== undefined && Date.parse(lastModifiedDate) < Date.parse(edition.lastModifiedDate)) {
    error('EDITION_MODIFIED', `The edition changed at ${edition.lastModifiedDate}, after ${lastModifiedDate}; fetch it again and review it`, { property: 'lastModifiedDate', invalidValue: lastModifiedDate });
  }
  if (Date.parse(edition.start) <= now) {
    error('EDITION_START_IN_PAST', `The edition starts at ${edition.start}, which has already passed`, { property: 'start', invalidValue: edition.start });
  }
  if (isEmpty(db, edition)) error('EDITION_IS_EMPTY', 'The edition has no slot and no content snapshot');
  const invalid = invalidSlots(db, edition);
  if (invalid.length) {
    error('EDITION_HAS_INVALID_SLOTS', `${invalid.length} edition slot(s) are INVALID: a content link names no snapshot`, {
      slots: invalid.map((s) => ({ editionSlotId: s.id, slotId: s.slotId, slotLabel: s.slotLabel })),
    });
  }
  const open = unresolvedConflicts(db, edition);
  if (open.length) {
    error('EDITION_HAS_CONFLICTS', `${open.length} content item(s) appear at different versions; resolve the conflicts first`, {
      conflicts: open.map((c) => ({ id: c.id, label: c.label, versions: [...new Set(c.versions.map((v) => v.version))] })),
    });
  }
  if (ignoreWarnings) return problems;
  const collisions = slotCollisions(db, edition);
  if (collisions.length) warning('EDITION_CONTAINS_SLOT_COLLISIONS', `${collisions.length} slot(s) are also used by editions that overlap this one in time`, { collisions });
  const overlaps = scheduleOverlaps(db, edition);
  if (overlaps.length) {
    warning('EDITION_SCHEDULE_OVERLAP', `${overlaps.length} scheduled edition(s) overlapping in time publish some of the same content items`, {
      overlaps: overlaps.map((o) => ({ editionId: o.id, name: o.name, start: o.start })),
    });
  }
  return problems;
}
