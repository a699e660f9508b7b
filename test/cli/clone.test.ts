import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CliHome } from '../helpers/cli.js';
import { Api, ok } from '../helpers/server.js';
import { SCHEMA_HOST, contentLink, itemBody, schemaDocument } from '../helpers/content.js';
import { slotSchemaDocument } from '../helpers/editions.js';
import { runInPty } from '../helpers/pty.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve.js';

// cms hub clone between two sandboxes served over HTTP (`cms sandbox serve`, two data
// directories, two profiles), and into the embedded one. The source hub has a bit of everything;
// the copy is compared with it resource by resource, ids translated through the run's mapping.

const URI = `${SCHEMA_HOST}/clone-article.json`;
const SLOT_URI = `${SCHEMA_HOST}/clone-hero-slot.json`;
const CORE = `http://bigcontent.io/cms/schema/v1/core#/definitions`;
const creds = ['--client-id', 'sandbox-admin', '--client-secret', 'sandbox-secret'];
const DAY = 86_400_000;

const home = new CliHome();
const dirs = [mkdtempSync(join(tmpdir(), 'cms-clone-src-')), mkdtempSync(join(tmpdir(), 'cms-clone-dst-'))];
let servers: ServedSandbox[] = [];
let src: Api;
let dst: Api;
const s: Record<string, any> = {};

const all = async (api: Api, path: string, key: string, query = '') => (await ok(api.get(`${path}?size=500${query}`)))._embedded[key] as any[];

/** Runs cms with -o json whatever the exit code; parses stdout. */
async function clone(args: string[], env?: Record<string, string>) {
  const res = await home.run(['hub', 'clone', ...args, '-o', 'json'], { env, timeout: 120_000 });
  let data: any;
  try {
    data = JSON.parse(res.stdout);
  } catch {
    throw new Error(`cms hub clone ${args.join(' ')} exited ${res.exitCode}: ${res.stderr}`);
  }
  return { ...res, data };
}

async function buildSource(api: Api): Promise<void> {
  const hub = (s.hub = await ok(api.post('/hubs', { name: 'site', label: 'Site', description: 'The source hub' })));
  await ok(api.patch(`/hubs/${hub.id}/settings`, { localization: { locales: ['en-GB', 'fr-FR'] }, virtualStagingEnvironment: { hostname: 'vse.example.com' }, applications: [{ name: 'web', templatedUri: 'https://web.example.com/{{id}}' }] }));
  await ok(api.post(`/admin/hubs/${hub.id}/modules/content-delivery-2`));
  await ok(api.post(`/admin/hubs/${hub.id}/modules/search-index`));
  s.draft = await ok(api.post(`/hubs/${hub.id}/workflow-states`, { label: 'Draft', color: 'rgb(200,200,200)' }));
  s.approved = await ok(api.post(`/hubs/${hub.id}/workflow-states`, { label: 'Approved', color: 'rgb(0,128,0)' }));
  s.extension = await ok(api.post(`/hubs/${hub.id}/extensions`, { name: 'colour-picker', label: 'Colour picker', url: 'https://ext.example.com/picker', category: 'CONTENT_FIELD', parameters: '{"palette":"brand"}', snippets: [{ label: 'Default', body: '{}' }] }));

  // Content model: an article type and a slot type whose schema links articles.
  await ok(api.post(`/hubs/${hub.id}/content-type-schemas`, { schemaId: URI, body: JSON.stringify(schemaDocument(URI)), validationLevel: 'CONTENT_TYPE' }));
  await ok(api.post(`/hubs/${hub.id}/content-type-schemas`, { schemaId: SLOT_URI, body: JSON.stringify(slotSchemaDocument(SLOT_URI, [URI])), validationLevel: 'SLOT' }));
  s.article = await ok(api.post(`/hubs/${hub.id}/content-types`, { contentTypeUri: URI, settings: { label: 'Article', icons: [{ size: 256, url: 'https://img.example.com/article.png' }] } }));
  s.slotType = await ok(api.post(`/hubs/${hub.id}/content-types`, { contentTypeUri: SLOT_URI, settings: { label: 'Hero slot' } }));

  // Repositories: content and content-fr in one localization group, and a slots repository.
  const repo = async (name: string, typeId: string, locales: string[] = [], feature?: string) => {
    const r = await ok(api.post(`/hubs/${hub.id}/content-repositories`, { name, label: `Repo ${name}` }));
    await ok(api.post(`/content-repositories/${r.id}/content-types`, { contentTypeId: typeId }));
    if (locales.length) await ok(api.post(`/content-repositories/${r.id}/item-locales`, { itemLocales: locales }));
    if (feature) await ok(api.post(`/content-repositories/${r.id}/features?feature=${feature}`));
    return r;
  };
  s.content = await repo('content', s.article.id, ['en-GB', 'fr-FR']);
  s.contentFr = await repo('content-fr', s.article.id, ['fr-FR']);
  s.slots = await repo('slots', s.slotType.id, [], 'slots');
  await ok(api.post(`/content-repositories/${s.content.id}/localization-group`, { newRepositoryId: s.contentFr.id }));
  s.pages = await ok(api.post(`/content-repositories/${s.content.id}/folders`, { name: 'pages' }));
  s.en = await ok(api.post(`/folders/${s.pages.id}/folders`, { name: 'en' }));

  // Items: A (delivery key, locale, nested folder, workflow state) <- B <- C (another repository), D archived.
  const item = (repoId: string, label: string, fields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) =>
    ok(api.post(`/content-repositories/${repoId}/content-items`, { label, body: itemBody(URI, { title: label, ...fields }, meta), ...extra }));
  s.A = await item(s.content.id, 'A', {}, { locale: 'en-GB', folderId: s.en.id }, { deliveryKey: 'home' });
  s.A = await ok(api.patch(`/content-items/${s.A.id}/workflow`, { version: s.A.version, state: s.approved.id }));
  s.B = await item(s.content.id, 'B', { links: [contentLink(s.A.id, URI)] }, { locale: 'fr-FR', folderId: s.pages.id });
  s.C = await item(s.contentFr.id, 'C', { links: [contentLink(s.B.id, URI)] }, { locale: 'fr-FR' });
  const d = await item(s.content.id, 'D');
  await ok(api.post(`/content-items/${d.id}/archive`, { version: d.version }));
  s.slot = await ok(api.post(`/content-repositories/${s.slots.id}/content-items`, { label: 'Home hero', body: { _meta: { schema: SLOT_URI, name: 'slot' }, title: 'Sample' } }));

  // An event with two editions: day one has the slot with a snapshot of A; day two is scheduled.
  const now = Date.parse((await ok(api.get('/__sandbox/clock'))).now);
  const iso = (days: number) => new Date(now + days * DAY).toISOString();
  s.event = await ok(api.post(`/hubs/${hub.id}/events`, { name: 'Launch', start: iso(-1), end: iso(30), comment: 'The launch', brief: 'https://brief.example.com' }));
  s.dayOne = await ok(api.post(`/events/${s.event.id}/editions`, { name: 'Day one', start: iso(2), end: iso(4), comment: 'first' }));
  s.dayTwo = await ok(api.post(`/events/${s.event.id}/editions`, { name: 'Day two', start: iso(5), end: iso(7) }));
  // GENERATED, as clients make snapshots of linked content: only the batch endpoint creates that type.
  [s.snapshot] = (await ok(api.post(`/hubs/${hub.id}/snapshots/batch`, [{ comment: 'hero content', createdFrom: 'content-item', type: 'GENERATED', contentRoot: s.A.id }]))).snapshots;
  // Links as the vendor's app writes them into slots: the snapshot's root item in _meta (it must name the copy on the target).
  const slotContent = (snapshotId: string) => ({ body: { _meta: { schema: SLOT_URI, name: 'slot' }, slot: { _meta: { schema: `${CORE}/content-link`, rootContentItemId: s.A.id, locked: true }, contentType: URI, id: snapshotId } } });
  for (const edition of [s.dayOne, s.dayTwo]) {
    const [slot] = (await ok(api.post(`/editions/${edition.id}/slots`, [{ slot: s.slot.id }])))._embedded['edition-slots'];
    await ok(api.put(`/editions/${edition.id}/slots/${slot.id}/content`, slotContent(s.snapshot.id)));
  }
  const dayTwo = await ok(api.get(`/editions/${s.dayTwo.id}`));
  await ok(api.post(`/editions/${s.dayTwo.id}/schedule`, { lastModifiedDate: dayTwo.lastModifiedDate }));

  // A webhook with a secret header, and a search index with a replica and an assigned type.
  s.webhook = await ok(api.post(`/hubs/${hub.id}/webhooks`, { label: 'Orders', events: ['content-item.published'], handlers: ['https://hooks.example.com/orders'], active: true, secret: 'signing-secret', headers: [{ key: 'X-Api-Key', value: 's3cret', secret: true }, { key: 'X-Env', value: 'prod' }] }));
  s.index = await ok(api.post(`/hubs/${hub.id}/search-indexes`, { suffix: 'articles', label: 'Articles', type: 'PRODUCTION', assignedContentTypes: [{ contentTypeUri: URI }] }));
  await ok(api.patch(`/hubs/${hub.id}/search-indexes/${s.index.id}/settings`, { searchableAttributes: ['title'], replicas: ['site.articles-by-date'] }));
  const [replica] = await all(api, `/hubs/${hub.id}/search-indexes`, 'indexes', `&parentId=${s.index.id}`);
  await ok(api.patch(`/hubs/${hub.id}/search-indexes/${replica.id}/settings`, { customRanking: ['desc(date)'] }));
}

beforeAll(async () => {
  servers = await Promise.all(dirs.map((dir) => serveSandbox(home.env, ['--data-dir', dir])));
  [src, dst] = await Promise.all(servers.map((srv) => new Api(srv.url).login()));
  await buildSource(src);
  expect((await home.run(['login', '--profile', 'src', '--api-url', servers[0]!.url, ...creds])).exitCode).toBe(0);
  expect((await home.run(['login', '--profile', 'dst', '--api-url', servers[1]!.url, ...creds])).exitCode).toBe(0);
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((srv) => srv.stop()));
  home.cleanup();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

// ---- comparing two hubs ----

const pick = (o: any, keys: string[]) => Object.fromEntries(keys.filter((k) => o?.[k] !== undefined).map((k) => [k, o[k]]));
const sorted = (list: any[]) => [...list].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));

/** A hub as the clone should reproduce it: the fields it copies, nothing the service derives (dates, versions, links). */
async function dump(api: Api, hubId: string) {
  const hub = await ok(api.get(`/hubs/${hubId}`));
  const h = `/hubs/${hubId}`;
  const repos = await all(api, `${h}/content-repositories`, 'content-repositories');
  const folders: unknown[] = [];
  for (const repo of repos) {
    const level = async (path: string, parentId: string | null): Promise<void> => {
      for (const f of await all(api, path, 'folders')) {
        folders.push({ id: f.id, name: f.name, parentId, repository: repo.id });
        await level(`/folders/${f.id}/folders`, f.id);
      }
    };
    await level(`/content-repositories/${repo.id}/folders`, null);
  }
  const items = (await Promise.all(repos.map((r) => all(api, `/content-repositories/${r.id}/content-items`, 'content-items', '&status=ACTIVE,ARCHIVED')))).flat();
  const events = await all(api, `${h}/events`, 'events');
  const editions = (await Promise.all(events.map((e) => all(api, `/events/${e.id}/editions`, 'editions')))).flat();
  const slots = (await Promise.all(editions.map((e) => all(api, `/editions/${e.id}/slots`, 'edition-slots')))).flat();
  const snapshotIds = [...new Set(slots.map((sl) => sl.content?.body?.slot?.id).filter(Boolean))];
  const snapshots = await Promise.all(snapshotIds.map((id) => ok(api.get(`/snapshots/${id}`))));
  const indexes = await all(api, `${h}/search-indexes`, 'indexes', '&projection=withSettings');
  const groups = await Promise.all(repos.map(async (r) => (await ok(api.get(`/content-repositories/${r.id}/localization-group/locales`))).repositories.map((m: any) => m.id).sort()));
  const renameReplicas = (settings: any) => JSON.parse(JSON.stringify(settings).replaceAll(`"${hub.name}.`, '"<hub>.'));
  return {
    hub: { id: hub.id, settings: hub.settings },
    workflowStates: sorted((await all(api, `${h}/workflow-states`, 'workflow-states')).map((w) => pick(w, ['id', 'label', 'color']))),
    extensions: sorted((await all(api, `${h}/extensions`, 'extensions')).map((e) => pick(e, ['id', 'name', 'label', 'description', 'url', 'height', 'category', 'parameters', 'snippets', 'settings', 'status']))),
    schemas: sorted((await all(api, `${h}/content-type-schemas`, 'content-type-schemas', '&status=ACTIVE,ARCHIVED')).map((x) => ({ ...pick(x, ['id', 'schemaId', 'validationLevel', 'status']), body: JSON.parse(x.body) }))),
    types: sorted((await all(api, `${h}/content-types`, 'content-types', '&status=ACTIVE,ARCHIVED')).map((t) => pick(t, ['id', 'contentTypeUri', 'settings', 'status']))),
    repositories: sorted(repos.map((r) => ({ ...pick(r, ['id', 'name', 'label', 'type', 'features', 'itemLocales']), contentTypes: sorted(r.contentTypes) }))),
    localizationGroups: sorted(groups.filter((g) => g.length > 1)),
    folders: sorted(folders),
    items: sorted(items.map((i) => pick(i, ['id', 'label', 'body', 'locale', 'folderId', 'deliveryKey', 'status', 'contentRepositoryId', 'workflow']))),
    events: sorted(events.map((e) => pick(e, ['id', 'name', 'start', 'end', 'comment', 'brief', 'status']))),
    editions: sorted(editions.map((e) => pick(e, ['id', 'eventId', 'name', 'start', 'end', 'comment', 'activeEndDate']))),
    editionSlots: sorted(slots.map((sl) => pick(sl, ['id', 'editionId', 'eventId', 'slotId', 'slotLabel', 'contentTypeId', 'status', 'empty', 'content', 'locale']))),
    snapshots: sorted(snapshots.map((sn) => ({ id: sn.id, root: sn.rootContentItem.id, type: sn.type }))),
    webhooks: sorted((await all(api, `${h}/webhooks`, 'webhooks')).filter((w) => !w.owner).map((w) => pick(w, ['id', 'label', 'events', 'handlers', 'method', 'secret', 'headers', 'filters', 'customPayload', 'notifications']))),
    searchIndexes: sorted(indexes.map((i) => ({ ...pick(i, ['id', 'suffix', 'label', 'type', 'status', 'parentId', 'replicaCount']), settings: renameReplicas(i.settings) }))),
    assignedTypes: sorted((await Promise.all(indexes.filter((i) => !i.parentId).map(async (i) => (await all(api, `${h}/search-indexes/${i.id}/assigned-content-types`, 'assigned-content-types')).map((t) => ({ index: i.id, uri: t.contentTypeUri }))))).flat()),
  };
}

/** Source id -> target id of every resource the runs made (later runs win), read from their journals. */
function mapping(...runIds: string[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const runId of runIds) {
    const lines = readFileSync(join(home.env.CMS_DATA_DIR, 'runs', runId, 'journal.ndjson'), 'utf8').split('\n').filter(Boolean);
    for (const entry of lines.map((l) => JSON.parse(l))) if (entry.t === 'done' && entry.sourceId) ids.set(entry.sourceId, entry.targetId);
  }
  return ids;
}

/** Every string that is a mapped source id becomes the target id. */
function translate(value: unknown, ids: Map<string, string>): any {
  if (typeof value === 'string') return ids.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => translate(v, ids));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, translate(v, ids)]));
  return value;
}

/** Compares the copy with the source, resource family by family (each list sorted after translating ids). */
async function expectSameHub(targetHubId: string, runIds: string[]) {
  const ids = mapping(...runIds);
  ids.set(s.hub.id, targetHubId);
  const expected = translate(await dump(src, s.hub.id), ids);
  const actual = await dump(dst, targetHubId);
  // A localization group is a set: its members are compared in order once their ids are translated.
  const normal = (family: string, value: any) => (family === 'localizationGroups' ? sorted(value.map((g: string[]) => [...g].sort())) : Array.isArray(value) ? sorted(value) : value);
  for (const family of Object.keys(expected)) expect(normal(family, actual[family as keyof typeof actual]), family).toEqual(normal(family, expected[family]));
}

const hubNamed = async (api: Api, name: string) => (await all(api, '/hubs', 'hubs')).find((h) => h.name === name);

/** The writes in a --debug trace: lines like `> POST http://…`. */
const writesIn = (stderr: string) => stderr.split('\n').filter((l) => /^> (POST|PATCH|PUT|DELETE) /.test(l));

// ---- the tests ----

describe('cms hub clone between two served sandboxes', () => {
  let firstRun: string;
  let copyId: string;

  it('--dry-run plans every step, sends no write (only token requests) and creates nothing', async () => {
    const res = await clone(['--from', 'src:site', '--to', 'dst:site-copy', '--dry-run', '--debug']);
    expect(res.exitCode, res.stderr.slice(-2000)).toBe(0);
    expect(writesIn(res.stderr).filter((l) => !l.includes('/oauth/token'))).toEqual([]);
    // The trace is there: both sides were read.
    for (const srv of servers) expect(res.stderr).toContain(`> GET ${srv.url}/v2/content/hubs`);
    expect(res.data).toMatchObject({ dryRun: true, target: { hub: 'site-copy', created: true }, failed: 0 });
    expect(res.data.steps).toMatchObject({
      schemas: { create: 2 },
      types: { create: 2 },
      repositories: { create: 3 },
      folders: { create: 2 },
      items: { create: 6 }, // 5 items and the Content Delivery 2 module
      webhooks: { create: 1 },
    });
    const planned = res.data.plan.map((p: any) => `${p.action} ${p.resource} ${p.label}`);
    expect(planned).toEqual(expect.arrayContaining(['create hub site-copy', 'create edition Launch / Day one', 'create snapshot of A', 'create search-index articles', 'create hub-module search-index']));
    expect(await hubNamed(dst, 'site-copy')).toBeUndefined();
  });

  it('clones every resource; the copy equals the source resource by resource', async () => {
    const res = await clone(['--from', 'src:site', '--to', 'dst:site-copy']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.data).toMatchObject({ failed: 0, target: { hub: 'site-copy', created: true } });
    firstRun = res.data.runId;
    copyId = res.data.target.hubId;
    expect((await hubNamed(dst, 'site-copy')).id).toBe(copyId);
    await expectSameHub(copyId, [firstRun]);

    // Documented differences: webhooks start inactive, secret headers hold a placeholder, editions start DRAFT.
    const [hook] = (await all(dst, `/hubs/${copyId}/webhooks`, 'webhooks')).filter((w) => !w.owner);
    expect(hook.active).toBe(false);
    expect(res.data.notes.join('\n')).toMatch(/secret header 'X-Api-Key'.*placeholder value 'REPLACE-ME'/);
    expect(res.data.notes.join('\n')).toMatch(/'Launch \/ Day two' is scheduled in the source; it was cloned as a DRAFT/);
    // A staging hostname copied is reported: a sandbox serving the target answers that name (issue 24.1).
    expect(res.data.notes.join('\n')).toMatch(/staging hostname 'vse\.example\.com'/);
    const editions = await all(dst, `/events/${mapping(firstRun).get(s.event.id)}/editions`, 'editions');
    expect(editions.map((e) => e.publishingStatus)).toEqual(['DRAFT', 'DRAFT']);
    // The slot content names a new snapshot of the target's copy of A.
    const snapshots = mapping(firstRun);
    expect(snapshots.get(s.snapshot.id)).not.toBe(s.snapshot.id);
    expect((await ok(dst.get(`/snapshots/${snapshots.get(s.snapshot.id)}`))).rootContentItem.id).toBe(snapshots.get(s.A.id));
  });

  it('a rerun creates nothing, updates what changed in the source, and --schedule schedules', async () => {
    await ok(src.patch(`/content-types/${s.article.id}`, { settings: { label: 'News article', icons: [] } }));
    const a = await ok(src.get(`/content-items/${s.A.id}`));
    await ok(src.patch(`/content-items/${s.A.id}`, { version: a.version, body: { ...a.body, title: 'A, revised' } }));
    await ok(src.patch(`/hubs/${s.hub.id}/webhooks/${s.webhook.id}`, { events: ['content-item.published', 'content-item.updated'] }));

    const res = await clone(['--from', 'src:site', '--to', 'dst:site-copy', '--schedule']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.data.created).toBe(1); // only a new snapshot of the changed item
    expect(res.data.steps).toMatchObject({
      types: { create: 0, update: 1 },
      items: { create: 0, update: 1 },
      events: { create: 1, update: 2, publish: 1 }, // the new snapshot, the slots naming it, and day two scheduled
      webhooks: { create: 0, update: 1 },
      schemas: { create: 0, update: 0 },
    });
    await expectSameHub(copyId, [firstRun, res.data.runId]);
    const editions = await all(dst, `/events/${mapping(firstRun).get(s.event.id)}/editions`, 'editions');
    expect(Object.fromEntries(editions.map((e) => [e.name, e.publishingStatus]))).toMatchObject({ 'Day one': 'DRAFT', 'Day two': expect.stringMatching(/^SCHEDUL/) });

    const again = await clone(['--from', 'src:site', '--to', 'dst:site-copy']);
    expect(again.data).toMatchObject({ created: 0, updated: 0, failed: 0 });
  });

  it('--dry-run against the clone shows each update with its field differences and changes nothing', async () => {
    await ok(src.patch(`/extensions/${s.extension.id}`, { label: 'Brand colours' }));
    const before = await dump(dst, copyId);
    const res = await clone(['--from', 'src:site', '--to', 'dst:site-copy', '--dry-run', '--debug']);
    expect(res.exitCode, res.stderr.slice(-2000)).toBe(0);
    expect(writesIn(res.stderr).filter((l) => !l.includes('/oauth/token'))).toEqual([]);
    expect(res.data.plan.filter((p: any) => p.action !== 'unchanged')).toEqual([expect.objectContaining({ action: 'update', resource: 'extension', label: 'colour-picker', changes: ['~ label: "Colour picker" → "Brand colours"'] })]);
    expect(await dump(dst, copyId)).toEqual(before);
    const text = await home.run(['hub', 'clone', '--from', 'src:site', '--to', 'dst:site-copy', '--dry-run'], { env: { CMS_FORCE_TTY: '200' } });
    expect(text.stdout).toContain('Dry run of cms hub clone src:site → dst:site-copy: nothing was changed.');
    expect(text.stdout).toMatch(/update\s+extension\s+colour-picker\n\s+~ label: "Colour picker" → "Brand colours"/);
  });

  it('--step runs only the steps named', async () => {
    await ok(src.patch(`/workflow-states/${s.draft.id}`, { color: 'rgb(10,10,10)' }));
    const b = await ok(src.get(`/content-items/${s.B.id}`));
    await ok(src.patch(`/content-items/${s.B.id}`, { version: b.version, body: { ...b.body, title: 'B, revised' } }));
    const res = await clone(['--from', 'src:site', '--to', 'dst:site-copy', '--step', 'workflow-states']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(Object.keys(res.data.steps)).toEqual(['workflow-states']);
    expect(res.data.steps['workflow-states']).toMatchObject({ update: 1, unchanged: 1 });
    const ids = mapping(firstRun);
    expect((await ok(dst.get(`/workflow-states/${ids.get(s.draft.id)}`))).color).toBe('rgb(10,10,10)');
    expect((await ok(dst.get(`/content-items/${ids.get(s.B.id)}`))).body.title).toBe('B');
    // The extension changed in the last test is still waiting for its step.
    expect((await ok(dst.get(`/extensions/${ids.get(s.extension.id)}`))).label).toBe('Colour picker');
  });

  it('--resume continues a clone killed mid-run: everything once, nothing missing', async () => {
    // Slow every write of the target so the kill lands mid-run.
    await ok(dst.post('/__sandbox/faults', { spec: 'latency 150ms 100% on POST' }));
    const runsDir = join(home.env.CMS_DATA_DIR, 'runs');
    const known = new Set(readdirSync(runsDir));
    const child = execa(process.execPath, [BIN, 'hub', 'clone', '--from', 'src:site', '--to', 'dst:site-resumed', '-o', 'json'], { env: home.env, reject: false });
    const journal = () => {
      const runId = readdirSync(runsDir).find((id) => !known.has(id));
      try {
        // Completed steps only (the journal also holds the intents of writes).
        return runId ? { runId, lines: readFileSync(join(runsDir, runId, 'journal.ndjson'), 'utf8').split('\n').filter((l) => l.startsWith('{"t":"done"')) } : undefined;
      } catch {
        return undefined; // the run directory is there, its journal not yet
      }
    };
    for (let waited = 0; (journal()?.lines.length ?? 0) < 6; waited += 20) {
      if (waited > 30_000) throw new Error('the clone never journaled 6 steps');
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    await ok(dst.del('/__sandbox/faults'));
    const { runId, lines } = journal()!;
    expect(lines.some((l) => l.includes('"resource":"webhook"'))).toBe(false);
    expect((await home.json(['runs'])).find((r: { id: string }) => r.id === runId)).toMatchObject({ command: 'hub clone', status: 'interrupted' });

    const resumed = await clone(['--resume', runId]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.data).toMatchObject({ runId, failed: 0 });
    const hub = await hubNamed(dst, 'site-resumed');
    await expectSameHub(hub.id, [runId]);
    expect((await home.json(['runs', runId])).target.hubId).toBe(hub.id);
    // What the killed process journaled was not made again.
    const creates = readFileSync(join(runsDir, runId, 'journal.ndjson'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((e) => e.t === 'done' && e.action === 'create').map((e) => e.key);
    expect(creates.length).toBeGreaterThan(lines.length);
    expect(new Set(creates).size).toBe(creates.length);
  }, 120_000);
});

describe('cms hub clone: failures and progress', () => {
  it('one failed resource does not stop the clone: the rest is written, failures listed with reasons, exit 3', async () => {
    const first = await clone(['--from', 'src:site', '--to', 'dst:site-keys', '--step', 'settings,workflow-states,schemas,types,repositories,folders']);
    expect(first.exitCode, first.stderr).toBe(0);
    const hubId = first.data.target.hubId;
    const repo = mapping(first.data.runId).get(s.content.id);
    // Another item of the target holds A's delivery key.
    await ok(dst.post(`/admin/hubs/${hubId}/modules/content-delivery-2`));
    await ok(dst.post(`/content-repositories/${repo}/content-items`, { label: 'squatter', body: itemBody(URI, { title: 'squatter' }, { deliveryKey: 'home' }) }));

    const res = await clone(['--from', 'src:site', '--to', 'dst:site-keys']);
    expect(res.exitCode, res.stderr).toBe(3);
    const reasons = Object.fromEntries(res.data.failures.map((f: any) => [f.id, f.reason]));
    expect(reasons[s.A.id]).toMatch(/home/);
    expect(reasons[s.B.id]).toBe(`links to ${s.A.id}, which failed`);
    expect(reasons[s.C.id]).toBe(`links to ${s.B.id}, which failed`);
    expect(reasons['edition-slot Day one / Home hero']).toMatch(/has no copy in the target/);
    expect(res.data.steps.items.failed).toBe(3);
    // Everything else was cloned.
    const ids = mapping(first.data.runId, res.data.runId);
    expect((await ok(dst.get(`/content-items/${ids.get(s.slot.id)}`))).label).toBe('Home hero');
    expect((await all(dst, `/hubs/${hubId}/webhooks`, 'webhooks')).map((w) => w.label)).toContain('Orders');
    expect((await all(dst, `/hubs/${hubId}/search-indexes`, 'indexes')).map((i) => i.suffix).sort()).toEqual(['articles', 'articles-by-date']);
    const text = await home.run(['hub', 'clone', '--from', 'src:site', '--to', 'dst:site-keys', '--step', 'items']);
    expect(text.exitCode).toBe(3);
    // Piped: the counts are rows on stdout, each failure a line on stderr.
    expect(text.stdout).toMatch(/^items\t\d+\t\d+\t\d+\t3$/m);
    expect(text.stderr).toMatch(/failed: [0-9a-f-]{36}: .*home/);
  });

  it('progress: NDJSON events with --progress json, nothing on a pipe, a bar on a terminal', async () => {
    const args = ['--from', 'src:site', '--to', 'dst:site-copy', '--step', 'workflow-states,extensions'];
    const json = await clone([...args, '--progress', 'json']);
    expect(json.exitCode, json.stderr).toBe(0);
    const events = json.stderr.trim().split('\n').map((l) => JSON.parse(l));
    expect(events.filter((e) => e.event === 'start').map((e) => e.label)).toEqual(['clone workflow states', 'clone extensions']);
    expect(events.filter((e) => e.event === 'step').map((e) => e.key)).toEqual([`workflow-state:${s.draft.id}`, `workflow-state:${s.approved.id}`, `extension:${s.extension.id}`]);
    expect(events.at(-1)).toMatchObject({ event: 'end', failed: 0 });

    expect((await clone(args)).stderr).toBe('');

    const tty = await runInPty(['hub', 'clone', ...args], home.env, []);
    expect(tty.exitCode).toBe(0);
    expect(tty.transcript).toMatch(/clone extensions \[[^\]]*\] 1\/1/);
    expect(tty.transcript).toContain('STEP');
  });
});

describe('cms hub clone into the embedded sandbox', () => {
  it('--to sandbox:<hub> writes the steps named into the embedded sandbox of the data directory', async () => {
    const res = await clone(['--from', 'src:site', '--to', 'sandbox:local', '--step', 'settings,workflow-states,schemas,types']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.data.steps).toMatchObject({ settings: { update: 1 }, 'workflow-states': { create: 2 }, schemas: { create: 2 }, types: { create: 2 } });
    const embedded = { CMS_API_URL: 'sandbox' };
    expect((await home.json(['hub', 'settings', 'local'], { env: embedded })).localization).toEqual({ locales: ['en-GB', 'fr-FR'] });
    const types = await home.json(['type', 'list', '--hub', 'local'], { env: embedded });
    expect(types.map((t: any) => t.settings.label).sort()).toEqual(['Hero slot', 'News article']);
  });

  it('names what is wrong with the command line (exit 2)', async () => {
    expect((await home.run(['hub', 'clone', '--from', 'src:site'])).exitCode).toBe(2);
    const step = await home.run(['hub', 'clone', '--from', 'src:site', '--to', 'dst:x', '--step', 'everything']);
    expect(step.exitCode).toBe(2);
    expect(step.stderr).toContain("Unknown step 'everything'");
    expect((await home.run(['hub', 'clone', '--from', 'src:site', '--to', 'src:site'])).stderr).toContain('the same hub');
  });
});
