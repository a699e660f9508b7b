import type { RequestContext, Reply } from './core/context.js';
import type { SchemaFamilies } from './core/body-schemas.js';
import type { TaskKinds } from './core/tasks.js';
import { internalReceivers, loadInternalReceivers } from './webhooks/index.js';

// The families as the service loads them: route handlers, body schemas, scheduled task kinds and
// the sandbox's internal webhook receivers. Everything loads on first use.

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;
type Family = Record<string, Handler>;

// Route families load on first use: a CLI command that lists hubs never loads the item code.
export const families: Record<string, () => Promise<Family>> = {
  oauth: () => import('./admin/routes-oauth.js'),
  sandbox: () => import('./sandbox/routes.js'),
  sandboxJobs: () => import('./sandbox/routes-jobs.js'),
  sandboxJournal: () => import('./sandbox/routes-journal.js'),
  sandboxTrigger: () => import('./sandbox/routes-trigger.js'),
  sandboxSnapshots: () => import('./sandbox/routes-snapshots.js'),
  console: () => import('./sandbox/routes-console.js'),
  root: () => import('./hubs/routes-root.js'),
  hubs: () => import('./hubs/routes.js'),
  repositories: () => import('./repositories/routes.js'),
  schemaDocs: () => import('./schemas/routes-docs.js'),
  admin: () => import('./admin/routes.js'),
  schemas: () => import('./schemas/routes.js'),
  contentTypes: () => import('./content-types/routes.js'),
  folders: () => import('./folders/routes.js'),
  items: () => import('./items/routes.js'),
  localization: () => import('./items/routes-localization.js'),
  deliveryKeys: () => import('./items/routes-delivery-keys.js'),
  hierarchy: () => import('./items/routes-hierarchy.js'),
  search: () => import('./search-indexes/routes-search.js'),
  workflowStates: () => import('./workflow-states/routes.js'),
  events: () => import('./events/routes.js'),
  editions: () => import('./editions/routes.js'),
  editionContents: () => import('./editions/routes-contents.js'),
  editionSlots: () => import('./editions/routes-slots.js'),
  editionScheduling: () => import('./editions/routes-scheduling.js'),
  snapshots: () => import('./snapshots/routes.js'),
  publishing: () => import('./publishing/routes.js'),
  // The routes check sandbox:// handlers synchronously (inside the write's transaction): receivers load first.
  webhooks: () => loadInternalReceivers().then(() => import('./webhooks/routes.js')),
  bulkJobs: () => import('./bulk-jobs/routes.js'),
  extensions: () => import('./extensions/routes.js'),
  searchIndexes: () => import('./search-indexes/routes.js'),
  searchAnalytics: () => import('./search-indexes/routes-analytics.js'),
  searchQuery: () => import('./search-indexes/routes-query.js'),
  integrations: () => import('./integrations/routes.js'),
  commerce: () => import('./integrations/routes-commerce.js'),
  virtualStaging: () => import('./staging/routes.js'),
  contentDelivery: () => import('./delivery/routes.js'),
};

// Body schemas (and zod with them) load only when a request with a body needs them.
export const schemaFamilies: SchemaFamilies = {
  auth: () => import('./core/auth/schemas.js'),
  sandbox: () => import('./sandbox/schemas.js'),
  hubs: () => import('./hubs/schemas.js'),
  repositories: () => import('./repositories/schemas.js'),
  schemas: () => import('./schemas/schemas.js'),
  contentTypes: () => import('./content-types/schemas.js'),
  folders: () => import('./folders/schemas.js'),
  items: () => import('./items/schemas.js'),
  search: () => import('./search-indexes/schemas-search.js'),
  workflowStates: () => import('./workflow-states/schemas.js'),
  events: () => import('./events/schemas.js'),
  editions: () => import('./editions/schemas.js'),
  snapshots: () => import('./snapshots/schemas.js'),
  publishing: () => import('./publishing/schemas.js'),
  webhooks: () => import('./webhooks/schemas.js'),
  bulkJobs: () => import('./bulk-jobs/schemas.js'),
  extensions: () => import('./extensions/schemas.js'),
  searchIndexes: () => import('./search-indexes/schemas.js'),
  integrations: () => import('./integrations/schemas.js'),
};

export const taskKinds: TaskKinds = {
  localize: () => import('./items/task-localize.js'),
  'publishing-job': () => import('./publishing/task.js'),
  'webhook-delivery': () => import('./webhooks/deliver.js'),
  'webhook-internal': () => import('./webhooks/deliver.js'),
  'edition-schedule': () => import('./editions/task-schedule.js'),
  'edition-publish': () => import('./editions/task-publish.js'),
  'bulk-job': () => import('./bulk-jobs/task.js'),
};

// `sandbox://<receiver>/<path>` webhook URLs are delivered in-process to these (webhooks/internal.ts).
internalReceivers['search-index'] = () => import('./search-indexes/receiver.js');
internalReceivers.commerce = () => import('./integrations/commerce-receiver.js');
internalReceivers.marketing = () => import('./integrations/marketing-receiver.js');
