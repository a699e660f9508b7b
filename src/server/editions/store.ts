import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';

export type PublishingStatus = 'DRAFT' | 'SCHEDULING' | 'SCHEDULED' | 'PUBLISHING' | 'PUBLISHED' | 'UNSCHEDULING';

export const MAX_SLOTS_PER_EDITION = 200;

export interface Edition {
  id: string;
  hubId: string;
  eventId: string;
  name: string;
  comment: string;
  start: string;
  end: string;
  /** Content expires when the edition ends (otherwise it stays as evergreen fallback). */
  activeEndDate: boolean;
  publishingStatus: PublishingStatus;
  publishingJobId: string | null;
  publishManifestId: string | null;
  slotsRemaining: number;
  schedulingErrors: unknown[] | null;
  schedulingUser: string | null;
  statusUpdated: string;
  stagedDate: string | null;
  status: 'ACTIVE' | 'ARCHIVED';
  /** The preview snapshot state, when previewed. */
  preview: { type: string; snapshotIds: string[]; createdDate: string; createdBy: string } | null;
  /** Conflict resolutions: content item id -> the version the edition publishes. */
  resolutions: Record<string, number>;
  createdBy: string;
  createdDate: string;
  lastModifiedBy: string;
  lastModifiedDate: string;
}

export interface EditionSlot {
  id: string;
  hubId: string;
  editionId: string;
  eventId: string;
  /** The slot: a content item of a repository with the slots feature. */
  slotId: string;
  slotLabel: string;
  contentTypeId: string | null;
  status: 'VALID' | 'INVALID';
  empty: boolean;
  conflicts: boolean;
  /** The slot content; its content links point at snapshots. */
  content: Record<string, unknown>;
  locale: string | null;
  createdDate: string;
  lastModifiedDate: string;
}

export interface EditionContent {
  id: string;
  hubId: string;
  editionId: string;
  /** {body: {contents: [{_meta, id: <snapshot id>, contentType}]}} */
  content: { body: { contents: { id: string; contentType?: string; [k: string]: unknown }[] } };
  createdBy: string;
  createdDate: string;
  lastModifiedDate: string;
}

export const editions = (db: Db) =>
  new Collection<Edition>(
    db,
    'editions',
    { hub_id: (e) => e.hubId, event_id: (e) => e.eventId, start: (e) => e.start, end: (e) => e.end, publishing_status: (e) => e.publishingStatus, created_date: (e) => e.createdDate },
    { start: 'start', end: 'end', createdDate: 'created_date', publishingStatus: 'publishing_status' },
  );

export const editionSlots = (db: Db) =>
  new Collection<EditionSlot>(db, 'edition_slots', { edition_id: (s) => s.editionId, slot_id: (s) => s.slotId, created_date: (s) => s.createdDate }, { createdDate: 'created_date' });

export const editionContents = (db: Db) =>
  new Collection<EditionContent>(db, 'edition_contents', { edition_id: (c) => c.editionId, created_date: (c) => c.createdDate }, { createdDate: 'created_date' });
