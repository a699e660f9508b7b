// What other families use of publishing, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { publishItem, runPublishingJob } from './publish.js';
