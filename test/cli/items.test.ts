import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Api, createHub, createRepo, startServer } from '../helpers/server.js';
import { contentLink, createContentRepo, createContentType, enableDeliveryKeys } from '../helpers/content.js';

// The `cms item` verbs on the embedded sandbox. The hub, its content type and repositories are
// made first over HTTP by a server on the same data directory; the rest goes through the CLI.

const HUB = 'items-cli';
const home = new CliHome();
let uri: string;
let frRepoId: string;

beforeAll(async () => {
  const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
  try {
    const admin = await new Api(srv.url).login();
    const hubId = (await createHub(admin, HUB)).id;
    await enableDeliveryKeys(admin, hubId);
    const type = await createContentType(admin, hubId);
    uri = type.uri;
    const alpha = await createContentRepo(admin, hubId, type.id, ['en-GB']);
    await admin.patch(`/content-repositories/${alpha.id}`, { name: 'alpha' });
    const beta = await createContentRepo(admin, hubId, type.id);
    await admin.patch(`/content-repositories/${beta.id}`, { name: 'beta' });
    const fr = await createContentRepo(admin, hubId, type.id, ['fr-FR']);
    frRepoId = fr.id;
    await admin.post(`/content-repositories/${alpha.id}/localization-group`, { newRepositoryId: fr.id });
    await createRepo(admin, hubId, 'empty');
  } finally {
    await srv.stop();
  }
});

afterAll(() => home.cleanup());

// The hub comes from CMS_HUB, as a user would set it.
const cms = (args: string[], opts: { input?: string } = {}) => home.run(args, { ...opts, env: { CMS_HUB: HUB } });
const json = <T = any>(args: string[], opts: { input?: string } = {}) => home.json<T>(args, { ...opts, env: { CMS_HUB: HUB } });
const create = (label: string, ...extra: string[]) => json(['item', 'create', '--repo', 'alpha', '--label', label, '--schema', uri, '--set', 'body.title=Hello', ...extra]);
const file = (name: string, value: unknown) => {
  const path = join(home.dir, name);
  writeFileSync(path, JSON.stringify(value));
  return path;
};

describe('cms item create, get and list', () => {
  it('create takes --repo, --label, --schema and --set edits; get shows it', async () => {
    const created = await create('Home page', '--set', 'body.count=3', '--locale', 'en-GB');
    expect(created).toMatchObject({ label: 'Home page', version: 1, status: 'ACTIVE', locale: 'en-GB', body: { _meta: { schema: uri }, title: 'Hello', count: 3 } });
    expect(created._links).toBeUndefined();
    expect(await json(['item', 'get', created.id])).toEqual(created);
  });

  it('create reads --body-file (and - for stdin); a missing --repo is a usage error', async () => {
    const fromFile = await json(['item', 'create', '--repo', 'alpha', '--body-file', file('item.json', { label: 'From file', body: { _meta: { schema: uri }, title: 'File' } })]);
    expect(fromFile).toMatchObject({ label: 'From file', body: { title: 'File' } });
    const fromStdin = await json(['item', 'create', '--repo', 'alpha', '--body-file', '-'], { input: JSON.stringify({ label: 'Stdin', body: { _meta: { schema: uri }, title: 'In' } }) });
    expect(fromStdin.label).toBe('Stdin');
    expect((await cms(['item', 'create', '--label', 'x'])).exitCode).toBe(2);
  });

  it('a body the schema refuses exits 2 naming the property', async () => {
    const res = await cms(['item', 'create', '--repo', 'alpha', '--label', 'Bad', '--schema', uri, '--set', 'body.count="many"']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('body.count');
  });

  it('list --repo pages the repository items; --status and --sort pass through; piped tables are rows', async () => {
    const repo = 'beta';
    const make = (label: string) => json(['item', 'create', '--repo', repo, '--label', label, '--schema', uri, '--set', 'body.title=T']);
    const b = await make('b-second');
    const a = await make('a-first');
    await cms(['item', 'archive', b.id]);
    const all = await json(['item', 'list', '--repo', repo, '--sort', 'label,asc']);
    expect(all.map((i: any) => i.label)).toEqual(['a-first', 'b-second']);
    const active = await json(['item', 'list', '--repo', repo, '--status', 'ACTIVE']);
    expect(active.map((i: any) => i.id)).toEqual([a.id]);
    const rows = (await cms(['item', 'list', '--repo', repo, '--sort', 'label,asc'])).stdout.replace(/\n$/, '').split('\n').map((l) => l.split('\t'));
    expect(rows).toEqual([
      [a.id, 'a-first', '1', 'ACTIVE', '', uri, ''],
      [b.id, 'b-second', '2', 'ARCHIVED', '', uri, ''],
    ]);
    expect(await json(['item', 'list', '--repo', 'empty'])).toEqual([]);
  });
});

describe('cms item update', () => {
  it('fetches the current version and applies --set to the current body', async () => {
    const item = await create('Editable', '--set', 'body.count=1');
    await json(['item', 'update', item.id, '--label', 'Edited']);
    const updated = await json(['item', 'update', item.id, '--set', 'body.title=Changed']);
    expect(updated).toMatchObject({ version: 3, label: 'Edited', body: { _meta: { schema: uri }, title: 'Changed', count: 1 } });
  });

  it('--version pins the version: a stale pin exits 1 with the 409 message and changes nothing', async () => {
    const item = await create('Pinned');
    expect((await json(['item', 'update', item.id, '--version', '1', '--label', 'v2'])).version).toBe(2);
    const stale = await cms(['item', 'update', item.id, '--version', '1', '--label', 'lost']);
    expect(stale.exitCode).toBe(1);
    expect(stale.stderr).toContain('409');
    expect(stale.stderr).toContain('not the current version');
    expect(await json(['item', 'get', item.id])).toMatchObject({ version: 2, label: 'v2' });
  });

  it('--body-file merges fields into the fetched item; nothing to change is a usage error', async () => {
    const item = await create('Merged');
    const res = await json(['item', 'update', item.id, '--body-file', file('patch.json', { label: 'From patch file' })]);
    expect(res).toMatchObject({ version: 2, label: 'From patch file', body: { title: 'Hello' } });
    expect((await cms(['item', 'update', item.id])).exitCode).toBe(2);
  });
});

describe('versions, history, restore, archive and locale', () => {
  it('archive and unarchive fetch the version themselves', async () => {
    const item = await create('Archivable');
    expect(await json(['item', 'archive', item.id])).toMatchObject({ status: 'ARCHIVED', version: 2 });
    expect(await json(['item', 'unarchive', item.id])).toMatchObject({ status: 'ACTIVE', version: 3 });
  });

  it('versions lists newest first (--oldest-first reverses); history shows the actions; restore --to brings a version back', async () => {
    const item = await create('Versioned');
    await json(['item', 'update', item.id, '--label', 'Second']);
    expect((await json(['item', 'versions', item.id])).map((v: any) => [v.version, v.label])).toEqual([
      [2, 'Second'],
      [1, 'Versioned'],
    ]);
    expect((await json(['item', 'versions', item.id, '--oldest-first'])).map((v: any) => v.version)).toEqual([1, 2]);
    const restored = await json(['item', 'restore', item.id, '--to', '1']);
    expect(restored).toMatchObject({ version: 3, label: 'Versioned' });
    expect((await json(['item', 'history', item.id])).map((h: any) => h.action)).toEqual(['RESTORE', 'UPDATE', 'CREATE']);
    expect((await json(['item', 'get', item.id, '--version', '2'])).label).toBe('Second');
    expect((await cms(['item', 'restore', item.id])).exitCode).toBe(2);
  });

  it('locale sets the locale (the repository item locales apply: exit 2 outside them)', async () => {
    const item = await create('Localized');
    expect(await json(['item', 'locale', item.id, 'en-GB'])).toMatchObject({ locale: 'en-GB', version: 2 });
    const outside = await cms(['item', 'locale', item.id, 'de-DE']);
    expect(outside.exitCode).toBe(2);
    expect(outside.stderr).toContain('de-DE');
  });
});

describe('delivery keys, copy, children and localization', () => {
  it('delivery-key sets and removes the key; get --key finds the item', async () => {
    const item = await create('Keyed');
    expect(await json(['item', 'delivery-key', item.id, 'pages/cli-home'])).toMatchObject({ deliveryKey: 'pages/cli-home', version: 2 });
    expect((await json(['item', 'get', '--key', 'pages/cli-home'])).id).toBe(item.id);
    expect((await json(['item', 'delivery-key', item.id, '--remove'])).deliveryKey).toBeNull();
    expect((await cms(['item', 'get', '--key', 'pages/cli-home'])).exitCode).toBe(1);
    expect((await cms(['item', 'delivery-key', item.id, 'bad//key'])).exitCode).toBe(2);
    expect((await cms(['item', 'delivery-key', item.id])).exitCode).toBe(2);
  });

  it('copy makes a new item in another repository, labelled like the source unless --label', async () => {
    const item = await create('Original');
    const copy = await json(['item', 'copy', item.id, '--repo', 'beta']);
    expect(copy).toMatchObject({ label: 'Original', version: 1, body: { title: 'Hello' } });
    expect(copy.id).not.toBe(item.id);
    expect((await json(['item', 'copy', item.id, '--repo', 'beta', '--label', 'Renamed', '--version', '1'])).label).toBe('Renamed');
  });

  it('children lists the graph, root first', async () => {
    const leaf = await create('Leaf');
    const root = await json(['item', 'create', '--repo', 'alpha', '--label', 'Root', '--schema', uri, '--set', 'body.title=R', '--set', `body.links=${JSON.stringify([contentLink(leaf.id, uri)])}`]);
    expect((await json(['item', 'children', root.id])).map((i: any) => i.label)).toEqual(['Root', 'Leaf']);
  });

  it('localize --wait polls the job until it completes; localizations lists the copies', async () => {
    const item = await create('Bonjour', '--locale', 'en-GB');
    const job = await json(['item', 'localize', item.id, '--locale', 'fr-FR', '--wait']);
    expect(job).toMatchObject({ status: 'COMPLETED', requestedLocales: ['fr-FR'], results: [{ locale: 'fr-FR', status: 'COMPLETED', repositoryId: frRepoId }] });
    const variants = await json(['item', 'localizations', item.id]);
    expect(variants.map((v: any) => [v.locale, v.label, v.contentRepositoryId])).toEqual([['fr-FR', 'Bonjour', frRepoId]]);
    const noLocale = await cms(['item', 'localize', item.id]);
    expect(noLocale.exitCode).toBe(2);
  });
});

describe('cms item bulk-update', () => {
  it('prints a result per entry and exits 0 when all succeed', async () => {
    const a = await create('Bulk A');
    const b = await create('Bulk B');
    const res = await cms(['item', 'bulk-update', '--file', file('ok.json', [{ id: a.id, version: 1, label: 'A2' }, { id: b.id, version: 1, label: 'B2' }]), '-o', 'json']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual([
      { id: a.id, status: 200, code: 'SUCCESS', level: 'INFO', message: null },
      { id: b.id, status: 200, code: 'SUCCESS', level: 'INFO', message: null },
    ]);
    expect((await json(['item', 'get', a.id])).label).toBe('A2');
  });

  it('prints every result and exits 3 when some entries failed', async () => {
    const a = await create('Bulk C');
    const res = await cms(['item', 'bulk-update', '--file', file('mixed.json', [{ id: a.id, version: 1, label: 'C2' }, { id: a.id, version: 1, label: 'stale' }])]);
    expect(res.exitCode).toBe(3);
    const rows = res.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(rows.map((r) => r.slice(0, 3))).toEqual([
      [a.id, '200', 'SUCCESS'],
      [a.id, '409', 'VERSION_CONFLICT'],
    ]);
    expect(res.stderr).toContain('1 of 2 updates failed');
    expect((await cms(['item', 'bulk-update', '--file', file('empty.json', [])])).exitCode).toBe(2);
  });
});
