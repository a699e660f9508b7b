import type { Db } from '../core/db.js';
import { newId } from '../core/ids.js';
import { publishEntries, slotsOf } from '../editions/index.js';
import { slotSnapshotIds } from '../editions/index.js';
import { editions, type Edition, type EditionSlot } from '../editions/index.js';
import { itemVersion } from '../items/index.js';
import { snapshotItems } from '../snapshots/index.js';
import type { Integration } from './store.js';
import { WILL_PUBLISH, editionWindow, rankedActive } from './commerce-ranking.js';
import { campaigns, type Campaign, type FrozenItem, type SlotConfiguration } from './commerce-store.js';

// Campaigns on the stand-in commerce platform. An edition event makes the platform read the
// edition (as a real connector would through the API) and bring its campaign in line: a
// scheduled or published edition has one, any other has none. Reading the current state makes
// deliveries that arrive late or out of order harmless.

export type CampaignChange = { change: 'created' | 'updated'; campaign: Campaign } | { change: 'removed' | 'none'; campaign: null };

export function syncCampaign(db: Db, integration: Integration, editionId: string, now: number): CampaignChange {
  const existing = campaigns(db).find({ where: 'integration_id = ? AND edition_id = ?', params: [integration.id, editionId] });
  const edition = editions(db).get(editionId);
  if (!edition || edition.hubId !== integration.hubId || !WILL_PUBLISH.includes(edition.publishingStatus)) {
    if (existing) campaigns(db).delete(existing.id);
    return { change: existing ? 'removed' : 'none', campaign: null };
  }
  const campaign = campaignOf(db, integration.id, edition, existing, now);
  if (existing) campaigns(db).update(campaign);
  else campaigns(db).insert(campaign);
  return { change: existing ? 'updated' : 'created', campaign };
}

function campaignOf(db: Db, integrationId: string, edition: Edition, existing: Campaign | undefined, now: number): Campaign {
  const stamp = new Date(now).toISOString();
  const versions = new Map(publishEntries(db, edition).map((e) => [e.itemId, e.version]));
  return {
    id: existing?.id ?? newId(now),
    integrationId,
    editionId: edition.id,
    eventId: edition.eventId,
    name: edition.name,
    start: edition.start,
    end: editionWindow(edition).end,
    slots: slotsOf(db, edition).map((slot) => slotConfiguration(db, edition, slot, versions)),
    createdDate: existing?.createdDate ?? stamp,
    lastModifiedDate: stamp,
  };
}

function slotConfiguration(db: Db, edition: Edition, slot: EditionSlot, versions: ReadonlyMap<string, number>): SlotConfiguration {
  const snapshotIds = slotSnapshotIds(slot.content);
  return { slotId: slot.slotId, slotLabel: slot.slotLabel, editionSlotId: slot.id, rank: edition.start, content: { snapshotIds, items: frozenItems(db, snapshotIds, versions) } };
}

/** Every item the snapshots froze, once, at the version the edition publishes. */
function frozenItems(db: Db, snapshotIds: readonly string[], versions: ReadonlyMap<string, number>): FrozenItem[] {
  const found = new Map<string, FrozenItem>();
  for (const entry of snapshotIds.flatMap((id) => snapshotItems(db, id))) {
    if (found.has(entry.itemId)) continue;
    const version = versions.get(entry.itemId) ?? entry.version;
    const item = itemVersion(db, entry.itemId, version);
    if (item) found.set(item.id, { id: item.id, version, label: item.label, schema: item.body._meta.schema, body: item.body });
  }
  return [...found.values()];
}

/** A campaign as the live answer names it. */
const campaignSummary = (c: Campaign) => ({ id: c.id, editionId: c.editionId, name: c.name, start: c.start, end: c.end });

/** What the platform shows on a slot at `atMs`: the highest-ranked active configuration, and every candidate. */
export function liveOnSlot(db: Db, integrationId: string, slotId: string, atMs: number) {
  const at = new Date(atMs).toISOString();
  const started = campaigns(db).all({ where: 'integration_id = ? AND start <= ?', params: [integrationId, at] });
  const configurations = started.flatMap((c) => c.slots.filter((s) => s.slotId === slotId).map((configuration) => ({ id: c.id, start: c.start, end: c.end, campaign: c, configuration })));
  const ranked = rankedActive(configurations, atMs);
  const winner = ranked[0];
  return {
    slotId,
    at,
    campaign: winner ? campaignSummary(winner.campaign) : null,
    content: winner?.configuration.content ?? null,
    candidates: ranked.map((c) => ({ campaign: campaignSummary(c.campaign), rank: c.configuration.rank, snapshotIds: c.configuration.content.snapshotIds })),
  };
}
