// What other families use of repositories, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { loadRepository } from './load.js';
export { renderRepository } from './render.js';
export { type Repository, repositories } from './store.js';
