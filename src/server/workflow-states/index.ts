// What other families use of workflow-states, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { workflowStates } from './store.js';
