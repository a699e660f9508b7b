// What other families use of content-types: written by `node scripts/restructure.mjs --indexes`
// from their imports. A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { checkSlotSampleData } from './slot-rules.js';
export { type ContentType, contentTypes } from './store.js';
