import type { ApiClient } from '../core/client.js';
import { ApiError, NotFound } from '../core/errors.js';

// The hub an item belongs to (items do not carry it; their repository does): what the staging
// and delivery reads name as their store when the user gave no --hub.

export async function itemHubId(client: ApiClient, itemId: string): Promise<string> {
  let item: { contentRepositoryId?: string };
  try {
    item = await client.get<{ contentRepositoryId?: string }>(`/content-items/${encodeURIComponent(itemId)}`);
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 400)) throw new NotFound(`No content item or slot ${itemId}`, 'List items with `cms item list`, or find one with `cms item find <text>`.');
    throw err;
  }
  const repo = await client.get<{ hubId?: string }>(`/content-repositories/${encodeURIComponent(String(item.contentRepositoryId))}`);
  if (typeof repo.hubId !== 'string') throw new NotFound(`The repository of item ${itemId} names no hub`);
  return repo.hubId;
}
