import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Database from '../../helpers/sqlite.js';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentSetup, createItem, itemBody } from '../../helpers/content.js';
import { expectError } from '../../helpers/assert.js';
import { openDatabase } from '../../../src/server/core/db.js';
import { migrations } from '../../../src/server/migrations.js';
import { saveSnapshot } from '../../../src/server/core/snapshot-file.js';
import { execa } from 'execa';
import { BIN } from '../../helpers/cli.js';

// Whole-sandbox snapshots over /__sandbox/snapshots (issue 25 point 2): everything comes back,
// the file is replaced whole, and a file that is not a usable snapshot is refused with a reason.

describe('/__sandbox/snapshots', () => {
  let srv: TestServer;
  let admin: Api;
  const dir = () => join(srv.dataDir, 'snapshots');

  beforeAll(async () => {
    srv = await startServer();
    admin = await new Api(srv.url).login();
  });
  afterAll(async () => {
    await srv?.stop();
  });

  it('restores everything: hubs, items and versions, clients, the clock, pending work, the search index', async () => {
    const setup = await contentSetup(admin);
    const kept = await createItem(admin, setup.repoId, setup.uri, { label: 'kept apple', body: itemBody(setup.uri, { title: 'apple' }) });
    const v2 = await admin.patch(`/content-items/${kept.id}`, { version: kept.version, body: itemBody(setup.uri, { title: 'apple two' }) });
    expect(v2.status, v2.text).toBe(200);
    const clientId = unique('client');
    expect((await admin.post('/__sandbox/clients', { id: clientId, secret: 'shh', permissions: [] })).status).toBe(201);
    expect((await admin.post('/__sandbox/clock', { set: '2031-05-01T10:00:00Z' })).status).toBe(200);
    expect((await admin.post('/__sandbox/clock', { freeze: true })).status).toBe(200);
    const statusBefore = (await admin.get('/__sandbox/status')).body;
    const clockBefore = (await admin.get('/__sandbox/clock')).body;

    const saved = await admin.post('/__sandbox/snapshots', { name: 'base' });
    expect(saved.status, saved.text).toBe(201);
    expect(saved.body).toMatchObject({ name: 'base', counts: { items: 1, clients: 2 }, schemaVersion: migrations.length });
    // Private: it holds the signing key and the clients' secret hashes.
    expect(statSync(join(dir(), 'base.snapshot')).mode & 0o777).toBe(0o600);

    // Change everything, then restore.
    await createItem(admin, setup.repoId, setup.uri, { label: 'later banana', body: itemBody(setup.uri, { title: 'banana' }) });
    expect((await admin.del(`/__sandbox/clients/${clientId}`)).status).toBe(204);
    expect((await admin.post('/__sandbox/clock', { reset: true })).status).toBe(200);
    const restored = await admin.post('/__sandbox/snapshots/base/restore');
    expect(restored.status, restored.text).toBe(200);

    // The token issued before the restore still works: the signing key is the snapshot's (the same).
    const items = await admin.get(`/content-repositories/${setup.repoId}/content-items?size=50`);
    expect(items.body._embedded['content-items'].map((i: { label: string }) => i.label)).toEqual(['kept apple']);
    const versions = await admin.get(`/content-items/${kept.id}/versions`);
    expect(versions.status, versions.text).toBe(200);
    expect(versions.body.page.totalElements).toBe(2);
    expect((await admin.get('/__sandbox/clients')).body.clients.map((c: { id: string }) => c.id)).toContain(clientId);
    expect((await admin.get('/__sandbox/clock')).body).toEqual(clockBefore);
    expect((await admin.get('/__sandbox/status')).body.counts).toEqual(statusBefore.counts);
    // The search index came back with the items, and keeps working for new ones.
    const find = async (q: string) => (await admin.get(`/hubs/${setup.hubId}/content-items/find?query=${q}`)).body._embedded['content-items'].map((i: { label: string }) => i.label);
    expect(await find('apple')).toEqual(['kept apple']);
    expect(await find('banana')).toEqual([]);
    await createItem(admin, setup.repoId, setup.uri, { label: 'new cherry', body: itemBody(setup.uri, { title: 'cherry' }) });
    expect(await find('cherry')).toEqual(['new cherry']);
    expect(await find('apple')).toEqual(['kept apple']);
    // And the restored client can log in with its secret.
    await new Api(srv.url, clientId, 'shh').login();
  });

  it('lists, shows and deletes named snapshots; saving a name again replaces it', async () => {
    expect((await admin.post('/__sandbox/snapshots', { name: 'one' })).status).toBe(201);
    expect((await admin.post('/__sandbox/snapshots', { name: 'one' })).status).toBe(201);
    const list = await admin.get('/__sandbox/snapshots');
    expect(list.body.snapshots.map((s: { name: string }) => s.name)).toEqual(expect.arrayContaining(['base', 'one']));
    expect((await admin.get('/__sandbox/snapshots/one')).body).toMatchObject({ name: 'one', createdDate: expect.any(String), bytes: expect.any(Number) });
    expect((await admin.del('/__sandbox/snapshots/one')).status).toBe(204);
    expectError(await admin.get('/__sandbox/snapshots/one'), 404);
    expectError(await admin.del('/__sandbox/snapshots/one'), 404);
    expectError(await admin.post('/__sandbox/snapshots/one/restore'), 404);
    // Never a temporary file left behind.
    expect(readdirSync(dir()).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('takes names, never paths', async () => {
    for (const name of ['../escape', '/etc/passwd', '.hidden', 'a/b']) {
      const res = await admin.post('/__sandbox/snapshots', { name });
      expect(res.status, name).toBe(400);
      expect(res.text).toContain('not a snapshot name');
    }
    expectError(await admin.post('/__sandbox/snapshots/..%2Fx/restore'), 400);
  });

  it('is for the sandbox admin only', async () => {
    const id = unique('restricted');
    await admin.post('/__sandbox/clients', { id, secret: 's', permissions: [] });
    const other = await new Api(srv.url, id, 's').login();
    expectError(await other.get('/__sandbox/snapshots'), 403);
    expectError(await other.post('/__sandbox/snapshots', { name: 'x' }), 403);
  });

  it('refuses a file that is not a snapshot, a truncated one and one from a newer cms, changing nothing', async () => {
    await admin.post('/__sandbox/snapshots', { name: 'good' });
    const before = (await admin.get('/__sandbox/status')).body.counts;
    writeFileSync(join(dir(), 'text.snapshot'), 'hello, I am not a database'.repeat(10));
    expect(expectError(await admin.post('/__sandbox/snapshots/text/restore'), 400).message).toMatch(/not a sandbox snapshot/);
    // A SQLite database that is not a snapshot.
    const other = new Database(join(dir(), 'plain.snapshot'));
    other.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    other.close();
    expect(expectError(await admin.post('/__sandbox/snapshots/plain/restore'), 400).message).toMatch(/not a sandbox snapshot/);
    // Truncated.
    const bytes = readFileSync(join(dir(), 'good.snapshot'));
    writeFileSync(join(dir(), 'cut.snapshot'), bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(expectError(await admin.post('/__sandbox/snapshots/cut/restore'), 400).message).toMatch(/truncated/);
    // From a newer cms: a migration this one does not know.
    copyFileSync(join(dir(), 'good.snapshot'), join(dir(), 'newer.snapshot'));
    const newer = new Database(join(dir(), 'newer.snapshot'));
    newer.prepare("INSERT INTO migrations (id, applied_date) VALUES ('9999-from-the-future', '2040-01-01')").run();
    newer.pragma(`user_version = ${migrations.length + 1}`);
    newer.close();
    expect(expectError(await admin.post('/__sandbox/snapshots/newer/restore'), 400).message).toMatch(/newer cms.*upgrade cms/);
    expect((await admin.get('/__sandbox/status')).body.counts).toEqual(before);
    // The listing shows what is wrong with each, and still lists the good one.
    const listed = (await admin.get('/__sandbox/snapshots')).body.snapshots;
    expect(listed.find((s: { name: string }) => s.name === 'cut').problem).toMatch(/truncated/);
    expect(listed.find((s: { name: string }) => s.name === 'good').problem).toBeUndefined();
  });

  it('refuses to save over a directory of that name with 400, the directory untouched', async () => {
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir(), 'a-dir.snapshot'), { recursive: true });
    writeFileSync(join(dir(), 'a-dir.snapshot', 'kept.txt'), 'kept');
    expect(expectError(await admin.post('/__sandbox/snapshots', { name: 'a-dir' }), 400).message).toMatch(/Snapshot 'a-dir' is a directory/);
    expect(readdirSync(join(dir(), 'a-dir.snapshot'))).toEqual(['kept.txt']);
  });

  it('migrates a snapshot from an older cms', async () => {
    const OLD_HUB = 'aaaaaaaaaaaaaaaaaaaaaaaa';
    // A database as an older cms left it: all but the newest migrations, with a hub.
    const oldMigrations = migrations.slice(0, migrations.length - 2);
    const old = openDatabase({ dataDir: ':memory:', migrations: oldMigrations });
    const hub = srv.sandbox.service.db.prepare('SELECT * FROM hubs LIMIT 1').get() as Record<string, unknown>;
    const cols = Object.keys(hub);
    old.prepare(`INSERT INTO hubs (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`).run(...cols.map((c) => (typeof hub[c] === 'string' ? (hub[c] as string).replaceAll(hub.id as string, OLD_HUB) : hub[c])));
    saveSnapshot(old, join(dir(), 'older.snapshot'), '0.0.1');
    old.close();
    const res = await admin.post('/__sandbox/snapshots/older/restore');
    expect(res.status, res.text).toBe(200);
    expect(res.body.schemaVersion).toBe(migrations.length - 2);
    // Another sandbox's signing key came with it: tokens issued before are no longer valid.
    expectError(await admin.get(`/hubs/${OLD_HUB}`), 401);
    await admin.login();
    expect((await admin.get(`/hubs/${OLD_HUB}`)).body.id).toBe(OLD_HUB);
    expect((await admin.get('/__sandbox/status')).body.schema.version).toBe(migrations.length);
    // The file itself is left as it was (migrated on a copy).
    const file = new Database(join(dir(), 'older.snapshot'), { readonly: true });
    expect(file.pragma('user_version', { simple: true })).toBe(migrations.length - 2);
    file.close();
    expect(existsSync(join(dir(), 'older.snapshot'))).toBe(true);
  });

  it('saves a consistent copy while another process writes to the same database', async () => {
    // The embedded CLI on the served sandbox's data directory: another process, another connection.
    const env = { ...process.env, CMS_DATA_DIR: srv.dataDir, CMS_CONFIG_DIR: join(srv.dataDir, 'config'), CMS_API_URL: '', CMS_PROFILE: '' };
    let writing = true;
    const writer = (async () => {
      let n = 0;
      while (writing && n < 40) {
        const res = await execa(process.execPath, [BIN, 'hub', 'create', '--name', `concurrent-${n}`, '--label', 'Concurrent'], { env, reject: false });
        expect(res.exitCode, String(res.stderr)).toBe(0);
        n++;
      }
      return n;
    })();
    const names: string[] = [];
    for (let i = 0; i < 6; i++) {
      await new Promise((r) => setTimeout(r, 150));
      const res = await admin.post('/__sandbox/snapshots', { name: `during-${i}` });
      expect(res.status, res.text).toBe(201);
      names.push(`during-${i}`);
    }
    writing = false;
    const written = await writer;
    expect(written).toBeGreaterThan(0);
    const counts = new Set<number>();
    for (const name of names) {
      const db = new Database(join(dir(), `${name}.snapshot`), { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(db.pragma('foreign_key_check')).toEqual([]);
      counts.add(db.prepare("SELECT count(*) FROM hubs WHERE name LIKE 'concurrent-%'").pluck().get() as number);
      db.close();
    }
    // The saves saw the writes progress (not one frozen state).
    expect(counts.size).toBeGreaterThan(1);
    expect((await admin.get('/hubs?size=100')).body._embedded.hubs.filter((h: { name: string }) => h.name.startsWith('concurrent-')).length).toBe(written);
  }, 120_000);
});
