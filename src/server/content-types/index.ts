// What other families use of content-types, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { checkSlotSampleData } from './slot-rules.js';
export { type ContentType, contentTypes } from './store.js';
