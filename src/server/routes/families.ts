import type { RequestContext, Reply } from '../context.js';

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;
type Family = Record<string, Handler>;

// Route families load on first use: a CLI command that lists hubs never loads the item code.
export const families: Record<string, () => Promise<Family>> = {
  oauth: () => import('./oauth.js'),
  sandbox: () => import('./sandbox.js'),
  sandboxJobs: () => import('./sandbox-jobs.js'),
  console: () => import('./console.js'),
  root: () => import('./root.js'),
  hubs: () => import('./hubs.js'),
  repositories: () => import('./repositories.js'),
  schemaDocs: () => import('./schema-docs.js'),
  admin: () => import('./admin.js'),
  schemas: () => import('./schemas.js'),
  contentTypes: () => import('./content-types.js'),
  folders: () => import('./folders.js'),
  items: () => import('./items.js'),
  localization: () => import('./localization.js'),
  deliveryKeys: () => import('./delivery-keys.js'),
  search: () => import('./search.js'),
  workflowStates: () => import('./workflow-states.js'),
  events: () => import('./events.js'),
  editions: () => import('./editions.js'),
  editionContents: () => import('./edition-contents.js'),
  editionSlots: () => import('./edition-slots.js'),
  editionScheduling: () => import('./edition-scheduling.js'),
  snapshots: () => import('./snapshots.js'),
  publishing: () => import('./publishing.js'),
  webhooks: () => import('./webhooks.js'),
  bulkJobs: () => import('./bulk-jobs.js'),
  extensions: () => import('./extensions.js'),
  searchIndexes: () => import('./search-indexes.js'),
  searchAnalytics: () => import('./search-analytics.js'),
  searchQuery: () => import('./search-query.js'),
  integrations: () => import('./integrations.js'),
  commerce: () => import('./commerce.js'),
  virtualStaging: () => import('./virtual-staging.js'),
};
