// What other families use of integrations, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { WILL_PUBLISH, editionWindow, rankedActive } from './commerce-ranking.js';
