import type { ApiClient } from '../core/client.js';
import { WaitTimeout } from '../core/errors.js';
import { sleep } from '../core/retry.js';
import type { IO } from '../cli/io.js';

// Waiting on what a publish or an unpublish produced. Dates are not it: they follow the sandbox
// clock, which may go back (`cms sandbox clock reset` after an advance, `cms demo`), so an item
// published while the clock was ahead kept a future lastPublishedDate, and a wait comparing dates
// never ended (exit 8 though the work was done). Versions only grow, and the status says what is
// delivered:
// - a publish (its job COMPLETED first) is done once the item's lastPublishedVersion is the
//   version it was asked to publish, or a later one, and the item is published (LATEST or EARLY);
// - an unpublish once the item is UNPUBLISHED, its lastUnpublishedVersion (when reported) being
//   its lastPublishedVersion.
// A service that reports neither versions nor a status is waited on by its dates, as clients of the
// hosted service do: a publish once lastPublishedDate is set, not behind what it was, and not
// behind any unpublish; an unpublish once lastUnpublishedDate >= lastPublishedDate. Bounded by a
// deadline (exit 8).

export interface PublishingDates {
  id: string;
  version?: number;
  publishingStatus?: string;
  lastPublishedDate?: string;
  lastPublishedVersion?: number;
  lastUnpublishedDate?: string;
  lastUnpublishedVersion?: number;
}

const time = (iso: string | undefined) => (iso === undefined ? Number.NEGATIVE_INFINITY : Date.parse(iso));
const PUBLISHED = new Set(['LATEST', 'EARLY']);

export function isPublished(item: PublishingDates, before: PublishingDates): boolean {
  if (typeof item.lastPublishedVersion === 'number' && typeof before.version === 'number') {
    return item.lastPublishedVersion >= before.version && (item.publishingStatus === undefined || PUBLISHED.has(item.publishingStatus));
  }
  // Compared with >=, not >: on a frozen sandbox clock a second publish carries the same date.
  return item.lastPublishedDate !== undefined && time(item.lastPublishedDate) >= time(before.lastPublishedDate) && time(item.lastPublishedDate) >= time(item.lastUnpublishedDate);
}

export function isUnpublished(item: PublishingDates, before: PublishingDates): boolean {
  if (item.publishingStatus !== undefined) {
    if (item.publishingStatus !== 'UNPUBLISHED') return false;
    return typeof item.lastUnpublishedVersion === 'number' && typeof item.lastPublishedVersion === 'number' ? item.lastUnpublishedVersion >= item.lastPublishedVersion : true;
  }
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
      throw new WaitTimeout(`Item ${itemId} is not ${opts.what} when the wait timed out (publishingStatus ${item.publishingStatus ?? 'unknown'}, version ${item.version ?? 'unknown'}, lastPublishedVersion ${item.lastPublishedVersion ?? 'none'}, lastPublishedDate ${item.lastPublishedDate ?? 'none'}, lastUnpublishedDate ${item.lastUnpublishedDate ?? 'none'})`);
    }
    if (!noted) {
      opts.io.note(`Waiting for item ${itemId} to be ${opts.what}…`);
      noted = true;
    }
    await sleep(Math.min(opts.intervalMs, Math.max(0, opts.deadline - Date.now())), opts.signal);
  }
}
