import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Api, createHub, createRepo, startServer } from '../helpers/server.js';
import { SCHEMA_HOST, contentLink, createContentType, enableDeliveryKeys, itemBody } from '../helpers/content.js';

// cms item export / import, undo and runs on the embedded sandbox. The hubs are made over HTTP by
// a server on the same data directory; everything after that goes through the built CLI.

const URI = `${SCHEMA_HOST}/ei-article.json`;
const home = new CliHome();
const dir = join(home.dir, 'export');
const src: Record<string, any> = {};
let folders: { pages: string; en: string };

const cms = (args: string[]) => home.run(args);
const json = <T = any>(args: string[]) => home.json<T>(args);
/** Runs with -o json whatever the exit code; parses stdout. */
async function jsonAnyExit(args: string[]) {
  const res = await home.run([...args, '-o', 'json']);
  return { ...res, data: res.stdout ? JSON.parse(res.stdout) : undefined };
}
const list = (hub: string, repo: string) => json<any[]>(['item', 'list', '--hub', hub, '--repo', repo, '--limit', '0']);
const byLabel = (items: any[]) => Object.fromEntries(items.map((i) => [i.label, i]));
const linkIds = (item: any) => (item.body.links ?? []).map((l: { id: string }) => l.id);

async function post(api: Api, path: string, body: unknown) {
  const res = await api.post(path, body);
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res.body;
}

/** A repository with a chosen name, the type assigned, and item locales. */
async function namedRepo(api: Api, hubId: string, name: string, typeId?: string, locales: string[] = []) {
  const repo = await createRepo(api, hubId, name);
  if (typeId) await post(api, `/content-repositories/${repo.id}/content-types`, { contentTypeId: typeId });
  if (locales.length) await post(api, `/content-repositories/${repo.id}/item-locales`, { itemLocales: locales });
  return repo;
}

const item = (api: Api, repoId: string, label: string, fields: Record<string, unknown> = {}, extra: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) =>
  post(api, `/content-repositories/${repoId}/content-items`, { label, body: itemBody(URI, { title: 'Hello', ...fields }, meta), ...extra });

beforeAll(async () => {
  const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
  try {
    const api = await new Api(srv.url).login();
    // Source: a cycle A -> B -> C -> A with a tail T -> A; P with a delivery key, a locale and a
    // nested folder; Q (another locale and folder) links to P.
    const hub = (await createHub(api, 'ei-src')).id;
    await enableDeliveryKeys(api, hub);
    const type = await createContentType(api, hub, URI);
    const repo = await namedRepo(api, hub, 'content', type.id, ['en-GB', 'fr-FR']);
    src.repo = repo.id;
    const pages = await post(api, `/content-repositories/${repo.id}/folders`, { name: 'pages' });
    const en = await post(api, `/folders/${pages.id}/folders`, { name: 'en' });
    folders = { pages: pages.id, en: en.id };
    for (const label of ['A', 'B', 'C']) src[label] = await item(api, repo.id, label);
    for (const [from, to] of [['A', 'B'], ['B', 'C'], ['C', 'A']] as const) {
      src[from] = (await api.patch(`/content-items/${src[from].id}`, { version: src[from].version, body: itemBody(URI, { title: from, links: [contentLink(src[to].id, URI)] }) })).body;
    }
    src.T = await item(api, repo.id, 'T', { links: [contentLink(src.A.id, URI)] });
    src.P = await item(api, repo.id, 'P', {}, { locale: 'en-GB', folderId: en.id }, { deliveryKey: 'home' });
    src.Q = await item(api, repo.id, 'Q', { links: [contentLink(src.P.id, URI)] }, { locale: 'fr-FR', folderId: pages.id });

    // Target: the type is registered in the hub but not assigned to the repository yet.
    const dst = (await createHub(api, 'ei-dst')).id;
    await enableDeliveryKeys(api, dst);
    await createContentType(api, dst, URI);
    await namedRepo(api, dst, 'content', undefined, ['en-GB', 'fr-FR']);

    // A hub where another item already holds P's delivery key.
    const fail = (await createHub(api, 'ei-fail')).id;
    await enableDeliveryKeys(api, fail);
    const failType = await createContentType(api, fail, URI);
    const failRepo = await namedRepo(api, fail, 'content', failType.id, ['en-GB', 'fr-FR']);
    await item(api, failRepo.id, 'squatter', {}, {}, { deliveryKey: 'home' });

    // A hub to import into with --publish.
    const pub = (await createHub(api, 'ei-pub')).id;
    await enableDeliveryKeys(api, pub);
    const pubType = await createContentType(api, pub, URI);
    await namedRepo(api, pub, 'content', pubType.id, ['en-GB', 'fr-FR']);

    // A hub without the content type.
    // Delivery keys are welcome there: only the missing content type stops the import.
    const notype = (await createHub(api, 'ei-notype')).id;
    await enableDeliveryKeys(api, notype);
    await namedRepo(api, notype, 'content');

    // A hub whose export comes back to it (content kept in git): X links to Y.
    const self = (await createHub(api, 'ei-self')).id;
    const selfRepo = await namedRepo(api, self, 'content', (await createContentType(api, self, URI)).id);
    src.Y = await item(api, selfRepo.id, 'Y');
    src.X = await item(api, selfRepo.id, 'X', { links: [contentLink(src.Y.id, URI)] });

    // Dependencies across repositories: L -> S1 -> S2 -> S3; S4 and L2 link to nothing.
    const deps = (await createHub(api, 'ei-deps')).id;
    const depsType = await createContentType(api, deps, URI);
    const pagesRepo = await namedRepo(api, deps, 'pages', depsType.id);
    const shared = await namedRepo(api, deps, 'shared', depsType.id);
    src.S3 = await item(api, shared.id, 'S3');
    src.S2 = await item(api, shared.id, 'S2', { links: [contentLink(src.S3.id, URI)] });
    src.S1 = await item(api, shared.id, 'S1', { links: [contentLink(src.S2.id, URI)] });
    src.S4 = await item(api, shared.id, 'S4');
    src.L = await item(api, pagesRepo.id, 'L', { links: [contentLink(src.S1.id, URI)] });
    src.L2 = await item(api, pagesRepo.id, 'L2');
    const depsDst = (await createHub(api, 'ei-deps-dst')).id;
    const depsDstType = await createContentType(api, depsDst, URI);
    for (const name of ['pages', 'shared']) await namedRepo(api, depsDst, name, depsDstType.id);
  } finally {
    await srv.stop();
  }
});

afterAll(() => home.cleanup());

const itemFile = (id: string) => join(dir, 'items', 'content', `${id}.json`);

describe('cms item export', () => {
  it('writes one plain item per file, the types and schemas they use, and a manifest', async () => {
    const summary = await json(['item', 'export', dir, '--hub', 'ei-src']);
    expect(summary).toMatchObject({ items: 6, written: 6, unchanged: 0, types: 1, schemas: 1, folders: 2 });
    expect(readdirSync(join(dir, 'items', 'content')).sort()).toEqual(['A', 'B', 'C', 'T', 'P', 'Q'].map((l) => `${src[l].id}.json`).sort());
    const p = JSON.parse(readFileSync(itemFile(src.P.id), 'utf8'));
    expect(p).toEqual({
      id: src.P.id,
      label: 'P',
      body: { _meta: { schema: URI, deliveryKey: 'home' }, title: 'Hello' },
      locale: 'en-GB',
      folderId: folders.en,
      deliveryKey: 'home',
      version: 1,
      status: 'ACTIVE',
      contentRepositoryId: src.repo,
    });
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.source.hubName).toBe('ei-src');
    expect(manifest.repositories).toEqual([{ id: src.repo, name: 'content', label: expect.any(String), itemLocales: ['en-GB', 'fr-FR'], features: [] }]);
    expect(manifest.folders).toEqual(
      expect.arrayContaining([
        { id: folders.pages, name: 'pages', parentId: null, repository: src.repo },
        { id: folders.en, name: 'en', parentId: folders.pages, repository: src.repo },
      ]),
    );
    expect(manifest.counts).toMatchObject({ items: 6, byRepository: { content: 6 } });
    const schema = JSON.parse(readFileSync(join(dir, manifest.schemas[0].file), 'utf8'));
    expect(schema.id).toBe(URI);
    expect(JSON.parse(readFileSync(join(dir, manifest.types[0].file), 'utf8'))).toEqual({ contentTypeUri: URI, settings: { label: 'Test type' } });
  });

  it('selects by text search and facet; items no longer selected are removed', async () => {
    const out = join(home.dir, 'facet');
    expect(await json(['item', 'export', out, '--hub', 'ei-src', '--facet', 'locale:IN:fr-FR'])).toMatchObject({ items: 1 });
    expect(readdirSync(join(out, 'items', 'content'))).toEqual([`${src.Q.id}.json`]);
    // Exporting another selection into the directory removes the items no longer selected.
    expect(await json(['item', 'export', out, '--hub', 'ei-src', '--facet', 'locale:IN:en-GB'])).toMatchObject({ items: 1, written: 1, removed: 1 });
    expect(readdirSync(join(out, 'items', 'content'))).toEqual([`${src.P.id}.json`]);
    const searched = join(home.dir, 'search');
    expect(await json(['item', 'export', searched, '--hub', 'ei-src', '--search', 'label:T'])).toMatchObject({ items: 1 });
    expect(readdirSync(join(searched, 'items', 'content'))).toEqual([`${src.T.id}.json`]);
  });

  it('--with-deps adds everything the selection links to, transitively, from other repositories', async () => {
    const without = join(home.dir, 'nodeps');
    expect(await json(['item', 'export', without, '--hub', 'ei-deps', '--repo', 'pages'])).toMatchObject({ items: 2, dependencies: 0 });
    expect(existsSync(join(without, 'items', 'shared'))).toBe(false);
    const withDeps = join(home.dir, 'deps');
    expect(await json(['item', 'export', withDeps, '--hub', 'ei-deps', '--repo', 'pages', '--with-deps'])).toMatchObject({ items: 5, dependencies: 3, repositories: 2 });
    expect(readdirSync(join(withDeps, 'items', 'shared')).sort()).toEqual([src.S1.id, src.S2.id, src.S3.id].map((id) => `${id}.json`).sort());
    const manifest = JSON.parse(readFileSync(join(withDeps, 'manifest.json'), 'utf8'));
    expect(manifest.repositories.map((r: { name: string }) => r.name).sort()).toEqual(['pages', 'shared']);
  });
});

describe('cms item import', () => {
  const runs: Record<string, string> = {};

  it('--dry-run prints the plan and sends no write request (the --debug trace proves it)', async () => {
    const res = await jsonAnyExit(['item', 'import', dir, '--hub', 'ei-dst', '--dry-run', '--debug']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.data).toMatchObject({ runId: null, dryRun: true, created: 6, updated: 0, failed: 0, 'content-type assign': 1, 'folder create': 2 });
    const planned = res.data.plan.filter((p: any) => p.resource === 'item');
    expect(planned.map((p: any) => [p.action, p.label]).sort()).toEqual(['A', 'B', 'C', 'P', 'Q', 'T'].map((l) => ['create', l]));
    expect(planned.find((p: any) => p.label === 'P')).toMatchObject({ sourceId: src.P.id, repository: 'content', folder: 'pages/en' });
    const requests = res.stderr.split('\n').filter((l) => /^> [A-Z]+ /.test(l));
    expect(requests).toEqual(expect.arrayContaining([expect.stringMatching(/^> GET \S+\/content-repositories/)]));
    const writes = requests.filter((l) => !l.startsWith('> GET ') && !/^> POST \S+\/oauth\/token$/.test(l));
    expect(writes).toEqual([]);
    // Nothing changed in the target, and a dry run leaves no journal.
    expect(await list('ei-dst', 'content')).toEqual([]);
    expect(await json(['folder', 'list', '--hub', 'ei-dst', '--repo', 'content'])).toEqual([]);
    expect((await json(['repo', 'get', 'content', '--hub', 'ei-dst'])).contentTypes).toEqual([]);
    expect(await json(['runs'])).toEqual([]);
  });

  it('writes linked items first, completes the cycle in a second pass, rewrites links; keys, locales and folders travel', async () => {
    const res = await home.run(['item', 'import', dir, '--hub', 'ei-dst', '--progress', 'json', '-o', 'json']);
    expect(res.exitCode, res.stderr).toBe(0);
    const summary = JSON.parse(res.stdout);
    expect(summary).toMatchObject({ created: 6, updated: 0, unchanged: 0, failed: 0, failures: [] });
    runs.first = summary.runId;
    const events = res.stderr.trim().split('\n').map((l) => JSON.parse(l));
    expect(events[0]).toMatchObject({ event: 'start', total: 6 });
    expect(events.filter((e) => e.event === 'step')).toHaveLength(6);
    expect(events.at(-1)).toMatchObject({ event: 'end', done: 6, failed: 0 });

    const t = byLabel(await list('ei-dst', 'content'));
    for (const [from, to] of [['A', 'B'], ['B', 'C'], ['C', 'A'], ['T', 'A'], ['Q', 'P']]) expect(linkIds(t[from!])).toEqual([t[to!].id]);
    // The cycle's members were created without their links, then completed; T and Q were created with theirs.
    for (const m of ['A', 'B', 'C']) expect(t[m].version).toBe(2);
    expect(t.T.version).toBe(1);
    expect(t.Q.version).toBe(1);
    expect(t.P).toMatchObject({ deliveryKey: 'home', locale: 'en-GB', body: { _meta: { deliveryKey: 'home' } } });
    expect(t.Q.locale).toBe('fr-FR');
    const en = await json(['folder', 'get', t.P.folderId]);
    expect(en.name).toBe('en');
    expect(await json(['folder', 'get', en.parentId])).toMatchObject({ name: 'pages' });
    expect(t.Q.folderId).toBe(en.parentId);
    expect((await json(['item', 'get', '--key', 'home', '--hub', 'ei-dst'])).id).toBe(t.P.id);

    // The journal shows the order: T only after the cycle was completed.
    const keys = readFileSync(join(home.env.CMS_DATA_DIR, 'runs', runs.first!, 'journal.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).key as string);
    for (const m of ['A', 'B', 'C']) expect(keys.indexOf(`links:${src[m].id}`)).toBeLessThan(keys.indexOf(`item:${src.T.id}`));
    expect(keys.indexOf(`item:${src.P.id}`)).toBeLessThan(keys.indexOf(`item:${src.Q.id}`));
  });

  it('a second import changes nothing; an edited source item is updated, never duplicated; export rewrites only it', async () => {
    expect(await json(['item', 'import', dir, '--hub', 'ei-dst'])).toMatchObject({ created: 0, updated: 0, unchanged: 6, failed: 0 });

    const mtimes = Object.fromEntries(['A', 'B', 'C', 'T', 'P', 'Q'].map((l) => [l, statSync(itemFile(src[l].id)).mtimeMs]));
    expect((await cms(['item', 'update', src.P.id, '--set', 'body.title=Changed'])).exitCode).toBe(0);
    expect(await json(['item', 'export', dir, '--hub', 'ei-src'])).toMatchObject({ items: 6, written: 1, unchanged: 5, removed: 0 });
    for (const l of ['A', 'B', 'C', 'T', 'Q']) expect(statSync(itemFile(src[l].id)).mtimeMs).toBe(mtimes[l]);
    expect(JSON.parse(readFileSync(itemFile(src.P.id), 'utf8')).body.title).toBe('Changed');

    const second = await json(['item', 'import', dir, '--hub', 'ei-dst']);
    expect(second).toMatchObject({ created: 0, updated: 1, unchanged: 5, failed: 0 });
    runs.second = second.runId;
    const t = byLabel(await list('ei-dst', 'content'));
    expect(Object.keys(t)).toHaveLength(6);
    expect(t.P.body.title).toBe('Changed');
  });

  it('cms runs lists the runs with their status and counts', async () => {
    const listed = await json(['runs']);
    expect(listed.map((r: any) => r.id)).toEqual(expect.arrayContaining([runs.first, runs.second]));
    expect(listed.find((r: any) => r.id === runs.first)).toMatchObject({ command: 'item import', status: 'completed', counts: { created: 6 } });
  });

  it('undo restores what a run updated, archives what it created (newest run first), and refuses items changed since', async () => {
    const undoSecond = await json(['undo', runs.second!, '--yes']);
    expect(undoSecond).toMatchObject({ restored: 1, failed: 0 });
    let t = byLabel(await list('ei-dst', 'content'));
    expect(t.P.body.title).toBe('Hello');
    expect(t.P.deliveryKey).toBe('home');

    // Someone edits Q after the first run: undoing that run must leave Q alone.
    expect((await cms(['item', 'update', t.Q.id, '--label', 'Q edited'])).exitCode).toBe(0);
    const res = await jsonAnyExit(['undo', runs.first!, '--yes']);
    expect(res.exitCode).toBe(3);
    expect(res.data.failures).toEqual(expect.arrayContaining([{ id: t.Q.id, reason: expect.stringMatching(/changed since the run: now version 2, the run left version 1/) }]));
    t = byLabel(await list('ei-dst', 'content'));
    for (const l of ['A', 'B', 'C', 'T']) expect(t[l].status).toBe('ARCHIVED');
    expect(t['Q edited'].status).toBe('ACTIVE');
    // What the kept Q still needs stays (issue 34.2): P, which it links to (with its delivery
    // key), and the type assigned to the repository; the summary says what was kept and why.
    expect(t.P).toMatchObject({ status: 'ACTIVE', deliveryKey: 'home' });
    expect((await json(['repo', 'get', 'content', '--hub', 'ei-dst'])).contentTypes.map((c: { hubContentTypeId: string; contentTypeUri: string }) => c.contentTypeUri)).toEqual([URI]);
    expect(res.data.kept).toEqual(
      expect.arrayContaining([
        { resource: 'item', id: t.P.id, label: 'P', reason: expect.stringMatching(new RegExp(`linked from 'Q edited' \\(${t['Q edited'].id}\\)`)) },
        { resource: 'content-type', id: expect.any(String), label: expect.any(String), reason: expect.stringMatching(/assigned to the repository: items undo keeps there use it/) },
      ]),
    );
    expect(res.data.kept.some((k: { id: string }) => k.id === t.A.id)).toBe(false);
    // The kept item can still be updated.
    expect((await cms(['item', 'update', t['Q edited'].id, '--label', 'Q again'])).exitCode).toBe(0);
    // On a terminal, the summary has a KEPT table.
    const again = await home.run(['undo', runs.first!, '--yes', '--dry-run'], { env: { CMS_FORCE_TTY: '200' } });
    expect(again.stdout).toMatch(/^KEPT +RESOURCE +ID +WHY$/m);
    expect(again.stdout).toContain(t.P.id);
  });

  it('one failed item does not stop the run: exit 3, every failure with its reason', async () => {
    const res = await jsonAnyExit(['item', 'import', dir, '--hub', 'ei-fail']);
    expect(res.exitCode).toBe(3);
    expect(res.data).toMatchObject({ created: 4, failed: 2 });
    expect(res.data.failures).toEqual(
      expect.arrayContaining([
        // Each names the file it came from (CI annotates it: test/cli/github-actions.test.ts).
        { id: src.P.id, reason: expect.stringMatching(/Delivery key 'home' is already used/), file: expect.stringMatching(new RegExp(`${src.P.id}\\.json$`)) },
        { id: src.Q.id, reason: `links to ${src.P.id}, which failed`, file: expect.stringMatching(new RegExp(`${src.Q.id}\\.json$`)) },
      ]),
    );
    expect(res.stderr).toMatch(/2 items failed/);
    expect(Object.keys(byLabel(await list('ei-fail', 'content'))).sort()).toEqual(['A', 'B', 'C', 'T', 'squatter']);
  });

  it('--publish publishes every imported item and waits for the publishing jobs', async () => {
    expect(await json(['item', 'import', dir, '--hub', 'ei-pub', '--publish'])).toMatchObject({ created: 6, published: 6, failed: 0 });
    const items = await list('ei-pub', 'content');
    expect(items.map((i) => i.publishingStatus)).toEqual(Array(6).fill('LATEST'));
  });

  it('stops before writing anything when the target hub lacks a content type, and says how to create it', async () => {
    const res = await cms(['item', 'import', dir, '--hub', 'ei-notype']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain(URI);
    expect(res.stderr).toMatch(/cms schema apply \S+\/schemas && cms type apply \S+\/types/);
    expect(await list('ei-notype', 'content')).toEqual([]);
  });
});

describe('an export imported back into its own hub', () => {
  it('is those items: nothing is created, an edited file updates its item in place', async () => {
    const selfDir = join(home.dir, 'self-export');
    expect(await json(['item', 'export', selfDir, '--hub', 'ei-self'])).toMatchObject({ items: 2 });
    expect(await json(['item', 'import', selfDir, '--hub', 'ei-self', '--dry-run'])).toMatchObject({ created: 0, unchanged: 2 });
    expect(await json(['item', 'import', selfDir, '--hub', 'ei-self'])).toMatchObject({ created: 0, updated: 0, unchanged: 2, failed: 0 });

    const file = join(selfDir, 'items', 'content', `${src.X.id}.json`);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), label: 'X edited in git' }));
    expect(await json(['item', 'import', selfDir, '--hub', 'ei-self'])).toMatchObject({ created: 0, updated: 1, unchanged: 1, failed: 0 });
    const items = byLabel(await list('ei-self', 'content'));
    expect(Object.keys(items).sort()).toEqual(['X edited in git', 'Y']);
    expect(items['X edited in git'].id).toBe(src.X.id);
    expect(linkIds(items['X edited in git'])).toEqual([src.Y.id]);
  });
});

describe('archived items', () => {
  it('travel archived: exported with --status ACTIVE,ARCHIVED, imported and archived in the target; a re-run leaves them', async () => {
    expect((await cms(['item', 'archive', src.L2.id])).exitCode).toBe(0);
    const out = join(home.dir, 'with-archived');
    expect(await json(['item', 'export', out, '--hub', 'ei-deps', '--status', 'ACTIVE,ARCHIVED'])).toMatchObject({ items: 6 });
    expect(await json(['item', 'import', out, '--hub', 'ei-deps-dst'])).toMatchObject({ created: 6, archived: 1, failed: 0 });
    const pages = byLabel(await list('ei-deps-dst', 'pages'));
    expect(pages.L2.status).toBe('ARCHIVED');
    expect(pages.L.status).toBe('ACTIVE');
    expect(await json(['item', 'import', out, '--hub', 'ei-deps-dst'])).toMatchObject({ created: 0, unchanged: 6 });
  });
});

describe('cms item move and copy within the sandbox', () => {
  it('move to another repository hands the delivery key to the copy and archives the source; undo reverses it', async () => {
    const api = { hub: 'ei-src' };
    expect((await cms(['repo', 'create', '--hub', api.hub, '--name', 'archive', '--label', 'Archive'])).exitCode).toBe(0);
    expect((await cms(['type', 'assign', URI, '--repo', 'archive', '--hub', api.hub])).exitCode).toBe(0);
    const moved = await json(['item', 'move', src.P.id, '--hub', api.hub, '--to-repo', 'archive']);
    expect(moved).toMatchObject({ created: 1, sourceArchived: 1, failed: 0 });
    const copyId = moved.copies[src.P.id];
    expect((await json(['item', 'get', '--key', 'home', '--hub', api.hub])).id).toBe(copyId);
    expect(await json(['item', 'get', src.P.id])).toMatchObject({ status: 'ARCHIVED', deliveryKey: null });

    expect(await json(['undo', moved.runId, '--yes'])).toMatchObject({ failed: 0, archived: 1, sourceUnarchived: 1 });
    expect(await json(['item', 'get', src.P.id])).toMatchObject({ status: 'ACTIVE', deliveryKey: 'home' });
    expect(await json(['item', 'get', copyId])).toMatchObject({ status: 'ARCHIVED', deliveryKey: null });
  });

  it('move within a repository only changes the folder; copy --with-deps copies the graph with links between the copies', async () => {
    const moved = await json(['item', 'move', src.T.id, '--hub', 'ei-src', '--to-folder', folders.pages]);
    expect(moved).toMatchObject({ updated: 1, created: 0, copies: { [src.T.id]: src.T.id } });
    expect((await json(['item', 'get', src.T.id])).folderId).toBe(folders.pages);

    const copied = await json(['item', 'copy', src.T.id, '--hub', 'ei-src', '--to-repo', 'archive', '--with-deps']);
    expect(copied).toMatchObject({ created: 4, failed: 0 });
    const archive = byLabel(await list('ei-src', 'archive'));
    expect(linkIds(archive.T)).toEqual([archive.A.id]);
    expect(linkIds(archive.C)).toEqual([archive.A.id]);
    expect(archive.T.id).toBe(copied.copies[src.T.id]);
  });

  it('another profile on the same service and hub is the same hub: --with-deps is refused, and a move hands the delivery key over', async () => {
    for (const p of ['same-b', 'same-a']) expect((await cms(['login', '--profile', p, '--sandbox', '--hub', 'ei-src'])).exitCode).toBe(0);
    const deps = await cms(['item', 'move', src.P.id, '--profile', 'same-a', '--to-profile', 'same-b', '--to-repo', 'archive', '--with-deps']);
    expect(deps.exitCode, deps.stdout + deps.stderr).toBe(2);
    expect(deps.stderr).toContain('Within one hub');
    const moved = await json(['item', 'move', src.P.id, '--profile', 'same-a', '--to-profile', 'same-b', '--to-repo', 'archive']);
    expect(moved).toMatchObject({ created: 1, sourceArchived: 1, failed: 0 });
    expect((await json(['item', 'get', '--key', 'home', '--hub', 'ei-src'])).id).toBe(moved.copies[src.P.id]);
    const undone = await cms(['undo', moved.runId, '--yes']);
    expect(undone.exitCode, undone.stdout + undone.stderr).toBe(0);
  });
});
