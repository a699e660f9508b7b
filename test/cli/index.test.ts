import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// cms index: the main verbs against the embedded sandbox, from a hub with the search index
// module to published items found by a query and the analytics of that query.

const URI = 'https://schemas.example.com/product.json';

async function seed(home: CliHome) {
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await home.run(['api', method, path, ...(body === undefined ? [] : ['--input', '-'])], { input: body === undefined ? '' : JSON.stringify(body) });
    if (res.exitCode !== 0) throw new Error(`${method} ${path}: ${res.stderr}`);
    return res.stdout.trim() ? JSON.parse(res.stdout) : undefined;
  };
  const hub = await api('POST', '/hubs', { name: 'shop', label: 'Shop' });
  const repo = await api('POST', `/hubs/${hub.id}/content-repositories`, { name: 'catalogue', label: 'Catalogue' });
  const doc = { $schema: 'http://bigcontent.io/cms/schema/v1/schema#', id: URI, type: 'object', allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }], properties: { title: { type: 'string' } } };
  await api('POST', `/hubs/${hub.id}/content-type-schemas`, { schemaId: URI, body: JSON.stringify(doc), validationLevel: 'CONTENT_TYPE' });
  const type = await api('POST', `/hubs/${hub.id}/content-types`, { contentTypeUri: URI, settings: { label: 'Product' } });
  await api('POST', `/content-repositories/${repo.id}/content-types`, { contentTypeId: type.id });
  const items = [];
  for (const [title, color] of [['Red shoes', 'red'], ['Blue shoes', 'blue']]) items.push(await api('POST', `/content-repositories/${repo.id}/content-items`, { label: title, body: { _meta: { schema: URI }, title, color } }));
  return { api, hub, items };
}

describe('cms index', () => {
  const home = new CliHome();
  let s: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    s = await seed(home);
  });
  afterAll(() => home.cleanup());

  it('create needs the module; then creates <hub>.<suffix> with its content types', async () => {
    const refused = await home.run(['index', 'create', '--suffix', 'products', '--label', 'Products', '--content-type', URI]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('search index module');
    await s.api('POST', `/admin/hubs/${s.hub.id}/modules/search-index`);
    const index = await home.json(['index', 'create', '--suffix', 'products', '--label', 'Products', '--type', 'STAGING', '--content-type', URI]);
    expect(index).toMatchObject({ name: 'shop.products', label: 'Products', type: 'STAGING', status: 'ACTIVE' });
    const bad = await home.run(['index', 'create', '--suffix', 'no/slash', '--label', 'Bad']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("'/'");
  });

  it('list, get (by suffix or name), update', async () => {
    const listed = await home.json(['index', 'list']);
    expect(listed.map((i: any) => i.name)).toEqual(['shop.products']);
    const table = await home.run(['index', 'list']);
    expect(table.stdout).toContain('shop.products');
    expect((await home.json(['index', 'get', 'products'])).suffix).toBe('products');
    expect((await home.json(['index', 'get', 'shop.products'])).suffix).toBe('products');
    expect((await home.json(['index', 'update', 'products', '--label', 'All products'])).label).toBe('All products');
    const missing = await home.run(['index', 'get', 'nothing']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("No search index named 'nothing'");
  });

  it('settings: show, update from a file, replicas, forward to replicas', async () => {
    expect(await home.json(['index', 'settings', 'products'])).toMatchObject({ replicas: [] });
    const file = join(home.dir, 'settings.json');
    writeFileSync(file, JSON.stringify({ searchableAttributes: ['title', 'color'], hitsPerPage: 10 }));
    const updated = await home.json(['index', 'settings', 'products', '--body-file', file, '--replicas', 'shop.products-by-title', '--forward-to-replicas']);
    expect(updated).toMatchObject({ searchableAttributes: ['title', 'color'], hitsPerPage: 10, replicas: ['shop.products-by-title'] });
    const replicas = await home.json(['index', 'list', '--replicas-of', 'products', '--with-settings']);
    expect(replicas).toHaveLength(1);
    expect(replicas[0]).toMatchObject({ name: 'shop.products-by-title', settings: { hitsPerPage: 10, primary: 'shop.products' } });
    expect((await home.json(['index', 'list', '--primary'])).map((i: any) => i.name)).toEqual(['shop.products']);
  });

  it('types list / add / recreate-webhook / remove', async () => {
    const [assigned] = await home.json(['index', 'types', 'list', 'products']);
    expect(assigned.contentTypeUri).toBe(URI);
    const hook = await s.api('GET', `/hubs/${s.hub.id}/webhooks/${assigned.archivedContentWebhook}`);
    expect(hook.handlers).toEqual([`sandbox://search-index/${hook.owner.id}`]);
    const recreated = await home.json(['index', 'types', 'recreate-webhook', 'products', assigned.id, '--type', 'archived']);
    expect(recreated.archivedContentWebhook).not.toBe(assigned.archivedContentWebhook);
    expect(recreated.activeContentWebhook).toBe(assigned.activeContentWebhook);
    expect((await home.run(['api', 'GET', `/hubs/${s.hub.id}/webhooks/${assigned.archivedContentWebhook}`])).exitCode).toBe(1);
    expect((await home.run(['index', 'types', 'recreate-webhook', 'products', assigned.id])).exitCode).toBe(2);
    expect((await home.run(['index', 'types', 'add', 'products', '--type', URI])).exitCode).toBe(1);
    const other = await home.json(['index', 'create', '--suffix', 'spare', '--label', 'Spare']);
    const added = await home.json(['index', 'types', 'add', 'spare', '--type', URI]);
    expect(added.contentTypeUri).toBe(URI);
    await home.run(['index', 'types', 'remove', 'spare', added.id]);
    expect(await home.json(['index', 'types', 'list', other.id])).toEqual([]);
  });

  it('published items are found by query; analytics report the queries; stats, key', async () => {
    for (const item of s.items) expect((await home.run(['item', 'publish', item.id, '--wait'])).exitCode).toBe(0);
    // Deliveries run in the background: poll (each poll is a search too, kept out of analytics).
    let found: any;
    let polls = 0;
    for (; polls < 50 && found?.nbHits !== 2; polls++) found = await home.json(['index', 'query', 'products', 'shoes', '--no-analytics']);
    expect(found.nbHits).toBe(2);
    const red = await home.json(['index', 'query', 'products', 'shoes', '--filter', 'color:red', '--tag', 'web', '--user', 'u1', '--click-analytics']);
    expect(red.hits.map((h: any) => h.title)).toEqual(['Red shoes']);
    expect(red.queryID).toMatch(/^[0-9a-f]{32}$/);
    const none = await home.json(['index', 'query', 'products', 'boots', '--tag', 'app', '--user', 'u2']);
    expect(none.nbHits).toBe(0);
    // Piped table output: one tab-separated row per hit (id, label, title, locale, schema).
    const rows = await home.run(['index', 'query', 'products', 'shoes', '--filter', 'color:red', '--no-analytics']);
    expect(rows.exitCode, rows.stderr).toBe(0);
    expect(rows.stdout.trimEnd().split('\n').map((l) => l.split('\t').slice(0, 3))).toEqual([[red.hits[0].objectID, red.hits[0].label, 'Red shoes']]);

    const top = await home.json(['index', 'analytics', 'products', 'top-searches', '--click-analytics']);
    expect(top._embedded['top-searches'].map((e: any) => [e.search, e.count, e.trackedSearchCount])).toEqual([
      ['boots', 1, 0],
      ['shoes', 1, 1],
    ]);
    expect((await home.json(['index', 'analytics', 'products', 'searches-count', '--tags', 'web OR app'])).count).toBe(2);
    expect((await home.json(['index', 'analytics', 'products', 'users-count'])).count).toBe(2);
    const table = await home.run(['index', 'analytics', 'products', 'searches-with-no-results']);
    expect(table.stdout).toContain('boots');
    const badDate = await home.run(['index', 'analytics', 'products', 'searches-count', '--start', 'yesterday']);
    expect(badDate.exitCode).toBe(2);

    const stats = await home.json(['index', 'stats', 'products']);
    // Usage counts every search, analytics or not: the polls, two analysed searches and the table one.
    expect(stats).toMatchObject({ totalRecords: 2, usage: { numberOfSearches: { value: polls + 3 } } });
    const key = await home.json(['index', 'key', 'products']);
    expect(key).toMatchObject({ type: 'HUB_SEARCH' });
    expect(key.key).toMatch(/^[0-9a-f]{32}$/);
  });

  it('delete-object, clear, archive, unarchive, delete', async () => {
    expect((await home.run(['index', 'delete-object', 'products', s.items[0].id, '--yes'])).exitCode).toBe(0);
    expect((await home.json(['index', 'stats', 'products'])).totalRecords).toBe(1);
    expect((await home.run(['index', 'delete-object', 'products', s.items[0].id, '--yes'])).exitCode).toBe(1);
    expect((await home.run(['index', 'clear', 'products'])).exitCode).toBe(2);
    expect((await home.run(['index', 'clear', 'products', '--yes'])).exitCode).toBe(0);
    expect((await home.json(['index', 'stats', 'products'])).totalRecords).toBe(0);
    expect((await home.json(['index', 'archive', 'products'])).status).toBe('ARCHIVED');
    expect((await home.run(['index', 'archive', 'products'])).exitCode).toBe(1);
    expect((await home.json(['index', 'unarchive', 'products'])).status).toBe('ACTIVE');
    expect((await home.run(['index', 'delete', 'products', '--yes'])).exitCode).toBe(0);
    expect((await home.json(['index', 'list'])).map((i: any) => i.name)).toEqual(['shop.spare']);
  });
});
