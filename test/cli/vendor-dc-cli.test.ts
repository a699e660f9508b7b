import { mkdtempSync, readFileSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Api, ok } from '../helpers/server.js';
import { SCHEMA_HOST, contentLink, itemBody, schemaDocument } from '../helpers/content.js';
import { slotSchemaDocument } from '../helpers/editions.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve.js';

// The vendor's own CLI (npm @amplience/dc-cli, a devDependency at the newest version the registry
// serves), run unchanged through its own bin against `cms sandbox serve`: configuration only
// (API_URL and AUTH_URL, as its client factory reads them; its config file in a home of its own).
// The results are read back through the sandbox's API: a regression of the vendor's CLI, or of the
// sandbox under it, fails here (issue 31).

const DC_CLI = join(import.meta.dirname, '..', '..', 'node_modules', '.bin', 'dc-cli');
const URI = `${SCHEMA_HOST}/dc-article.json`;
const SLOT_URI = `${SCHEMA_HOST}/dc-hero-slot.json`;
const DAY = 86_400_000;

const home = new CliHome();
const work = mkdtempSync(join(tmpdir(), 'dc-cli-'));
let served: ServedSandbox;
let api: Api;
const s: Record<string, any> = {};

const all = async (path: string, key: string, query = '') => ((await ok(api.get(`${path}?size=500${query}`)))._embedded?.[key] ?? []) as any[];

/**
 * Runs the vendor's CLI with the sandbox's credentials; throws with its output unless it exits 0
 * without a failed step or an error line (it exits 0 when a step of hub clone fails) and without
 * asking a question (every run here must go through unattended).
 */
async function dcCli(args: string[]) {
  const logFile = join(work, `log-${Date.now()}-${Math.random().toString(36).slice(2)}.txt`);
  const res = await execa(DC_CLI, [...args, '--clientId', 'sandbox-admin', '--clientSecret', 'sandbox-secret', '--logFile', logFile], {
    env: { API_URL: `${served.url}/v2/content`, AUTH_URL: served.url, HOME: join(work, 'home'), FORCE_COLOR: '0', NO_COLOR: '1' },
    extendEnv: true,
    reject: false,
    // A question (the CLI asks on stdin without -f) reads end of input; a hang is cut off with the log.
    input: '',
    timeout: 60_000,
  });
  const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
  const exit = res.exitCode ?? -1;
  const text = `${res.stdout}\n${res.stderr}\n${log}`;
  if (exit !== 0 || /Failed\. Terminating|^ERROR|\(y\/n\)/m.test(text)) throw new Error(`dc-cli ${args.join(' ')} exited ${exit}:\n${text.slice(-6000)}`);
  return { exit, text, log };
}

async function buildSource(): Promise<void> {
  const hub = (s.hub = await ok(api.post('/hubs', { name: 'dcsrc', label: 'DC source' })));
  const h = `/hubs/${hub.id}`;
  await ok(api.patch(`${h}/settings`, { localization: { locales: ['en-GB', 'fr-FR'] }, virtualStagingEnvironment: { hostname: 'dcsrc.staging.example.com' }, applications: [{ name: 'web', templatedUri: 'https://web.example.com/{{id}}' }] }));
  await ok(api.post(`/admin/hubs/${hub.id}/modules/content-delivery-2`));
  await ok(api.post(`/admin/hubs/${hub.id}/modules/search-index`));
  await ok(api.post(`${h}/workflow-states`, { label: 'Draft', color: 'rgb(200,200,200)' }));
  await ok(api.post(`${h}/workflow-states`, { label: 'Approved', color: 'rgb(0,128,0)' }));
  s.extension = await ok(api.post(`${h}/extensions`, { name: 'colour-picker', label: 'Colour picker', url: 'https://ext.example.com/picker', category: 'CONTENT_FIELD', parameters: '{"palette":"brand"}', snippets: [{ label: 'Default', body: '{}' }] }));
  await ok(api.post(`${h}/content-type-schemas`, { schemaId: URI, body: JSON.stringify(schemaDocument(URI)), validationLevel: 'CONTENT_TYPE' }));
  await ok(api.post(`${h}/content-type-schemas`, { schemaId: SLOT_URI, body: JSON.stringify(slotSchemaDocument(SLOT_URI, [URI])), validationLevel: 'SLOT' }));
  s.article = await ok(api.post(`${h}/content-types`, { contentTypeUri: URI, settings: { label: 'Article' } }));
  s.slotType = await ok(api.post(`${h}/content-types`, { contentTypeUri: SLOT_URI, settings: { label: 'Hero slot' } }));
  s.content = await repo(hub.id, 'content', [s.article.id]);
  s.slots = await repo(hub.id, 'slots', [s.slotType.id], 'slots');
  s.pages = await ok(api.post(`/content-repositories/${s.content.id}/folders`, { name: 'pages' }));
  s.en = await ok(api.post(`/folders/${s.pages.id}/folders`, { name: 'en' }));
  const item = (label: string, fields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) =>
    ok(api.post(`/content-repositories/${s.content.id}/content-items`, { label, body: itemBody(URI, { title: label, ...fields }, meta), ...extra }));
  s.A = await item('A', {}, { folderId: s.en.id }, { deliveryKey: 'home' });
  s.B = await item('B', { links: [contentLink(s.A.id, URI)] }, { folderId: s.pages.id });
  s.C = await item('C', { links: [contentLink(s.B.id, URI)] });
  s.slot = await ok(api.post(`/content-repositories/${s.slots.id}/content-items`, { label: 'Home hero', body: { _meta: { schema: SLOT_URI, name: 'slot' }, title: 'Sample' } }));

  const now = Date.parse((await ok(api.get('/__sandbox/clock'))).now);
  const iso = (days: number) => new Date(now + days * DAY).toISOString();
  s.event = await ok(api.post(`${h}/events`, { name: 'Launch', start: iso(1), end: iso(30), comment: 'The launch', brief: 'https://brief.example.com' }));
  s.edition = await ok(api.post(`/events/${s.event.id}/editions`, { name: 'Day one', start: iso(2), end: iso(4), comment: 'first' }));
  [s.snapshot] = (await ok(api.post(`${h}/snapshots/batch`, [{ comment: 'hero content', createdFrom: 'content-item', type: 'GENERATED', contentRoot: s.A.id }]))).snapshots;
  const [editionSlot] = (await ok(api.post(`/editions/${s.edition.id}/slots`, [{ slot: s.slot.id }])))._embedded['edition-slots'];
  // Filled by our own CLI: the vendor's CLI must be able to clone what `cms` writes.
  expect((await home.run(['login', '--api-url', served.url, '--client-id', 'sandbox-admin', '--client-secret', 'sandbox-secret'])).exitCode).toBe(0);
  const filled = await home.run(['edition', 'slot-content', s.edition.id, editionSlot.id, '--snapshot', s.snapshot.id]);
  expect(filled.exitCode, filled.stderr).toBe(0);

  s.index = await ok(api.post(`${h}/search-indexes`, { suffix: 'articles', label: 'Articles', type: 'PRODUCTION', assignedContentTypes: [{ contentTypeUri: URI }] }));
  await ok(api.patch(`${h}/search-indexes/${s.index.id}/settings`, { searchableAttributes: ['title'] }));
}

/** A repository with the types assigned (the vendor's CLI matches repositories by label; it does not create them). */
async function repo(hubId: string, name: string, typeIds: string[], feature?: string) {
  const r = await ok(api.post(`/hubs/${hubId}/content-repositories`, { name, label: `Repo ${name}` }));
  for (const id of typeIds) await ok(api.post(`/content-repositories/${r.id}/content-types`, { contentTypeId: id }));
  if (feature) await ok(api.post(`/content-repositories/${r.id}/features?feature=${feature}`));
  return r;
}

/** An empty hub with the modules and the repositories (by label) the clone needs. */
async function emptyHub(name: string) {
  const hub = await ok(api.post('/hubs', { name, label: name }));
  await ok(api.post(`/admin/hubs/${hub.id}/modules/content-delivery-2`));
  await ok(api.post(`/admin/hubs/${hub.id}/modules/search-index`));
  await repo(hub.id, 'content', []);
  await repo(hub.id, 'slots', [], 'slots');
  return hub;
}

beforeAll(async () => {
  served = await serveSandbox(home.env, ['--data-dir', join(work, 'data')]);
  api = await new Api(served.url).login();
  await buildSource();
}, 120_000);

afterAll(async () => {
  await served?.stop();
  home.cleanup();
  rmSync(work, { recursive: true, force: true });
});

// ---- reading a hub back through the sandbox's API ----

const byLabel = (list: any[]) => Object.fromEntries(list.map((x) => [x.label ?? x.name, x]));

/** What the clone copies, read through the API; `items` by label, every family as a list so counts show duplicates. */
async function read(hubId: string) {
  const h = `/hubs/${hubId}`;
  const hub = await ok(api.get(h));
  const repos = await all(`${h}/content-repositories`, 'content-repositories');
  const folders: { name: string; parent: string | null; repo: string }[] = [];
  for (const r of repos) {
    const level = async (path: string, parent: string | null): Promise<void> => {
      for (const f of await all(path, 'folders')) {
        folders.push({ name: f.name, parent, repo: r.label });
        await level(`/folders/${f.id}/folders`, f.name);
      }
    };
    await level(`/content-repositories/${r.id}/folders`, null);
  }
  const items = (await Promise.all(repos.map((r) => all(`/content-repositories/${r.id}/content-items`, 'content-items', '&status=ACTIVE,ARCHIVED')))).flat();
  const events = await all(`${h}/events`, 'events');
  const editions = (await Promise.all(events.map((e) => all(`/events/${e.id}/editions`, 'editions')))).flat();
  const slots = (await Promise.all(editions.map((e) => all(`/editions/${e.id}/slots`, 'edition-slots')))).flat();
  const indexes = await all(`${h}/search-indexes`, 'indexes', '&projection=withSettings');
  const assigned = (await Promise.all(indexes.map((i) => all(`${h}/search-indexes/${i.id}/assigned-content-types`, 'assigned-content-types')))).flat();
  return {
    hub,
    workflowStates: await all(`${h}/workflow-states`, 'workflow-states'),
    extensions: await all(`${h}/extensions`, 'extensions'),
    schemas: await all(`${h}/content-type-schemas`, 'content-type-schemas', '&status=ACTIVE,ARCHIVED'),
    types: await all(`${h}/content-types`, 'content-types', '&status=ACTIVE,ARCHIVED'),
    repos,
    folders,
    items,
    events,
    editions,
    slots,
    indexes,
    assigned,
    webhooks: await all(`${h}/webhooks`, 'webhooks'),
  };
}

/** How many of each family: a second run that duplicated anything changes these. */
const counts = (hub: Awaited<ReturnType<typeof read>>) =>
  Object.fromEntries(Object.entries(hub).filter(([, v]) => Array.isArray(v)).map(([k, v]) => [k, (v as unknown[]).length]));

/** Polls the index's records until `check` holds (webhook deliveries run in the background). */
async function indexRecords(indexId: string, check: (ids: string[]) => boolean): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ids = ((await ok(api.post(`/__sandbox/search-indexes/${indexId}/query`, { query: '' }))).hits as any[]).map((hit) => hit.objectID);
    if (check(ids) || Date.now() > deadline) return ids;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const publish = async (itemId: string) => {
  const res = await api.post(`/content-items/${itemId}/publish`, {});
  expect(res.status, res.text).toBe(204);
};

/** A clone through a directory of its own (a second run in the same one is asked whether to overwrite the export), one mapping file for all. */
const clone = (dstHubId: string, dir: string) =>
  dcCli(['hub', 'clone', join(work, dir), '--hubId', s.hub.id, '--dstHubId', dstHubId, '--acceptSnapshotLimits', '--mapFile', join(work, 'clone-map.json'), '-f']);

describe("the vendor's CLI: hub clone, a second clone, hub clean", () => {
  let first: Awaited<ReturnType<typeof read>>;

  it('hub clone copies every family into an empty hub: settings, extensions, schemas, types, folders, items with links, the index with its webhooks, events, editions, slots', async () => {
    s.dst = await emptyHub('dcdst');
    await clone(s.dst.id, 'clone-1');
    const source = await read(s.hub.id);
    const copy = (first = await read(s.dst.id));
    // Settings and workflow states.
    expect(copy.hub.settings.localization.locales).toEqual(source.hub.settings.localization.locales);
    expect(copy.hub.settings.applications).toEqual(source.hub.settings.applications);
    expect(copy.workflowStates.map((w) => w.label).sort()).toEqual(['Approved', 'Draft']);
    // Extensions, schemas (bodies as written), types (settings), types assigned to the repositories.
    expect(copy.extensions.map((e) => [e.name, e.label, e.url, e.parameters])).toEqual(source.extensions.map((e) => [e.name, e.label, e.url, e.parameters]));
    const schemaMap = (list: any[]) => Object.fromEntries(list.map((x) => [x.schemaId, [x.validationLevel, JSON.parse(x.body)]]));
    expect(schemaMap(copy.schemas)).toEqual(schemaMap(source.schemas));
    const typeMap = (list: any[]) => Object.fromEntries(list.map((t) => [t.contentTypeUri, t.settings.label]));
    expect(typeMap(copy.types)).toEqual(typeMap(source.types));
    const assignedUris = (hub: typeof copy) => Object.fromEntries(hub.repos.map((r) => [r.label, (r.contentTypes ?? []).map((t: any) => t.contentTypeUri).sort()]));
    expect(assignedUris(copy)).toEqual(assignedUris(source));
    // Folders, items, links rewritten to the copies, delivery keys, folders of items.
    expect(copy.folders).toEqual(source.folders);
    const items = byLabel(copy.items);
    expect(Object.keys(items).sort()).toEqual(['A', 'B', 'C', 'Home hero']);
    expect(items.B.body.links[0].id).toBe(items.A.id);
    expect(items.C.body.links[0].id).toBe(items.B.id);
    expect(items.A.body._meta.deliveryKey).toBe('home');
    const folderOf = (hub: typeof copy, label: string) => {
      const item = byLabel(hub.items)[label];
      return item.folderId ? 'in a folder' : 'at the root';
    };
    for (const label of ['A', 'B', 'C']) expect(folderOf(copy, label), label).toBe(folderOf(source, label));
    // The index, named after the destination hub, with its settings and its assigned type.
    expect(copy.indexes.map((i) => [i.name, i.label, i.type, i.settings.searchableAttributes])).toEqual([['dcdst.articles', 'Articles', 'PRODUCTION', ['title']]]);
    expect(copy.assigned.map((a) => a.contentTypeUri)).toEqual([URI]);
    // Its webhooks were updated with the source index's (issue 31.4): they name the destination index only.
    const indexHooks = copy.webhooks.filter((w) => w.owner);
    expect(indexHooks).toHaveLength(2);
    for (const hook of indexHooks) expect(hook.handlers).toEqual([`sandbox://search-index/${copy.indexes[0].id}`]);
    // Events, editions and slots, the slot content pointing at a snapshot of the copied A.
    expect(copy.events.map((e) => [e.name, e.start, e.end, e.comment, e.brief])).toEqual(source.events.map((e) => [e.name, e.start, e.end, e.comment, e.brief]));
    expect(copy.editions.map((e) => [e.name, e.start, e.end, e.comment])).toEqual(source.editions.map((e) => [e.name, e.start, e.end, e.comment]));
    expect(copy.slots).toHaveLength(1);
    expect(copy.slots[0].slotId).toBe(items['Home hero'].id);
    expect(source.slots[0].content.body.slot._meta.rootContentItemId).toBe(s.A.id);
    const link = copy.slots[0].content.body.slot;
    expect(link._meta.rootContentItemId).toBe(items.A.id);
    const snapshot = await ok(api.get(`/snapshots/${link.id}`));
    expect(snapshot).toMatchObject({ rootContentItem: { id: items.A.id } });
    expect((await all(`/hubs/${s.dst.id}/snapshots`, 'snapshots')).map((x) => x.id)).toContain(link.id);
  }, 120_000);

  it("the copied index's webhooks feed the destination index, never the source's", async () => {
    const items = byLabel(first.items);
    const dstIndex = first.indexes[0].id;
    await publish(items.A.id);
    expect(await indexRecords(dstIndex, (ids) => ids.includes(items.A.id))).toContain(items.A.id);
    expect(await indexRecords(s.index.id, () => true)).not.toContain(items.A.id);
    // The source's own webhooks still feed the source index.
    await publish(s.B.id);
    expect(await indexRecords(s.index.id, (ids) => ids.includes(s.B.id))).toContain(s.B.id);
    expect(await indexRecords(dstIndex, () => true)).not.toContain(s.B.id);
  });

  it('a second clone after a source edit updates the copies in place: nothing duplicated', async () => {
    const h = `/hubs/${s.hub.id}`;
    const b = await ok(api.get(`/content-items/${s.B.id}`));
    await ok(api.patch(`/content-items/${s.B.id}`, { version: b.version, body: { ...b.body, title: 'B edited' } }));
    await ok(api.patch(`/extensions/${s.extension.id}`, { label: 'Colour picker 2' }));
    await ok(api.patch(`/content-types/${s.article.id}`, { settings: { label: 'Article 2' } }));
    await ok(api.patch(`/events/${s.event.id}`, { comment: 'The launch, edited' }));
    await ok(api.patch(`${h}/search-indexes/${s.index.id}`, { label: 'Articles 2' }));
    await clone(s.dst.id, 'clone-2');
    const again = await read(s.dst.id);
    expect(counts(again)).toEqual(counts(first));
    const items = byLabel(again.items);
    const before = byLabel(first.items);
    for (const label of Object.keys(before)) expect(items[label].id, label).toBe(before[label].id);
    expect(items.B.body.title).toBe('B edited');
    expect(items.B.body.links[0].id).toBe(items.A.id);
    expect(again.extensions.map((e) => [e.id, e.label])).toEqual([[first.extensions[0].id, 'Colour picker 2']]);
    expect(again.types.find((t) => t.contentTypeUri === URI)).toMatchObject({ id: first.types.find((t) => t.contentTypeUri === URI).id, settings: { label: 'Article 2' } });
    expect(again.events.map((e) => [e.id, e.comment])).toEqual([[first.events[0].id, 'The launch, edited']]);
    expect(again.indexes.map((i) => [i.id, i.label])).toEqual([[first.indexes[0].id, 'Articles 2']]);
    for (const hook of again.webhooks.filter((w) => w.owner)) expect(hook.handlers).toEqual([`sandbox://search-index/${first.indexes[0].id}`]);
  }, 120_000);

  it('hub clean archives the content, the types and the schemas of the hub', async () => {
    await dcCli(['hub', 'clean', '--hubId', s.dst.id, '-f']);
    const cleaned = await read(s.dst.id);
    expect(cleaned.items.map((i) => i.status)).toEqual(cleaned.items.map(() => 'ARCHIVED'));
    expect(cleaned.items).toHaveLength(first.items.length);
    expect(cleaned.types.map((t) => t.status)).toEqual(['ARCHIVED', 'ARCHIVED']);
    expect(cleaned.schemas.map((x) => x.status)).toEqual(['ARCHIVED', 'ARCHIVED']);
    // The source is untouched.
    const source = await read(s.hub.id);
    expect(source.items.every((i) => i.status === 'ACTIVE')).toBe(true);
  }, 120_000);
});

describe("the vendor's CLI: schema, type and content export and import", () => {
  it('content-type-schema, content-type and content-item export from one hub and import into another', async () => {
    const dir = join(work, 'model');
    const target = await emptyHub('dcimp');
    await dcCli(['content-type-schema', 'export', join(dir, 'schemas'), '--hubId', s.hub.id, '-f']);
    await dcCli(['content-type', 'export', join(dir, 'types'), '--hubId', s.hub.id, '-f']);
    await dcCli(['content-item', 'export', join(dir, 'content'), '--hubId', s.hub.id]);
    expect(readdirSync(join(dir, 'schemas')).filter((f) => f.endsWith('.json'))).toHaveLength(2);
    expect(readdirSync(join(dir, 'types')).filter((f) => f.endsWith('.json'))).toHaveLength(2);
    await dcCli(['content-type-schema', 'import', join(dir, 'schemas'), '--hubId', target.id]);
    await dcCli(['content-type', 'import', join(dir, 'types'), '--hubId', target.id, '--sync']);
    await dcCli(['content-item', 'import', join(dir, 'content'), '--hubId', target.id, '--mapFile', join(work, 'import-map.json'), '-f']);
    const copy = await read(target.id);
    const source = await read(s.hub.id);
    expect(copy.schemas.map((x) => x.schemaId).sort()).toEqual([SLOT_URI, URI].sort());
    expect(Object.fromEntries(copy.types.map((t) => [t.contentTypeUri, t.settings.label]))).toEqual(Object.fromEntries(source.types.map((t) => [t.contentTypeUri, t.settings.label])));
    const items = byLabel(copy.items);
    expect(Object.keys(items).sort()).toEqual(['A', 'B', 'C', 'Home hero']);
    expect(items.B.body).toMatchObject({ title: 'B edited', links: [{ id: items.A.id }] });
    expect(items.C.body.links[0].id).toBe(items.B.id);
    // Importing the same directory again with the same mapping changes nothing: no duplicates.
    await dcCli(['content-type-schema', 'import', join(dir, 'schemas'), '--hubId', target.id]);
    await dcCli(['content-type', 'import', join(dir, 'types'), '--hubId', target.id, '--sync']);
    await dcCli(['content-item', 'import', join(dir, 'content'), '--hubId', target.id, '--mapFile', join(work, 'import-map.json'), '-f']);
    expect(counts(await read(target.id))).toEqual(counts(copy));
  }, 120_000);
});
