import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

/**
 * `cms migration run` and `status` through the built binary on the embedded sandbox, on the demo
 * hub plus 60 articles of its own: dry run, apply, the hub's record, kill -9 and resume, undo
 * restoring every item exactly, the offline run on an export, and each bad input of issue 37.
 */

const ARTICLE = 'https://schemas.example.com/demo/article.json';
const DOCS = join(import.meta.dirname, '..', '..', 'docs', 'examples', 'migrations');

let base: CliHome;
const homes: CliHome[] = [];
let files: string;

/** A copy of the prepared demo: each test changes its own. */
function copy(): CliHome {
  const h = new CliHome();
  for (const d of ['data', 'config']) if (existsSync(join(base.dir, d))) cpSync(join(base.dir, d), join(h.dir, d), { recursive: true });
  h.env.CMS_HUB = 'demo';
  homes.push(h);
  return h;
}

/** A migration file in the test's directory of files. */
function migration(name: string, source: string): string {
  const path = join(files, name);
  writeFileSync(path, source);
  return path;
}

interface Item {
  id: string;
  label: string;
  version: number;
  status: string;
  folderId: string | null;
  deliveryKey: string | null;
  body: Record<string, any>;
  workflow?: { state: string };
}

/** Every item of the hub's content repositories, by id, as the service has them. */
async function items(h: CliHome): Promise<Map<string, Item>> {
  const out = new Map<string, Item>();
  for (const repo of ['content', 'content-fr']) {
    for (const status of ['ACTIVE', 'ARCHIVED']) {
      const list = await h.json<Item[]>(['item', 'list', '--repo', repo, '--status', status, '--all']);
      for (const i of list) out.set(i.id, i);
    }
  }
  return out;
}

/** What undo must give back: everything but the version and dates. */
const state = (i: Item) => ({ label: i.label, status: i.status, folderId: i.folderId ?? null, deliveryKey: i.deliveryKey ?? null, body: i.body, workflow: i.workflow?.state ?? null });

beforeAll(async () => {
  base = new CliHome();
  files = mkdtempSync(join(tmpdir(), 'cms-migrations-'));
  const demo = await base.run(['demo'], { env: { CMS_HUB: undefined } });
  if (demo.exitCode !== 0) throw new Error(`cms demo failed: ${demo.stderr}`);
  base.env.CMS_HUB = 'demo';
  // 60 more articles in folder 'bulk' (an import of an export made for it).
  const exp = join(files, 'seed');
  const res = await base.run(['item', 'export', exp, '--repo', 'content']);
  if (res.exitCode !== 0) throw new Error(res.stderr);
  const dir = join(exp, 'items', 'content');
  const template = JSON.parse(readFileSync(join(dir, readdirSync(dir)[0]!), 'utf8'));
  for (const f of readdirSync(dir)) rmSync(join(dir, f));
  for (let n = 0; n < 60; n++) {
    const id = randomUUID();
    writeFileSync(join(dir, `${id}.json`), JSON.stringify({ ...template, id, label: `Bulk ${n}`, deliveryKey: null, body: { _meta: { schema: ARTICLE, name: `bulk-${n}` }, title: `Bulk article ${n}`, tags: ['bulk'] } }));
  }
  const imported = await base.run(['item', 'import', exp, '--progress', 'none']);
  if (imported.exitCode !== 0) throw new Error(imported.stderr);
  await base.run(['workflow', 'create', '--label', 'Migrated', '--color', '#00aa00']);
}, 180_000);

afterAll(() => {
  for (const h of [base, ...homes]) h?.cleanup();
  rmSync(files, { recursive: true, force: true });
});

const TAG_BULK = (extra = '') => `
import { defineMigration } from 'cms-cli/migration';
export default defineMigration({
  select: { contentType: '${ARTICLE}', where: (item) => Array.isArray(item.body.tags) && item.body.tags.includes('bulk') },
  migrate(item) {
    ${extra}
    return { body: { ...item.body, title: item.body.title + '!' } };
  },
});
`;

describe('cms migration run', () => {
  it('dry run by default: a diff per item (rows when piped, -o json), counts, nothing written', async () => {
    const h = copy();
    const before = await items(h);
    const file = migration('tag-dry.ts', TAG_BULK());
    const piped = await h.run(['migration', 'run', file, '--progress', 'none']);
    expect(piped.exitCode, piped.stderr).toBe(0);
    const rows = piped.stdout.split('\n').filter((l) => l.startsWith('would-change\t'));
    expect(rows).toHaveLength(60);
    expect(rows[0]!.split('\t').slice(2, 4)).toEqual(['body.title', 'change']);
    expect(piped.stdout).toMatch(/Dry run of migration tag-dry\.ts: nothing was changed\.\n\s+65 read, 60 would change, 0 unchanged, 5 not selected/);
    const json = await h.json(['migration', 'run', file, '--progress', 'none']);
    expect(json.dryRun).toBe(true);
    expect(json.runId).toBeNull();
    expect(json.counts).toMatchObject({ read: 65, changed: 60, skipped: 5, failed: 0 });
    expect(json.items[0].changes[0]).toMatchObject({ path: 'body.title', op: 'change' });
    // --exit-code: 1 while the migration would change something.
    expect((await h.run(['migration', 'run', file, '--exit-code', '--progress', 'none'])).exitCode).toBe(1);
    const after = await items(h);
    for (const [id, i] of before) expect(after.get(id)!.version).toBe(i.version);
  }, 120_000);

  it('--apply writes each change once, journaled; the hub records it: a second apply is refused, status reports a changed file', async () => {
    const h = copy();
    const before = await items(h);
    const file = migration('tag-apply.ts', TAG_BULK());
    const res = await h.json(['migration', 'run', file, '--apply', '--progress', 'none']);
    expect(res.counts).toMatchObject({ changed: 60, failed: 0 });
    const after = await items(h);
    for (const [id, i] of before) {
      const now = after.get(id)!;
      if (i.body.tags?.includes('bulk')) {
        expect(now.body.title).toBe(`${i.body.title}!`);
        expect(now.version).toBe(i.version + 1);
      } else expect(now.version).toBe(i.version);
    }
    const again = await h.run(['migration', 'run', file, '--apply']);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(/Migration tag-apply\.ts was applied to this hub .*not applied again/);
    expect((await h.json(['migration', 'status', file]))[0]).toMatchObject({ name: 'tag-apply.ts', status: 'applied', runId: res.runId });
    writeFileSync(file, TAG_BULK('// edited'));
    expect((await h.json(['migration', 'status', file]))[0].status).toBe('changed');
    expect((await h.run(['migration', 'run', file, '--apply', '--progress', 'none'])).stderr).toMatch(/the file changed since/);
    const forced = await h.json(['migration', 'run', file, '--apply', '--force', '--progress', 'none']);
    expect(forced.counts.changed).toBe(60);
  }, 120_000);

  it('kill -9 in the middle (after an update was sent, before it was journaled), then --resume: every item changed exactly once', async () => {
    const h = copy();
    const before = await items(h);
    const file = migration('tag-kill.ts', TAG_BULK());
    const killed = await h.run(['migration', 'run', file, '--apply', '--concurrency', '4', '--progress', 'none'], { env: { CMS_TEST_KILL_AT: 'update:25:after' } });
    expect(killed.exitCode).not.toBe(0);
    const runs = await h.json<{ id: string; status: string; command: string }[]>(['runs']);
    const run = runs.find((r) => r.command === 'migration run')!;
    expect(run.status).toBe('interrupted');
    const mid = await items(h);
    const done = [...before.keys()].filter((id) => mid.get(id)!.version !== before.get(id)!.version).length;
    expect(done).toBeGreaterThanOrEqual(25);
    expect(done).toBeLessThan(60);
    const resumed = await h.run(['migration', 'run', '--apply', '--resume', run.id, '--progress', 'none']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const after = await items(h);
    for (const [id, i] of before) {
      if (!i.body.tags?.includes('bulk')) continue;
      expect(after.get(id)!.body.title).toBe(`${i.body.title}!`);
      expect(after.get(id)!.version).toBe(i.version + 1);
    }
    expect((await h.json(['migration', 'status', file]))[0].status).toBe('applied');
  }, 120_000);

  it('cms undo restores every item exactly: bodies, labels, folders, workflow states, archived items; derived items are archived', async () => {
    const h = copy();
    const before = await items(h);
    const file = migration(
      'everything.ts',
      `
import { defineMigration } from 'cms-cli/migration';
export default defineMigration({
  select: { contentType: '${ARTICLE}', repository: 'content' },
  migrate(item, ctx) {
    const n = Number(String(item.label).replace(/\\D+/g, '') || -1);
    if (n % 4 === 0) return { archive: true };
    if (n % 4 === 1) return { label: item.label + ' (renamed)', workflowState: 'Migrated' };
    if (n % 4 === 2) return { body: { ...item.body, related: [ctx.derive({ contentType: '${ARTICLE}', label: 'Derived ' + n, body: { title: 'Derived from ' + item.label } })] } };
    return { body: { ...item.body, tags: ['moved'] }, folderId: null };
  },
});
`,
    );
    const res = await h.json(['migration', 'run', file, '--apply', '--progress', 'none']);
    expect(res.counts).toMatchObject({ failed: 0, derived: 15, archived: 15 });
    const changed = await items(h);
    expect([...changed.values()].filter((i) => i.workflow).length).toBe(15);
    const undo = await h.run(['undo', res.runId, '--yes', '--progress', 'none']);
    expect(undo.exitCode, undo.stderr).toBe(0);
    const after = await items(h);
    for (const [id, i] of before) expect(state(after.get(id)!), i.label).toEqual(state(i));
    const derived = [...after.values()].filter((i) => !before.has(i.id));
    expect(derived).toHaveLength(15);
    for (const d of derived) expect(d.status).toBe('ARCHIVED');
    // Undone: the record says so, and the migration may be applied again.
    expect((await h.json(['migration', 'status', file]))[0].status).toBe('undone');
  }, 180_000);

  it('--from <export>: runs offline and writes the result beside the export; the export itself is untouched', async () => {
    const h = copy();
    const exp = join(h.dir, 'exp');
    expect((await h.run(['item', 'export', exp, '--repo', 'content'])).exitCode).toBe(0);
    const file = join(DOCS, 'move-to-linked.ts');
    const dry = await h.json(['migration', 'run', file, '--from', exp, '--progress', 'none']);
    expect(dry.counts).toMatchObject({ read: 63, changed: 1, derived: 1 });
    expect(existsSync(`${exp}.migrated`)).toBe(false);
    const applied = await h.json(['migration', 'run', file, '--from', exp, '--apply', '--progress', 'none']);
    expect(applied.out).toBe(`${exp}.migrated`);
    const out = join(`${exp}.migrated`, 'items', 'content');
    const written = readdirSync(out).map((f) => JSON.parse(readFileSync(join(out, f), 'utf8')));
    const launch = written.find((i) => i.label === 'Launch announcement');
    const teaser = written.find((i) => i.label === 'Launch announcement (teaser)');
    expect(launch.body.summary).toBeUndefined();
    expect(launch.body.teaser.id).toBe(teaser.id);
    expect(teaser.body).toMatchObject({ text: 'The big launch is here.', _meta: { schema: 'https://schemas.example.com/demo/teaser.json' } });
    const original = readdirSync(join(exp, 'items', 'content')).map((f) => JSON.parse(readFileSync(join(exp, 'items', 'content', f), 'utf8')));
    expect(original.find((i) => i.label === 'Launch announcement').body.summary).toBe('The big launch is here.');
    // The hub is untouched by an offline run; a second run replaces its own output.
    expect((await h.run(['migration', 'run', file, '--from', exp, '--apply', '--progress', 'none'])).exitCode).toBe(0);
    // A directory it did not write is not replaced.
    mkdirSync(join(h.dir, 'mine'));
    const refused = await h.run(['migration', 'run', file, '--from', exp, '--apply', '--out', join(h.dir, 'mine')]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/was not written by cms migration run/);
  }, 120_000);
});

describe('cms migration run: bad input', () => {
  it('a migration that throws on an item: that item fails with its id and the error, the run goes on, exit 3', async () => {
    const h = copy();
    const file = migration('throws.ts', TAG_BULK(`if (item.label === 'Bulk 7') throw new Error('cannot handle ' + item.label);`));
    const res = await h.run(['migration', 'run', file, '--apply', '--progress', 'none', '-o', 'json']);
    expect(res.exitCode).toBe(3);
    const out = JSON.parse(res.stdout);
    expect(out.counts).toMatchObject({ changed: 59, failed: 1 });
    expect(out.failures).toHaveLength(1);
    expect(out.failures[0].reason).toMatch(/migrate\(\) failed: cannot handle Bulk 7/);
    expect(res.stderr).toMatch(/1 item failed/);
  }, 120_000);

  it('a body its schema refuses: reported in the dry run, skipped on apply, written with --ignore-schema-validation', async () => {
    const h = copy();
    const file = migration(
      'invalid.ts',
      `
import { defineMigration } from 'cms-cli/migration';
export default defineMigration({
  select: { contentType: '${ARTICLE}', where: (item) => item.label === 'Bulk 3' || item.label === 'Bulk 4' },
  migrate(item) {
    return { body: { ...item.body, title: item.label === 'Bulk 3' ? '' : 'Fine' } };
  },
});
`,
    );
    const dry = await h.run(['migration', 'run', file, '--progress', 'none']);
    expect(dry.exitCode).toBe(3);
    expect(dry.stdout).toMatch(/^schema-invalid\t\S+\t\terror\tbody\.title: /m);
    expect(dry.stdout).toMatch(/1 would change, .*1 refused by their schema/);
    const applied = await h.json(['migration', 'run', file, '--apply', '--progress', 'none']).catch((e) => e);
    expect(String(applied)).toMatch(/exited 3/);
    const now = await h.json<Item[]>(['item', 'list', '--repo', 'content', '--all']);
    expect(now.find((i) => i.label === 'Bulk 3')!.body.title).toBe('Bulk article 3');
    expect(now.find((i) => i.label === 'Bulk 4')!.body.title).toBe('Fine');
    const forced = await h.run(['migration', 'run', file, '--apply', '--force', '--ignore-schema-validation', '--progress', 'none']);
    expect(forced.exitCode, forced.stderr).toBe(0);
    expect((await h.json<Item[]>(['item', 'list', '--repo', 'content', '--all'])).find((i) => i.label === 'Bulk 3')!.body.title).toBe('');
  }, 120_000);

  it('a migration that loops forever on an item: cut off at --item-timeout, the others are migrated, exit 3', async () => {
    const h = copy();
    const file = migration('loops.ts', TAG_BULK(`if (item.label === 'Bulk 5') for (;;) {}`));
    const res = await h.run(['migration', 'run', file, '--apply', '--item-timeout', '1s', '--progress', 'none', '-o', 'json']);
    expect(res.exitCode).toBe(3);
    const out = JSON.parse(res.stdout);
    expect(out.counts).toMatchObject({ changed: 59, failed: 1 });
    expect(out.failures[0].reason).toMatch(/ran longer than 1 s on item .*stopped/);
  }, 120_000);

  it('a file that cannot be loaded, or holds no migration: exit 2 naming it', async () => {
    const h = copy();
    const syntax = migration('syntax.ts', 'export default defineMigration({ select: {}, migrate( });');
    const none = migration('none.ts', 'export const x = 1;');
    const throwsAtLoad = migration('throws-at-load.mjs', "throw new Error('no config');");
    for (const [file, message] of [
      [syntax, /syntax\.ts could not be loaded:\n\s+.*syntax\.ts:1:/],
      [none, /none\.ts has no migration: its default export must be defineMigration/],
      [throwsAtLoad, /throws-at-load\.mjs could not be loaded: no config/],
      [join(files, 'missing.ts'), /missing\.ts does not exist/],
      [join(files, 'notes.txt'), /notes\.txt is not a TypeScript or JavaScript file/],
    ] as const) {
      const res = await h.run(['migration', 'run', file]);
      expect(res.exitCode, `${file}: ${res.stderr}`).toBe(2);
      expect(res.stderr).toMatch(message);
      expect(res.stderr).not.toMatch(/\n\s+at /);
    }
  }, 120_000);

  it('an item edited by someone else during the run: read again and migrated again, the other edit kept', async () => {
    const h = copy();
    const gate = join(files, 'gate');
    mkdirSync(gate, { recursive: true });
    const file = migration(
      'slow.ts',
      `
import { defineMigration } from 'cms-cli/migration';
import { existsSync, writeFileSync } from 'node:fs';
export default defineMigration({
  select: { contentType: '${ARTICLE}', where: (item) => item.label === 'Bulk 9' },
  async migrate(item) {
    if (!existsSync(${JSON.stringify(join(gate, 'go'))})) {
      writeFileSync(${JSON.stringify(join(gate, 'waiting'))}, '');
      for (let i = 0; i < 200 && !existsSync(${JSON.stringify(join(gate, 'go'))}); i++) await new Promise((r) => setTimeout(r, 50));
    }
    return { body: { ...item.body, tags: [...item.body.tags, 'migrated'] } };
  },
});
`,
    );
    const target = (await h.json<Item[]>(['item', 'list', '--repo', 'content', '--all'])).find((i) => i.label === 'Bulk 9')!;
    const running = h.run(['migration', 'run', file, '--apply', '--progress', 'none', '-o', 'json']);
    for (let i = 0; i < 400 && !existsSync(join(gate, 'waiting')); i++) await new Promise((r) => setTimeout(r, 50));
    expect((await h.run(['item', 'update', target.id, '--set', 'body.summary=edited by someone else'])).exitCode).toBe(0);
    writeFileSync(join(gate, 'go'), '');
    const res = await running;
    expect(res.exitCode, res.stderr).toBe(0);
    const now = await h.json<Item>(['item', 'get', target.id]);
    expect(now.body.summary).toBe('edited by someone else');
    expect(now.body.tags).toEqual(['bulk', 'migrated']);
    expect(now.version).toBe(target.version + 2);
  }, 120_000);
});
