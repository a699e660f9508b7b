import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { CONTENT_REF } from '../helpers/content-model.js';

// The CLI with draft-07 schemas (issue 22.1-2, 22.6; 24.3): schema create and apply take them
// in any order (identity from $id), type get --effective shows the merged schema, and item
// edit's local check follows the declared draft on a linear-time regex engine.

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const BASE = 'https://schema.example.com/d7cli';
const LOCALIZED = 'https://schemas.example.com/cms/schema/v1/localization#/definitions/localized-string';

const d7 = (name: string, extra: Record<string, unknown>) => ({ $schema: DRAFT_07, $id: `${BASE}/${name}.json`, title: name, type: 'object', allOf: [{ $ref: CONTENT_REF }], ...extra });

describe('draft-07 schemas through the CLI', () => {
  const home = new CliHome();
  const dir = join(home.dir, 'schemas');
  const tools = join(home.dir, 'tools');
  const editor = join(tools, 'editor.mjs');

  beforeAll(async () => {
    expect((await home.run(['hub', 'create', '--name', 'd7', '--label', 'Draft 7'])).exitCode).toBe(0);
    expect((await home.run(['repo', 'create', '--hub', 'd7', '--name', 'content', '--label', 'Content'])).exitCode).toBe(0);
    mkdirSync(dir, { recursive: true });
    // File names put the referring schemas first; card-list and card refer to each other.
    writeFileSync(join(dir, 'a-page.json'), JSON.stringify(d7('page', { properties: { title: { type: 'string' }, heading: { allOf: [{ $ref: LOCALIZED }] }, cards: { $ref: `${BASE}/card-list.json#/definitions/list` } } })));
    writeFileSync(join(dir, 'b-card-list.json'), JSON.stringify({ $schema: DRAFT_07, $id: `${BASE}/card-list.json`, definitions: { list: { type: 'array', items: { $ref: `${BASE}/card.json#/definitions/card` } } } }));
    writeFileSync(join(dir, 'c-card.json'), JSON.stringify(d7('card', { definitions: { card: { type: 'object', properties: { heading: { type: 'string' }, more: { $ref: `${BASE}/card-list.json#/definitions/list` } } } }, properties: { heading: { type: 'string' } } })));
    mkdirSync(tools, { recursive: true });
    writeFileSync(editor, `import { readFileSync, writeFileSync } from 'node:fs';\nconst args = process.argv.slice(2);\nwriteFileSync(args[args.length - 1], readFileSync(args[0], 'utf8'));\n`);
  }, 120_000);
  afterAll(() => home.cleanup());

  it('schema apply takes draft-07 documents in any order, identity from $id, references planned first', async () => {
    const plan = await home.run(['schema', 'apply', dir, '--hub', 'd7', '--dry-run', '-o', 'json']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    const order: string[] = JSON.parse(plan.stdout).steps.map((s: any) => JSON.stringify(s));
    const pos = (name: string) => order.findIndex((l) => l.includes(`${BASE}/${name}.json`));
    expect(order).toHaveLength(3);
    expect(pos('card-list')).toBeLessThan(pos('page'));
    expect(pos('card')).toBeLessThan(pos('page'));
    const res = await home.run(['schema', 'apply', dir, '--hub', 'd7', '-o', 'json']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ created: 3, failed: 0 });
    const page = await home.json(['schema', 'get', `${BASE}/page.json`, '--hub', 'd7']);
    expect(JSON.parse(page.body).$id).toBe(`${BASE}/page.json`);
    const again = await home.run(['schema', 'apply', dir, '--hub', 'd7', '--dry-run', '--exit-code', '-o', 'json']);
    expect(again.exitCode, again.stderr).toBe(0);
  });

  it('schema create takes a draft-07 document, its id from $id', async () => {
    const file = join(home.dir, 'promo.json');
    writeFileSync(file, JSON.stringify(d7('promo', { properties: { kind: { const: 'promo' }, code: { type: 'string', pattern: '^(a+)+$' } } })));
    const out = await home.json(['schema', 'create', '--hub', 'd7', '--file', file, '--register', '--label', 'Promo', '--repo', 'content']);
    expect(out.schema.schemaId).toBe(`${BASE}/promo.json`);
  });

  it('type get --effective prints the schema with allOf and references merged', async () => {
    expect((await home.run(['type', 'register', `${BASE}/page.json`, '--hub', 'd7', '--label', 'Page'])).exitCode).toBe(0);
    const eff = await home.json(['type', 'get', 'Page', '--hub', 'd7', '--effective']);
    expect(Object.keys(eff.properties).sort()).toEqual(['_meta', 'cards', 'heading', 'title']);
    expect(eff.properties.heading.type).toBe('object');
    expect(eff.properties.cards.type).toBe('array');
    expect(eff.properties.cards.items.properties.heading.type).toBe('string');
  });

  it('item edit checks the edit by the draft the schema declares, on a linear-time regex engine', async () => {
    const created = await home.json(['item', 'create', '--hub', 'd7', '--repo', 'content', '--schema', `${BASE}/promo.json`, '--label', 'P', '--set', 'body.kind=promo']);
    const edit = (body: unknown) => {
      const content = join(home.dir, `edit-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(content, JSON.stringify(body));
      return home.run(['item', 'edit', created.id, '--hub', 'd7'], { env: { EDITOR: `"${process.execPath}" '${editor}' '${content}'`, VISUAL: undefined } });
    };
    const meta = { schema: `${BASE}/promo.json`, name: 'p' };
    const broken = await edit({ _meta: meta, kind: 'other' });
    expect(broken.exitCode, broken.stderr).toBe(2);
    expect(broken.stderr).toContain('does not match the schema');
    expect(broken.stderr).toContain('body.kind');
    const evil = await edit({ _meta: meta, kind: 'promo', code: `${'a'.repeat(40)}!` });
    expect(evil.exitCode, evil.stderr).toBe(2);
    expect(evil.stderr).toContain('body.code');
    const fine = await edit({ _meta: meta, kind: 'promo', code: 'aaaa' });
    expect(fine.exitCode, fine.stderr).toBe(0);
  }, 60_000);
});
