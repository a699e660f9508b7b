import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';
import { stmt } from '../core/statements.js';
import { descendants, items } from '../items/index.js';
import { newId } from '../core/ids.js';

export type SnapshotType = 'USER' | 'SYSTEM' | 'GENERATED';

export interface SnapshotRoot {
  id: string;
  label: string;
  contentTypeUri: string;
}

export interface Snapshot {
  id: string;
  hubId: string;
  comment: string;
  createdBy: string;
  createdDate: string;
  createdFrom: 'content-item' | 'edition';
  type: SnapshotType;
  rootContentItem: SnapshotRoot;
  rootContentItems: SnapshotRoot[];
  taggedEditions: string[];
  locale: string | null;
  meta: unknown[];
}

export interface PublishingJob {
  id: string;
  hubId: string;
  snapshotId: string;
  /** The edition this job publishes, when an edition scheduled it. */
  editionId: string | null;
  state: 'CREATED' | 'PREPARING' | 'WAITING' | 'PUBLISHING' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
  scheduledDate: string;
  publishErrorStatus?: string;
  createdBy: string;
  createdDate: string;
  lastModifiedDate: string;
}

export const snapshots = (db: Db) =>
  new Collection<Snapshot>(
    db,
    'snapshots',
    { hub_id: (s) => s.hubId, root_item_id: (s) => s.rootContentItem.id, type: (s) => s.type, created_date: (s) => s.createdDate },
    { createdDate: 'created_date', type: 'type' },
  );

export const publishingJobs = (db: Db) =>
  new Collection<PublishingJob>(
    db,
    'publishing_jobs',
    { hub_id: (j) => j.hubId, snapshot_id: (j) => j.snapshotId, state: (j) => j.state, scheduled_date: (j) => j.scheduledDate, created_date: (j) => j.createdDate },
    { createdDate: 'created_date', scheduledDate: 'scheduled_date', state: 'state' },
  );

export interface NewSnapshot {
  hubId: string;
  rootId: string;
  comment: string;
  createdFrom: Snapshot['createdFrom'];
  type: SnapshotType;
  createdBy: string;
  now: number;
}

/**
 * Freezes an item and everything it links to at their current versions. The snapshot never
 * changes afterwards; its items are read back at those versions.
 */
export function createSnapshot(db: Db, input: NewSnapshot): Snapshot {
  const root = items(db).get(input.rootId);
  if (!root) throw new Error(`no content item ${input.rootId}`);
  const rootRef = { id: root.id, label: root.label, contentTypeUri: root.body._meta.schema };
  const snapshot: Snapshot = {
    id: newId(input.now),
    hubId: input.hubId,
    comment: input.comment,
    createdBy: input.createdBy,
    createdDate: new Date(input.now).toISOString(),
    createdFrom: input.createdFrom,
    type: input.type,
    rootContentItem: rootRef,
    rootContentItems: [rootRef],
    taggedEditions: [],
    locale: root.locale,
    meta: [],
  };
  snapshots(db).insert(snapshot);
  const insert = stmt(db, 'INSERT INTO snapshot_items (snapshot_id, item_id, version) VALUES (?, ?, (SELECT version FROM content_items WHERE id = ?))');
  // Links to items that do not exist (deleted, or in another hub) are left out of the graph.
  for (const id of descendants(db, root.id)) {
    const item = id === root.id ? root : items(db).get(id);
    if (item && item.hubId === input.hubId) insert.run(snapshot.id, id, id);
  }
  return snapshot;
}

/** The items a snapshot froze: (item id, version), root first. */
export function snapshotItems(db: Db, snapshotId: string): { itemId: string; version: number }[] {
  return (stmt(db, 'SELECT item_id, version FROM snapshot_items WHERE snapshot_id = ? ORDER BY rowid').all(snapshotId) as { item_id: string; version: number }[]).map((r) => ({
    itemId: r.item_id,
    version: r.version,
  }));
}
