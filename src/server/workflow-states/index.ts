// What other families use of workflow-states: written by `node scripts/restructure.mjs --indexes`
// from their imports. A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { workflowStates } from './store.js';
