// What other families use of folders: written by `node scripts/restructure.mjs --indexes`
// from their imports. A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { folders } from './store.js';
