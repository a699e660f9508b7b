import type { Db } from '../core/db.js';
import { Collection } from '../core/collection.js';

// What the stand-in commerce platform holds for each commerce integration: campaigns (one per
// scheduled edition) with their slot configurations, and content assets.

/** One item of a slot's content, at the version the edition froze. */
export interface FrozenItem {
  id: string;
  version: number;
  label: string;
  schema: string;
  body: Record<string, unknown>;
}

export interface SlotConfiguration {
  /** The slot content item. */
  slotId: string;
  slotLabel: string;
  editionSlotId: string;
  /** The edition start: a later start ranks higher. */
  rank: string;
  /** The snapshots the slot content names and every item they froze (roots first). */
  content: { snapshotIds: string[]; items: FrozenItem[] };
}

export interface Campaign {
  id: string;
  integrationId: string;
  editionId: string;
  eventId: string;
  name: string;
  start: string;
  /** Null: the edition's content does not expire with it, so the campaign is evergreen fallback content. */
  end: string | null;
  slots: SlotConfiguration[];
  createdDate: string;
  lastModifiedDate: string;
}

export interface ContentAsset {
  id: string;
  integrationId: string;
  itemId: string;
  version: number;
  label: string;
  schema: string;
  deliveryKey: string | null;
  body: Record<string, unknown>;
  publishedDate: string;
  updatedDate: string;
}

export const campaigns = (db: Db) =>
  new Collection<Campaign>(
    db,
    'commerce_campaigns',
    { integration_id: (c) => c.integrationId, edition_id: (c) => c.editionId, start: (c) => c.start, end: (c) => c.end, created_date: (c) => c.createdDate },
    { start: 'start', end: 'end', createdDate: 'created_date' },
  );

export const contentAssets = (db: Db) =>
  new Collection<ContentAsset>(db, 'commerce_assets', { integration_id: (a) => a.integrationId, item_id: (a) => a.itemId, updated_date: (a) => a.updatedDate }, { updatedDate: 'updated_date' });
