import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, type TestServer } from '../helpers/server.js';
import { contentSetup, createItem, itemBody, type ContentSetup } from '../helpers/content.js';
import { CliHome } from '../helpers/cli.js';
import { checkDatabase, openDb } from './lib/db.js';
import { serve, type Served } from './lib/serve.js';

// Concurrent writers on the same items through the real version checks, from several processes
// on one data directory: the test process's own server, a `cms sandbox serve` child, and `cms`
// CLI processes (embedded mode). Every write names the version it read and appends its mark to
// the item; then the store is read back row by row:
//   - each successful write is one version row, holding its mark, built on the version before it
//     (its marks are the previous version's plus its own: no lost update);
//   - a refused (409) write left nothing anywhere;
//   - the final version is 1 + the number of successes, and every version row 1..final exists;
//   - SQLite's integrity check passes, every row's JSON parses, the full-text index agrees.

const WRITERS = 8;
const OPS_PER_WRITER = 30;
const ITEMS = 3;
const CLI_WAVES = 3;

interface Attempt {
  itemId: string;
  mark: string;
  via: string;
  status: number;
  /** The version the answer reported (PATCH of one item). */
  version?: number;
}

let dataDir: string;
let local: TestServer;
let child: Served;
let setup: ContentSetup;
let items: string[];
const attempts: Attempt[] = [];
const unexpected: string[] = [];

/** A small seeded generator, so every run draws the same items and pauses. */
function rng(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** Reads the item, then writes it back with its mark appended, naming the version it read. */
async function write(api: Api, itemId: string, mark: string, via: string, bulk: boolean, pause: number): Promise<void> {
  const read = await api.get(`/content-items/${itemId}`);
  if (read.status !== 200) {
    unexpected.push(`${via}: GET ${itemId} answered ${read.status} ${read.text.slice(0, 200)}`);
    return;
  }
  const current = read.body;
  if (pause) await new Promise((r) => setTimeout(r, pause));
  const body = { ...current.body, title: mark, marks: [...(current.body.marks ?? []), mark] };
  if (bulk) {
    const res = await api.patch('/content-items', [{ id: itemId, version: current.version, label: mark, body }]);
    if (res.status !== 207) unexpected.push(`${via}: bulk answered ${res.status} ${res.text.slice(0, 200)}`);
    else attempts.push({ itemId, mark, via: `${via} bulk`, status: res.body.results[0].status });
  } else {
    const res = await api.patch(`/content-items/${itemId}`, { ...current, label: mark, body });
    attempts.push({ itemId, mark, via, status: res.status, version: res.status === 200 ? res.body.version : undefined });
    if (res.status === 409 && res.body?.errors?.[0]?.code !== 'VERSION_CONFLICT') unexpected.push(`${via}: 409 without VERSION_CONFLICT: ${res.text.slice(0, 200)}`);
  }
}

async function httpWriter(n: number, api: Api, via: string, ops: number, targets: string[]): Promise<void> {
  const random = rng(1000 + n);
  for (let i = 0; i < ops; i++) {
    const itemId = targets[random(targets.length)]!;
    await write(api, itemId, `w${n}n${i}`, via, i % 3 === 2, random(3) === 0 ? random(4) : 0);
  }
}

interface VersionRow {
  version: number;
  label: string;
  marks: string[];
  item: any;
}

function versionRows(itemId: string): VersionRow[] {
  const db = openDb(dataDir, true);
  try {
    const rows = db.prepare('SELECT version, data FROM content_item_versions WHERE item_id = ? ORDER BY version').all(itemId) as { version: number; data: string }[];
    return rows.map((r) => {
      const item = JSON.parse(r.data);
      return { version: r.version, label: item.label, marks: item.body.marks ?? [], item };
    });
  } finally {
    db.close();
  }
}

/** Everything that must hold of one item after the race. Returns the number of successes. */
function accountFor(itemId: string): { successes: number; conflicts: number; final: number } {
  const mine = attempts.filter((a) => a.itemId === itemId);
  const ok = mine.filter((a) => a.status === 200);
  const refused = mine.filter((a) => a.status === 409);
  expect(mine.filter((a) => a.status !== 200 && a.status !== 409), 'only 200 or 409').toEqual([]);
  const rows = versionRows(itemId);
  const final = rows.at(-1)!.version;
  // The final version is 1 + the successes, and every version row exists.
  expect(final).toBe(1 + ok.length);
  expect(rows.map((r) => r.version)).toEqual(Array.from({ length: final }, (_, i) => i + 1));
  // Each success is exactly one version row (its mark is that row's label)...
  const byLabel = new Map(rows.slice(1).map((r) => [r.label, r]));
  expect(byLabel.size).toBe(rows.length - 1);
  for (const a of ok) {
    const row = byLabel.get(a.mark);
    expect(row, `success ${a.mark} (${a.via}) has no version row`).toBeDefined();
    if (a.version !== undefined) expect(row!.version, `${a.mark} answered version ${a.version}`).toBe(a.version);
  }
  // ...and no refused write left a trace.
  const refusedMarks = new Set(refused.map((a) => a.mark));
  for (const r of rows) expect(r.marks.filter((m) => refusedMarks.has(m)), `version ${r.version} holds a refused write`).toEqual([]);
  // Each version is built on the one before: no update was lost.
  for (let i = 1; i < rows.length; i++) expect(rows[i]!.marks, `version ${rows[i]!.version}`).toEqual([...rows[i - 1]!.marks, rows[i]!.label]);
  expect(rows.at(-1)!.marks).toHaveLength(ok.length);
  return { successes: ok.length, conflicts: refused.length, final };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'cms-concurrency-'));
  local = await startServer({ dataDir });
  child = await serve(['--data-dir', dataDir], {});
  const admin = await new Api(local.url).login();
  setup = await contentSetup(admin);
  items = [];
  for (let i = 0; i < ITEMS + 1; i++) items.push((await createItem(admin, setup.repoId, setup.uri, { label: `start-${i}`, body: itemBody(setup.uri, { marks: [] }) })).id);
}, 120_000);

afterAll(async () => {
  await child?.stop();
  await local?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('concurrent writers on the same items', () => {
  it(`${WRITERS} HTTP writers on two server processes sharing one data directory lose no update`, async () => {
    const apis = [await new Api(local.url).login(), await new Api(child.url).login()];
    const targets = items.slice(0, ITEMS);
    await Promise.all(Array.from({ length: WRITERS }, (_, n) => httpWriter(n, apis[n % 2]!, n % 2 ? 'served' : 'local', OPS_PER_WRITER, targets)));
    expect(unexpected).toEqual([]);
    let successes = 0;
    let conflicts = 0;
    for (const id of targets) {
      const r = accountFor(id);
      successes += r.successes;
      conflicts += r.conflicts;
      // What the service answers agrees with the rows.
      const got = await apis[0]!.get(`/content-items/${id}`);
      expect(got.body.version).toBe(r.final);
      expect((await apis[1]!.get(`/content-items/${id}/versions`)).body.page.totalElements).toBe(r.final);
    }
    expect(successes + conflicts).toBe(WRITERS * OPS_PER_WRITER);
    // The race was real: some writes lost it.
    expect(conflicts).toBeGreaterThan(0);
    console.log(`[reliability] concurrency: ${WRITERS} HTTP writers on 2 processes, ${ITEMS} items, ${WRITERS * OPS_PER_WRITER} version-checked writes: ${successes} succeeded, ${conflicts} refused with 409, none lost`);
  }, 180_000);

  it(`${WRITERS} concurrent CLI processes (and an HTTP writer) on one data directory lose no update`, async () => {
    const itemId = items[ITEMS]!;
    const home = new CliHome();
    const env = { CMS_DATA_DIR: dataDir };
    let cliOk = 0;
    let cliRefused = 0;
    try {
      const api = await new Api(child.url).login();
      for (let wave = 0; wave < CLI_WAVES; wave++) {
        const http = httpWriter(100 + wave, api, 'served', 6, [itemId]);
        const runs = await Promise.all(
          Array.from({ length: WRITERS }, async (_, n) => {
            const mark = `c${wave}p${n}`;
            // The CLI reads the item and sends it back, naming the version it read.
            const res = await home.run(['item', 'update', itemId, '--label', mark, '--set', `body.title=${mark}`, '-o', 'json'], { env });
            return { mark, res };
          }),
        );
        await http;
        for (const { mark, res } of runs) {
          if (res.exitCode === 0) {
            cliOk++;
            attempts.push({ itemId, mark, via: 'cli', status: 200, version: JSON.parse(res.stdout).version });
          } else if (res.exitCode === 1 && /409|conflict|not the current version/i.test(res.stderr)) {
            cliRefused++;
            attempts.push({ itemId, mark, via: 'cli', status: 409 });
          } else unexpected.push(`cli ${mark}: exit ${res.exitCode}: ${res.stderr.slice(0, 300)}`);
        }
      }
    } finally {
      home.cleanup();
    }
    expect(unexpected).toEqual([]);
    // A CLI write keeps the marks it read (it cannot append from the shell): check versions and labels.
    const mine = attempts.filter((a) => a.itemId === itemId);
    const ok = mine.filter((a) => a.status === 200);
    const rows = versionRows(itemId);
    expect(rows.at(-1)!.version).toBe(1 + ok.length);
    expect(rows.map((r) => r.version)).toEqual(Array.from({ length: rows.length }, (_, i) => i + 1));
    const labels = new Set(rows.map((r) => r.label));
    for (const a of ok) expect(labels.has(a.mark), `${a.via} ${a.mark} succeeded but left no version`).toBe(true);
    for (const a of mine.filter((x) => x.status === 409)) expect(labels.has(a.mark), `${a.via} ${a.mark} was refused but left a version`).toBe(false);
    for (const a of ok.filter((x) => x.version !== undefined)) expect(rows.find((r) => r.label === a.mark)!.version).toBe(a.version);
    // Every CLI process either wrote a version or was refused with 409; some writer won each wave.
    expect(cliOk + cliRefused).toBe(WRITERS * CLI_WAVES);
    expect(ok.length).toBeGreaterThanOrEqual(CLI_WAVES);
    console.log(`[reliability] concurrency: ${CLI_WAVES} waves of ${WRITERS} concurrent CLI processes (+ an HTTP writer) on one item: ${cliOk} CLI updates succeeded, ${cliRefused} refused with 409; item at version ${rows.at(-1)!.version} = 1 + ${ok.length} successes`);
  }, 180_000);

  it('leaves sound rows: integrity check, JSON, version rows and the full-text index', async () => {
    const api = await new Api(local.url).login();
    // The full-text index follows the latest version: the final label is found, a superseded one is not.
    for (const id of items) {
      const rows = versionRows(id);
      const latest = rows.at(-1)!.label;
      const found = await api.get(`/hubs/${setup.hubId}/content-items/find?query=${encodeURIComponent(`label:${latest}`)}`);
      expect(found.body._embedded['content-items'].map((i: { id: string }) => i.id)).toContain(id);
      if (rows.length > 2) {
        const old = rows.at(-2)!.label;
        const stale = await api.get(`/hubs/${setup.hubId}/content-items/find?query=${encodeURIComponent(`label:${old}`)}`);
        expect(stale.body._embedded['content-items'].map((i: { id: string }) => i.id)).not.toContain(id);
      }
    }
    await child.stop();
    await local.stop();
    const report = checkDatabase(dataDir);
    expect(report.integrity).toEqual(['ok']);
    expect(report.foreignKeyViolations).toBe(0);
    expect(report.problems).toEqual([]);
    console.log(`[reliability] concurrency database: integrity ${report.integrity.join(',')}, ${report.items} items, ${report.versions} version rows, ${report.problems.length} problems`);
  }, 60_000);
});
