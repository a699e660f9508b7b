// What other families use of editions, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { editionPayload } from './lifecycle.js';
export { loadEdition } from './load.js';
export { editionSlotAssociations, plannedVersion } from './planning.js';
export { IN_PUBLICATION } from './render.js';
export { publishEntries, slotsOf } from './rules.js';
export { slotSnapshotIds } from './slot-content.js';
export { type Edition, type EditionSlot, type PublishingStatus, editionSlots, editions } from './store.js';
