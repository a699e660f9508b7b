import type { RequestContext } from '../core/context.js';
import { link, linkSet, templated } from '../core/hal.js';
import { isEditable } from './rules.js';
import type { Edition, EditionSlot } from './store.js';

/**
 * An edition slot. `conflicted`: its content takes part in an unresolved conflict of the edition.
 * Content and delete links exist only while the edition can change (DRAFT, not archived).
 */
export function renderEditionSlot(ctx: RequestContext, slot: EditionSlot, edition: Edition, conflicted: boolean) {
  const editionHref = ctx.href(`/editions/${edition.id}`);
  const base = `${editionHref}/slots/${slot.id}`;
  const { links, add } = linkSet(ctx, { hubId: edition.hubId }, { self: link(base), 'edition-slot': link(base) });
  add('editions.get', 'edition', link(editionHref));
  add('items.get', 'slot', link(ctx.href(`/content-items/${slot.slotId}`)));
  if (isEditable(edition)) {
    add('editionSlots.setContent', 'content', link(`${base}/content`));
    add('editionSlots.setContent', 'safe-update-content', templated(`${base}/content{?lastModifiedDate}`));
    add('editionSlots.remove', 'delete', link(base));
  }
  const { hubId: _hub, ...fields } = slot;
  return { ...fields, conflicts: conflicted, _links: links };
}
