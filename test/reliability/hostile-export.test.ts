import { createServer, type Server } from 'node:http';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { SCHEMA_HOST, assignType, createContentType, createItem } from '../helpers/content.js';
import { Api, createHub, createRepo, startServer } from '../helpers/server.js';

// cms item export writing into a directory an attacker prepared (a pull request to the repository
// that holds the export) or reading from a service that answers whatever it likes: nothing may be
// written or deleted outside the directory, and a directory that is not an export is refused.

const URI = `${SCHEMA_HOST}/hx-article.json`;
const home = new CliHome();
const SECRET = 'do not touch\n';

beforeAll(async () => {
  const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
  try {
    const api = await new Api(srv.url).login();
    const hub = await createHub(api, 'hx');
    const type = await createContentType(api, hub.id, URI);
    const repo = await createRepo(api, hub.id, 'content');
    await assignType(api, repo.id, type.id);
    for (const title of ['one', 'two', 'three']) await createItem(api, repo.id, URI, { title });
  } finally {
    await srv.stop();
  }
});
afterAll(() => home.cleanup());

/** A fresh place: <root>/export (the target) beside <root>/victim holding files that must survive. */
function place() {
  const root = mkdtempSync(join(home.dir, 'place-'));
  const victim = join(root, 'victim');
  mkdirSync(victim);
  for (const name of ['secret.json', 'a.json', 'b.json', 'c.json', 'd.json']) writeFileSync(join(victim, name), SECRET);
  return { root, dir: join(root, 'export'), victim };
}

function victimIntact(victim: string) {
  expect(readdirSync(victim).sort()).toEqual(['a.json', 'b.json', 'c.json', 'd.json', 'secret.json']);
  for (const name of readdirSync(victim)) expect(readFileSync(join(victim, name), 'utf8')).toBe(SECRET);
}

const exportTo = (dir: string, env?: Record<string, string>) => home.run(['item', 'export', dir, '--hub', 'hx', '-o', 'json'], { env });
const itemFiles = (dir: string) => readdirSync(join(dir, 'items', 'content')).filter((f) => f.endsWith('.json'));

describe('export into a directory an attacker prepared', () => {
  it('a planted .index.json naming files outside the directory deletes nothing outside it', async () => {
    const { dir, victim } = place();
    expect((await exportTo(dir)).exitCode).toBe(0);
    const index = JSON.parse(readFileSync(join(dir, '.index.json'), 'utf8'));
    // Stale entries (ids no longer exported) are what export deletes: each names a file outside.
    index.items.secret = '../../victim/AAAAAAAAAAAAAAAA';
    index.items['../../../victim/a'] = 'content/AAAAAAAAAAAAAAAA';
    index.items['/abs'] = `${victim}/AAAAAAAAAAAAAAAA`;
    index.items.b = `../../../${victim.split('/').slice(-2).join('/')}/AAAAAAAAAAAAAAAA`;
    writeFileSync(join(dir, '.index.json'), JSON.stringify(index));
    const res = await exportTo(dir);
    expect(res.exitCode, res.stderr).toBe(0);
    victimIntact(victim);
    expect(itemFiles(dir)).toHaveLength(3);
  });

  it('symlinks at the temporary names and at item files are replaced, never followed', async () => {
    const { dir, victim } = place();
    expect((await exportTo(dir)).exitCode).toBe(0);
    // Make every file due for a rewrite: a changed manifest, type and schema file, a stale index.
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, counts: { items: 0, byRepository: {}, dependencies: 0 } }));
    const index = JSON.parse(readFileSync(join(dir, '.index.json'), 'utf8'));
    for (const id of Object.keys(index.items)) index.items[id] = 'content/AAAAAAAAAAAAAAAA';
    writeFileSync(join(dir, '.index.json'), JSON.stringify(index));
    symlinkSync(join(victim, 'a.json'), join(dir, 'manifest.json.tmp'));
    symlinkSync(join(victim, 'b.json'), join(dir, '.index.json.tmp'));
    for (const sub of ['types', 'schemas']) {
      for (const f of readdirSync(join(dir, sub))) {
        writeFileSync(join(dir, sub, f), '{}');
        symlinkSync(join(victim, 'c.json'), join(dir, sub, `${f}.tmp`));
      }
    }
    const first = itemFiles(dir)[0]!;
    rmSync(join(dir, 'items', 'content', first));
    symlinkSync(join(victim, 'd.json'), join(dir, 'items', 'content', first));
    symlinkSync(join(victim, 'secret.json'), join(dir, 'items', 'content', `${first}.tmp`));
    const res = await exportTo(dir);
    expect(res.exitCode, res.stderr).toBe(0);
    victimIntact(victim);
    expect(lstatSync(join(dir, 'items', 'content', first)).isFile()).toBe(true);
    expect(JSON.parse(readFileSync(join(dir, 'items', 'content', first), 'utf8')).id).toBe(first.replace(/\.json$/, ''));
    expect(JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')).counts.items).toBe(3);
  });

  it('a directory of the export that is a symlink leading outside is refused (exit 2), nothing written there', async () => {
    const { dir, victim } = place();
    expect((await exportTo(dir)).exitCode).toBe(0);
    rmSync(join(dir, 'items', 'content'), { recursive: true });
    symlinkSync(victim, join(dir, 'items', 'content'));
    const res = await exportTo(dir);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/items\/content/);
    expect(res.stderr).not.toMatch(/unexpected|at .*\.js:\d+/i);
    victimIntact(victim);
  });

  it('a non-empty directory that is not an export is refused (exit 2) and left as it was', async () => {
    const { dir } = place();
    mkdirSync(join(dir, 'schemas'), { recursive: true });
    writeFileSync(join(dir, 'manifest.json'), '{"name":"my-app","version":"1.0.0"}\n');
    writeFileSync(join(dir, 'schemas', 'app.json'), '{"mine":true}\n');
    const res = await exportTo(dir);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/not an export/);
    expect(readFileSync(join(dir, 'manifest.json'), 'utf8')).toBe('{"name":"my-app","version":"1.0.0"}\n');
    expect(readdirSync(dir).sort()).toEqual(['manifest.json', 'schemas']);
    expect(readdirSync(join(dir, 'schemas'))).toEqual(['app.json']);

    const other = place().dir;
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'mine\n');
    const again = await exportTo(other);
    expect(again.exitCode).toBe(2);
    expect(readdirSync(other)).toEqual(['notes.txt']);
  });
});

// ---- a hostile service ----

const HUB = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const REPO = 'bbbbbbbbbbbbbbbbbbbbbbbb';
const page = (key: string, list: unknown[]) => ({ _embedded: { [key]: list }, page: { number: 0, size: list.length, totalElements: list.length, totalPages: 1 } });

/** A tiny service that answers what an export asks with the given items (and one type). */
async function fakeService(items: unknown[], typeUri: string): Promise<{ url: string; server: Server }> {
  const answers: Record<string, unknown> = {
    [`/v2/content/hubs/${HUB}`]: { id: HUB, name: 'evil' },
    [`/v2/content/hubs/${HUB}/content-repositories`]: page('content-repositories', [{ id: REPO, name: '../../../evil', label: 'r', itemLocales: [], features: [] }]),
    [`/v2/content/content-repositories/${REPO}/folders`]: page('folders', []),
    [`/v2/content/content-repositories/${REPO}/content-items`]: page('content-items', items),
    [`/v2/content/hubs/${HUB}/content-types`]: page('content-types', [{ contentTypeUri: typeUri, status: 'ACTIVE', settings: { label: 't' } }]),
    [`/v2/content/hubs/${HUB}/content-type-schemas`]: page('content-type-schemas', [{ schemaId: typeUri, body: '{"type":"object"}', validationLevel: 'CONTENT_TYPE', version: 1, status: 'ACTIVE' }]),
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    req.resume();
    const body = path === '/oauth/token' ? { access_token: 'token', token_type: 'bearer', expires_in: 3600 } : answers[path];
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { errors: [{ level: 'ERROR', code: 'NOT_FOUND', message: 'no' }] }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const hostileItem = (id: string) => ({
  id,
  label: 'x',
  body: { _meta: { schema: '../../../evil/type' }, title: 'x' },
  locale: null,
  folderId: null,
  deliveryKey: null,
  version: 1,
  status: 'ACTIVE',
  contentRepositoryId: REPO,
});

describe('export from a hostile service', () => {
  for (const id of ['../../../evil/pwned', '..', '/tmp/evil-abs', 'a/../../../../evil/pwned2', '.hidden', 'nul\0byte']) {
    it(`an item id ${JSON.stringify(id)} writes nothing outside the directory and fails naming the bad id`, async () => {
      const { root, dir, victim } = place();
      const svc = await fakeService([hostileItem('cccccccccccccccccccccccc'), hostileItem(id)], '../../../evil/type');
      try {
        const env = { CMS_API_URL: svc.url, CMS_CLIENT_ID: 'x', CMS_CLIENT_SECRET: 'y' };
        const res = await home.run(['item', 'export', dir, '--hub', HUB], { env });
        expect(res.exitCode, res.stderr).toBe(1);
        expect(res.stderr).toMatch(/not a valid item id/);
        expect(res.stderr).not.toMatch(/at .*\.js:\d+/);
      } finally {
        svc.server.close();
      }
      expect(existsSync(join(root, 'evil'))).toBe(false);
      expect(existsSync('/tmp/evil-abs.json')).toBe(false);
      expect(readdirSync(root).sort()).toEqual(['export', 'victim']);
      victimIntact(victim);
      // Only the export's own layout inside the directory (the failed export stays marked in progress, for its rerun).
      for (const name of existsSync(dir) ? readdirSync(dir) : []) expect(['items', 'types', 'schemas', 'manifest.json', '.index.json', '.cms-export-in-progress']).toContain(name);
    });
  }
});
