// What other families use of delivery, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { stagingHub } from './host.js';
export { snapshotPins, stagingViewPoint } from './preview.js';
export { itemResponse } from './cd2.js';
export { IRI_BASE } from './iri.js';
export { queryResult } from './jsonld.js';
export { type Delivered, type StagedContent, deliveredContent, stagedContent } from './resolve.js';
export { type LocaleEntry, parseLocaleList } from './locale.js';
