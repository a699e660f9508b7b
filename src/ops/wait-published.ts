import type { ApiClient } from '../core/client.js';
import { WaitTimeout } from '../core/errors.js';
import { sleep } from '../core/retry.js';
import type { IO } from '../cli/io.js';

// Waiting on an item's publishing dates, as clients of the hosted service do: a publish is done
// once lastPublishedDate is set, not behind what it was, and not behind any unpublish; an
// unpublish once lastUnpublishedDate >= lastPublishedDate. Bounded by a deadline (exit 8).

export interface PublishingDates {
  id: string;
  publishingStatus?: string;
  lastPublishedDate?: string;
  lastUnpublishedDate?: string;
}

const time = (iso: string | undefined) => (iso === undefined ? Number.NEGATIVE_INFINITY : Date.parse(iso));

// Compared with >=, not >: on a frozen sandbox clock a second publish carries the same date.
export function isPublished(item: PublishingDates, before: PublishingDates): boolean {
  return item.lastPublishedDate !== undefined && time(item.lastPublishedDate) >= time(before.lastPublishedDate) && time(item.lastPublishedDate) >= time(item.lastUnpublishedDate);
}

export function isUnpublished(item: PublishingDates, before: PublishingDates): boolean {
  return item.lastUnpublishedDate !== undefined && time(item.lastUnpublishedDate) >= time(before.lastUnpublishedDate) && time(item.lastUnpublishedDate) >= time(item.lastPublishedDate);
}

export async function waitForDates<T extends PublishingDates>(
  client: ApiClient,
  itemId: string,
  done: (item: T) => boolean,
  opts: { deadline: number; intervalMs: number; io: IO; signal?: AbortSignal; what: string },
): Promise<T> {
  let noted = false;
  for (;;) {
    const item = await client.get<T>(`/content-items/${encodeURIComponent(itemId)}`);
    if (done(item)) return item;
    if (Date.now() >= opts.deadline) {
      throw new WaitTimeout(`Item ${itemId} is not ${opts.what} when the wait timed out (publishingStatus ${item.publishingStatus ?? 'unknown'}, lastPublishedDate ${item.lastPublishedDate ?? 'none'}, lastUnpublishedDate ${item.lastUnpublishedDate ?? 'none'})`);
    }
    if (!noted) {
      opts.io.note(`Waiting for item ${itemId} to be ${opts.what}…`);
      noted = true;
    }
    await sleep(Math.min(opts.intervalMs, Math.max(0, opts.deadline - Date.now())), opts.signal);
  }
}
