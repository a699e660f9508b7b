import type { Db } from '../core/db.js';
import { editionSlots, editions, type Edition, type EditionSlot } from '../editions/index.js';
import { WILL_PUBLISH, editionWindow, rankedActive } from '../integrations/index.js';

export interface LiveEditionSlot {
  edition: Edition;
  editionSlot: EditionSlot;
}

/**
 * The edition slot whose content is live on a slot at `atMs`: among the scheduled or published
 * editions using the slot that have started (and not expired, when their content expires with
 * them), the latest start wins, by the same rule the commerce platform ranks by. Null: the slot
 * shows its own body.
 */
export function liveEditionSlot(db: Db, slotId: string, atMs: number): LiveEditionSlot | null {
  const uses = editionSlots(db)
    .all({ where: 'slot_id = ?', params: [slotId] })
    .flatMap((editionSlot) => {
      const edition = editions(db).get(editionSlot.editionId);
      return edition && WILL_PUBLISH.includes(edition.publishingStatus) ? [{ ...editionWindow(edition), edition, editionSlot }] : [];
    });
  return rankedActive(uses, atMs)[0] ?? null;
}
