import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { SCHEMA_HOST, assignType, createContentType, schemaDocument } from '../helpers/content.js';
import { Api, createHub, createRepo, startServer } from '../helpers/server.js';

// Crafted input directories for `cms item import`, `cms schema apply` and `cms type apply` (a pull
// request to the repository that holds them): devices, FIFOs, symlinks leading outside, huge or
// deeply nested files, invalid JSON, folder cycles. Each must end in exit 2 naming the file and
// what is wrong, before any change, within a deadline, never echoing bytes of a file that is not
// JSON. Every run goes through the built binary.

const URI = `${SCHEMA_HOST}/cx-article.json`;
const home = new CliHome();
const REPO = 'dddddddddddddddddddddddd';
/** Bytes of /etc/passwd or of a planted file that must never reach the output. */
const LEAK = /root:|x:0:0|TOPSECRET/;
let outside: string;

beforeAll(async () => {
  const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
  try {
    const api = await new Api(srv.url).login();
    const hub = await createHub(api, 'cx');
    const type = await createContentType(api, hub.id, URI);
    const repo = await createRepo(api, hub.id, 'content');
    await assignType(api, repo.id, type.id);
  } finally {
    await srv.stop();
  }
  outside = mkdtempSync(join(home.dir, 'outside-'));
  writeFileSync(join(outside, 'valid.json'), JSON.stringify({ id: 'x', TOPSECRET: 1 }));
  writeFileSync(join(outside, 'not-json.json'), 'TOPSECRET bytes, not JSON\n');
});
afterAll(() => home.cleanup());

/** One way to make a bad file at `path` (the name the command will read). */
type Craft = [name: string, make: (path: string) => void, problem: RegExp];

const deep = (n: number) => `{"id":"${URI}","a":${'['.repeat(n)}${']'.repeat(n)}}`;
const FILE_CRAFTS: Craft[] = [
  ['a symlink to /dev/zero', (p) => symlinkSync('/dev/zero', p), /outside the directory|not a regular file/],
  ['a FIFO', (p) => execFileSync('mkfifo', [p]), /not a regular file/],
  ['a symlink to /etc/passwd', (p) => symlinkSync('/etc/passwd', p), /outside the directory/],
  ['a symlink to a JSON file outside', (p) => symlinkSync(join(outside, 'valid.json'), p), /outside the directory/],
  ['a symlink to a directory', (p) => symlinkSync('/etc', p), /outside the directory|not a regular file/],
  ['a dangling symlink', (p) => symlinkSync(join(outside, 'missing.json'), p), /outside the directory|cannot be read|no such file/],
  ['invalid JSON', (p) => writeFileSync(p, 'TOPSECRET bytes, not JSON\n'), /not valid JSON/],
  ['JSON cut short', (p) => writeFileSync(p, '{"id": "TOPSECRET'), /not valid JSON/],
  ['a 600 MB file (sparse)', (p) => truncateSync((writeFileSync(p, ''), p), 600 * 2 ** 20), /larger than/],
  ['5,000-deep nesting', (p) => writeFileSync(p, deep(5000)), /nested deeper than/],
];

/** Runs a command with a deadline: a hang is a failure, not a stuck suite. */
async function expectRefused(args: string[], file: string, problem: RegExp) {
  const res = await home.run(args, { timeout: 20_000 });
  expect(res.exitCode, `${args.join(' ')}\n${res.stderr}`).toBe(2);
  expect(res.stderr).toContain(file);
  expect(res.stderr).toMatch(problem);
  expect(res.stderr).not.toMatch(LEAK);
  expect(res.stdout).not.toMatch(LEAK);
  expect(res.stderr).not.toMatch(/unexpected failure|at .*\.js:\d+/);
}

const tried: Record<string, number> = {};
const count = (command: string) => (tried[command] = (tried[command] ?? 0) + 1);
afterAll(() => console.log(`[reliability] crafted directories tried: ${Object.entries(tried).map(([c, n]) => `${c} ${n}`).join(', ')}`));

// ---- schema apply and type apply ----

const GOOD: Record<string, unknown> = {
  schema: schemaDocument(URI),
  type: { contentTypeUri: URI, settings: { label: 'Article' } },
};

for (const kind of ['schema', 'type'] as const) {
  describe(`cms ${kind} apply`, () => {
    for (const [name, make, problem] of FILE_CRAFTS) {
      it(`refuses a directory holding ${name} named *.json: exit 2 naming it`, { timeout: 40_000 }, async () => {
        const dir = mkdtempSync(join(home.dir, `${kind}-`));
        writeFileSync(join(dir, 'good.json'), JSON.stringify(GOOD[kind]));
        mkdirSync(join(dir, 'sub'));
        make(join(dir, 'sub', 'bad.json'));
        count(`${kind} apply`);
        await expectRefused([kind, 'apply', dir, '--hub', 'cx', '--dry-run'], 'sub/bad.json', problem);
        rmSync(dir, { recursive: true, force: true });
      });
    }
  });
}

// ---- item import ----

function manifest(folders: unknown[] = []) {
  return {
    format: 'cms-export/1',
    source: { apiUrl: 'http://x', hubId: 'h', hubName: 'h' },
    selection: {},
    repositories: [{ id: REPO, name: 'content', label: 'Content', itemLocales: [], features: [] }],
    folders,
    types: [],
    schemas: [],
    counts: { items: 1, byRepository: { content: 1 }, dependencies: 0 },
  };
}

const ITEM = 'eeeeeeeeeeeeeeeeeeeeeeee';
function item(folderId: string | null = null) {
  return { id: ITEM, label: 'x', body: { _meta: { schema: URI }, title: 'x' }, locale: null, folderId, deliveryKey: null, version: 1, status: 'ACTIVE', contentRepositoryId: REPO };
}

/** A valid export directory, then one change. */
function exportDir(change: (dir: string) => void, folders?: unknown[], folderId?: string): string {
  const dir = mkdtempSync(join(home.dir, 'import-'));
  mkdirSync(join(dir, 'items', 'content'), { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest(folders)));
  writeFileSync(join(dir, 'items', 'content', `${ITEM}.json`), JSON.stringify(item(folderId)));
  change(dir);
  return dir;
}

const folder = (id: string, name: string, parentId: string | null) => ({ id, name, parentId, repository: REPO });

describe('cms item import', () => {
  for (const [name, make, problem] of FILE_CRAFTS) {
    it(`refuses an item file that is ${name}: exit 2 naming it`, { timeout: 40_000 }, async () => {
      const dir = exportDir((d) => make(join(d, 'items', 'content', 'bad.json')));
      count('item import');
      await expectRefused(['item', 'import', dir, '--hub', 'cx', '--dry-run'], join('items', 'content', 'bad.json'), problem);
    });
    it(`refuses a manifest that is ${name}: exit 2 naming it`, { timeout: 40_000 }, async () => {
      const dir = exportDir((d) => {
        rmSync(join(d, 'manifest.json'));
        make(join(d, 'manifest.json'));
      });
      count('item import');
      await expectRefused(['item', 'import', dir, '--hub', 'cx', '--dry-run'], 'manifest.json', problem);
    });
  }

  const manifests: [string, unknown[], string | undefined, RegExp][] = [
    ['a folder cycle', [folder('f1', 'a', 'f2'), folder('f2', 'b', 'f1')], 'f1', /cycle/],
    ['a folder that is its own parent', [folder('f1', 'a', 'f1')], 'f1', /cycle/],
    ['a folder with an empty name', [folder('f1', '', null)], 'f1', /empty name/],
    ['a folder without an id', [{ name: 'a', parentId: null, repository: REPO }], undefined, /folders\[0\]/],
  ];
  for (const [name, folders, folderId, problem] of manifests) {
    it(`refuses a manifest with ${name}: exit 2 naming it, before any change`, { timeout: 40_000 }, async () => {
      const dir = exportDir(() => {}, folders, folderId);
      count('item import');
      await expectRefused(['item', 'import', dir, '--hub', 'cx'], 'manifest.json', problem);
    });
  }

  it('refuses an items directory that is a symlink leading outside', { timeout: 40_000 }, async () => {
    const dir = exportDir((d) => {
      rmSync(join(d, 'items', 'content'), { recursive: true });
      mkdirSync(join(outside, 'items'), { recursive: true });
      writeFileSync(join(outside, 'items', `${ITEM}.json`), JSON.stringify({ ...item(), label: 'TOPSECRET' }));
      symlinkSync(join(outside, 'items'), join(d, 'items', 'content'));
    });
    count('item import');
    await expectRefused(['item', 'import', dir, '--hub', 'cx', '--dry-run'], join('items', 'content'), /outside the directory/);
  });
});

describe('cms item import: folder paths', () => {
  it("folders 'a/b' (one name) and 'a' -> 'b' become two target folders", { timeout: 60_000 }, async () => {
    const dir = mkdtempSync(join(home.dir, 'folders-'));
    mkdirSync(join(dir, 'items', 'content'), { recursive: true });
    const folders = [folder('f1', 'a/b', null), folder('f2', 'a', null), folder('f3', 'b', 'f2')];
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest(folders), counts: { items: 2, byRepository: { content: 2 }, dependencies: 0 } }));
    const one = { ...item('f1'), id: 'ffffffffffffffffffffff01', label: 'slash' };
    const two = { ...item('f3'), id: 'ffffffffffffffffffffff02', label: 'nested' };
    for (const it of [one, two]) writeFileSync(join(dir, 'items', 'content', `${it.id}.json`), JSON.stringify(it));
    count('item import');
    const res = await home.run(['item', 'import', dir, '--hub', 'cx'], { timeout: 40_000 });
    expect(res.exitCode, res.stderr).toBe(0);
    const items = await home.json<{ label: string; folderId: string }[]>(['item', 'list', '--hub', 'cx', '--repo', 'content', '--limit', '0']);
    const slash = items.find((i) => i.label === 'slash')!;
    const nested = items.find((i) => i.label === 'nested')!;
    expect(slash.folderId).toBeTruthy();
    expect(nested.folderId).toBeTruthy();
    expect(slash.folderId).not.toBe(nested.folderId);
  });
});
