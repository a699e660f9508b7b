// What other families use of bulk-jobs: written by `node scripts/restructure.mjs --indexes`
// from their imports. A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { renderBulkJob } from './render.js';
export { bulkJobs } from './store.js';
