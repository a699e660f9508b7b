// What other families use of delivery: written by `node scripts/restructure.mjs --indexes`
// from their imports. A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { IRI_BASE } from './iri.js';
export { type Delivered, type StagedContent, graphOf, stagedContent } from './resolve.js';
