import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { craftSnapshot, olderSnapshot, rewriteSchemaRow } from '../helpers/snapshots.js';
import Database from '../helpers/sqlite.js';
import { openDatabase } from '../../src/server/core/db.js';
import { saveSnapshot } from '../../src/server/core/snapshot-file.js';
import { migrations } from '../../src/server/migrations.js';

// Crafted snapshot files (issue 32 point 1): snapshots live in git beside tests and are shared,
// so one is data from whoever wrote it. A file that carries SQL to run (statements after a schema
// row's own, a trigger), a view where a table should be (an endless query), a schema of its own,
// or a file format cms never writes must be refused wherever a snapshot is taken: `cms sandbox
// snapshot restore`, `serve --seed`, `exec --seed`, a named snapshot listed, read and restored
// (CLI and HTTP), `startSandbox({ seed })` and a fixture's `restore(file)`, in memory and on disk.
// Each refusal: exit 2 or HTTP 400 naming the problem, nothing written outside, no trigger or
// view left in the sandbox's database, the data directory as it was, within a deadline.

const ROOT = join(import.meta.dirname, '..', '..');
const FIXTURE = pathToFileURL(join(ROOT, 'dist', 'fixture', 'index.js')).href;
const home = new CliHome();
let work: string;
/** Where a payload would write if the sandbox ran it: must stay empty. */
let outside: string;
let good: string;
let older: string;

beforeAll(async () => {
  work = mkdtempSync(join(home.dir, 'work-'));
  outside = mkdtempSync(join(home.dir, 'outside-'));
  const db = openDatabase({ dataDir: ':memory:', migrations });
  try {
    good = join(work, 'good.snapshot');
    saveSnapshot(db, good, '0.0.0-test');
  } finally {
    db.close();
  }
  older = join(work, 'older.snapshot');
  olderSnapshot(good, older, 1);
  expect((await home.run(['hub', 'create', '--name', 'kept', '--label', 'Kept'])).exitCode).toBe(0);
});
afterAll(() => home.cleanup());

/** SQL a restore must never run: it writes a database outside and plants a trigger. */
const payload = (pwned: string) =>
  `; COMMIT; ATTACH DATABASE '${pwned}' AS x; CREATE TABLE x.t(a); DETACH DATABASE x; BEGIN IMMEDIATE; ` +
  `CREATE TRIGGER main.backdoor AFTER INSERT ON hubs BEGIN INSERT INTO sandbox_state (key, value) VALUES ('pwned', 'yes'); END`;
const schemaText = (db: InstanceType<typeof Database>, name: string) => db.prepare('SELECT sql FROM sqlite_master WHERE name = ?').pluck().get(name) as string;
const endless = `WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT 'format' AS key, 'cms-sandbox-snapshot' AS value FROM r WHERE n < 0`;

type Craft = [name: string, make: (to: string, pwned: string) => void, problem: RegExp];
const CRAFTS: Craft[] = [
  ['statements after the search index’s CREATE VIRTUAL TABLE', (to, pwned) => craftSnapshot(good, to, (db) => rewriteSchemaRow(db, 'content_search', schemaText(db, 'content_search') + payload(pwned))), /virtual table 'content_search' is not as this cms makes it/],
  ['the same, in a snapshot that claims an older cms (migrated on the way)', (to, pwned) => craftSnapshot(older, to, (db) => rewriteSchemaRow(db, 'content_search', schemaText(db, 'content_search') + payload(pwned))), /virtual table 'content_search' is not as this cms makes it/],
  ['a trigger on hubs', (to) => craftSnapshot(good, to, (db) => db.exec(`CREATE TRIGGER backdoor AFTER INSERT ON hubs BEGIN INSERT INTO sandbox_state (key, value) VALUES ('pwned', 'yes'); END`)), /trigger 'backdoor'/],
  ['a trigger in a snapshot that claims an older cms', (to) => craftSnapshot(older, to, (db) => db.exec(`CREATE TRIGGER backdoor AFTER INSERT ON hubs BEGIN INSERT INTO sandbox_state (key, value) VALUES ('pwned', 'yes'); END`)), /trigger 'backdoor'/],
  ['an endless recursive view named sandbox_snapshot', (to) => craftSnapshot(good, to, (db) => db.exec(`DROP TABLE sandbox_snapshot; CREATE VIEW sandbox_snapshot AS ${endless}`)), /view 'sandbox_snapshot'/],
  ['an endless recursive view named hubs', (to) => craftSnapshot(good, to, (db) => db.exec(`PRAGMA foreign_keys = OFF; DROP TABLE hubs; CREATE VIEW hubs AS ${endless}`)), /view 'hubs'/],
  ['a table cms does not make', (to) => craftSnapshot(good, to, (db) => db.exec('CREATE TABLE extra (a)')), /table 'extra' this cms does not make/],
  ['a column of its own on hubs', (to) => craftSnapshot(good, to, (db) => db.exec(`ALTER TABLE hubs ADD COLUMN extra TEXT DEFAULT 'x'`)), /table 'hubs' is not as this cms makes it/],
  ['an index of its own', (to) => craftSnapshot(good, to, (db) => db.exec('CREATE INDEX hubs_lower ON hubs (lower(name))')), /index 'hubs_lower' this cms does not make/],
  ['a table cms makes, missing', (to) => craftSnapshot(good, to, (db) => db.exec('DROP TABLE content_links')), /lacks the table 'content_links'/],
  ['migrations out of this cms’s order', (to) => craftSnapshot(good, to, (db) => db.exec(`DELETE FROM migrations WHERE id = '0001-core'`)), /migrations .* not the first \d+ this cms applies/],
  ['a database in WAL mode', (to) => craftSnapshot(good, to, (db) => db.pragma('journal_mode = WAL')), /WAL/],
  [
    'a database of UTF-16 text',
    (to) => {
      const raw = new Database(join(work, 'utf16.db'));
      raw.pragma("encoding = 'UTF-16le'");
      // Kept only once the file has a page written.
      raw.exec('CREATE TABLE x (a); DROP TABLE x');
      raw.close();
      const db = openDatabase({ file: join(work, 'utf16.db'), migrations, journal: 'DELETE' });
      try {
        // Written, then refused by the check the save ends with: the file is what is wanted.
        expect(() => saveSnapshot(db, to, '0.0.0-test')).toThrow(/UTF-16/);
      } finally {
        db.close();
        rmSync(join(work, 'utf16.db'), { force: true });
      }
    },
    /UTF-16/,
  ],
];

/** Triggers and views in a sandbox database (there are none in the schema cms makes). */
function planted(file: string): string[] {
  if (!existsSync(file)) return [];
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT type || ' ' || name FROM sqlite_master WHERE type IN ('trigger', 'view')`).pluck().all() as string[];
  } finally {
    db.close();
  }
}

const hubs = async () => (await home.json<{ name: string }[]>(['hub', 'list'])).map((h) => h.name);

/** The programmatic entry points, run in a child process so that a hang is a deadline, not a stuck worker. */
const FIXTURE_SCRIPT = `
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
const [fixture, file, dirA, dirB] = process.argv.slice(1);
const { startSandbox } = await import(fixture);
const out = {};
const attempt = async (name, run) => {
  try { await run(); out[name] = { status: 'accepted' }; } catch (err) { out[name] = { status: err.status ?? 'thrown', message: err.message }; }
};
await attempt('startSandbox({ seed }) in memory', async () => (await startSandbox({ seed: file })).close());
await attempt('startSandbox({ seed, dataDir })', async () => (await startSandbox({ seed: file, dataDir: dirA })).close());
const mem = await startSandbox();
await attempt('restore(file) in memory', () => mem.restore(file));
await mem.close();
const sb = await startSandbox({ dataDir: dirB });
await attempt('restore(file) on disk', () => sb.restore(file));
mkdirSync(join(dirB, 'snapshots'), { recursive: true });
copyFileSync(file, join(dirB, 'snapshots', 'crafted.snapshot'));
const token = (await (await fetch(sb.authUrl + '/oauth/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: sb.clientId, client_secret: sb.clientSecret }) })).json()).access_token;
const http = async (method, path) => {
  const res = await fetch(sb.url + path, { method, headers: { authorization: 'Bearer ' + token } });
  return { status: res.status, body: await res.json().catch(() => null) };
};
out['GET /__sandbox/snapshots'] = await http('GET', '/__sandbox/snapshots');
out['GET /__sandbox/snapshots/crafted'] = await http('GET', '/__sandbox/snapshots/crafted');
out['POST /__sandbox/snapshots/crafted/restore'] = await http('POST', '/__sandbox/snapshots/crafted/restore');
await sb.close();
console.log(JSON.stringify(out));
`;

const tried: Record<string, number> = {};
afterAll(() => console.log(`[reliability] crafted snapshots: ${CRAFTS.length} files, entry points tried: ${Object.entries(tried).map(([c, n]) => `${c} ${n}`).join(', ')}`));
const count = (entry: string) => (tried[entry] = (tried[entry] ?? 0) + 1);

describe('a crafted snapshot is refused wherever a snapshot is taken, and nothing in it runs', () => {
  CRAFTS.forEach(([name, make, problem], i) => {
    it(`${name}`, async () => {
      const file = join(work, `crafted-${i}.snapshot`);
      const pwned = join(outside, `pwned-${i}.db`);
      make(file, pwned);
      const ran = join(work, `ran-${i}`);
      const sandboxDb = join(home.env.CMS_DATA_DIR, 'sandbox.db');

      // The CLI, on its data directory (each within a deadline: a hang fails, not stalls).
      for (const args of [
        ['sandbox', 'snapshot', 'restore', file, '--yes'],
        ['sandbox', 'serve', '--port', '0', '--seed', file],
        ['sandbox', 'exec', '--seed', file, '--', process.execPath, '-e', "require('fs').writeFileSync(process.argv[1], 'ran')", ran],
      ]) {
        count(`cms ${args.slice(0, 3).join(' ')}`);
        const res = await home.run(args, { timeout: 20_000 });
        expect(res.exitCode, `${args.join(' ')}: ${res.stderr}`).toBe(2);
        expect(res.stderr).toContain(file);
        expect(res.stderr).toMatch(problem);
        expect(res.stderr).not.toMatch(/unexpected failure|\n\s+at /);
        expect(existsSync(ran)).toBe(false);
        expect(planted(sandboxDb)).toEqual([]);
        expect(readdirSync(outside)).toEqual([]);
      }
      // A named snapshot in the data directory: listed with its problem, refused when restored.
      const snapshots = join(home.env.CMS_DATA_DIR, 'snapshots');
      mkdirSync(snapshots, { recursive: true });
      copyFileSync(file, join(snapshots, 'crafted.snapshot'));
      try {
        count('cms sandbox snapshot list');
        const listed = await home.run(['sandbox', 'snapshot', 'list', '-o', 'json'], { timeout: 20_000 });
        expect(listed.exitCode, listed.stderr).toBe(0);
        expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ name: 'crafted', problem: expect.stringMatching(problem) })]);
        count('cms sandbox snapshot restore <name>');
        const restored = await home.run(['sandbox', 'snapshot', 'restore', 'crafted', '--yes'], { timeout: 20_000 });
        expect(restored.exitCode, restored.stderr).toBe(2);
        expect(restored.stderr).toMatch(problem);
      } finally {
        rmSync(join(snapshots, 'crafted.snapshot'), { force: true });
      }
      expect(await hubs()).toEqual(['kept']);
      expect(planted(sandboxDb)).toEqual([]);

      // The programmatic API and the HTTP routes, in a child process with a deadline.
      const dirA = join(work, `fixture-a-${i}`);
      const dirB = join(work, `fixture-b-${i}`);
      const child = await execa(process.execPath, ['--input-type=module', '-e', FIXTURE_SCRIPT, FIXTURE, file, dirA, dirB], { reject: false, timeout: 30_000 });
      expect(child.exitCode, `${child.stderr}${child.timedOut ? ' (timed out)' : ''}`).toBe(0);
      const out = JSON.parse(String(child.stdout)) as Record<string, { status: number | string; message?: string; body?: any }>;
      for (const entry of ['startSandbox({ seed }) in memory', 'startSandbox({ seed, dataDir })', 'restore(file) in memory', 'restore(file) on disk']) {
        count(entry);
        expect(out[entry], entry).toMatchObject({ status: 400, message: expect.stringMatching(problem) });
      }
      count('GET /__sandbox/snapshots');
      expect(out['GET /__sandbox/snapshots']).toMatchObject({ status: 200, body: { snapshots: [{ name: 'crafted', problem: expect.stringMatching(problem) }] } });
      for (const entry of ['GET /__sandbox/snapshots/crafted', 'POST /__sandbox/snapshots/crafted/restore']) {
        count(entry);
        expect(out[entry], entry).toMatchObject({ status: 400 });
        expect(JSON.stringify(out[entry]!.body)).toMatch(problem);
      }
      expect(planted(join(dirA, 'sandbox.db'))).toEqual([]);
      expect(planted(join(dirB, 'sandbox.db'))).toEqual([]);
      expect(readdirSync(outside)).toEqual([]);
    }, 150_000);
  });
});
