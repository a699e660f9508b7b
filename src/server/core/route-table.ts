import { FN, type AclRequirement } from './auth/permissions.js';

// Every endpoint of the sandbox in one list: method, path, the handler that serves it (loaded
// only when first hit) and the permissions of the description's table. Paths under /v2/content
// follow service-interface.md and wire-contract.md.

export type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export interface RouteDef {
  /** `<family>.<handler>`: the module under routes/ and its exported handler. */
  op: string;
  method: Method;
  path: string;
  /** Functional permissions, all required (403 when one is missing). */
  fn?: string[];
  /** ACL requirements, applied by the handler through ctx.authorize once it knows the hub. */
  acl?: AclRequirement[];
  /** No token needed (token endpoint, schema documents, sandbox admin under /__sandbox). */
  public?: boolean;
  /** Handler is async and runs its own transactions; the body is passed through unparsed. */
  async?: boolean;
  /** Answers a non-JSON representation (HTML), so any Accept is fine. */
  html?: boolean;
  /** Takes a text (HTML) body, not JSON: no JSON Content-Type check; the handler reads ctx.bodyText. */
  textBody?: boolean;
  /** Reachable on a hub's staging hostname (core/host.ts assertReachable): staging query, rendering, delivery. */
  staging?: boolean;
  /** A POST that only reads (a query in a body): served like a GET, outside any write transaction. */
  reads?: boolean;
  /**
   * A delivery route a site in a browser may read with CORS (`serve --cors-origin`, core/host.ts
   * CorsPolicy): `published` (Content Delivery 2) for listed origins and `*`, `latest` (staging)
   * for listed origins only. Honoured on public routes only.
   */
  cors?: 'published' | 'latest';
  /** Only the sandbox admin client may call it (the /__sandbox admin prefix). */
  sandboxAdmin?: boolean;
  /**
   * `<family>.<schema>` in schemas/: the body is validated before the handler runs and handed
   * to it as ctx.input. Validation code (zod) loads only for requests that carry a body.
   */
  body?: string;
}

const V2 = '/v2/content';
type RouteOptions = Omit<RouteDef, 'op' | 'method' | 'path'>;
const route = (method: Method, path: string, op: string, opts: RouteOptions = {}): RouteDef => ({ method, path, op, ...opts });
const v2 = (method: Method, path: string, op: string, opts: RouteOptions = {}): RouteDef => route(method, V2 + path, op, opts);

const HUB_READ: AclRequirement[] = ['Hub:READ'];
/** A route that answers content item bodies also needs the permission to read content (no side door). */
export const CONTENT_READ = FN('CONTENT_ITEM', 'READ');
const readsContent = (opts: RouteOptions): RouteOptions => ({ ...opts, fn: [...(opts.fn ?? []), CONTENT_READ] });
const ADMIN_ON_HUB: RouteOptions = {
  fn: [FN('ADMIN', 'MANAGE_ACCESS'), FN('HUB', 'MANAGE_ACCESS')],
  acl: ['Hub:READ', 'Hub:MANAGE_ACCESS'],
};
const ADMIN_ON_REPOSITORY: RouteOptions = {
  fn: [FN('ADMIN', 'MANAGE_ACCESS'), FN('REPOSITORY', 'MANAGE_ACCESS')],
  acl: ['Hub:READ', 'ContentRepository:MANAGE_ACCESS'],
};
/** Administration entry points name no resource: the administration permission alone. */
const ADMIN_ENTRY: RouteOptions = { fn: [FN('ADMIN', 'MANAGE_ACCESS')] };

/** Search indexes, their analytics, and the sandbox's stand-in for the search provider's query API. */
function searchIndexRoutes(): RouteDef[] {
  const read: RouteOptions = { fn: [FN('SEARCH_INDEX', 'READ')], acl: HUB_READ };
  const edit = (body?: string): RouteOptions => ({ fn: [FN('SEARCH_INDEX', 'EDIT')], acl: HUB_READ, body });
  const index = '/hubs/:hubId/search-indexes/:indexId';
  const assigned = `${index}/assigned-content-types`;
  return [
    v2('GET', '/hubs/:hubId/search-indexes', 'searchIndexes.list', read),
    v2('POST', '/hubs/:hubId/search-indexes', 'searchIndexes.create', { fn: [FN('SEARCH_INDEX', 'CREATE')], acl: HUB_READ, body: 'searchIndexes.create' }),
    v2('GET', index, 'searchIndexes.get', read),
    v2('PATCH', index, 'searchIndexes.update', edit('searchIndexes.update')),
    v2('DELETE', index, 'searchIndexes.remove', { fn: [FN('SEARCH_INDEX', 'DELETE')], acl: HUB_READ }),
    v2('POST', `${index}/archive`, 'searchIndexes.archive', edit()),
    v2('POST', `${index}/unarchive`, 'searchIndexes.unarchive', edit()),
    v2('POST', `${index}/clear`, 'searchIndexes.clear', edit()),
    v2('GET', `${index}/keys/:keyId`, 'searchIndexes.getKey', read),
    v2('DELETE', `${index}/objects/:objectId`, 'searchIndexes.removeObject', edit()),
    v2('GET', `${index}/settings`, 'searchIndexes.getSettings', read),
    v2('PATCH', `${index}/settings`, 'searchIndexes.updateSettings', edit('searchIndexes.settings')),
    v2('GET', `${index}/stats`, 'searchIndexes.stats', read),
    v2('GET', assigned, 'searchIndexes.listAssigned', read),
    v2('POST', assigned, 'searchIndexes.createAssigned', edit('searchIndexes.assign')),
    v2('GET', `${assigned}/:assignedId`, 'searchIndexes.getAssigned', read),
    v2('DELETE', `${assigned}/:assignedId`, 'searchIndexes.removeAssigned', edit()),
    v2('POST', `${assigned}/:assignedId/recreate-webhook`, 'searchIndexes.recreateWebhook', edit()),
    v2('GET', `${index}/analytics/:report`, 'searchAnalytics.report', read),
    // Queries and click/conversion events: an index API key or a bearer token (checked by the handler);
    // a query records itself, so even a GET runs its own write transaction (async).
    route('GET', '/__sandbox/search-indexes/:indexId/query', 'searchQuery.query', { public: true, async: true }),
    route('POST', '/__sandbox/search-indexes/:indexId/query', 'searchQuery.query', { public: true, async: true }),
    route('POST', '/__sandbox/search-indexes/:indexId/events', 'searchQuery.event', { public: true }),
    // The same operations at the paths the hosted service's SDK uses (it reads an index by id there).
    v2('GET', '/algolia-search/:hubId/indexes', 'searchIndexes.list', read),
    v2('POST', '/algolia-search/:hubId/indexes', 'searchIndexes.create', { fn: [FN('SEARCH_INDEX', 'CREATE')], acl: HUB_READ, body: 'searchIndexes.create' }),
    v2('GET', '/algolia-search/:hubId/indexes/:indexId', 'searchIndexes.get', read),
  ];
}

export const routes: RouteDef[] = [
  // Token endpoint and the sandbox's own admin prefix
  route('POST', '/oauth/token', 'oauth.issueToken', { public: true }),
  route('GET', '/__sandbox/status', 'sandbox.status', { public: true }),
  route('POST', '/__sandbox/reset', 'sandbox.reset', { sandboxAdmin: true }),
  route('GET', '/__sandbox/clock', 'sandbox.getClock', { public: true }),
  route('POST', '/__sandbox/clock', 'sandbox.setClock', { sandboxAdmin: true, async: true, body: 'sandbox.clock' }),
  route('GET', '/__sandbox/clients', 'sandbox.listClients', { sandboxAdmin: true }),
  route('POST', '/__sandbox/clients', 'sandbox.createClient', { sandboxAdmin: true, body: 'sandbox.client' }),
  route('DELETE', '/__sandbox/clients/:clientId', 'sandbox.removeClient', { sandboxAdmin: true }),
  route('POST', '/__sandbox/clients/:clientId/tokens', 'sandbox.mintToken', { sandboxAdmin: true, body: 'sandbox.clientToken' }),
  // Saving and restoring run outside the request's transaction (VACUUM INTO and ATTACH cannot run in one).
  route('GET', '/__sandbox/snapshots', 'sandboxSnapshots.listSnapshots', { sandboxAdmin: true }),
  route('POST', '/__sandbox/snapshots', 'sandboxSnapshots.saveSnapshot', { sandboxAdmin: true, async: true, body: 'sandbox.snapshot' }),
  route('GET', '/__sandbox/snapshots/:name', 'sandboxSnapshots.getSnapshot', { sandboxAdmin: true }),
  route('POST', '/__sandbox/snapshots/:name/restore', 'sandboxSnapshots.restoreSnapshot', { sandboxAdmin: true, async: true }),
  route('DELETE', '/__sandbox/snapshots/:name', 'sandboxSnapshots.deleteSnapshot', { sandboxAdmin: true }),
  route('GET', '/__sandbox/faults', 'sandbox.getFaults', { sandboxAdmin: true }),
  route('POST', '/__sandbox/faults', 'sandbox.setFaults', { sandboxAdmin: true, body: 'sandbox.faults' }),
  route('DELETE', '/__sandbox/faults', 'sandbox.clearFaults', { sandboxAdmin: true }),
  route('GET', '/__sandbox/requests', 'sandboxJournal.list', { sandboxAdmin: true }),
  route('DELETE', '/__sandbox/requests', 'sandboxJournal.clear', { sandboxAdmin: true }),
  route('POST', '/__sandbox/hubs/:hubId/webhook-events', 'sandboxTrigger.trigger', { sandboxAdmin: true, body: 'sandbox.trigger' }),
  route('POST', '/__sandbox/requests/verify', 'sandboxJournal.verify', { sandboxAdmin: true, body: 'sandbox.verify' }),
  // The console: a page and its static assets (no data, so no token), and what the API lacks for it
  route('GET', '/', 'console.page', { public: true, html: true }),
  route('GET', '/__sandbox/console', 'console.page', { public: true, html: true }),
  route('GET', '/__sandbox/console/:asset', 'console.asset', { public: true, html: true }),
  route('GET', '/__sandbox/hubs/:hubId/bulk-jobs', 'sandboxJobs.listBulkJobs', { acl: HUB_READ }),
  route('GET', '/__sandbox/hubs/:hubId/publishing-jobs', 'sandboxJobs.listPublishingJobs', { fn: [FN('SNAPSHOT', 'READ')], acl: HUB_READ }),
  route('POST', '/__sandbox/hubs/:hubId/webhooks/:webhookId/requests/:requestId/resend', 'sandboxJobs.resendRequest', { fn: [FN('WEBHOOK', 'EDIT')], acl: HUB_READ }),

  // Root and information
  v2('GET', '', 'root.getRoot'),
  v2('GET', '/localization', 'root.getLocalization'),

  // Hubs
  v2('GET', '/hubs', 'hubs.list'),
  v2('POST', '/hubs', 'hubs.create', { fn: [FN('HUB', 'CREATE')], body: 'hubs.create' }),
  v2('GET', '/hubs/:hubId', 'hubs.get', { acl: HUB_READ }),
  v2('PATCH', '/hubs/:hubId', 'hubs.update', { fn: [FN('HUB', 'EDIT')], acl: ['Hub:READ', 'Hub:EDIT'], body: 'hubs.update' }),
  v2('PATCH', '/hubs/:hubId/settings', 'hubs.updateSettings', { fn: [FN('HUB', 'EDIT')], acl: ['Hub:READ', 'Hub:EDIT'], body: 'hubs.settings' }),
  v2('PATCH', '/hubs/:hubId/plan', 'hubs.updatePlan', { fn: [FN('HUB', 'EDIT')], acl: ['Hub:READ', 'Hub:EDIT'], body: 'hubs.plan' }),
  v2('DELETE', '/hubs/:hubId', 'hubs.remove', { fn: [FN('HUB', 'DELETE')], acl: ['Hub:READ', 'Hub:DELETE'] }),
  v2('POST', '/hubs/:hubId/share', 'hubs.share', { acl: ['Hub:READ', 'Hub:SHARE'], body: 'auth.share' }),

  // Content repositories
  v2('GET', '/hubs/:hubId/content-repositories', 'repositories.list', { fn: [FN('REPOSITORY', 'READ')], acl: HUB_READ }),
  v2('POST', '/hubs/:hubId/content-repositories', 'repositories.create', {
    fn: [FN('REPOSITORY', 'CREATE')],
    acl: ['Hub:READ', 'Hub:CREATE_REPOSITORY'], body: 'repositories.create' }),
  v2('GET', '/hubs/:hubId/content-repositories/search/findByFeaturesContaining', 'repositories.findByFeature', { acl: HUB_READ }),
  v2('GET', '/content-repositories/:repoId', 'repositories.get', { fn: [FN('REPOSITORY', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/content-repositories/:repoId', 'repositories.update', {
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'], body: 'repositories.update' }),
  v2('DELETE', '/content-repositories/:repoId', 'repositories.remove', {
    fn: [FN('REPOSITORY', 'DELETE')],
    acl: ['Hub:READ', 'ContentRepository:DELETE'],
  }),
  v2('POST', '/content-repositories/:repoId/features', 'repositories.addFeature', {
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'],
  }),
  v2('DELETE', '/content-repositories/:repoId/features', 'repositories.removeFeature', {
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'],
  }),
  v2('POST', '/content-repositories/:repoId/share', 'repositories.share', { acl: ['Hub:READ', 'ContentRepository:SHARE'], body: 'auth.share' }),
  v2('POST', '/content-repositories/:repoId/item-locales', 'repositories.setItemLocales', { body: 'repositories.itemLocales',
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'],
  }),
  v2('PATCH', '/content-repositories/:repoId/item-locales', 'repositories.setItemLocales', { body: 'repositories.itemLocales',
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'],
  }),
  v2('POST', '/content-repositories/:repoId/localization-group', 'repositories.joinLocalizationGroup', {
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'], body: 'repositories.joinGroup' }),
  v2('GET', '/content-repositories/:repoId/localization-group/locales', 'repositories.localizationGroupLocales', {
    fn: [FN('REPOSITORY', 'READ')],
    acl: HUB_READ,
  }),

  // Schema documents of the dialect, served so validators resolve them offline
  route('GET', '/cms/schema/v1/schema', 'schemaDocs.dialect', { public: true }),
  route('GET', '/cms/schema/v1/core', 'schemaDocs.core', { public: true }),
  route('GET', '/cms/schema/v1/localization', 'schemaDocs.localization', { public: true }),

  // Content type schemas
  v2('POST', '/hubs/:hubId/content-type-schemas', 'schemas.create', { fn: [FN('CONTENT_TYPE', 'CREATE')], acl: HUB_READ, body: 'schemas.create' }),
  v2('GET', '/hubs/:hubId/content-type-schemas', 'schemas.list', { fn: [FN('CONTENT_TYPE', 'READ')], acl: HUB_READ }),
  v2('POST', '/hubs/:hubId/content-type-schemas/resolve', 'schemas.resolve', { fn: [FN('CONTENT_TYPE', 'READ')], acl: HUB_READ, body: 'schemas.resolve' }),
  v2('GET', '/content-type-schemas/:schemaId', 'schemas.get', { fn: [FN('CONTENT_TYPE', 'READ')], acl: HUB_READ }),
  v2('GET', '/content-type-schemas/:schemaId/history', 'schemas.history', { fn: [FN('CONTENT_TYPE', 'READ')], acl: HUB_READ }),
  v2('GET', '/content-type-schemas/:schemaId/:version', 'schemas.getVersion', { fn: [FN('CONTENT_TYPE', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/content-type-schemas/:schemaId', 'schemas.update', { fn: [FN('CONTENT_TYPE', 'EDIT')], acl: HUB_READ, body: 'schemas.update' }),
  v2('POST', '/content-type-schemas/:schemaId/archive', 'schemas.archive', { fn: [FN('CONTENT_TYPE', 'EDIT')], acl: HUB_READ, body: 'schemas.version' }),
  v2('POST', '/content-type-schemas/:schemaId/unarchive', 'schemas.unarchive', { fn: [FN('CONTENT_TYPE', 'EDIT')], acl: HUB_READ, body: 'schemas.version' }),

  // Content types
  v2('POST', '/hubs/:hubId/content-types', 'contentTypes.register', { fn: [FN('CONTENT_TYPE', 'CREATE')], acl: HUB_READ, body: 'contentTypes.register' }),
  v2('GET', '/hubs/:hubId/content-types', 'contentTypes.list', { fn: [FN('CONTENT_TYPE', 'READ')], acl: HUB_READ }),
  v2('GET', '/content-types/:typeId', 'contentTypes.get', { fn: [FN('CONTENT_TYPE', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/content-types/:typeId', 'contentTypes.update', { fn: [FN('CONTENT_TYPE', 'EDIT')], acl: HUB_READ, body: 'contentTypes.update' }),
  v2('POST', '/content-types/:typeId/archive', 'contentTypes.archive', { fn: [FN('CONTENT_TYPE', 'EDIT')], acl: HUB_READ }),
  v2('POST', '/content-types/:typeId/unarchive', 'contentTypes.unarchive', { fn: [FN('CONTENT_TYPE', 'EDIT')], acl: HUB_READ }),
  v2('GET', '/content-types/:typeId/schema', 'contentTypes.getSchema', { fn: [FN('CONTENT_TYPE', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/content-types/:typeId/schema', 'contentTypes.syncSchema', { fn: [FN('CONTENT_TYPE', 'EDIT')], acl: HUB_READ }),
  v2('GET', '/content-types/:typeId/effective-content-type', 'contentTypes.effective', { fn: [FN('CONTENT_TYPE', 'READ')], acl: HUB_READ }),
  v2('POST', '/content-repositories/:repoId/content-types', 'contentTypes.assign', {
    fn: [FN('REPOSITORY', 'EDIT')],
    acl: ['Hub:READ', 'ContentRepository:EDIT'],
    body: 'contentTypes.assign',
  }),
  v2('DELETE', '/content-repositories/:repoId/content-types/:typeId', 'contentTypes.unassign', { fn: [FN('REPOSITORY', 'EDIT')], acl: ['Hub:READ', 'ContentRepository:EDIT'] }),

  // Folders
  v2('GET', '/content-repositories/:repoId/folders', 'folders.list', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('POST', '/content-repositories/:repoId/folders', 'folders.create', {
    fn: [FN('CONTENT_ITEM', 'CREATE')],
    acl: ['Hub:READ', 'ContentRepository:CREATE_CONTENT'],
    body: 'folders.create',
  }),
  v2('GET', '/folders/:folderId', 'folders.get', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/folders/:folderId', 'folders.update', { fn: [FN('CONTENT_ITEM', 'EDIT')], acl: ['Hub:READ', 'ContentRepository:EDIT_CONTENT'], body: 'folders.update' }),
  v2('DELETE', '/folders/:folderId', 'folders.remove', { fn: [FN('CONTENT_ITEM', 'DELETE')], acl: ['Hub:READ', 'ContentRepository:DELETE_CONTENT'] }),
  v2('GET', '/folders/:folderId/folders', 'folders.listChildren', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('POST', '/folders/:folderId/folders', 'folders.createChild', {
    fn: [FN('CONTENT_ITEM', 'CREATE')],
    acl: ['Hub:READ', 'ContentRepository:CREATE_CONTENT'],
    body: 'folders.create',
  }),

  // Content items
  v2('POST', '/content-repositories/:repoId/content-items', 'items.create', {
    fn: [FN('CONTENT_ITEM', 'CREATE')],
    acl: ['Hub:READ', 'ContentRepository:CREATE_CONTENT'],
    body: 'items.createOrCopy',
  }),
  v2('GET', '/content-repositories/:repoId/content-items', 'items.list', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/content-items', 'items.bulkUpdate', { fn: [FN('CONTENT_ITEM', 'EDIT')], acl: ['Hub:READ', 'ContentRepository:EDIT_CONTENT'], body: 'items.bulkUpdate' }),
  v2('GET', '/content-items/search/findByIdWithChildren', 'items.withChildren', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('GET', '/content-items/:itemId', 'items.get', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  // Hierarchies (dc-management-sdk-js hierarchies.children / parents): nodes are items.
  v2('GET', '/hierarchy-node/:itemId/children', 'hierarchy.children', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('GET', '/hierarchy-node/:itemId/parents', 'hierarchy.parents', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/content-items/:itemId', 'items.update', { fn: [FN('CONTENT_ITEM', 'EDIT')], acl: ['Hub:READ', 'ContentRepository:EDIT_CONTENT'], body: 'items.update' }),
  v2('POST', '/content-items/:itemId/archive', 'items.archive', { fn: [FN('CONTENT_ITEM', 'DELETE')], acl: ['Hub:READ', 'ContentRepository:DELETE_CONTENT'], body: 'items.version' }),
  v2('POST', '/content-items/:itemId/unarchive', 'items.unarchive', { fn: [FN('CONTENT_ITEM', 'EDIT')], acl: ['Hub:READ', 'ContentRepository:EDIT_CONTENT'], body: 'items.version' }),
  v2('GET', '/content-items/:itemId/versions', 'items.versions', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('GET', '/content-items/:itemId/versions/:version', 'items.version', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('GET', '/content-items/:itemId/history', 'items.history', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('POST', '/content-items/:itemId/restore', 'items.restore', { fn: [FN('CONTENT_ITEM', 'EDIT')], acl: ['Hub:READ', 'ContentRepository:EDIT_CONTENT'], body: 'items.restore' }),
  v2('POST', '/content-items/:itemId/locale', 'items.setLocale', { fn: [FN('CONTENT_ITEM', 'EDIT')], acl: ['Hub:READ', 'ContentRepository:EDIT_CONTENT'], body: 'items.locale' }),
  v2('PATCH', '/content-items/:itemId/workflow', 'items.setWorkflow', { fn: [FN('CONTENT_ITEM', 'EDIT')], acl: ['Hub:READ', 'ContentRepository:EDIT_CONTENT'], body: 'items.workflow' }),
  v2('GET', '/content-items/:itemId/edition-slot-associations', 'items.editionSlotAssociations', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('GET', '/content-items/:itemId/planned', 'items.planned', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),

  // Localization
  v2('POST', '/content-items/:itemId/localize', 'localization.localize', {
    fn: [FN('CONTENT_ITEM', 'CREATE')],
    acl: ['Hub:READ', 'ContentRepository:EDIT_CONTENT'],
    body: 'items.localize',
  }),
  v2('GET', '/content-items/:itemId/localizations', 'localization.localizations', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('GET', '/localization-jobs/search/findByRootContentItem', 'localization.findByRoot', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('GET', '/localization-jobs/:jobId', 'localization.get', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('GET', '/hubs/:hubId/localization-jobs', 'localization.searchJobs', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),

  // Delivery keys (Content Delivery 2)
  v2('PATCH', '/content-items/:itemId/delivery-key', 'deliveryKeys.set', { fn: [FN('CONTENT_ITEM', 'EDIT')], acl: ['Hub:READ', 'ContentRepository:EDIT_CONTENT'], body: 'items.deliveryKey' }),
  v2('GET', '/hubs/:hubId/content-items/delivery-key', 'deliveryKeys.find', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('GET', '/hubs/:hubId/delivery-keys/content-item', 'deliveryKeys.find', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('POST', '/hubs/:hubId/content-items/filter', 'deliveryKeys.filterByCollectionKey', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ, body: 'items.filter' }),

  // Text search and facets
  v2('GET', '/hubs/:hubId/content-items/find', 'search.find', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ }),
  v2('POST', '/hubs/:hubId/content-items/facet', 'search.facet', { fn: [FN('CONTENT_ITEM', 'READ')], acl: HUB_READ, body: 'search.facet' }),

  // Workflow states
  v2('GET', '/hubs/:hubId/workflow-states', 'workflowStates.list', { fn: [FN('WORKFLOW_STATE', 'READ')], acl: HUB_READ }),
  v2('POST', '/hubs/:hubId/workflow-states', 'workflowStates.create', { fn: [FN('WORKFLOW_STATE', 'CREATE')], acl: ['Hub:READ', 'Hub:EDIT'], body: 'workflowStates.create' }),
  v2('GET', '/workflow-states/:stateId', 'workflowStates.get', { fn: [FN('WORKFLOW_STATE', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/workflow-states/:stateId', 'workflowStates.update', { fn: [FN('WORKFLOW_STATE', 'EDIT')], acl: ['Hub:READ', 'Hub:EDIT'], body: 'workflowStates.update' }),

  // Administration: hub modules (the rest of administration comes with its issue)
  v2('GET', '/admin/hubs/:hubId/modules', 'admin.modules', ADMIN_ON_HUB),
  v2('POST', '/admin/hubs/:hubId/modules/search-index', 'admin.enableSearchIndex', ADMIN_ON_HUB),
  v2('POST', '/admin/hubs/:hubId/modules/content-delivery-2', 'admin.enableContentDelivery2', ADMIN_ON_HUB),

  // Events
  v2('GET', '/hubs/:hubId/events', 'events.list', { fn: [FN('EVENT', 'READ')], acl: HUB_READ }),
  v2('POST', '/hubs/:hubId/events', 'events.create', { fn: [FN('EVENT', 'CREATE')], acl: HUB_READ, body: 'events.create' }),
  v2('GET', '/events/:eventId', 'events.get', { fn: [FN('EVENT', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/events/:eventId', 'events.update', { fn: [FN('EVENT', 'EDIT')], acl: HUB_READ, body: 'events.update' }),
  v2('DELETE', '/events/:eventId', 'events.remove', { fn: [FN('EVENT', 'DELETE')], acl: HUB_READ }),
  v2('POST', '/events/:eventId/archive', 'events.archive', { fn: [FN('EVENT', 'EDIT')], acl: HUB_READ }),

  // Editions
  v2('GET', '/events/:eventId/editions', 'editions.list', { fn: [FN('EDITION', 'READ')], acl: HUB_READ }),
  v2('POST', '/events/:eventId/editions', 'editions.create', { fn: [FN('EDITION', 'CREATE')], acl: HUB_READ, body: 'editions.create' }),
  v2('GET', '/hubs/:hubId/editions', 'editions.search', { fn: [FN('EDITION', 'READ')], acl: HUB_READ }),
  v2('GET', '/editions/:editionId', 'editions.get', { fn: [FN('EDITION', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/editions/:editionId', 'editions.update', { fn: [FN('EDITION', 'EDIT')], acl: HUB_READ, body: 'editions.update' }),
  v2('DELETE', '/editions/:editionId', 'editions.remove', { fn: [FN('EDITION', 'DELETE')], acl: HUB_READ }),
  v2('POST', '/editions/:editionId/archive', 'editions.archive', { fn: [FN('EDITION', 'EDIT')], acl: HUB_READ }),
  v2('POST', '/editions/:editionId/schedule', 'editionScheduling.schedule', { fn: [FN('EDITION', 'SCHEDULE')], acl: HUB_READ, body: 'editions.schedule' }),
  v2('DELETE', '/editions/:editionId/schedule', 'editionScheduling.unschedule', { fn: [FN('EDITION', 'SCHEDULE')], acl: HUB_READ }),
  v2('POST', '/editions/:editionId/preview', 'editions.createPreview', { fn: [FN('EDITION', 'EDIT')], acl: HUB_READ, body: 'editions.preview' }),
  v2('GET', '/editions/:editionId/preview', 'editions.getPreview', { fn: [FN('EDITION', 'READ')], acl: HUB_READ }),
  v2('DELETE', '/editions/:editionId/preview', 'editions.deletePreview', { fn: [FN('EDITION', 'EDIT')], acl: HUB_READ }),
  v2('GET', '/editions/:editionId/conflicts', 'editionScheduling.conflicts', { fn: [FN('EDITION', 'READ')], acl: HUB_READ }),
  v2('GET', '/editions/:editionId/conflicts/findByIdAndVersion', 'editionScheduling.conflict', { fn: [FN('EDITION', 'READ')], acl: HUB_READ }),
  v2('POST', '/editions/:editionId/conflicts/resolve', 'editionScheduling.resolveConflicts', { fn: [FN('EDITION', 'EDIT')], acl: HUB_READ, body: 'editions.resolve' }),
  v2('GET', '/editions/:editionId/slot-collisions', 'editionScheduling.slotCollisions', { fn: [FN('EDITION', 'READ')], acl: HUB_READ }),

  // Edition content (snapshots associated with an edition directly)
  v2('GET', '/editions/:editionId/contents', 'editionContents.list', { fn: [FN('EDITION', 'READ')], acl: HUB_READ }),
  v2('POST', '/editions/:editionId/contents', 'editionContents.create', { fn: [FN('EDITION', 'EDIT')], acl: HUB_READ, body: 'editions.content' }),
  v2('GET', '/editions/:editionId/contents/:contentId', 'editionContents.get', { fn: [FN('EDITION', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/editions/:editionId/contents/:contentId', 'editionContents.update', { fn: [FN('EDITION', 'EDIT')], acl: HUB_READ, body: 'editions.content' }),
  v2('DELETE', '/editions/:editionId/contents/:contentId', 'editionContents.remove', { fn: [FN('EDITION', 'EDIT')], acl: HUB_READ }),

  // Edition slots
  v2('GET', '/editions/:editionId/slots', 'editionSlots.list', { fn: [FN('EDITION', 'READ')], acl: HUB_READ }),
  v2('POST', '/editions/:editionId/slots', 'editionSlots.assign', { fn: [FN('EDITION', 'EDIT')], acl: HUB_READ, body: 'editions.assignSlots' }),
  v2('GET', '/editions/:editionId/slots/:editionSlotId', 'editionSlots.get', { fn: [FN('EDITION', 'READ')], acl: HUB_READ }),
  v2('DELETE', '/editions/:editionId/slots/:editionSlotId', 'editionSlots.remove', { fn: [FN('EDITION', 'EDIT')], acl: HUB_READ }),
  v2('PUT', '/editions/:editionId/slots/:editionSlotId/content', 'editionSlots.setContent', { fn: [FN('EDITION', 'EDIT')], acl: HUB_READ, body: 'editions.slotContent' }),

  // Snapshots and publishing jobs
  v2('GET', '/hubs/:hubId/snapshots', 'snapshots.list', { fn: [FN('SNAPSHOT', 'READ')], acl: HUB_READ }),
  v2('POST', '/hubs/:hubId/snapshots', 'snapshots.create', { fn: [FN('SNAPSHOT', 'CREATE')], acl: HUB_READ, body: 'snapshots.create' }),
  v2('POST', '/hubs/:hubId/snapshots/batch', 'snapshots.batchCreate', { fn: [FN('SNAPSHOT', 'CREATE')], acl: HUB_READ, body: 'snapshots.batch' }),
  v2('GET', '/snapshots/:snapshotId', 'snapshots.get', { fn: [FN('SNAPSHOT', 'READ')], acl: HUB_READ }),
  v2('GET', '/snapshots/:snapshotId/content-items/:itemId', 'snapshots.contentItem', readsContent({ fn: [FN('SNAPSHOT', 'READ')], acl: HUB_READ })),
  v2('GET', '/snapshots/:snapshotId/publishing-jobs', 'publishing.listJobs', { fn: [FN('SNAPSHOT', 'READ')], acl: HUB_READ }),
  v2('POST', '/snapshots/:snapshotId/publishing-jobs', 'publishing.createJob', { fn: [FN('CONTENT_ITEM', 'PUBLISH')], acl: HUB_READ, body: 'publishing.publishingJob' }),
  v2('GET', '/publishing-jobs/:jobId', 'publishing.getJob', { fn: [FN('SNAPSHOT', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/publishing-jobs/:jobId', 'publishing.cancelJob', { fn: [FN('CONTENT_ITEM', 'PUBLISH')], acl: HUB_READ, body: 'publishing.cancelJob' }),
  v2('POST', '/content-items/:itemId/publish', 'publishing.publishItem', { fn: [FN('CONTENT_ITEM', 'PUBLISH')], acl: HUB_READ }),
  v2('POST', '/content-items/:itemId/unpublish', 'publishing.unpublishItem', { fn: [FN('CONTENT_ITEM', 'PUBLISH')], acl: HUB_READ }),

  // Webhooks
  v2('GET', '/hubs/:hubId/webhooks', 'webhooks.list', { fn: [FN('WEBHOOK', 'READ')], acl: HUB_READ }),
  v2('POST', '/hubs/:hubId/webhooks', 'webhooks.create', { fn: [FN('WEBHOOK', 'CREATE')], acl: HUB_READ, body: 'webhooks.create' }),
  v2('GET', '/hubs/:hubId/webhooks/:webhookId', 'webhooks.get', { fn: [FN('WEBHOOK', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/hubs/:hubId/webhooks/:webhookId', 'webhooks.update', { fn: [FN('WEBHOOK', 'EDIT')], acl: HUB_READ, body: 'webhooks.update' }),
  v2('DELETE', '/hubs/:hubId/webhooks/:webhookId', 'webhooks.remove', { fn: [FN('WEBHOOK', 'DELETE')], acl: HUB_READ }),
  v2('GET', '/hubs/:hubId/webhooks/:webhookId/requests', 'webhooks.requests', { fn: [FN('WEBHOOK', 'READ')], acl: HUB_READ }),

  // Search indexes (issue 5): routes go here
  ...searchIndexRoutes(),

  // Bulk jobs, administration and extensions (issue 5): routes go here
  // Bulk jobs: each entry is checked against its single operation's permissions when the job runs.
  v2('POST', '/hubs/:hubId/bulk-jobs/:jobType', 'bulkJobs.create', { acl: HUB_READ, body: 'bulkJobs.request' }),
  v2('GET', '/hubs/:hubId/bulk-jobs/:jobId', 'bulkJobs.get', { acl: HUB_READ }),
  // Administration of access (the hub modules are above)
  v2('GET', '/admin', 'admin.operations', ADMIN_ENTRY),
  v2('GET', '/admin/access', 'admin.access', ADMIN_ENTRY),
  v2('GET', '/admin/access/hubs/:hubId', 'admin.hubOperations', ADMIN_ON_HUB),
  v2('GET', '/admin/access/hubs/:hubId/members', 'admin.hubMembers', ADMIN_ON_HUB),
  v2('GET', '/admin/access/hubs/:hubId/members/:sid', 'admin.hubMember', ADMIN_ON_HUB),
  v2('DELETE', '/admin/access/hubs/:hubId/members/:sid/permissions', 'admin.revokeHubPermissions', ADMIN_ON_HUB),
  v2('GET', '/admin/access/content-repositories/:repoId', 'admin.repositoryOperations', ADMIN_ON_REPOSITORY),
  v2('GET', '/admin/access/content-repositories/:repoId/members', 'admin.repositoryMembers', ADMIN_ON_REPOSITORY),
  v2('GET', '/admin/access/content-repositories/:repoId/members/:sid', 'admin.repositoryMember', ADMIN_ON_REPOSITORY),
  v2('DELETE', '/admin/access/content-repositories/:repoId/members/:sid/permissions', 'admin.revokeRepositoryPermissions', ADMIN_ON_REPOSITORY),
  // Extensions
  v2('GET', '/hubs/:hubId/extensions', 'extensions.list', { fn: [FN('EXTENSION', 'READ')], acl: HUB_READ }),
  v2('POST', '/hubs/:hubId/extensions', 'extensions.create', { fn: [FN('EXTENSION', 'CREATE')], acl: HUB_READ, body: 'extensions.create' }),
  v2('GET', '/hubs/:hubId/extensions/:name', 'extensions.getByName', { fn: [FN('EXTENSION', 'READ')], acl: HUB_READ }),
  v2('GET', '/extensions/:extensionId', 'extensions.get', { fn: [FN('EXTENSION', 'READ')], acl: HUB_READ }),
  v2('PATCH', '/extensions/:extensionId', 'extensions.update', { fn: [FN('EXTENSION', 'EDIT')], acl: HUB_READ, body: 'extensions.update' }),
  v2('DELETE', '/extensions/:extensionId', 'extensions.remove', { fn: [FN('EXTENSION', 'DELETE')], acl: HUB_READ }),

  // Integrations and virtual staging (issue 5): routes go here
  ...integrationRoutes(),
  ...virtualStagingRoutes(),
];

/** Commerce and marketing platform integrations, and what their stand-in platforms hold. */
function integrationRoutes(): RouteDef[] {
  const can = (action: string, body?: string): RouteOptions => ({ fn: [FN('INTEGRATION', action)], acl: HUB_READ, ...(body ? { body } : {}) });
  const kind = (type: 'commerce' | 'marketing'): RouteDef[] => [
    v2('GET', `/integrations/${type}`, `integrations.${type}List`, can('READ')),
    v2('POST', `/integrations/${type}`, `integrations.${type}Create`, can('CREATE', `integrations.${type}Create`)),
    v2('GET', `/integrations/${type}/:integrationId`, `integrations.${type}Get`, can('READ')),
    v2('PATCH', `/integrations/${type}/:integrationId`, `integrations.${type}Update`, can('EDIT', `integrations.${type}Update`)),
    v2('DELETE', `/integrations/${type}/:integrationId`, `integrations.${type}Remove`, can('DELETE')),
  ];
  return [
    v2('GET', '/hubs/:hubId/integrations', 'integrations.listForHub', can('READ')),
    ...kind('commerce'),
    ...kind('marketing'),
    // The stand-in platforms show the content they received: for whoever may read the integration and the content.
    route('GET', '/__sandbox/commerce/:integrationId/campaigns', 'commerce.campaignList', readsContent(can('READ'))),
    route('GET', '/__sandbox/commerce/:integrationId/live', 'commerce.live', readsContent(can('READ'))),
    route('GET', '/__sandbox/commerce/:integrationId/assets', 'commerce.assets', readsContent(can('READ'))),
    route('GET', '/__sandbox/marketing/:integrationId/deliveries', 'integrations.marketingDeliveries', readsContent(can('READ'))),
  ];
}

/**
 * Virtual staging and delivery, public like the hosted delivery side (no token). `staging: true`
 * marks what a hub's staging hostname reaches (core/host.ts): the staging query, rendering and
 * Content Delivery 2 (latest versions there). `{origin}/cdn/{hubName}` serves Content Delivery 2
 * with published versions, on the sandbox's own origin only. `reads`: a POST that only reads.
 */
function virtualStagingRoutes(): RouteDef[] {
  const staged: RouteOptions = { public: true, staging: true, cors: 'latest' };
  const cdn = '/cdn/:hubName/content';
  const published: RouteOptions = { public: true, cors: 'published' };
  return [
    route('GET', '/v1/content/:store/content-item/:itemId', 'virtualStaging.render', { ...staged, html: true }),
    route('GET', '/cms/content/query', 'virtualStaging.query', staged),
    route('GET', '/content/id/:id', 'contentDelivery.byId', staged),
    route('GET', '/content/key/*key', 'contentDelivery.byKey', staged),
    route('POST', '/content/filter', 'contentDelivery.filter', { ...staged, reads: true }),
    route('POST', '/content/fetch', 'contentDelivery.fetch', { ...staged, reads: true }),
    route('GET', '/content/hierarchies/descendants/id/:id', 'contentDelivery.descendants', staged),
    route('GET', '/content/hierarchies/descendants/key/*key', 'contentDelivery.descendants', staged),
    route('GET', `${cdn}/id/:id`, 'contentDelivery.byId', published),
    // The virtual staging API of StagingEnvironmentFactory.generateDomain (preview domains).
    route('GET', '/domain/:host', 'contentDelivery.domain', { public: true }),
    route('GET', `${cdn}/key/*key`, 'contentDelivery.byKey', published),
    route('POST', `${cdn}/filter`, 'contentDelivery.filter', { ...published, reads: true }),
    route('POST', `${cdn}/fetch`, 'contentDelivery.fetch', { ...published, reads: true }),
    route('GET', `${cdn}/hierarchies/descendants/id/:id`, 'contentDelivery.descendants', published),
    route('GET', `${cdn}/hierarchies/descendants/key/*key`, 'contentDelivery.descendants', published),
    route('GET', '/__sandbox/hubs/:hubId/templates', 'virtualStaging.listTemplates', { sandboxAdmin: true }),
    route('PUT', '/__sandbox/hubs/:hubId/templates/:name', 'virtualStaging.putTemplate', { sandboxAdmin: true, textBody: true }),
    route('DELETE', '/__sandbox/hubs/:hubId/templates/:name', 'virtualStaging.removeTemplate', { sandboxAdmin: true }),
  ];
}
