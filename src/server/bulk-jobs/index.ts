// What other families use of bulk-jobs, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { renderBulkJob } from './render.js';
export { bulkJobs } from './store.js';
