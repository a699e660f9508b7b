import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { SCHEMA_HOST, schemaDocument } from '../helpers/content.js';
import { slotSchemaDocument } from '../helpers/editions.js';

// cms schema apply / cms type apply on the embedded sandbox: the content model as files, applied
// declaratively, with plans, drift checks, pruning, partial failures and undo.

const ARTICLE = `${SCHEMA_HOST}/apply-article.json`;
const SLOT = `${SCHEMA_HOST}/apply-slot.json`;
const EXTRA = `${SCHEMA_HOST}/apply-extra.json`;
const home = new CliHome();
const schemas = join(home.dir, 'model', 'schemas');
const types = join(home.dir, 'model', 'types');

const write = (dir: string, file: string, value: unknown) => {
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), `${JSON.stringify(value, null, 2)}\n`);
};
const article = (changes: (doc: any) => void = () => {}) => {
  const doc: any = schemaDocument(ARTICLE);
  changes(doc);
  return doc;
};

/** Runs with -o json whatever the exit code; parses stdout. */
async function apply(noun: 'schema' | 'type', args: string[]) {
  const res = await home.run([noun, 'apply', ...args, '--hub', 'model', '-o', 'json']);
  let data: any;
  try {
    data = JSON.parse(res.stdout);
  } catch {
    data = undefined;
  }
  return { ...res, data };
}

const hubSchemas = async () => Object.fromEntries((await home.json<any[]>(['schema', 'list', '--hub', 'model'])).map((s) => [s.schemaId, s]));
const hubType = async () => home.json(['type', 'get', ARTICLE, '--hub', 'model']);
const assignedTo = async (repo: string) => (await home.json(['repo', 'get', repo, '--hub', 'model'])).contentTypes.map((t: any) => t.contentTypeUri);
const writesIn = (stderr: string) => stderr.split('\n').filter((l) => /^> (POST|PATCH|PUT|DELETE) /.test(l) && !l.includes('/oauth/token'));

beforeAll(async () => {
  await home.json(['hub', 'create', '--name', 'model', '--label', 'Model']);
  for (const name of ['content', 'other']) await home.json(['repo', 'create', '--hub', 'model', '--name', name, '--label', name]);
  write(schemas, 'article.json', article());
  // The wrapped form: a validation level other than CONTENT_TYPE.
  write(schemas, 'slots/slot.json', { schemaId: SLOT, validationLevel: 'SLOT', body: slotSchemaDocument(SLOT, [ARTICLE]) });
  write(types, 'article.json', { contentTypeUri: ARTICLE, settings: { label: 'Article' }, repositories: ['content'] });
});

afterAll(() => home.cleanup());

describe('cms schema apply and cms type apply', () => {
  it('--dry-run plans the creates, sends no write and changes nothing; --exit-code says the hub differs', async () => {
    const res = await apply('schema', [schemas, '--dry-run', '--exit-code', '--debug']);
    expect(res.exitCode).toBe(1);
    expect(res.stderr).toContain(`The hub differs from ${schemas}: 2 change(s) to apply`);
    expect(writesIn(res.stderr)).toEqual([]);
    expect(res.stderr).toContain('> GET http://sandbox.localhost/v2/content/hubs/');
    expect(res.data).toMatchObject({ dryRun: true, created: 2, drift: true });
    expect(res.data.steps.map((s: any) => `${s.action} ${s.label}`)).toEqual([`create ${ARTICLE} (article.json)`, `create ${SLOT} (slots/slot.json)`]);
    expect(await hubSchemas()).toEqual({});
  });

  it('creates the schemas (referenced ones first) and the types with their repository assignments', async () => {
    const res = await apply('schema', [schemas]);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.data).toMatchObject({ created: 2, failed: 0 });
    const hub = await hubSchemas();
    expect(hub[ARTICLE]).toMatchObject({ validationLevel: 'CONTENT_TYPE', version: 1, status: 'ACTIVE' });
    expect(hub[SLOT]).toMatchObject({ validationLevel: 'SLOT', version: 1 });

    const typed = await apply('type', [types]);
    expect(typed.exitCode, typed.stderr).toBe(0);
    expect(typed.data.steps.map((s: any) => s.action).sort()).toEqual(['assign', 'create']);
    expect((await hubType()).settings).toEqual({ label: 'Article' });
    expect(await assignedTo('content')).toEqual([ARTICLE]);
  });

  it('reports everything unchanged when the hub matches the files: --exit-code 0', async () => {
    for (const [noun, dir] of [['schema', schemas], ['type', types]] as const) {
      const res = await apply(noun, [dir, '--dry-run', '--exit-code']);
      expect(res.exitCode, res.stderr).toBe(0);
      expect(res.data).toMatchObject({ drift: false, created: 0, updated: 0 });
      expect(res.data.steps.every((s: any) => s.action === 'unchanged')).toBe(true);
    }
    const text = await home.run(['schema', 'apply', schemas, '--hub', 'model', '--dry-run'], { env: { CMS_FORCE_TTY: '200' } });
    expect(text.stdout).toContain('Plan: 2 unchanged');
    expect(text.stderr).toBe('');
    const progress = await apply('schema', [schemas, '--progress', 'json']);
    const events = progress.stderr.trim().split('\n').map((l) => JSON.parse(l));
    expect(events.map((e) => e.event)).toEqual(['start', 'step', 'step', 'end']);
    expect(events[0]).toMatchObject({ label: 'apply schemas', total: 2 });
  });

  it('plans an update with a readable diff of the document, then applies it as a new version', async () => {
    write(
      schemas,
      'article.json',
      article((doc) => {
        doc.properties.title.maxLength = 200;
        doc.properties.subtitle = { type: 'string' };
      }),
    );
    const plan = await home.run(['schema', 'apply', schemas, '--hub', 'model', '--dry-run', '--exit-code'], { env: { CMS_FORCE_TTY: '200' } });
    expect(plan.exitCode).toBe(1);
    // Piped, the same plan is rows: action, resource, label, differences.
    const piped = await home.run(['schema', 'apply', schemas, '--hub', 'model', '--dry-run']);
    expect(piped.stdout).toMatch(/^update\tschema\thttps:\/\/schemas\.example\.com\/apply-article\.json \(article\.json\)\t[^\n]*~ body\.properties\.title\.maxLength: 100 → 200/m);
    expect(plan.stdout).toMatch(/\nupdate +schema +https:\/\/schemas\.example\.com\/apply-article\.json \(article\.json\)\n/);
    expect(plan.stdout).toContain('~ body.properties.title.maxLength: 100 → 200');
    expect(plan.stdout).toContain('+ body.properties.subtitle: {"type":"string"}');
    // The content type of the schema gets its cached copy refreshed.
    expect(plan.stdout).toMatch(/\nupdate +type-schema +https:\/\/schemas\.example\.com\/apply-article\.json \(cached schema\)\n/);
    expect(plan.stdout).toContain('Plan: 2 update, 1 unchanged');
    expect((await hubSchemas())[ARTICLE].version).toBe(1);

    const res = await apply('schema', [schemas]);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.data).toMatchObject({ updated: 2, unchanged: 1 });
    const updated = (await hubSchemas())[ARTICLE];
    expect(updated.version).toBe(2);
    expect(JSON.parse(updated.body).properties.title.maxLength).toBe(200);
    // The content type validates against the new version: its cached schema was refreshed.
    const type = await hubType();
    const cached = await home.json(['api', 'GET', `/content-types/${type.id}/schema`]);
    expect(cached.cachedSchema.properties.subtitle).toEqual({ type: 'string' });
    expect((await apply('schema', [schemas, '--dry-run', '--exit-code'])).exitCode).toBe(0);
  });

  it('plans a type update with its settings fields and repository assignments', async () => {
    write(types, 'article.json', { contentTypeUri: ARTICLE, settings: { label: 'News article', icons: [{ size: 256, url: 'https://img.example.com/a.png' }] }, repositories: ['other'] });
    const plan = await apply('type', [types, '--dry-run']);
    expect(plan.data.steps).toEqual([
      expect.objectContaining({
        action: 'update',
        changes: ['+ settings.icons: [{"size":256,"url":"https://img.example.com/a.png"}]', '~ settings.label: "Article" → "News article"', '+ repositories: "other"', '- repositories: "content"'],
      }),
    ]);
    expect((await hubType()).settings.label).toBe('Article');

    const res = await apply('type', [types]);
    expect(res.exitCode, res.stderr).toBe(0);
    expect((await hubType()).settings.label).toBe('News article');
    expect(await assignedTo('other')).toEqual([ARTICLE]);
    expect(await assignedTo('content')).toEqual([]);

    // Undo puts the previous settings and assignments back.
    const undo = await home.run(['undo', res.data.runId, '--yes']);
    expect(undo.exitCode, undo.stderr).toBe(0);
    expect((await hubType()).settings).toEqual({ label: 'Article' });
    expect(await assignedTo('content')).toEqual([ARTICLE]);
    expect(await assignedTo('other')).toEqual([]);
  });

  it('undo of a schema apply makes the previous document current again (a new version)', async () => {
    write(schemas, 'article.json', article((doc) => (doc.title = 'Article v3')));
    const res = await apply('schema', [schemas]);
    expect(res.exitCode, res.stderr).toBe(0);
    expect((await hubSchemas())[ARTICLE].version).toBe(3);
    const undo = await home.run(['undo', res.data.runId, '--yes', '-o', 'json']);
    expect(undo.exitCode, undo.stderr).toBe(0);
    const restored = (await hubSchemas())[ARTICLE];
    expect(restored.version).toBe(4);
    expect(JSON.parse(restored.body)).toMatchObject({ title: 'Test type', properties: { title: { maxLength: 200 } } });
  });

  it('an undo killed between its write and its journal entry, run again, sees its own restore and finishes without another version', async () => {
    write(schemas, 'article.json', article((doc) => (doc.title = 'Article v-kill')));
    const res = await apply('schema', [schemas]);
    expect(res.exitCode, res.stderr).toBe(0);
    const applied = (await hubSchemas())[ARTICLE].version;
    const undo = await home.run(['undo', res.data.runId, '--yes', '-o', 'json']);
    expect(undo.exitCode, undo.stderr).toBe(0);
    expect((await hubSchemas())[ARTICLE].version).toBe(applied + 1);
    // What a kill -9 right after the restore was answered leaves: the undo's journal without it.
    const runs = join(home.env.CMS_DATA_DIR!, 'runs');
    const undoRun = readdirSync(runs).find((id) => JSON.parse(readFileSync(join(runs, id, 'meta.json'), 'utf8')).undoOf === res.data.runId)!;
    const journal = join(runs, undoRun, 'journal.ndjson');
    const lines = readFileSync(journal, 'utf8').split('\n').filter(Boolean);
    const kept = lines.filter((l) => !(JSON.parse(l).t === 'done' && JSON.parse(l).action === 'restore'));
    expect(kept.length).toBeLessThan(lines.length);
    writeFileSync(journal, kept.map((l) => `${l}\n`).join(''));
    const again = await home.run(['undo', res.data.runId, '--yes']);
    expect(again.exitCode, again.stdout + again.stderr).toBe(0);
    expect((await hubSchemas())[ARTICLE].version).toBe(applied + 1);
  });

  it('--prune archives what the hub has and the files do not', async () => {
    write(home.dir, 'extra.json', { ...schemaDocument(EXTRA) });
    await home.json(['schema', 'create', '--hub', 'model', '--file', join(home.dir, 'extra.json')]);
    write(schemas, 'article.json', article((doc) => (doc.title = 'Test type')));

    const without = await apply('schema', [schemas, '--dry-run']);
    expect(without.data.steps.some((s: any) => s.label.startsWith(EXTRA))).toBe(false);
    const plan = await apply('schema', [schemas, '--dry-run', '--prune']);
    expect(plan.data.steps.filter((s: any) => s.action !== 'unchanged')).toEqual([
      expect.objectContaining({ action: 'update', resource: 'schema' }),
      expect.objectContaining({ action: 'update', resource: 'type-schema' }),
      expect.objectContaining({ action: 'archive', resource: 'schema', label: `${EXTRA} (not in the files)` }),
    ]);
    expect((await hubSchemas())[EXTRA].status).toBe('ACTIVE');

    const res = await apply('schema', [schemas, '--prune']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.data).toMatchObject({ archived: 1 });
    expect((await hubSchemas())[EXTRA].status).toBe('ARCHIVED');
  });

  it('one schema the service refuses does not stop the others: listed with its reason, exit 3', async () => {
    const broken = `${SCHEMA_HOST}/apply-broken.json`;
    const fine = `${SCHEMA_HOST}/apply-fine.json`;
    const dir = join(home.dir, 'partial');
    write(dir, 'broken.json', { ...schemaDocument(broken), type: 'array' });
    write(dir, 'fine.json', schemaDocument(fine));
    const res = await apply('schema', [dir]);
    expect(res.exitCode).toBe(3);
    expect(res.data.failures).toEqual([{ id: `schema ${broken} (broken.json)`, reason: expect.stringContaining("body.type: must be 'object'"), file: join(dir, 'broken.json') }]);
    expect((await hubSchemas())[fine]).toMatchObject({ status: 'ACTIVE' });
  });

  it('files that are not valid, or name unknown repositories, change nothing (exit 2)', async () => {
    const dir = join(home.dir, 'invalid');
    write(dir, 'no-id.json', { type: 'object' });
    write(dir, 'ok.json', schemaDocument(`${SCHEMA_HOST}/apply-never.json`));
    const res = await apply('schema', [dir]);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('no-id.json: has no schema id');
    expect((await hubSchemas())[`${SCHEMA_HOST}/apply-never.json`]).toBeUndefined();

    const typeDir = join(home.dir, 'invalid-types');
    write(typeDir, 'article.json', { contentTypeUri: ARTICLE, settings: { label: 'Article' }, repositories: ['nowhere'] });
    const typed = await apply('type', [typeDir]);
    expect(typed.exitCode).toBe(2);
    expect(typed.stderr).toContain("article.json: no repository named 'nowhere'");
  });
});
