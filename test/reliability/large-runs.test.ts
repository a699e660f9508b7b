import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { SCHEMA_HOST, repoWithType } from '../helpers/content.js';
import { Api, startServer } from '../helpers/server.js';
import { stepLines } from '../../src/ops/runs/run-report.js';
import { WorkQueue } from '../../src/ops/runs/pool.js';

// A list as long as a run's items must never be spread into a call's arguments
// (`push(...items)`, `Math.max(...widths)`): V8 puts every argument on the stack, and past about
// 125,000 (fewer on a smaller stack) the run dies with "Maximum call stack size exceeded" at its
// start or, worse, at its end, after its work. The CLI runs here with a smaller stack
// (--stack-size=100, which fails near 15,000 arguments) so 20,000 items stand for 130,000.

const URI = `${SCHEMA_HOST}/large-article.json`;
const REPO = 'dddddddddddddddddddddddd';
const ITEMS = 20_000;
const home = new CliHome();
const SMALL_STACK = ['--stack-size=100'];

beforeAll(async () => {
  const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
  try {
    await repoWithType(await new Api(srv.url).login(), 'large', URI);
  } finally {
    await srv.stop();
  }
});
afterAll(() => home.cleanup());

/** An export of `n` items that link to nothing: every one of them is ready at the start. */
function exportOf(n: number): string {
  const dir = mkdtempSync(join(home.dir, 'export-'));
  mkdirSync(join(dir, 'items', 'content'), { recursive: true });
  const manifest = {
    format: 'cms-export/1',
    source: { apiUrl: 'http://x', hubId: 'h', hubName: 'h' },
    selection: {},
    repositories: [{ id: REPO, name: 'content', label: 'Content', itemLocales: [], features: [] }],
    folders: [],
    types: [],
    schemas: [],
    counts: { items: n, byRepository: { content: n }, dependencies: 0 },
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  for (let i = 0; i < n; i++) {
    const id = `e${String(i).padStart(23, '0')}`;
    const item = { id, label: `Item ${i}`, body: { _meta: { schema: URI }, title: `Item ${i}` }, locale: null, folderId: null, deliveryKey: null, version: 1, status: 'ACTIVE', contentRepositoryId: REPO };
    writeFileSync(join(dir, 'items', 'content', `${id}.json`), JSON.stringify(item));
  }
  return dir;
}

describe('runs with more items than a call has room for arguments', () => {
  it(`a dry-run import of ${ITEMS.toLocaleString('en-US')} unlinked items plans every one and prints the plan`, { timeout: 120_000 }, async () => {
    const dir = exportOf(ITEMS);
    const res = await home.run(['item', 'import', dir, '--hub', 'large', '--dry-run', '--progress', 'none'], { nodeArgs: SMALL_STACK, timeout: 110_000 });
    expect(res.stderr).not.toMatch(/Maximum call stack|RangeError|unexpected failure/);
    expect(res.exitCode, res.stderr).toBe(0);
    // Piped: the plan as rows, one per item.
    const lines = res.stdout.split('\n');
    expect(lines.filter((l) => /^create\titem\te0/.test(l))).toHaveLength(ITEMS);
    // On a terminal: the plan table and the summary, every width folded item by item.
    const tty = await home.run(['item', 'import', dir, '--hub', 'large', '--dry-run', '--progress', 'none'], { nodeArgs: SMALL_STACK, timeout: 110_000, env: { CMS_FORCE_TTY: '100' } });
    expect(tty.stderr).not.toMatch(/Maximum call stack|RangeError|unexpected failure/);
    expect(tty.exitCode, tty.stderr).toBe(0);
    expect(tty.stdout.split('\n').filter((l) => /^create\s+item\s+e0/.test(l))).toHaveLength(ITEMS);
    expect(tty.stdout).toMatch(/created\s+20000/);
  });

  it(`an import of ${ITEMS.toLocaleString('en-US')} items, then a dry-run clone of the hub, on the same small stack`, { timeout: 240_000 }, async () => {
    const dir = exportOf(ITEMS);
    const imported = await home.run(['item', 'import', dir, '--hub', 'large', '--progress', 'none', '-o', 'json'], { nodeArgs: SMALL_STACK, timeout: 200_000 });
    expect(imported.stderr).not.toMatch(/Maximum call stack|RangeError|unexpected failure/);
    expect(imported.exitCode, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ created: ITEMS, failed: 0 });
    const clone = await home.run(['hub', 'clone', '--from', 'sandbox:large', '--to', 'sandbox:large-copy', '--dry-run', '--progress', 'none'], { nodeArgs: SMALL_STACK, timeout: 200_000, env: { CMS_FORCE_TTY: '100' } });
    // On a terminal: the human report, a line per step (piped, the same as rows).
    expect(clone.stdout + clone.stderr).not.toMatch(/Maximum call stack|RangeError|unexpected failure/);
    expect(clone.exitCode, clone.stdout + clone.stderr).toBe(0);
    expect(clone.stdout).toMatch(new RegExp(`^items\\s+${ITEMS}\\s`, 'm'));
  });

  it('a queue takes 200,000 units at once', async () => {
    const queue = new WorkQueue<number>();
    queue.push(Array.from({ length: 200_000 }, (_, i) => i));
    queue.close();
    let n = 0;
    for await (const unit of queue) expect(unit).toBe(n++);
    expect(n).toBe(200_000);
  });

  it('the report of 200,000 steps lines them up', () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ action: i === 7 ? 'unarchive' : 'create', resource: 'item', label: `Item ${i}` }));
    const lines = stepLines(rows);
    expect(lines).toHaveLength(200_000);
    expect(lines[0]).toBe('create     item      Item 0');
  });
});
