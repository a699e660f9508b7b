// What other families use of hubs, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { loadHub } from './load.js';
export { HUB_MODULES, type Hub, hubs } from './store.js';
