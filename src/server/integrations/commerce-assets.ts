import type { Db } from '../core/db.js';
import { newId } from '../core/ids.js';
import { itemVersion, items } from '../items/index.js';
import type { Integration } from './store.js';
import { contentAssets, type ContentAsset } from './commerce-store.js';

/** What a content-item.published delivery carries that the platform needs. */
export interface PublishedItem {
  id: string;
  version: number;
  publishedVersion?: number;
  lastPublishedDate?: string;
}

/**
 * content-item.published: the platform's content asset for the item becomes the published
 * version (read at that version: the event carries the item as it is now). Null when the item
 * is not content of the integration's hub.
 */
export function recordAsset(db: Db, integration: Integration, published: PublishedItem, now: number): ContentAsset | null {
  const current = items(db).get(published.id);
  if (!current || current.hubId !== integration.hubId) return null;
  const version = published.publishedVersion ?? published.version;
  const item = itemVersion(db, current.id, version) ?? current;
  const existing = contentAssets(db).find({ where: 'integration_id = ? AND item_id = ?', params: [integration.id, item.id] });
  const stamp = new Date(now).toISOString();
  const asset: ContentAsset = {
    id: existing?.id ?? newId(now),
    integrationId: integration.id,
    itemId: item.id,
    version,
    label: item.label,
    schema: item.body._meta.schema,
    deliveryKey: item.deliveryKey,
    body: item.body,
    publishedDate: published.lastPublishedDate ?? stamp,
    updatedDate: stamp,
  };
  return existing ? contentAssets(db).update(asset) : contentAssets(db).insert(asset);
}
