import type { RequestContext, Reply } from './core/context.js';

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;
type Family = Record<string, Handler>;

// Route families load on first use: a CLI command that lists hubs never loads the item code.
export const families: Record<string, () => Promise<Family>> = {
  oauth: () => import('./admin/routes-oauth.js'),
  sandbox: () => import('./sandbox/routes.js'),
  sandboxJobs: () => import('./sandbox/routes-jobs.js'),
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
  search: () => import('./search-indexes/routes-search.js'),
  workflowStates: () => import('./workflow-states/routes.js'),
  events: () => import('./events/routes.js'),
  editions: () => import('./editions/routes.js'),
  editionContents: () => import('./editions/routes-contents.js'),
  editionSlots: () => import('./editions/routes-slots.js'),
  editionScheduling: () => import('./editions/routes-scheduling.js'),
  snapshots: () => import('./snapshots/routes.js'),
  publishing: () => import('./publishing/routes.js'),
  webhooks: () => import('./webhooks/routes.js'),
  bulkJobs: () => import('./bulk-jobs/routes.js'),
  extensions: () => import('./extensions/routes.js'),
  searchIndexes: () => import('./search-indexes/routes.js'),
  searchAnalytics: () => import('./search-indexes/routes-analytics.js'),
  searchQuery: () => import('./search-indexes/routes-query.js'),
  integrations: () => import('./integrations/routes.js'),
  commerce: () => import('./integrations/routes-commerce.js'),
  virtualStaging: () => import('./staging/routes.js'),
};
