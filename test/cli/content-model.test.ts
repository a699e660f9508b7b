import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { CONTENT_REF, schemaDoc } from '../helpers/content-model.js';
import { MISSING_ID } from '../helpers/assert.js';

// The content model verbs on the embedded sandbox: schema, type, folder and workflow.

const BANNER = 'https://schema.example.com/cli/banner.json';
const CARD = 'https://schema.example.com/cli/card.json';

describe('cms schema, type, folder and workflow', () => {
  const home = new CliHome();
  const file = (name: string, doc: unknown) => {
    const path = join(home.dir, name);
    writeFileSync(path, JSON.stringify(doc));
    return path;
  };
  let typeId: string;
  let repoId: string;

  beforeAll(async () => {
    await home.json(['hub', 'create', '--name', 'model', '--label', 'Model hub']);
    repoId = (await home.json(['repo', 'create', '--name', 'content', '--label', 'Content'])).id;
  });
  afterAll(() => home.cleanup());

  it('schema create --register --label --repo creates, registers and assigns in one step', async () => {
    const out = await home.json(['schema', 'create', '--file', file('banner.json', schemaDoc(BANNER)), '--register', '--label', 'Banner', '--repo', 'content']);
    expect(out.schema).toMatchObject({ schemaId: BANNER, version: 1, status: 'ACTIVE', validationLevel: 'CONTENT_TYPE' });
    expect(out.contentType).toMatchObject({ contentTypeUri: BANNER, settings: { label: 'Banner' }, status: 'ACTIVE' });
    expect(out.repositoryId).toBe(repoId);
    typeId = out.contentType.id;
    const repo = await home.json(['repo', 'get', 'content']);
    expect(repo.contentTypes).toEqual([{ hubContentTypeId: typeId, contentTypeUri: BANNER }]);
  });

  it('schema create reads stdin with --file -, takes --schema-id, and prints a record when piped', async () => {
    const { id: _id, ...anonymous } = schemaDoc(CARD);
    const res = await home.run(['schema', 'create', '--file', '-', '--schema-id', CARD], { input: JSON.stringify({ ...anonymous, id: CARD }) });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/^id\t[0-9a-f]{24}\n/);
    expect(res.stdout).toContain(`schemaId\t${CARD}\n`);
    expect(res.stdout).toContain('status\tACTIVE\n');
  });

  it('schema list pipes tab-separated rows: id, schema id, version, level, status', async () => {
    const res = await home.run(['schema', 'list']);
    expect(res.exitCode).toBe(0);
    const rows = res.stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(rows.map((r) => r.slice(1))).toEqual([
      [BANNER, '1', 'CONTENT_TYPE', 'ACTIVE'],
      [CARD, '1', 'CONTENT_TYPE', 'ACTIVE'],
    ]);
    const table = await home.run(['schema', 'list'], { env: { CMS_FORCE_TTY: '120' } });
    expect(table.stdout.split('\n')[0]).toMatch(/ID\s+SCHEMA ID\s+VERSION\s+LEVEL\s+STATUS/);
  });

  it('schema update fetches the current version itself; versions and get --version show the history', async () => {
    const v2 = schemaDoc(BANNER, { title: 'Banner v2', properties: { title: { type: 'string' }, subtitle: { type: 'string' } } });
    const updated = await home.json(['schema', 'update', BANNER, '--file', file('banner-v2.json', v2)]);
    expect(updated.version).toBe(2);
    expect((await home.json(['schema', 'update', BANNER, '--validation-level', 'SLOT'])).version).toBe(3);
    expect(await home.json(['schema', 'versions', BANNER, '--query', '[].version'])).toEqual([3, 2, 1]);
    const v1 = await home.run(['schema', 'get', BANNER, '--version', '1', '--document']);
    expect(v1.exitCode, v1.stderr).toBe(0);
    expect(JSON.parse(v1.stdout)).toEqual(schemaDoc(BANNER));
    expect(await home.json(['schema', 'get', BANNER, '--query', 'validationLevel'])).toBe('SLOT');
  });

  it('schema archive and unarchive; a second archive exits 1 with the 409', async () => {
    expect((await home.json(['schema', 'archive', CARD])).status).toBe('ARCHIVED');
    expect(await home.json(['schema', 'list', '--status', 'ARCHIVED', '--query', '[].schemaId'])).toEqual([CARD]);
    const again = await home.run(['schema', 'archive', CARD]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toContain('409 Conflict');
    expect((await home.json(['schema', 'unarchive', CARD])).status).toBe('ACTIVE');
  });

  it('schema resolve prints the document with hub refs inlined, from the hub or a file', async () => {
    const page = schemaDoc('https://schema.example.com/cli/page.json', { properties: { hero: { $ref: CARD } } });
    const res = await home.run(['schema', 'resolve', '--file', file('page.json', page)]);
    expect(res.exitCode, res.stderr).toBe(0);
    const resolved = JSON.parse(res.stdout);
    expect(resolved.properties.hero.properties).toEqual(schemaDoc(CARD).properties);
    expect(resolved.allOf).toEqual([{ $ref: CONTENT_REF }]);
    expect(JSON.parse((await home.run(['schema', 'resolve', CARD])).stdout).id).toBe(CARD);
  });

  it('schema errors: bad files and invalid documents exit 2, unknown schemas exit 2 with a hint', async () => {
    const missing = await home.run(['schema', 'create', '--file', join(home.dir, 'nope.json')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain('nope.json');
    const invalid = await home.run(['schema', 'create', '--file', file('bad.json', schemaDoc('https://schema.example.com/cli/bad.json', { type: 'array' }))]);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toContain('body.type');
    expect((await home.run(['schema', 'create', '--file', file('x.json', schemaDoc(CARD)), '--label', 'X'])).exitCode).toBe(2);
    const unknown = await home.run(['schema', 'get', 'https://schema.example.com/cli/none.json']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('cms schema list');
    expect((await home.run(['schema', 'get', MISSING_ID])).exitCode).toBe(1);
  });

  it('type list, get by label or URI, update, and the cached schema', async () => {
    const rows = (await home.run(['type', 'list'])).stdout.trim().split('\n').map((l) => l.split('\t'));
    expect(rows).toEqual([[typeId, 'Banner', 'ACTIVE', BANNER]]);
    expect((await home.json(['type', 'get', BANNER])).id).toBe(typeId);
    const updated = await home.json(['type', 'update', 'Banner', '--label', 'Hero banner', '--set', 'settings.icons=[{"size":64,"url":"https://i.example.com/b.png"}]']);
    expect(updated.settings).toEqual({ label: 'Hero banner', icons: [{ size: 64, url: 'https://i.example.com/b.png' }] });
    // The cached schema stays at the registered version until synced.
    expect((await home.json(['type', 'schema', 'Hero banner'])).title).toBe('Test type');
  });

  it('type sync refreshes the cached schema; effective inlines refs', async () => {
    const synced = await home.run(['type', 'sync', typeId, '-o', 'json']);
    expect(synced.exitCode, synced.stderr).toBe(0);
    expect(JSON.parse(synced.stdout).cachedSchema.title).toBe('Banner v2');
    expect((await home.json(['type', 'schema', typeId])).title).toBe('Banner v2');
    const effective = JSON.parse((await home.run(['type', 'effective', typeId])).stdout);
    // The effective schema (wire-contract §6.6): the document itself, allOf merged.
    expect(effective).toMatchObject({ id: BANNER, title: 'Banner v2', type: 'object' });
    expect(effective.properties._meta).toBeTruthy();
  });

  it('type archive, unarchive, unassign and assign; a second archive exits 1', async () => {
    expect((await home.json(['type', 'archive', typeId])).status).toBe('ARCHIVED');
    expect((await home.run(['type', 'archive', typeId])).exitCode).toBe(1);
    expect((await home.json(['type', 'unarchive', typeId])).status).toBe('ACTIVE');
    expect((await home.run(['type', 'unassign', typeId, '--repo', 'content'])).exitCode).toBe(0);
    expect((await home.json(['repo', 'get', 'content'])).contentTypes).toEqual([]);
    expect((await home.run(['type', 'unassign', typeId, '--repo', 'content'])).exitCode).toBe(1);
    const assigned = await home.json(['type', 'assign', typeId, '--repo', 'content']);
    expect(assigned.contentTypes).toEqual([{ hubContentTypeId: typeId, contentTypeUri: BANNER }]);
    expect((await home.run(['type', 'assign', typeId])).exitCode).toBe(2);
  });

  it('type register from a schema URI; without a label it is a usage error', async () => {
    const page = schemaDoc('https://schema.example.com/cli/article.json');
    await home.run(['schema', 'create', '--file', file('article.json', page)]);
    expect((await home.run(['type', 'register', 'https://schema.example.com/cli/article.json'])).exitCode).toBe(2);
    const t = await home.json(['type', 'register', 'https://schema.example.com/cli/article.json', '--label', 'Article']);
    expect(t).toMatchObject({ contentTypeUri: 'https://schema.example.com/cli/article.json', settings: { label: 'Article' } });
  });

  it('folder create, list, rename and delete, at the top and nested', async () => {
    const top = await home.json(['folder', 'create', '--name', 'Campaigns', '--repo', 'content']);
    expect(top).toMatchObject({ name: 'Campaigns', parentId: null, contentRepositoryId: repoId });
    const child = await home.json(['folder', 'create', '--name', 'Spring', '--parent', top.id]);
    expect(child.parentId).toBe(top.id);
    expect(await home.json(['folder', 'list', '--repo', 'content', '--query', '[].name'])).toEqual(['Campaigns']);
    const piped = await home.run(['folder', 'list', '--parent', top.id]);
    expect(piped.stdout).toBe(`${child.id}\tSpring\t${top.id}\t${repoId}\n`);
    expect((await home.json(['folder', 'rename', child.id, 'Autumn'])).name).toBe('Autumn');
    expect((await home.json(['folder', 'get', child.id])).name).toBe('Autumn');

    const full = await home.run(['folder', 'delete', top.id, '--yes']);
    expect(full.exitCode).toBe(1);
    expect(full.stderr).toContain('409');
    const unconfirmed = await home.run(['folder', 'delete', child.id]);
    expect(unconfirmed.exitCode).toBe(2);
    expect(unconfirmed.stderr).toContain('--yes');
    expect((await home.run(['folder', 'delete', child.id, '--yes'])).exitCode).toBe(0);
    expect((await home.run(['folder', 'get', child.id])).exitCode).toBe(1);
    expect((await home.run(['folder', 'list'])).exitCode).toBe(2);
    expect((await home.run(['folder', 'create', '--name', 'X', '--repo', 'content', '--parent', top.id])).exitCode).toBe(2);
  });

  it('workflow create, list, get by label, update, and assign to and unassign from an item', async () => {
    const review = await home.json(['workflow', 'create', '--label', 'In review', '--color', '#ff8000']);
    expect(review).toMatchObject({ label: 'In review', color: 'rgb(255,128,0)' });
    await home.json(['workflow', 'create', '--label', 'Approved', '--color', 'rgb(0,160,0)']);
    const listed = await home.run(['workflow', 'list']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout).toBe(`${review.id}\tIn review\trgb(255,128,0)\n${(await home.json(['workflow', 'get', 'Approved'])).id}\tApproved\trgb(0,160,0)\n`);
    expect((await home.json(['workflow', 'update', 'In review', '--label', 'Reviewing'])).label).toBe('Reviewing');
    expect((await home.run(['workflow', 'create', '--label', 'Bad', '--color', 'red'])).exitCode).toBe(2);

    const body = { label: 'Workflow item', body: { _meta: { name: 'wf', schema: BANNER }, title: 'Hello' } };
    const created = await home.run(['api', 'POST', `/content-repositories/${repoId}/content-items`, '--input', file('item.json', body)]);
    expect(created.exitCode, created.stderr).toBe(0);
    const itemId = JSON.parse(created.stdout).id;
    const assigned = await home.json(['workflow', 'assign', itemId, 'Reviewing']);
    expect(assigned).toMatchObject({ id: itemId, version: 2, workflow: { state: review.id } });
    const unassigned = await home.json(['workflow', 'unassign', itemId]);
    expect(unassigned.version).toBe(3);
    expect(unassigned.workflow).toBeUndefined();
    const unknown = await home.run(['workflow', 'assign', itemId, 'Nope']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toContain('Reviewing');
  });
});
