import type { Db } from '../core/db.js';
import { rewriteLinks } from '../core/content-links.js';
import { linkedGraph } from './graph.js';
import { publishEntries } from '../editions/index.js';
import { slotSnapshotIds } from '../editions/index.js';
import { itemVersion, items, type ContentItem } from '../items/index.js';
import { snapshots } from '../snapshots/index.js';
import { liveEditionSlot, type LiveEditionSlot } from './live.js';
import { IRI_BASE } from './iri.js';

// Content as the delivery side serves it: an item's body fields plus _meta with its delivery id,
// and the items it links to. A slot delivers what is live on it: the content of the winning
// edition slot, whose links (to snapshots) lead to the snapshot items at their frozen versions.

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
}

type Resolve = (id: string) => ContentItem | undefined;

function delivered(item: ContentItem, body: ContentItem['body']): Delivered {
  const meta = { ...body._meta, deliveryId: item.deliveryId, ...(item.deliveryKey ? { deliveryKey: item.deliveryKey } : {}) };
  return { id: item.id, label: item.label, json: { ...body, _meta: meta } };
}

/** The slot body of a live edition slot with links to the snapshots' root items, read at the edition's versions. */
function editionView(db: Db, live: LiveEditionSlot): { body: ContentItem['body']; resolve: Resolve } {
  const versions = new Map(publishEntries(db, live.edition).map((e) => [e.itemId, e.version]));
  const roots = new Map<string, string>();
  for (const snapshotId of slotSnapshotIds(live.editionSlot.content)) {
    const root = snapshots(db).get(snapshotId)?.rootContentItem.id;
    if (root) roots.set(snapshotId, root);
  }
  const content = (live.editionSlot.content as { body?: ContentItem['body'] }).body ?? { _meta: { schema: '' } };
  const resolve: Resolve = (id) => {
    const version = versions.get(id);
    return version === undefined ? items(db).get(id) : itemVersion(db, id, version);
  };
  return { body: rewriteLinks(content, roots), resolve };
}

/** Items reachable from the root through content links, each once, within the root's hub (bounded: graph.ts). */
function linkedItems(root: Delivered, hubId: string, resolve: Resolve): Map<string, Delivered> {
  return linkedGraph(root, (id) => {
    const item = resolve(id);
    return item && item.hubId === hubId ? delivered(item, item.body) : undefined;
  });
}

/** What delivery serves for an item (or slot) at `atMs`. */
export function stagedContent(db: Db, item: ContentItem, atMs: number): StagedContent {
  const live = liveEditionSlot(db, item.id, atMs);
  const { body, resolve } = live ? editionView(db, live) : { body: item.body, resolve: ((id) => items(db).get(id)) as Resolve };
  const root = delivered(item, body);
  return { root, linked: linkedItems(root, item.hubId, resolve) };
}

/** The delivery graph: the item first, then its linked items, each named by its IRI. */
export function graphOf(staged: StagedContent | null) {
  const entries = staged ? [staged.root, ...staged.linked.values()] : [];
  return { '@graph': entries.map((d) => ({ '@id': IRI_BASE + d.id, ...d.json })), '@base': IRI_BASE };
}
