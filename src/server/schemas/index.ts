// What other families use of schemas, kept by hand: exactly the names they import.
// A family uses another only through its index.ts (test/unit/architecture.test.ts).
export { SchemaDocumentError, compile, validate } from './json-schema.js';
export { effectiveSchema } from './rules.js';
export { type ContentTypeSchema, findSchemaDocument, hubStatusFilter, schemaByUri } from './store.js';
