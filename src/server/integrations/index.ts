// What other families use of integrations: written by `node scripts/restructure.mjs --indexes`
// from their imports. A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { WILL_PUBLISH, editionWindow, rankedActive } from './commerce-ranking.js';
