import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// The layout of the hosted service's own CLI (@amplience/dc-cli), which teams keep in git:
// `<repository label>/<folder>/.../<label>.json` content exports, schema definition files whose
// body names a document beside them, type files with repositories by name, and its mapping file.
// The fixture (test/fixtures/dc-cli) is written by hand from that CLI's documented format.

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'dc-cli');
const URI = 'https://schemas.example.org/dc/article.json';
const home = new CliHome();
const fixture = join(home.dir, 'dc');
const content = join(fixture, 'content');

const run = (args: string[]) => home.run(args);
async function jsonAnyExit(args: string[]) {
  const res = await home.run([...args, '-o', 'json']);
  let data: any;
  try {
    data = JSON.parse(res.stdout);
  } catch {
    data = undefined;
  }
  return { ...res, data };
}
const items = (hub: string) => home.json<any[]>(['item', 'list', '--hub', hub, '--repo', 'content', '--limit', '0', '--status', 'ACTIVE,ARCHIVED']);

/** Every *.json file under dir, relative, sorted. */
function jsonFiles(dir: string, at = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, at))) {
    if (name.startsWith('.')) continue;
    const path = at ? join(at, name) : name;
    if (statSync(join(dir, path)).isDirectory()) out.push(...jsonFiles(dir, path));
    else if (name.endsWith('.json')) out.push(path);
  }
  return out.sort();
}
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

async function hubWithRepo(name: string) {
  await home.json(['hub', 'create', '--name', name, '--label', name]);
  await home.json(['repo', 'create', '--hub', name, '--name', 'content', '--label', 'Website Content']);
}

beforeAll(async () => {
  cpSync(FIXTURE, fixture, { recursive: true });
  await hubWithRepo('dc');
});

afterAll(() => home.cleanup());

describe('the dc-cli layout', () => {
  it('schema apply reads definition files whose body names the document beside them; type apply assigns repositories by name', async () => {
    const schemas = await jsonAnyExit(['schema', 'apply', join(fixture, 'content-type-schemas'), '--hub', 'dc']);
    expect(schemas.exitCode, schemas.stderr).toBe(0);
    expect(schemas.data).toMatchObject({ created: 1, updated: 0 });
    const schema = await home.json(['schema', 'get', URI, '--hub', 'dc']);
    expect(schema.validationLevel).toBe('CONTENT_TYPE');
    expect(JSON.parse(schema.body).title).toBe('Article');

    const types = await jsonAnyExit(['type', 'apply', join(fixture, 'content-types'), '--hub', 'dc']);
    expect(types.exitCode, types.stderr).toBe(0);
    expect(types.data).toMatchObject({ created: 1 });
    const repo = await home.json(['repo', 'get', 'content', '--hub', 'dc']);
    expect(repo.contentTypes.map((t: any) => t.contentTypeUri)).toEqual([URI]);

    // Applying again changes nothing: the document file is not a schema of its own.
    const again = await jsonAnyExit(['schema', 'apply', join(fixture, 'content-type-schemas'), '--hub', 'dc', '--dry-run', '--exit-code']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.data).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
  });

  it('a schema body naming a file outside the directory, a URL or nothing is exit 2 naming the file', async () => {
    const bad = join(home.dir, 'bad-schemas');
    mkdirSync(join(bad, 'schemas'), { recursive: true });
    writeFileSync(join(bad, 'a.json'), JSON.stringify({ schemaId: `${URI}-a`, validationLevel: 'CONTENT_TYPE', body: '../../etc/passwd' }));
    writeFileSync(join(bad, 'b.json'), JSON.stringify({ schemaId: `${URI}-b`, validationLevel: 'CONTENT_TYPE', body: 'https://example.org/b.json' }));
    writeFileSync(join(bad, 'c.json'), JSON.stringify({ schemaId: `${URI}-c`, validationLevel: 'CONTENT_TYPE', body: './schemas/missing.json' }));
    const res = await run(['schema', 'apply', bad, '--hub', 'dc']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/a\.json: .*outside/);
    expect(res.stderr).toMatch(/b\.json: .*URL/);
    expect(res.stderr).toMatch(/c\.json: .*missing\.json/);
    expect(res.stderr).not.toContain('root:');
  });

  it('item import reads the content export (detected), recreating folders, links and labels', async () => {
    const res = await jsonAnyExit(['item', 'import', content, '--hub', 'dc']);
    expect(res.exitCode, res.stderr).toBe(0);
    const all = await items('dc');
    expect(all.map((i) => i.label).sort()).toEqual(['About', 'About', 'Home Page', 'Promo: Banner']);
    const byTitle = Object.fromEntries(all.map((i) => [i.body.title, i]));
    expect(byTitle.Welcome.body.links.map((l: any) => l.id).sort()).toEqual([byTitle['About us'].id, byTitle['Spring sale'].id].sort());
    expect(byTitle['Spring sale'].body.links[0].id).toBe(byTitle.Welcome.id);
    expect(byTitle.Welcome.folderId ?? null).toBeNull();
    const folders = await home.json<any[]>(['folder', 'list', '--hub', 'dc', '--repo', 'content']);
    const pages = folders.find((f) => f.name === 'pages');
    expect(pages).toBeTruthy();
    expect(byTitle['About us'].folderId).toBe(pages.id);
    expect(byTitle['About the team'].folderId).toBe(pages.id);
    const en = await home.json<any[]>(['folder', 'list', '--hub', 'dc', '--parent', pages.id]);
    expect(byTitle['Spring sale'].folderId).toBe(en.find((f) => f.name === 'en').id);
  });

  it('importing the same directory again changes nothing (--layout dc-cli said outright)', async () => {
    const res = await jsonAnyExit(['item', 'import', content, '--hub', 'dc', '--layout', 'dc-cli']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.data).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
    expect(await items('dc')).toHaveLength(4);
  });

  it('item export --layout dc-cli writes the same layout; importing that export back is a no-op', async () => {
    const out = join(home.dir, 'exported');
    const res = await jsonAnyExit(['item', 'export', out, '--hub', 'dc', '--layout', 'dc-cli']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(jsonFiles(out)).toEqual(jsonFiles(content));

    // Same files, same labels, titles and links (up to ids: the export holds the hub's ids).
    const idOf = (dir: string) => Object.fromEntries(jsonFiles(dir).map((f) => [readJson(join(dir, f)).id, f]));
    const fixtureFiles = idOf(content);
    const exportedIds = Object.fromEntries(Object.entries(idOf(out)).map(([id, f]) => [f, id]));
    for (const file of jsonFiles(content)) {
      const want = readJson(join(content, file));
      const got = readJson(join(out, file));
      expect(got.label).toBe(want.label);
      expect(got.status).toBe('ACTIVE');
      expect(got.body.title).toBe(want.body.title);
      expect(got.body._meta.schema).toBe(want.body._meta.schema);
      expect(got.body.links.map((l: any) => l.id).sort()).toEqual(want.body.links.map((l: any) => exportedIds[fixtureFiles[l.id]]).sort());
      expect(got.body.links.every((l: any) => l.contentType === URI && /content-link$/.test(l._meta.schema))).toBe(true);
      expect(got._links).toBeUndefined();
    }

    // Exporting again rewrites nothing.
    const again = await jsonAnyExit(['item', 'export', out, '--hub', 'dc', '--layout', 'dc-cli']);
    expect(again.exitCode, again.stderr).toBe(0);
    expect(again.data).toMatchObject({ items: 4, written: 0, unchanged: 4 });

    // The export holds the hub's own ids: importing it into the same hub updates those items in place.
    const back = await jsonAnyExit(['item', 'import', out, '--hub', 'dc']);
    expect(back.exitCode, back.stderr).toBe(0);
    expect(back.data).toMatchObject({ created: 0, updated: 0, unchanged: 4 });
    expect(await items('dc')).toHaveLength(4);
  });

  it("--mapping-file reads and writes that CLI's mapping file: an earlier dc-cli import is updated, not duplicated", async () => {
    await hubWithRepo('dc2');
    for (const [noun, dir] of [['schema', 'content-type-schemas'], ['type', 'content-types']]) expect((await run([noun, 'apply', join(fixture, dir), '--hub', 'dc2'])).exitCode).toBe(0);
    // An item dc-cli once imported into this hub: its mapping file names it.
    const made = await home.json(['item', 'create', '--hub', 'dc2', '--repo', 'content', '--label', 'old home', '--schema', URI, '--set', 'body.title="Old"']);
    const map = join(home.dir, 'hub-dc2.json');
    writeFileSync(map, JSON.stringify({ contentItems: [['7a1f0c52-0d3e-4d4b-9a51-6b0e3b1c2d01', made.id]], workflowStates: [] }));
    // A dry run changes nothing: not the mapping file, not the hub's own mapping under the data directory.
    const mappings = join(home.env.CMS_DATA_DIR, 'mappings');
    const local = () => (existsSync(mappings) ? readdirSync(mappings).map((f) => readFileSync(join(mappings, f), 'utf8')).join('\n') : '');
    const [mapBefore, localBefore] = [readFileSync(map, 'utf8'), local()];
    const dry = await jsonAnyExit(['item', 'import', content, '--hub', 'dc2', '--mapping-file', map, '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.data).toMatchObject({ created: 3, updated: 1 });
    expect(readFileSync(map, 'utf8')).toBe(mapBefore);
    expect(local()).toBe(localBefore);
    const res = await jsonAnyExit(['item', 'import', content, '--hub', 'dc2', '--mapping-file', map]);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.data).toMatchObject({ created: 3, updated: 1 });
    const after = await items('dc2');
    expect(after).toHaveLength(4);
    expect(after.find((i) => i.id === made.id).body.title).toBe('Welcome');
    const saved = readJson(map);
    expect(saved.workflowStates).toEqual([]);
    expect(new Map(saved.contentItems).size).toBe(4);
    expect(new Map(saved.contentItems).get('7a1f0c52-0d3e-4d4b-9a51-6b0e3b1c2d01')).toBe(made.id);
  });

  it('a file that is not an item, or a directory no repository is labelled like, is refused before any change', async () => {
    const bad = join(home.dir, 'bad-content');
    cpSync(content, bad, { recursive: true });
    writeFileSync(join(bad, 'Website Content', 'pages', 'broken.json'), '{"label": "no body"}');
    const res = await run(['item', 'import', bad, '--hub', 'dc', '--layout', 'dc-cli']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain(join('pages', 'broken.json'));
    expect(res.stderr).not.toMatch(/\n\s+at /);

    const other = join(home.dir, 'other-repo');
    mkdirSync(join(other, 'Nope'), { recursive: true });
    cpSync(join(content, 'Website Content', 'Home Page.json'), join(other, 'Nope', 'Home Page.json'));
    const missing = await run(['item', 'import', other, '--hub', 'dc', '--layout', 'dc-cli']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toContain("'Nope'");
    expect(existsSync(join(other, 'Nope'))).toBe(true);
    expect(relative(home.dir, other)).toBe('other-repo');
  });
});

// Issue 24.12: a mapping file from git can name any item as the target of a source item. The
// plan names the item an update would overwrite, and a target of another content type or
// another repository is refused.
describe('a mapping file naming an unrelated target', () => {
  const HOME_ID = '7a1f0c52-0d3e-4d4b-9a51-6b0e3b1c2d01';
  it('the dry-run plan names the target item that an update would overwrite', async () => {
    await hubWithRepo('retarget');
    for (const [noun, dir] of [['schema', 'content-type-schemas'], ['type', 'content-types']]) expect((await run([noun, 'apply', join(fixture, dir), '--hub', 'retarget'])).exitCode).toBe(0);
    const victim = await home.json(['item', 'create', '--hub', 'retarget', '--repo', 'content', '--label', 'Pricing (do not touch)', '--schema', URI, '--set', 'body.title="Prices"']);
    const map = join(home.dir, 'retarget-map.json');
    writeFileSync(map, JSON.stringify({ contentItems: [[HOME_ID, victim.id]] }));
    const dry = await jsonAnyExit(['item', 'import', content, '--hub', 'retarget', '--mapping-file', map, '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    const row = dry.data.plan.find((p: any) => p.sourceId === HOME_ID);
    expect(row).toMatchObject({ action: 'update', targetId: victim.id, targetLabel: 'Pricing (do not touch)' });
    const human = await run(['item', 'import', content, '--hub', 'retarget', '--mapping-file', map, '--dry-run']);
    expect(human.stdout).toMatch(/update\s+item.*Pricing \(do not touch\)/);
  });

  it('a target of another content type or another repository is refused (exit 3) and left as it was', async () => {
    writeFileSync(join(home.dir, 'other-type.json'), JSON.stringify({ $schema: 'http://bigcontent.io/cms/schema/v1/schema#', id: 'https://schemas.example.org/dc/other.json', title: 'Other', type: 'object', allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }], properties: { title: { type: 'string' } } }));
    await home.json(['schema', 'create', '--hub', 'retarget', '--file', join(home.dir, 'other-type.json'), '--register', '--label', 'Other', '--repo', 'content']);
    const otherType = await home.json(['item', 'create', '--hub', 'retarget', '--repo', 'content', '--label', 'Another type', '--schema', 'https://schemas.example.org/dc/other.json', '--set', 'body.title="X"']);
    await home.json(['repo', 'create', '--hub', 'retarget', '--name', 'elsewhere', '--label', 'Elsewhere']);
    const assigned = await run(['type', 'assign', URI, '--repo', 'elsewhere', '--hub', 'retarget']);
    expect(assigned.exitCode, assigned.stderr).toBe(0);
    const otherRepo = await home.json(['item', 'create', '--hub', 'retarget', '--repo', 'elsewhere', '--label', 'Elsewhere item', '--schema', URI, '--set', 'body.title="E"']);
    for (const target of [otherType, otherRepo]) {
      const map = join(home.dir, `map-${target.id}.json`);
      writeFileSync(map, JSON.stringify({ contentItems: [[HOME_ID, target.id]] }));
      const res = await jsonAnyExit(['item', 'import', content, '--hub', 'retarget', '--mapping-file', map]);
      expect(res.exitCode, res.stderr).toBe(3);
      const failure = res.data.failures.find((f: any) => f.id === HOME_ID);
      expect(failure.reason).toContain(target.id);
      expect(failure.reason).toMatch(/content type|repository/);
      const after = await home.json(['item', 'get', target.id, '--hub', 'retarget']);
      expect(after.version).toBe(target.version);
      expect(after.label).toBe(target.label);
    }
  });
});

// Issue 24.7: labels that start with a dot (or do once sanitised, like `../../escape`) were
// exported as dot files, which the import skipped without a word: 11 exported, 8 planned.
describe('labels that start with a dot', () => {
  it('11 items exported are 11 planned: no file name starts with a dot', async () => {
    await hubWithRepo('dots');
    for (const [noun, dir] of [['schema', 'content-type-schemas'], ['type', 'content-types']]) expect((await run([noun, 'apply', join(fixture, dir), '--hub', 'dots'])).exitCode).toBe(0);
    // The labels come from the files' contents: one import makes all 11 items.
    const labels = ['.env', '../../escape', '..', '...twice', '. leading space', 'plain 1', 'plain 2', 'plain 3', 'plain 4', 'plain 5', 'plain 6'];
    const source = join(home.dir, 'dots-source', 'Website Content');
    mkdirSync(source, { recursive: true });
    labels.forEach((label, i) => {
      const id = `7a1f0c52-0d3e-4d4b-9a51-6b0e3b1c3${String(i).padStart(3, '0')}`;
      writeFileSync(join(source, `item${i}.json`), JSON.stringify({ id, label, body: { _meta: { schema: URI }, title: 'T', links: [] } }));
    });
    const made = await run(['item', 'import', join(home.dir, 'dots-source'), '--hub', 'dots', '--layout', 'dc-cli']);
    expect(made.exitCode, made.stderr).toBe(0);
    const out = join(home.dir, 'dots-export');
    const exported = await jsonAnyExit(['item', 'export', out, '--hub', 'dots', '--layout', 'dc-cli']);
    expect(exported.exitCode, exported.stderr).toBe(0);
    expect(exported.data.items).toBe(11);
    const all = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? all(join(dir, e.name)) : [e.name]));
    expect(all(out)).toHaveLength(11);
    expect(all(out).filter((n) => n.startsWith('.'))).toEqual([]);
    // Imported back (its own hub: matched by id), every file is planned.
    const plan = await jsonAnyExit(['item', 'import', out, '--hub', 'dots', '--dry-run']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.data.plan.filter((p: any) => p.resource === 'item')).toHaveLength(11);
    expect(plan.data.failed).toBe(0);
  });

  it('a dot file an import skips is counted and reported: exit 3 naming it', async () => {
    const planted = join(home.dir, 'planted');
    cpSync(content, planted, { recursive: true });
    cpSync(join(content, 'Website Content', 'Home Page.json'), join(planted, 'Website Content', '.hidden.json'));
    mkdirSync(join(planted, 'Website Content', '.drafts'));
    cpSync(join(content, 'Website Content', 'Home Page.json'), join(planted, 'Website Content', '.drafts', 'draft.json'));
    const res = await jsonAnyExit(['item', 'import', planted, '--hub', 'dc', '--layout', 'dc-cli', '--dry-run']);
    expect(res.exitCode, res.stderr).toBe(3);
    expect(res.data.failed).toBe(2);
    const reasons = JSON.stringify(res.data.failures);
    expect(reasons).toContain('.hidden.json');
    expect(reasons).toContain(join('.drafts', 'draft.json'));
    expect(reasons).toMatch(/skipped/);
  });
});

/** The words of a command line: spaces split, double quotes group. */
const words = (line: string) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);

describe('docs/migrating.md', () => {
  it('the step-by-step commands work on a copy of the fixture, and exporting over it keeps its file names', async () => {
    const doc = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'migrating.md'), 'utf8');
    const steps = doc.slice(doc.indexOf('## Moving a team'), doc.indexOf('## What is not carried over'));
    const commands = [...steps.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('cms ')));
    expect(commands.length).toBeGreaterThan(8);
    const docHome = new CliHome();
    try {
      const checkout = join(docHome.dir, 'dc-export');
      cpSync(FIXTURE, checkout, { recursive: true });
      const before = jsonFiles(join(checkout, 'content'));
      for (const line of commands) {
        const args = words(line.replace(/^cms /, '').replaceAll('dc-export/', `${checkout}/`).replace('~/.amplience/imports/hub-<hub id>.json', join(docHome.dir, 'hub-site.json')));
        const res = await docHome.run(args);
        expect(res.exitCode, `${line}\n${res.stderr}`).toBe(0);
      }
      expect(jsonFiles(join(checkout, 'content'))).toEqual(before);
      expect(new Map(readJson(join(docHome.dir, 'hub-site.json')).contentItems).size).toBe(4);
    } finally {
      docHome.cleanup();
    }
  });
});

describe('a dc-cli directory from git with terminal control sequences (issue 24.5)', () => {
  const PWNED = '\x1b]0;PWNED\x07\x1b[2J';
  const controls = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

  it('item import --dry-run shows a hostile label escaped in its plan, on a terminal and piped', async () => {
    await hubWithRepo('dc3');
    for (const [noun, dir] of [['schema', 'content-type-schemas'], ['type', 'content-types']]) expect((await run([noun, 'apply', join(fixture, dir), '--hub', 'dc3'])).exitCode).toBe(0);
    const hostile = join(home.dir, 'hostile');
    cpSync(content, hostile, { recursive: true });
    const file = join(hostile, 'Website Content', 'Home Page.json');
    writeFileSync(file, JSON.stringify({ ...readJson(file), label: `Home${PWNED}` }));
    for (const env of [{ CMS_FORCE_TTY: '120' }, {}]) {
      const res = await home.run(['item', 'import', hostile, '--hub', 'dc3', '--dry-run'], { env });
      expect(res.exitCode, res.stderr).toBe(0);
      expect(res.stdout + res.stderr).toContain('Home\\x1b]0;PWNED\\x07');
      expect(res.stdout + res.stderr).not.toMatch(controls);
    }
  });

  it('item import refuses to create a folder whose name holds control characters (exit 2, nothing imported)', async () => {
    await hubWithRepo('dc4');
    for (const [noun, dir] of [['schema', 'content-type-schemas'], ['type', 'content-types']]) expect((await run([noun, 'apply', join(fixture, dir), '--hub', 'dc4'])).exitCode).toBe(0);
    const hostile = join(home.dir, 'hostile-folder');
    cpSync(content, hostile, { recursive: true });
    const folder = join(hostile, 'Website Content', `evil${PWNED}`);
    mkdirSync(folder);
    writeFileSync(join(folder, 'Inside.json'), JSON.stringify({ ...readJson(join(hostile, 'Website Content', 'Home Page.json')), id: '7a1f0c52-0d3e-4d4b-9a51-6b0e3b1c2d99', label: 'Inside' }));
    const res = await home.run(['item', 'import', hostile, '--hub', 'dc4']);
    expect(res.exitCode, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/control character/);
    expect(res.stderr).not.toMatch(controls);
    expect(await items('dc4')).toHaveLength(0);
  });
});
