// What other families use of events, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { loadEvent } from './load.js';
export { checkWindow, definedFields, refuseArchived } from './rules.js';
export { type CmsEvent, events } from './store.js';
