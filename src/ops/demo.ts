import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import type { Context } from '../cli/context.js';
import type { ApiClient } from '../core/client.js';
import { ApiError } from '../core/errors.js';
import { waitForJob } from './wait-for-job.js';
import { CORE_DEFINITIONS, SCHEMA_DIALECT } from './content-link.js';

/**
 * A narrated walk through the service on the current profile (the embedded sandbox by default):
 * hubs and repositories, a content model, items with versions, search, delivery keys,
 * localization, a search index fed by publishing, then planned publication of an edition on the
 * sandbox clock with a webhook.
 */
export async function runDemo(ctx: Context, hubName: string): Promise<void> {
  const client = await ctx.client();
  // The story ends with an edition published "tomorrow" on the sandbox clock. Told on a clock set
  // STORY_DAYS back, and ended on real time, it leaves no date in the future: an item published a
  // day ahead made every later `item publish --wait` compare with a date the clock had not reached.
  await client.post('/__sandbox/clock', { advance: `-${STORY_DAYS}d` });
  try {
    await tellStory(ctx, client, hubName);
  } finally {
    // A reset, not a set to this process's now (that leaves an offset of the request's latency, realTime false).
    await client.post('/__sandbox/clock', { reset: true });
  }
}

/** How many days before real time the demo's story starts (its edition is published a day and an hour later). */
const STORY_DAYS = 2;

async function tellStory(ctx: Context, client: ApiClient, hubName: string): Promise<void> {
  const paint = await ctx.io.colors();
  let n = 0;
  const step = (title: string) => ctx.io.out(`\n${paint.bold(`${++n}. ${title}`)}\n`);
  const say = (line: string) => ctx.io.out(`   ${line}\n`);
  const conn = ctx.connection();
  ctx.io.out(`${paint.bold('cms demo')} on ${conn.embedded ? `the embedded sandbox (${conn.dataDir})` : conn.apiUrl}\n`);
  ctx.io.out(`(told on the sandbox clock set ${STORY_DAYS} days back, so that what it plans for tomorrow is past when it ends: the clock is on real time again afterwards)\n`);

  step(`Create the hub '${hubName}'`);
  const existing = await findHub(client, hubName);
  if (existing) {
    await client.delete(`/hubs/${existing}`);
    say(`replaced the previous '${hubName}' hub`);
  }
  const hub = await client.post<{ id: string; settings: { devices: { name: string }[] } }>('/hubs', { name: hubName, label: 'Demo hub', description: 'Created by cms demo' });
  say(`hub ${hub.id} with devices ${hub.settings.devices.map((d) => d.name).join(', ')}`);
  await client.patch(`/hubs/${hub.id}/settings`, { localization: { locales: ['en-GB', 'fr-FR'] } });

  step('Repositories and localization');
  const content = await client.post<{ id: string }>(`/hubs/${hub.id}/content-repositories`, { name: 'content', label: 'Content' });
  const french = await client.post<{ id: string }>(`/hubs/${hub.id}/content-repositories`, { name: 'content-fr', label: 'French content' });
  const slots = await client.post<{ id: string }>(`/hubs/${hub.id}/content-repositories`, { name: 'slots', label: 'Slots' });
  await client.post(`/content-repositories/${slots.id}/features`, undefined, { query: { feature: 'slots' } });
  await client.post(`/content-repositories/${content.id}/item-locales`, { itemLocales: ['en-GB'] });
  await client.post(`/content-repositories/${french.id}/item-locales`, { itemLocales: ['fr-FR'] });
  await client.post(`/content-repositories/${content.id}/localization-group`, { newRepositoryId: french.id });
  say(`content (en-GB) and content-fr (fr-FR) form a localization group; slots has the 'slots' feature`);

  step('A content model: an article schema, its content type, and a slot type');
  // Content types on a host of their own; the dialect and core definitions on the service's.
  const host = 'https://schemas.example.com';
  const core = CORE_DEFINITIONS;
  const articleUri = `${host}/demo/article.json`;
  const article = {
    $schema: SCHEMA_DIALECT,
    id: articleUri,
    title: 'Article',
    type: 'object',
    allOf: [{ $ref: `${core}/content` }],
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 120 },
      summary: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      related: { type: 'array', items: { allOf: [{ $ref: `${core}/content-link` }] } },
    },
    required: ['title'],
  };
  await client.post(`/hubs/${hub.id}/content-type-schemas`, { schemaId: articleUri, body: JSON.stringify(article), validationLevel: 'CONTENT_TYPE' });
  const articleType = await client.post<{ id: string }>(`/hubs/${hub.id}/content-types`, { contentTypeUri: articleUri, settings: { label: 'Article' } });
  for (const repo of [content, french]) await client.post(`/content-repositories/${repo.id}/content-types`, { contentTypeId: articleType.id });
  const slotUri = `${host}/demo/hero-slot.json`;
  const slotSchema = {
    $schema: SCHEMA_DIALECT,
    id: slotUri,
    title: 'Hero slot',
    type: 'object',
    allOf: [{ $ref: `${core}/content` }],
    properties: { title: { type: 'string' }, hero: { allOf: [{ $ref: `${core}/content-link` }] } },
  };
  await client.post(`/hubs/${hub.id}/content-type-schemas`, { schemaId: slotUri, body: JSON.stringify(slotSchema), validationLevel: 'SLOT' });
  const slotType = await client.post<{ id: string }>(`/hubs/${hub.id}/content-types`, { contentTypeUri: slotUri, settings: { label: 'Hero slot' } });
  await client.post(`/content-repositories/${slots.id}/content-types`, { contentTypeId: slotType.id });
  say(`article schema ${articleUri} registered and assigned to content and content-fr; hero slot type assigned to slots`);
  try {
    await client.post(`/content-repositories/${content.id}/content-items`, { label: 'Broken', body: { _meta: { schema: articleUri }, title: '' } });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    say(`an article with an empty title is refused field by field: ${err.errors.map((e) => e.property).join(', ')}`);
  }

  step('Folders and items with links');
  const news = await client.post<{ id: string }>(`/content-repositories/${content.id}/folders`, { name: 'news' });
  const features = await client.post<{ id: string }>(`/content-repositories/${content.id}/folders`, { name: 'features' });
  const make = (label: string, folderId: string, fields: Record<string, unknown>) =>
    client.post<{ id: string; version: number }>(`/content-repositories/${content.id}/content-items`, {
      label,
      folderId,
      locale: 'en-GB',
      body: { _meta: { schema: articleUri, name: label.toLowerCase().replace(/\W+/g, '-') }, ...fields },
    });
  const background = await make('Launch background', features.id, { title: 'How we built the rocket', tags: ['engineering'] });
  const launch = await make('Launch announcement', news.id, {
    title: 'We launch today',
    summary: 'The big launch is here.',
    tags: ['news', 'launch'],
    related: [{ _meta: { schema: `${core}/content-link` }, contentType: articleUri, id: background.id }],
  });
  await make('Weekly roundup', news.id, { title: 'Roundup: launch week', tags: ['news'] });
  say(`3 articles in folders news and features; '${'Launch announcement'}' links to '${'Launch background'}'`);
  const updated = await client.patch<{ version: number }>(`/content-items/${launch.id}`, { version: launch.version, body: { _meta: { schema: articleUri, name: 'launch' }, title: 'We launch today!', summary: 'The big launch is here.', tags: ['news', 'launch'], related: [{ _meta: { schema: `${core}/content-link` }, contentType: articleUri, id: background.id }] } });
  say(`updated the announcement: version ${updated.version}; a stale version would be refused with 409`);
  const children = await client.get<{ _embedded: { 'content-items': { label: string }[] } }>('/content-items/search/findByIdWithChildren', { query: { id: launch.id } });
  say(`its graph: ${children._embedded['content-items'].map((i) => i.label).join(' -> ')}`);

  step('Search and facets');
  const found = await client.get<{ _embedded: { 'content-items': { label: string }[] } }>(`/hubs/${hub.id}/content-items/find`, { query: { query: 'launch -roundup' } });
  say(`"launch -roundup" finds: ${found._embedded['content-items'].map((i) => i.label).join(', ')}`);
  const facets = await client.post<{ _facets: Record<string, { _id: string; count: number }[]> }>(`/hubs/${hub.id}/content-items/facet`, { fields: [{ facetAs: 'ENUM', field: 'folderId', name: 'folders' }], returnEntities: false });
  const folderName = (id: string) => (id === news.id ? 'news' : id === features.id ? 'features' : id);
  say(`items per folder: ${facets._facets.folders!.map((f) => `${folderName(f._id)} ${f.count}`).join(', ')}`);

  step('Delivery keys and localization');
  await client.post(`/admin/hubs/${hub.id}/modules/content-delivery-2`);
  const current = await client.get<{ version: number }>(`/content-items/${launch.id}`);
  await client.patch(`/content-items/${launch.id}/delivery-key`, { deliveryKey: 'news/launch', version: current.version });
  const byKey = await client.get<{ label: string }>(`/hubs/${hub.id}/content-items/delivery-key`, { query: { key: 'news/launch' } });
  say(`delivery key news/launch -> ${byKey.label}`);
  const latest = await client.get<{ version: number }>(`/content-items/${launch.id}`);
  const localizing = await client.post<{ id: string }>(`/content-items/${launch.id}/localize`, { locales: ['fr-FR'], version: latest.version });
  await waitForJob(client, `/localization-jobs/${localizing.id}`, { timeoutMs: 30_000, intervalMs: 100, io: ctx.io, what: 'Localization job' });
  const frItems = await client.get<{ _embedded: { 'content-items': { label: string; locale: string }[] } }>(`/content-repositories/${french.id}/content-items`);
  say(`localized to fr-FR: content-fr now holds ${frItems._embedded['content-items'].map((i) => `${i.label} (${i.locale})`).join(', ')}`);

  step('A search index fed by publishing');
  await client.post(`/admin/hubs/${hub.id}/modules/search-index`);
  const index = await client.post<{ id: string; name: string }>(`/hubs/${hub.id}/search-indexes`, { suffix: 'articles', label: 'Articles', type: 'PRODUCTION', assignedContentTypes: [{ contentTypeUri: articleUri }] });
  const articles = await client.get<{ _embedded: { 'content-items': { id: string }[] } }>(`/content-repositories/${content.id}/content-items`);
  for (const a of articles._embedded['content-items']) await client.post(`/content-items/${a.id}/publish`, {});
  const records = await waitForRecords(client, `/hubs/${hub.id}/search-indexes/${index.id}`, articles._embedded['content-items'].length);
  say(`index ${index.name} holds ${records} records: publishing an article indexes it (through the index's webhooks)`);
  for (const text of ['launch', 'rocket', 'moon']) {
    const answer = await client.post<{ nbHits: number; hits: { label?: string; title?: string }[] }>(`/__sandbox/search-indexes/${index.id}/query`, { query: text, analyticsTags: ['demo'] });
    say(`"${text}": ${answer.nbHits} hit${answer.nbHits === 1 ? '' : 's'}${answer.hits.length ? ` (${answer.hits.map((h) => h.title ?? h.label).join('; ')})` : ''}`);
  }
  const noResults = await client.get<{ _embedded: { 'searches-with-no-results': { search: string; count: number }[] } }>(`/hubs/${hub.id}/search-indexes/${index.id}/analytics/searches-with-no-results`);
  say(`analytics: searches with no results: ${noResults._embedded['searches-with-no-results'].map((e) => `"${e.search}" (${e.count})`).join(', ') || 'none'}`);

  await planAnEdition(ctx, client, say, step, { hubId: hub.id, slotsRepo: slots.id, slotUri, articleUri, core, heroId: launch.id });

  // `npx cms` works right after `npm install` in the clone; plain `cms` needs the package on PATH.
  const next = [
    `item list --repo content --hub ${hubName}`,
    `item find "launch" --hub ${hubName}`,
    `index query ${hubName}.articles "launch" --hub ${hubName}`,
    `edition list --event "Launch week" --hub ${hubName}`,
    `item export ./demo-export --hub ${hubName}`,
    'sandbox serve   (the same data over HTTP)',
  ];
  ctx.io.out(`\nTry next:\n${next.map((l) => `  npx cms ${l}\n`).join('')}(or put cms on your PATH with \`npm link\`, then drop the npx)\n`);
}

/** The scheduling story: an edition with a slot, scheduled for tomorrow, published when the sandbox clock gets there. */
async function planAnEdition(
  ctx: Context,
  client: ApiClient,
  say: (l: string) => void,
  step: (t: string) => void,
  m: { hubId: string; slotsRepo: string; slotUri: string; articleUri: string; core: string; heroId: string },
): Promise<void> {
  step('Plan a publication: a webhook, an event, an edition with a slot');
  const receiver = await startReceiver();
  let webhookId: string | undefined;
  try {
    webhookId = (await client.post<{ id: string }>(`/hubs/${m.hubId}/webhooks`, { label: 'Demo receiver', events: ['edition.scheduled', 'edition.published', 'content-item.published'], handlers: [receiver.url], secret: 'demo-secret' })).id;
    const clock = await client.get<{ now: string }>('/__sandbox/clock');
    const now = Date.parse(clock.now);
    const day = 86_400_000;
    const event = await client.post<{ id: string }>(`/hubs/${m.hubId}/events`, { name: 'Launch week', start: new Date(now).toISOString(), end: new Date(now + 14 * day).toISOString() });
    const start = new Date(now + day).toISOString();
    const edition = await client.post<{ id: string }>(`/events/${event.id}/editions`, { name: 'Launch day', start, end: new Date(now + 3 * day).toISOString(), activeEndDate: false });
    const slot = await client.post<{ id: string }>(`/content-repositories/${m.slotsRepo}/content-items`, { label: 'Home hero', body: { _meta: { schema: m.slotUri, name: 'home-hero' }, title: 'Home page hero' } });
    const snapshot = await client.post<{ id: string }>(`/hubs/${m.hubId}/snapshots`, { comment: 'Launch content', createdFrom: 'content-item', type: 'USER', contentRoot: m.heroId });
    const assigned = await client.post<{ _embedded: { 'edition-slots': { id: string }[] } }>(`/editions/${edition.id}/slots`, [{ slot: slot.id }]);
    const editionSlot = assigned._embedded['edition-slots'][0]!;
    await client.put(`/editions/${edition.id}/slots/${editionSlot.id}/content`, { body: { _meta: { schema: m.slotUri, name: 'home-hero' }, hero: { _meta: { schema: `${m.core}/content-link`, rootContentItemId: m.heroId }, contentType: m.articleUri, id: snapshot.id } } });
    say(`edition 'Launch day' starts ${start}; slot 'Home hero' shows a snapshot of the announcement and the article it links to`);

    step('Schedule it');
    const draft = await client.get<{ lastModifiedDate: string }>(`/editions/${edition.id}`);
    await client.post(`/editions/${edition.id}/schedule`, { lastModifiedDate: draft.lastModifiedDate });
    const scheduled = await client.get<{ publishingStatus: string; publishingJobId: string }>(`/editions/${edition.id}`);
    say(`publishing status ${scheduled.publishingStatus}; publishing job ${scheduled.publishingJobId} waits for the start date`);

    step('Move the sandbox clock to tomorrow');
    await client.post('/__sandbox/clock', { advance: '25h' });
    const published = await client.get<{ publishingStatus: string }>(`/editions/${edition.id}`);
    const job = await client.get<{ state: string }>(`/publishing-jobs/${scheduled.publishingJobId}`);
    const item = await client.get<{ publishingStatus: string; lastPublishedDate: string }>(`/content-items/${m.heroId}`);
    say(`edition ${published.publishingStatus}, job ${job.state}, announcement ${item.publishingStatus} at ${item.lastPublishedDate}`);
    await receiver.settle(3);
    for (const d of receiver.received) say(`webhook receiver got ${d.event} (signature ${d.signed ? 'verified' : 'WRONG'})`);
  } finally {
    // The clock goes back to real time when the story ends (runDemo).
    await receiver.close();
    // The receiver is gone with this process: leave no active webhook aimed at its dead port
    // (deactivated rather than deleted, so `cms webhook requests` still shows its deliveries).
    if (webhookId) await client.patch(`/hubs/${m.hubId}/webhooks/${webhookId}`, { active: false });
  }
}

/** Waits (up to 10 s) until the index holds `count` records: deliveries to the index run in the background. */
async function waitForRecords(client: ApiClient, indexPath: string, count: number): Promise<number> {
  let total = 0;
  for (let waited = 0; waited < 10_000; waited += 50) {
    total = (await client.get<{ totalRecords: number }>(`${indexPath}/stats`)).totalRecords;
    if (total >= count) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return total;
}

async function findHub(client: ApiClient, name: string): Promise<string | undefined> {
  for await (const hub of client.paginate<{ id: string; name: string }>('/hubs', 'hubs')) if (hub.name === name) return hub.id;
  return undefined;
}

/** A local webhook receiver that checks signatures; deliveries from the sandbox arrive in the background. */
async function startReceiver(): Promise<{ url: string; received: { event: string; signed: boolean }[]; settle(n: number): Promise<void>; close(): Promise<void> }> {
  const received: { event: string; signed: boolean }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const expected = createHmac('sha256', 'demo-secret').update(body).digest('base64');
      received.push({ event: String(req.headers['x-webhook-event']), signed: req.headers['x-webhook-signature'] === expected });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    settle: async (count) => {
      for (let i = 0; i < 100 && received.length < count; i++) await new Promise((r) => setTimeout(r, 50));
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}
