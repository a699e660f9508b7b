// What other families use of hubs: written by `node scripts/restructure.mjs --indexes`
// from their imports. A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { loadHub } from './load.js';
export { HUB_MODULES, type Hub, hubs } from './store.js';
