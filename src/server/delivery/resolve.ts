import type { Db } from '../core/db.js';
import { rewriteLinks } from '../core/content-links.js';
import { linkedGraph } from './graph.js';
import { publishEntries } from '../editions/index.js';
import { slotSnapshotIds } from '../editions/index.js';
import { isDelivered, itemVersion, items, type ContentItem } from '../items/index.js';
import { snapshots } from '../snapshots/index.js';
import { liveEditionSlot, type LiveEditionSlot } from './live.js';
import { localizeBody, type LocaleEntry } from './locale.js';

// Content as the delivery side serves it: an item's body fields plus _meta with its delivery id,
// and the items it links to. Two views of one store: `latest` (staging: each item as it is now)
// and `published` (Content Delivery 2: each item at the version its last publish made live; an
// item never published, unpublished or archived is not delivered). A slot delivers what is live
// on it: the content of the winning edition slot, whose links (to snapshots) lead to the snapshot
// items at the edition's versions.

export type DeliveryView = 'latest' | 'published';

export interface Delivered {
  id: string;
  label: string;
  /** Body fields, with _meta carrying deliveryId (and deliveryKey when set). */
  json: Record<string, unknown> & { _meta: Record<string, unknown> };
}

export interface StagedContent {
  root: Delivered;
  /** Every item reachable through content links, by id, in the order they are reached. */
  linked: Map<string, Delivered>;
  /** The edition whose slot content the root shows, if any. */
  edition?: { id: string; start: string; end: string };
  /** JSON length of each node by id, when the linked items were read. */
  sizes?: Map<string, number>;
}

type Resolve = (id: string) => ContentItem | undefined;

/** An item's body as delivered; with a locale list, its localized fields resolved (before links are followed, so only the chosen values' links are). */
function delivered(item: ContentItem, body: ContentItem['body'], locales?: readonly LocaleEntry[]): Delivered {
  const meta = { ...body._meta, deliveryId: item.deliveryId, ...(item.deliveryKey ? { deliveryKey: item.deliveryKey } : {}) };
  const json = { ...body, _meta: meta };
  return { id: item.id, label: item.label, json: locales ? localizeBody(json, locales) : json };
}

/** The item at the version its last publish made live; undefined when it is not delivered. */
export function publishedVersion(db: Db, item: ContentItem): ContentItem | undefined {
  if (!isDelivered(item)) return undefined;
  if (item.lastPublishedVersion === item.version) return item;
  const version = itemVersion(db, item.id, item.lastPublishedVersion);
  return version && { ...version, hubId: item.hubId };
}

/** Item versions a preview of a snapshot shows (item id to version); the other items are as the view has them. */
export type Pins = ReadonlyMap<string, number>;

/** An item as the view shows it: the published version, or the latest (or the pinned one of a snapshot preview). */
function shownVersion(db: Db, item: ContentItem, view: DeliveryView, pins?: Pins): ContentItem | undefined {
  if (view === 'published') return publishedVersion(db, item);
  const pinned = pins?.get(item.id);
  if (pinned === undefined || pinned === item.version) return item;
  const at = itemVersion(db, item.id, pinned);
  return at && { ...at, hubId: item.hubId };
}

/** An item of the view by id (active; published for `published`). */
function viewResolver(db: Db, view: DeliveryView, pins?: Pins): Resolve {
  return (id) => {
    const item = items(db).get(id);
    if (!item || item.status !== 'ACTIVE') return undefined;
    return shownVersion(db, item, view, pins);
  };
}

/** The slot body of a live edition slot with links to the snapshots' root items, read at the edition's versions. */
function editionView(db: Db, live: LiveEditionSlot, fallback: Resolve): { body: ContentItem['body']; resolve: Resolve } {
  const versions = new Map(publishEntries(db, live.edition).map((e) => [e.itemId, e.version]));
  const roots = new Map<string, string>();
  for (const snapshotId of slotSnapshotIds(live.editionSlot.content)) {
    const root = snapshots(db).get(snapshotId)?.rootContentItem.id;
    if (root) roots.set(snapshotId, root);
  }
  const content = (live.editionSlot.content as { body?: ContentItem['body'] }).body ?? { _meta: { schema: '' } };
  const resolve: Resolve = (id) => {
    const version = versions.get(id);
    if (version === undefined) return fallback(id);
    const item = items(db).get(id);
    if (!item || item.status !== 'ACTIVE') return undefined;
    const at = itemVersion(db, id, version);
    return at && { ...at, hubId: item.hubId };
  };
  return { body: rewriteLinks(content, roots), resolve };
}

/** Items reachable from the root through content links, each once, within the root's hub (bounded: graph.ts). */
function linkedItems(root: Delivered, hubId: string, resolve: Resolve, sizes: Map<string, number>, locales?: readonly LocaleEntry[]): Map<string, Delivered> {
  return linkedGraph(
    root,
    (id) => {
      const item = resolve(id);
      return item && item.hubId === hubId ? delivered(item, item.body, locales) : undefined;
    },
    undefined,
    sizes,
  );
}

/**
 * What delivery serves for an item (or slot) at `atMs` in a view; null when the item is not
 * delivered there. `linked: false` skips the linked items (depth root). `locales`: a parsed
 * locale list (locale.ts) resolving every node's localized fields.
 */
export function deliveredContent(db: Db, item: ContentItem, atMs: number, view: DeliveryView, linked = true, pins?: Pins, locales?: readonly LocaleEntry[]): StagedContent | null {
  if (item.status !== 'ACTIVE') return null;
  const fallback = viewResolver(db, view, pins);
  const live = liveEditionSlot(db, item.id, atMs);
  let root: Delivered;
  let resolve = fallback;
  if (live) {
    const edition = editionView(db, live, fallback);
    resolve = edition.resolve;
    // The slot's own key as the view has it: on the published side, its published version's.
    const keyed = view === 'latest' ? item : (publishedVersion(db, item) ?? { ...item, deliveryKey: null });
    root = delivered(keyed, edition.body, locales);
    // The edition that published what the slot shows, as the hosted service's _meta says it (the SDK's ContentMeta.edition).
    root.json._meta.edition = { id: live.edition.id, start: live.edition.start, end: live.edition.end };
  } else {
    const shown = shownVersion(db, item, view, pins);
    if (!shown) return null;
    root = delivered(shown, shown.body, locales);
  }
  const edition = live ? { id: live.edition.id, start: live.edition.start, end: live.edition.end } : undefined;
  const sizes = new Map<string, number>();
  return { root, linked: linked ? linkedItems(root, item.hubId, resolve, sizes, locales) : new Map(), sizes, ...(edition ? { edition } : {}) };
}

/** What staging serves for an item (or slot) at `atMs`: the latest versions (a snapshot preview's pinned ones). */
export function stagedContent(db: Db, item: ContentItem, atMs: number, pins?: Pins, locales?: readonly LocaleEntry[]): StagedContent {
  return deliveredContent(db, item, atMs, 'latest', true, pins, locales)!;
}
