// What other families use of items, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { loadItem } from './load.js';
export { changeStatus, copyItem, setWorkflow, updateItem } from './operations.js';
export { renderItem } from './render.js';
export { authorizeAs, checkVersion } from './rules.js';
export { fieldName, fieldToken, innerHyphens, tokens, wordTokens } from './search-text.js';
export { type ContentItem, type HierarchyMeta, descendants, hierarchyOf, isDelivered, itemByPublishedKey, itemFromRow, itemVersion, items, publicItem, touchItem } from './store.js';
