import type { Db } from '../core/db.js';
import { notFound } from '../core/errors.js';
import { snapshotItems, snapshots } from '../snapshots/index.js';
import { stagingPreview } from './host.js';
import type { Pins } from './resolve.js';

// Staging previews (the vendor SDK's StagingEnvironmentFactory): a preview domain of a hub's
// staging hostname serves the hub as it will be at a time (editions live then) and/or with a
// snapshot's items at their snapshot versions. The plain staging hostname serves now, latest.

export interface ViewPoint {
  atMs: number;
  pins?: Pins;
}

/** The time and pinned versions a request on a hub's staging host sees: now, or what its preview domain names. */
export function stagingViewPoint(db: Db, url: URL, nowMs: number, hubId: string): ViewPoint {
  const preview = stagingPreview(url);
  if (!preview) return { atMs: nowMs };
  let pins: Pins | undefined;
  if (preview.snapshotId !== undefined) {
    const snapshot = snapshots(db).get(preview.snapshotId);
    if (!snapshot || snapshot.hubId !== hubId) throw notFound('Snapshot', preview.snapshotId);
    pins = new Map(snapshotItems(db, snapshot.id).map((e) => [e.itemId, e.version]));
  }
  return { atMs: preview.at ?? nowMs, ...(pins ? { pins } : {}) };
}

/** The item versions of a snapshot of the hub (what a snapshot preview pins); null when the hub has no such snapshot. */
export function snapshotPins(db: Db, snapshotId: string, hubId: string): Pins | null {
  const snapshot = snapshots(db).get(snapshotId);
  if (!snapshot || snapshot.hubId !== hubId) return null;
  return new Map(snapshotItems(db, snapshot.id).map((e) => [e.itemId, e.version]));
}
