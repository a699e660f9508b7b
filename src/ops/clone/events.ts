import { CliError } from '../../core/errors.js';
import { isContentLink } from '../../server/core/content-links.js';
import { diff } from '../runs/diff.js';
import { isPlanned, matchTarget } from '../runs/reconcile.js';
import { pick, type CloneContext } from './context.js';

// Step `events`: active events with their active editions and edition slots. Editions are created
// DRAFT; with --schedule those scheduled in the source are scheduled on the target too. Slot
// content names snapshots: each is recreated from the target's content (a new snapshot of the
// target copy of its root item, reused on a rerun while that item is unchanged) and the content
// rewritten to the new snapshot ids. Needs the items step (slots and snapshot roots are items).

interface CmsEvent {
  id: string;
  name: string;
  start: string;
  end: string;
  status: string;
}

interface Edition {
  id: string;
  name: string;
  start: string;
  status: string;
  publishingStatus: string;
  lastModifiedDate: string;
}

interface EditionSlot {
  id: string;
  slotId: string;
  slotLabel: string;
  content: Record<string, unknown>;
}

interface Snapshot {
  id: string;
  comment: string;
  type: string;
  rootContentItem: { id: string; label: string };
}

const SCHEDULED = new Set(['SCHEDULING', 'SCHEDULED', 'PUBLISHING']);

export async function cloneEvents(c: CloneContext): Promise<void> {
  const events = await c.sourceList<CmsEvent>(`/hubs/${c.source.hubId}/events`, 'events');
  const active = events.filter((e) => e.status !== 'ARCHIVED');
  if (active.length < events.length) c.note(`events: ${events.length - active.length} archived event(s) were not cloned`);
  const targets = await c.targetList<CmsEvent>(`/hubs/${c.target.hubId}/events`, 'events');
  c.progress(active.length, 'events');
  for (const event of active) {
    const id = await c.fields({
      kind: 'event',
      sourceId: event.id,
      label: event.name,
      existing: matchTarget(c.ids, 'event', event.id, targets, (t) => t.name === event.name && t.start === event.start),
      wanted: pick(event, ['name', 'start', 'end', 'comment', 'brief']),
      createPath: `/hubs/${c.target.hubId}/events`,
      updatePath: (eventId) => `/events/${eventId}`,
    });
    if (id) await cloneEditions(c, event, id);
  }
}

async function cloneEditions(c: CloneContext, event: CmsEvent, targetEvent: string): Promise<void> {
  const editions = (await c.sourceList<Edition>(`/events/${event.id}/editions`, 'editions')).filter((e) => e.status !== 'ARCHIVED');
  const targets = await c.targetList<Edition>(`/events/${targetEvent}/editions`, 'editions');
  for (const edition of editions) {
    const id = await c.fields({
      kind: 'edition',
      sourceId: edition.id,
      label: `${event.name} / ${edition.name}`,
      existing: matchTarget(c.ids, 'edition', edition.id, targets, (t) => t.name === edition.name),
      wanted: pick(edition, ['name', 'start', 'end', 'comment', 'activeEndDate']),
      createPath: `/events/${targetEvent}/editions`,
      updatePath: (editionId) => `/editions/${editionId}`,
    });
    if (!id) continue;
    await cloneSlots(c, edition, id);
    await schedule(c, event, edition, id);
  }
}

async function cloneSlots(c: CloneContext, edition: Edition, targetEdition: string): Promise<void> {
  const slots = await c.sourceList<EditionSlot>(`/editions/${edition.id}/slots`, 'edition-slots');
  const targets = await c.targetList<EditionSlot>(`/editions/${targetEdition}/slots`, 'edition-slots');
  for (const slot of slots) {
    const ident = { key: `edition-slot:${slot.id}`, resource: 'edition-slot', sourceId: slot.id, label: `${edition.name} / ${slot.slotLabel}` };
    await c.sync.attempt(ident, async () => {
      const slotItem = mappedItem(c, slot.slotId, `slot ${slot.slotLabel}`);
      const content = await rewriteSnapshots(c, slot.content);
      await c.sync.unit<EditionSlot>({
        ...ident,
        existing: matchTarget(c.ids, 'edition-slot', slot.id, targets, (t) => t.slotId === slotItem),
        identify: (t) => ({ id: t.id }),
        changes: (t) => diff(t.content, content, 'content'),
        create: async () => {
          const made = await c.target.client.post<{ _embedded: { 'edition-slots': EditionSlot[] } }>(`/editions/${targetEdition}/slots`, [{ slot: slotItem }], { idempotencyKey: c.sync.idempotencyKey(ident.key) });
          const id = made._embedded['edition-slots'][0]!.id;
          await c.target.client.put(`/editions/${targetEdition}/slots/${id}/content`, content);
          return { id };
        },
        update: async (t) => {
          await c.target.client.put(`/editions/${targetEdition}/slots/${t.id}/content`, content);
          return { id: t.id };
        },
        before: (t) => ({ content: t.content }),
      });
    });
  }
}

/** The target copy of a source item (the items step made it). */
function mappedItem(c: CloneContext, sourceId: string, what: string): string {
  const id = c.ids.get('item', sourceId);
  if (!id) throw new CliError(`${what} (item ${sourceId}) has no copy in the target: run the items step first`);
  return id;
}

/** The slot content with every snapshot link pointing at the target's snapshot of the same content. */
async function rewriteSnapshots(c: CloneContext, content: unknown): Promise<Record<string, unknown>> {
  const walk = async (value: unknown): Promise<unknown> => {
    if (Array.isArray(value)) return Promise.all(value.map(walk));
    if (!value || typeof value !== 'object') return value;
    if (isContentLink(value)) return { ...value, ...rootOnTarget(c, value), id: await targetSnapshot(c, value.id) };
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await walk(v);
    return out;
  };
  return (await walk(content)) as Record<string, unknown>;
}

/** A link's `_meta.rootContentItemId` (the vendor's app writes it in slot links) naming the target's copy of the item. */
function rootOnTarget(c: CloneContext, link: object): { _meta?: Record<string, unknown> } {
  const meta = (link as { _meta?: unknown })._meta;
  if (!meta || typeof meta !== 'object' || typeof (meta as { rootContentItemId?: unknown }).rootContentItemId !== 'string') return {};
  const root = (meta as { rootContentItemId: string }).rootContentItemId;
  return { _meta: { ...meta, rootContentItemId: c.ids.get('item', root) ?? root } };
}

/**
 * The target snapshot standing for a source snapshot: the one an earlier clone made while the
 * target item has not changed since, else a new snapshot of the target item.
 */
function targetSnapshot(c: CloneContext, sourceId: string): Promise<string> {
  return c.once(`snapshot:${sourceId}`, async () => {
    const snapshot = await c.source.client.get<Snapshot>(`/snapshots/${sourceId}`);
    const root = mappedItem(c, snapshot.rootContentItem.id, `the root item ${snapshot.rootContentItem.label} of snapshot ${sourceId}`);
    const reusable = await reusableSnapshot(c, c.ids.get('snapshot', sourceId), root);
    const key = `snapshot:${sourceId}`;
    const id = await c.sync.unit<string>({
      key,
      resource: 'snapshot',
      sourceId,
      label: `of ${snapshot.rootContentItem.label}`,
      existing: reusable,
      identify: (existing) => ({ id: existing }),
      changes: () => [],
      create: async () => {
        const body = { comment: snapshot.comment || 'hub clone', createdFrom: 'content-item', type: snapshot.type, contentRoot: root };
        const opts = { idempotencyKey: c.sync.idempotencyKey(key) };
        // Create takes USER or SYSTEM only; a GENERATED snapshot is made as a batch of one.
        if (snapshot.type !== 'GENERATED') return { id: (await c.target.client.post<{ id: string }>(`/hubs/${c.target.hubId}/snapshots`, body, opts)).id };
        const batch = await c.target.client.post<{ snapshots: { id: string }[] }>(`/hubs/${c.target.hubId}/snapshots/batch`, [body], opts);
        return { id: batch.snapshots[0]!.id };
      },
      update: (existing) => Promise.resolve({ id: existing }),
    });
    if (!id) throw new CliError(`snapshot ${sourceId} could not be recreated on the target`);
    return id;
  });
}

/** The earlier snapshot, if it froze the target item at the version it has now. */
async function reusableSnapshot(c: CloneContext, snapshotId: string | undefined, root: string): Promise<string | undefined> {
  if (!snapshotId || isPlanned(snapshotId) || isPlanned(root)) return undefined;
  try {
    const frozen = await c.target.client.get<{ version: number }>(`/snapshots/${snapshotId}/content-items/${root}`);
    const now = await c.target.client.get<{ version: number }>(`/content-items/${root}`);
    return frozen.version === now.version ? snapshotId : undefined;
  } catch {
    return undefined; // gone, or of another item: a new one is made
  }
}

/** --schedule: an edition scheduled in the source is scheduled on the target (once DRAFT there). */
async function schedule(c: CloneContext, event: CmsEvent, edition: Edition, targetEdition: string): Promise<void> {
  if (!SCHEDULED.has(edition.publishingStatus)) return;
  if (!c.plan.schedule) {
    c.note(`edition '${event.name} / ${edition.name}' is scheduled in the source; it was cloned as a DRAFT (clone with --schedule, or cms edition schedule)`);
    return;
  }
  const current = isPlanned(targetEdition) ? undefined : await c.target.client.get<Edition>(`/editions/${targetEdition}`);
  if (current && current.publishingStatus !== 'DRAFT') return;
  const spec = { key: `schedule:${edition.id}`, resource: 'edition', action: 'publish' as const, targetId: targetEdition, label: `${event.name} / ${edition.name} scheduled for ${edition.start}` };
  await c.sync.act(spec, () => c.target.client.post(`/editions/${targetEdition}/schedule`, { lastModifiedDate: current!.lastModifiedDate }));
}
