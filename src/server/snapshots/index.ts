// What other families use of snapshots, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { isCancellable, renderPublishingJob } from './render.js';
export { type PublishingJob, type Snapshot, type SnapshotRoot, createSnapshot, publishingJobs, snapshotItems, snapshots } from './store.js';
