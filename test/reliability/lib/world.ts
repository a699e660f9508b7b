import { type Api, createHub, createRepo, unique } from '../../helpers/server.js';
import { SCHEMA_HOST, contentLink, createContentRepo, createContentType, createItem, itemBody } from '../../helpers/content.js';
import { slotSchemaDocument } from '../../helpers/editions.js';
import { EVENT_END, EVENT_START, in2099 } from '../../helpers/events.js';

// A "world" of real resources in one hub, one of each kind the route table names in a path, so a
// fuzzer can fill path parameters with ids that exist. Every resource is made through the
// service over HTTP like a client would; any step that fails throws with the answer.

export interface World {
  hubId: string;
  hubName: string;
  /** Valid values for each path parameter name of the route table. */
  params: Record<string, string[]>;
  /** Strings worth putting into bodies: ids, schema URIs, names, dates. */
  strings: string[];
  /** Valid bodies by route op (`items.create`): what the world was built with, to mutate. */
  examples: Record<string, unknown[]>;
  /** Valid query parameters by route op, to mutate. */
  queries: Record<string, [string, string][][]>;
}

async function ok(res: Promise<{ status: number; text: string; body: any; headers: Headers }>, what: string, statuses = [200, 201, 202, 204]) {
  const r = await res;
  if (!statuses.includes(r.status)) throw new Error(`world: ${what} failed: ${r.status} ${r.text.slice(0, 500)}`);
  return r;
}

const lastSegment = (href: string) => new URL(href).pathname.split('/').filter(Boolean).pop()!;

/** Builds the world as the given (admin) client. `member` is a client that gets an ACL on the hub. */
export async function buildWorld(admin: Api, member: string): Promise<World> {
  const examples: Record<string, unknown[]> = {};
  const example = (op: string, ...bodies: unknown[]) => (examples[op] ??= []).push(...bodies.map((b) => structuredClone(b)));
  /** Version-checked bodies, with every version an item of the world may have reached. */
  const versions = (body: Record<string, unknown>, max = 8) => Array.from({ length: max }, (_, i) => ({ ...body, version: i + 1 }));
  const queries: Record<string, [string, string][][]> = {};
  const query = (ops: string[], ...qs: Record<string, string>[]) => {
    for (const op of ops) (queries[op] ??= []).push(...qs.map((q) => Object.entries(q)));
  };
  const hub = await createHub(admin, unique('world'));
  example('hubs.create', { name: unique('world'), label: 'World', description: 'd' });
  example('hubs.update', { label: 'Changed', description: 'x' }, hub);
  example('hubs.updateSettings', { devices: [{ name: 'Tiny', width: 1, height: 1, orientate: true }], localization: { locales: ['en-GB'] }, publishing: { platforms: { vendor_dam: { API_KEY: 'k', API_SECRET: 'world-api-secret', endpoint: 'https://dam' } } } });
  example('hubs.updatePlan', { plan: 'DEVELOPER' }, { plan: null });
  example('hubs.share', { user: member, additionalPermissions: ['READ'] });
  example('repositories.share', { user: member, additionalPermissions: ['READ', 'EDIT'] });
  example('repositories.create', { name: unique('repo'), label: 'Repo' });
  example('repositories.update', { name: unique('repo'), label: 'Renamed' });
  example('repositories.setItemLocales', { itemLocales: ['en-GB', 'de-DE'] });
  const hubId: string = hub.id;
  await ok(admin.post(`/admin/hubs/${hubId}/modules/search-index`), 'search module');
  await ok(admin.post(`/admin/hubs/${hubId}/modules/content-delivery-2`), 'CD2 module');
  await ok(admin.post(`/hubs/${hubId}/share`, { user: member, additionalPermissions: ['READ', 'EDIT'] }), 'share hub');

  // Content model: a schema and its type, repositories of one localization group, items, folders.
  const type = await createContentType(admin, hubId);
  const schemas = (await ok(admin.get(`/hubs/${hubId}/content-type-schemas`), 'list schemas')).body._embedded['content-type-schemas'];
  const schemaId: string = schemas[0].id;
  const repoEn = await createContentRepo(admin, hubId, type.id, ['en-GB']);
  const repoFr = await createContentRepo(admin, hubId, type.id, ['fr-FR']);
  await ok(admin.post(`/content-repositories/${repoEn.id}/localization-group`, { newRepositoryId: repoFr.id }), 'localization group');
  await ok(admin.post(`/content-repositories/${repoEn.id}/share`, { user: member, additionalPermissions: ['READ'] }), 'share repo');
  const leaf = await createItem(admin, repoEn.id, type.uri, { locale: 'en-GB', label: 'leaf apple' });
  const root = await createItem(admin, repoEn.id, type.uri, { locale: 'en-GB', label: 'root orange', body: itemBody(type.uri, { title: 'Root', count: 3, links: [contentLink(leaf.id, type.uri)] }) });
  const deliveryKey = unique('key');
  await ok(admin.patch(`/content-items/${leaf.id}/delivery-key`, { deliveryKey, version: 1 }), 'delivery key');
  const fetchedRoot = (await ok(admin.get(`/content-items/${root.id}`), 'get root')).body;
  const newItem = { label: 'new item', locale: 'en-GB', body: itemBody(type.uri, { title: 'Fresh', count: 1, links: [contentLink(leaf.id, type.uri)] }) };
  example('items.create', newItem, { ...newItem, body: { ...newItem.body, nested: { a: [1, 'two', { three: 3 }] } } }, { label: 'copy', version: 1 });
  example('items.update', ...versions(fetchedRoot), ...versions({ label: 'patched', body: itemBody(type.uri, { title: 'Patched' }) }));
  example('items.bulkUpdate', [{ id: root.id, version: fetchedRoot.version, label: 'bulk', body: itemBody(type.uri, { title: 'Bulk' }) }]);
  example('items.archive', ...versions({}));
  example('items.unarchive', ...versions({}));
  example('items.restore', ...versions({ restoreVersion: 1 }));
  example('items.setLocale', ...versions({ locale: 'en-GB' }));
  example('items.setWorkflow', ...versions({ state: null }));
  example('localization.localize', ...versions({ locales: ['fr-FR'] }));
  example('deliveryKeys.set', ...versions({ deliveryKey: 'a/b-c_d' }));
  example('deliveryKeys.filterByCollectionKey', { collectionKey: 'x', sortBy: { key: 'default', order: 'ASC' }, page: { size: 5 } });
  example(
    'search.facet',
    { fields: [{ facetAs: 'ENUM', field: 'schema' }, { facetAs: 'DATE', field: 'lastModifiedDate', range: { start: 'NOW', end: '-7:DAYS' }, filter: { type: 'DATE', values: ['-7:NOW'] } }], returnEntities: true },
    { fields: [{ facetAs: 'ENUM', field: 'body._meta.name', filter: { type: 'IN', values: ['a'] } }] },
  );
  example('schemas.create', { schemaId: `${SCHEMA_HOST}/${unique('fuzz')}.json`, body: JSON.stringify({ type: 'object', properties: { a: { type: 'string' } } }), validationLevel: 'CONTENT_TYPE' });
  example('schemas.update', ...versions({ body: JSON.stringify({ type: 'object' }), validationLevel: 'CONTENT_TYPE' }, 3));
  example('schemas.archive', ...versions({}, 3));
  example('schemas.unarchive', ...versions({}, 3));
  example('schemas.resolve', { body: JSON.stringify({ allOf: [{ $ref: `${SCHEMA_HOST}/cms/schema/v1/core#/definitions/content` }] }) });
  example('contentTypes.register', { contentTypeUri: type.uri, settings: { label: 'Again' } });
  example('contentTypes.update', { settings: { label: 'Relabelled', icons: [{ size: 256, url: 'https://i' }], visualizations: [{ label: 'v', templatedUri: 'https://v/{{contentItemId}}', default: true }] } });
  example('contentTypes.assign', { contentTypeId: type.id });
  const folder = (await ok(admin.post(`/content-repositories/${repoEn.id}/folders`, { name: unique('folder') }), 'folder')).body;
  const child = (await ok(admin.post(`/folders/${folder.id}/folders`, { name: unique('sub') }), 'child folder')).body;
  const localization = (await ok(admin.post(`/content-items/${root.id}/localize`, { locales: ['fr-FR'], version: 1 }), 'localize')).body;
  const state = (await ok(admin.post(`/hubs/${hubId}/workflow-states`, { label: unique('state'), color: 'rgb(10,20,30)' }), 'workflow state')).body;
  example('workflowStates.create', { label: 'Review', color: 'rgb(1,2,3)' });
  example('workflowStates.update', { label: 'Reviewed', color: 'rgb(255,255,255)' });
  example('folders.create', { name: 'f' });
  example('folders.update', { name: 'renamed' });
  example('repositories.joinLocalizationGroup', { newRepositoryId: repoFr.id });

  // Slots: a slot schema and type in a repository with the slots feature, and one slot.
  const slotUri = `${SCHEMA_HOST}/${unique('slot')}.json`;
  await ok(admin.post(`/hubs/${hubId}/content-type-schemas`, { schemaId: slotUri, body: JSON.stringify(slotSchemaDocument(slotUri, [type.uri])), validationLevel: 'SLOT' }), 'slot schema');
  const slotType = (await ok(admin.post(`/hubs/${hubId}/content-types`, { contentTypeUri: slotUri, settings: { label: 'Slot' } }), 'slot type')).body;
  const slotRepo = await createRepo(admin, hubId);
  await ok(admin.post(`/content-repositories/${slotRepo.id}/features?feature=slots`), 'slots feature');
  await ok(admin.post(`/content-repositories/${slotRepo.id}/content-types`, { contentTypeId: slotType.id }), 'assign slot type');
  const slot = (await ok(admin.post(`/content-repositories/${slotRepo.id}/content-items`, { label: unique('slot'), body: { _meta: { schema: slotUri, name: 'slot' }, title: 'Sample' } }), 'slot')).body;

  // Planning: an event, an edition with content and a slot, a snapshot with a publishing job.
  const event = (await ok(admin.post(`/hubs/${hubId}/events`, { name: unique('event'), start: EVENT_START, end: EVENT_END }), 'event')).body;
  const edition = (await ok(admin.post(`/events/${event.id}/editions`, { name: unique('edition'), start: in2099(3), end: in2099(4) }), 'edition')).body;
  const snapshot = (await ok(admin.post(`/hubs/${hubId}/snapshots`, { comment: 'world', createdFrom: 'content-item', type: 'USER', contentRoot: root.id }), 'snapshot')).body;
  const content = (await ok(admin.post(`/editions/${edition.id}/contents`, { snapshot: snapshot.id }), 'edition content')).body;
  const editionSlot = (await ok(admin.post(`/editions/${edition.id}/slots`, [{ slot: slot.id }]), 'edition slot')).body._embedded['edition-slots'][0];
  const job = (await ok(admin.post(`/snapshots/${snapshot.id}/publishing-jobs`, { scheduledDate: in2099(6) }), 'publishing job')).body;
  example('events.create', { name: 'e', start: EVENT_START, end: EVENT_END, comment: 'c', brief: 'https://brief' });
  example('events.update', { name: 'renamed', start: in2099(1), end: in2099(12) });
  example('editions.create', { name: 'ed', start: in2099(5), end: in2099(6) }, { name: 'ed', start: in2099(6), end: in2099(5) });
  example('editions.update', { name: 'x', comment: 'c', activeEndDate: true, start: in2099(7), end: in2099(8) });
  example('editions.createPreview', { lastModifiedDate: edition.lastModifiedDate, type: 'QUICKPREVIEW' });
  example('editionScheduling.schedule', { lastModifiedDate: edition.lastModifiedDate });
  example('editionScheduling.resolveConflicts', { comment: 'c', lastModifiedDate: edition.lastModifiedDate, resolutions: [] });
  example('editionContents.create', { snapshot: snapshot.id }, [{ snapshot: snapshot.id }]);
  example('editionContents.update', { snapshot: snapshot.id });
  example('editionSlots.assign', [{ slot: slot.id }]);
  example('editionSlots.setContent', { body: { _meta: { schema: slotUri, name: 'slot' }, slot: { _meta: { schema: `${SCHEMA_HOST}/cms/schema/v1/core#/definitions/content-link` }, contentType: type.uri, id: snapshot.id } } });
  example('snapshots.create', { comment: 'again', createdFrom: 'content-item', type: 'USER', contentRoot: root.id });
  example('snapshots.batchCreate', [{ comment: 'b', createdFrom: 'content-item', type: 'USER', contentRoot: leaf.id }]);
  example('publishing.createJob', { scheduledDate: in2099(7) });
  example('publishing.cancelJob', { state: 'CANCELLED' });
  example(
    'bulkJobs.create',
    { selection: [{ contentItemId: leaf.id, assignees: ['someone'] }] },
    { selection: [{ contentItemId: leaf.id, version: 1, contentRepositoryId: repoEn.id, name: 'n', label: 'copied' }] },
    { selection: [{ contentItemId: leaf.id, version: 1 }] },
  );
  const bulk = (await ok(admin.post(`/hubs/${hubId}/bulk-jobs/assign-users`, { selection: [{ contentItemId: leaf.id, assignees: [member] }] }), 'bulk job')).body;

  // Hooks and extensions: a webhook whose handler refuses connections, an extension, a template.
  const webhook = (
    await ok(
      admin.post(`/hubs/${hubId}/webhooks`, {
        label: unique('hook'),
        events: ['content-item.updated'],
        handlers: ['http://127.0.0.1:1/hook'],
        secret: 'world-signing-secret',
        headers: [{ key: 'X-Key', value: 'world-header-secret', secret: true }],
      }),
      'webhook',
    )
  ).body;
  example('webhooks.create', {
    label: 'h',
    events: ['content-item.created', 'edition.scheduled'],
    handlers: ['http://127.0.0.1:1/h'],
    secret: 's',
    method: 'POST',
    headers: [{ key: 'X-A', value: 'b', secret: false }],
    filters: [{ type: 'equal', arguments: [{ jsonPath: '$.payload.id' }, { value: 'x' }] }],
    customPayload: { type: 'text/x-handlebars-template', value: '{{payload.id}}' },
  });
  example('webhooks.update', { label: 'renamed', active: false });
  const extensionName = unique('ext');
  example('extensions.create', { name: unique('ext'), label: 'E', url: 'https://e.example.com', category: 'CONTENT_FIELD', height: 100, parameters: '{}', settings: '{}', snippets: [{ label: 's', body: '{}' }] });
  example('extensions.update', { label: 'E2', height: 50 });
  const extension = (
    await ok(admin.post(`/hubs/${hubId}/extensions`, { name: extensionName, label: 'Ext', url: 'https://extensions.example.com/x.html', category: 'CONTENT_FIELD' }), 'extension')
  ).body;
  const templateName = 'world-template';
  await ok(admin.put(`/__sandbox/hubs/${hubId}/templates/${templateName}`, undefined, { raw: '<html><body>{{content}}</body></html>', headers: { 'content-type': 'text/html' } }), 'template');

  // Search: an index with the content type assigned.
  const index = (
    await ok(admin.post(`/hubs/${hubId}/search-indexes`, { suffix: unique('idx'), label: 'World index', type: 'PRODUCTION', assignedContentTypes: [{ contentTypeUri: type.uri }] }), 'index')
  ).body;
  const assigned = (await ok(admin.get(`/hubs/${hubId}/search-indexes/${index.id}/assigned-content-types`), 'assigned')).body._embedded['assigned-content-types'][0];
  example('searchIndexes.create', { suffix: unique('ix'), label: 'Another', type: 'STAGING', assignedContentTypes: [{ contentTypeUri: type.uri }] });
  example('searchIndexes.update', { label: 'Renamed index' });
  example('searchIndexes.updateSettings', { replicas: [`${hub.name}.replica`], searchableAttributes: ['label'] });
  example('searchIndexes.createAssigned', { contentTypeUri: type.uri });
  const keyId = index._links['hub-search-key'] ? lastSegment(index._links['hub-search-key'].href) : index.id;

  // Integrations: one commerce, one marketing.
  const commerceBody = {
    hubId,
    label: unique('Shop'),
    'commerce-credentials': { clientId: 'shop-client', clientSecret: 'world-shop-secret' },
    'cms-credentials': { clientId: 'cms-client', clientSecret: 'world-cms-secret' },
    'commerce-api': { url: 'https://shop.example.com/api', siteId: 'RefArch' },
    contentSlots: { enabled: true },
    rendering: { templateName: 'default' },
    contentAssets: { enabled: true },
    localeMappings: { 'en-US': 'en-GB' },
  };
  const marketingBody = {
    hubId,
    label: unique('Mail'),
    active: true,
    'marketing-credentials': { username: 'mailer', password: 'world-mail-pass' },
    'cms-credentials': { clientId: 'cms-client', clientSecret: 'world-cms-secret' },
    rendering: { templateName: 'email' },
    contentAssets: { folder: 'email' },
  };
  const commerce = (await ok(admin.post('/integrations/commerce', commerceBody), 'commerce integration')).body;
  const marketing = (await ok(admin.post('/integrations/marketing', marketingBody), 'marketing integration')).body;
  example('integrations.commerceCreate', commerceBody);
  example('integrations.marketingCreate', marketingBody);
  example('integrations.commerceUpdate', { label: 'Shop 2', localeMappings: { 'en-US': 'en-GB' } });
  example('integrations.marketingUpdate', { label: 'Mail 2', active: false });
  example('sandbox.createClient', { id: unique('fuzz-client'), secret: 'fuzz-client-secret', permissions: ['CONTENT:FUNCTIONAL:HUB:CREATE'], acl: [{ resource: 'hubs', id: hubId, permissions: ['READ'] }] });
  example('sandbox.setClock', { advance: '1h' }, { advance: -60_000 }, { freeze: true }, { resume: true }, { set: in2099(1) });
  example('sandbox.setFaults', { spec: 'latency 1ms 0% on GET /v2/content/hubs', seed: 1 });
  example('searchQuery.query', { query: 'apple', hitsPerPage: 5, page: 0 });
  example('searchQuery.event', { eventType: 'click', eventName: 'c', index: index.id, queryID: 'x', objectIDs: [root.id], positions: [1], userToken: 'u' });

  query(['repositories.findByFeature', 'repositories.addFeature', 'repositories.removeFeature'], { feature: 'slots' }, { feature: 'fuzz' });
  query(['items.withChildren', 'localization.findByRoot'], { id: root.id });
  query(['deliveryKeys.find'], { key: deliveryKey });
  query(['search.find'], { query: 'apple' }, { query: 'label:apple -orange', sort: 'createdDate,asc', projection: 'basic' }, { query: '"root orange"' }, { query: 'apple,orange', page: '1', size: '1' });
  query(['search.facet'], { query: 'apple', 'createdDate.dir': 'asc' });
  query(['editions.search'], { rangeStart: in2099(1), rangeEnd: in2099(12), bounded: 'true' });
  query(['editionScheduling.conflict'], { id: root.id, version: '1' });
  query(['integrations.commerceList', 'integrations.marketingList'], { hubId, size: '1' });
  query(['commerce.live'], { slot: slot.id });
  query(['virtualStaging.render'], { template: templateName });
  query(['virtualStaging.query'], { store: hub.name, query: JSON.stringify({ 'sys.iri': `http://content.cms.amplience.com/${root.id}` }) });
  query(['contentDelivery.byId', 'contentDelivery.byKey'], { depth: 'all', format: 'linked' }, { depth: 'root' });
  query(['searchIndexes.recreateWebhook'], { type: 'active' }, { type: 'archived' });
  query(['admin.revokeHubPermissions', 'admin.revokeRepositoryPermissions'], { permissions: 'READ' });
  query(['items.create'], { sourceContentItemId: root.id });
  query(['items.list'], { projection: 'basic', status: 'ACTIVE,ARCHIVED', sort: 'label,asc', folderId: folder.id }, { excludeHierarchicalChildren: 'true', page: '0', size: '2' });
  query(['items.planned'], { epoch: String(Math.floor(Date.now() / 1000)) }, { time: in2099(3) });
  query(['searchIndexes.updateSettings'], { forwardToReplicas: 'true' });
  query(['searchIndexes.list'], { parentId: '', projection: 'withSettings', status: 'ACTIVE' });
  query(['searchQuery.query'], { query: 'apple', hitsPerPage: '2' });
  query(['searchAnalytics.report'], { startDate: '2026-01-01', endDate: '2026-01-31', limit: '5', offset: '1', clickAnalytics: 'true', orderBy: 'clickThroughRate', direction: 'asc', search: 'apple', tags: 'a OR b' });
  query(['editionSlots.list'], { includedSlots: slot.id });
  query(['editions.list', 'editions.get'], { projection: 'withSlots' });
  query(['snapshots.list'], { types: 'USER,SYSTEM' });
  query(['editions.create'], { sourceEditionId: edition.id });
  query(['editionSlots.assign'], { sourceEditionSlotId: editionSlot.id });
  query(['editionScheduling.schedule'], { ignoreWarnings: 'true' });
  query(['contentTypes.list', 'schemas.list'], { status: 'ACTIVE,ARCHIVED', sort: 'createdDate,desc' });
  query(['hubs.list', 'repositories.list', 'events.list', 'webhooks.list', 'extensions.list', 'workflowStates.list'], { page: '0', size: '5', sort: 'createdDate,desc' });

  const params: Record<string, string[]> = {
    hubId: [hubId],
    repoId: [repoEn.id, repoFr.id, slotRepo.id],
    schemaId: [schemaId],
    version: ['1'],
    typeId: [type.id, slotType.id],
    folderId: [folder.id, child.id],
    itemId: [root.id, leaf.id, slot.id],
    jobId: [localization.id, job.id, bulk.id],
    stateId: [state.id],
    eventId: [event.id],
    editionId: [edition.id],
    contentId: [content.id],
    editionSlotId: [editionSlot.id],
    snapshotId: [snapshot.id],
    webhookId: [webhook.id],
    indexId: [index.id],
    keyId: [keyId],
    objectId: [root.id],
    assignedId: [assigned.id],
    report: ['top-searches', 'top-hits', 'searches-with-no-results', 'top-filters-no-result-search', 'users-count', 'searches-count', 'no-results-rate'],
    jobType: ['assign-users', 'copy-items', 'publish', 'unarchive', 'update-workflow'],
    sid: [member],
    name: [extensionName, templateName],
    extensionId: [extension.id],
    integrationId: [commerce.id, marketing.id],
    clientId: [member],
    // The console's static assets, and a webhook delivery (none may exist yet: a well-formed id is enough to reach the handler).
    asset: ['app.js', 'app.css'],
    // Delivery: the store of rendering, the hub of Content Delivery 2, a delivery id and key.
    store: [hub.name],
    hubName: [hub.name],
    id: [root.id],
    key: [deliveryKey],
    requestId: await deliveryIds(admin, hubId, webhook.id),
    // A staging hostname to preview at a time (GET /domain/:host).
    host: [hub.settings?.virtualStagingEnvironment?.hostname ?? `${hub.name}.staging.bigcontent.io`],
  };
  const strings = [
    ...new Set([
      ...Object.values(params).flat(),
      hub.name,
      type.uri,
      slotUri,
      'en-GB',
      'fr-FR',
      'slots',
      'READ',
      'EDIT',
      'ACTIVE',
      'ARCHIVED',
      'CONTENT_TYPE',
      'SLOT',
      'USER',
      'content-item',
      'PRODUCTION',
      'CANCELLED',
      in2099(5),
      new Date().toISOString(),
    ]),
  ];
  return { hubId, hubName: hub.name, params, strings, examples, queries };
}

async function deliveryIds(admin: Api, hubId: string, webhookId: string): Promise<string[]> {
  const res = await admin.get(`/hubs/${hubId}/webhooks/${webhookId}/requests`);
  const ids = ((res.body?._embedded?.requests ?? []) as { id: string }[]).map((r) => r.id);
  return ids.length ? ids : ['000000000000000000000000'];
}
