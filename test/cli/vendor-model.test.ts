import { cpSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../helpers/server.js';
import { CliHome } from '../helpers/cli.js';
import { serve, type Served } from '../reliability/lib/serve.js';

// The whole vendor-shaped content model (test/fixtures/vendor-shaped-model, written by hand in
// the shapes of the vendor's demo model: 23 schemas, 17 of them draft-07, mutual and forward
// references, localized values, image and video links, definitions-only partials, slots, types
// with icons, visualizations and cards, 29 items with links and delivery keys) loaded into
// `cms sandbox serve` (the built binary) two ways: concurrently over raw HTTP as the vendor's
// tools do, and with cms schema apply + type apply + item import (dc-cli layout, then our own
// layout through an export). No answer may be an error the model does not deserve.

const FIXTURE = join(import.meta.dirname, '..', 'fixtures', 'vendor-shaped-model');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? jsonFiles(path) : name.endsWith('.json') ? [path] : [];
  });
}

const schemaDefs = () =>
  readdirSync(join(FIXTURE, 'content-type-schemas'))
    .filter((n) => n.endsWith('.json'))
    .map((n) => {
      const def = readJson(join(FIXTURE, 'content-type-schemas', n));
      return { ...def, document: readJson(join(FIXTURE, 'content-type-schemas', def.body)) };
    });
const typeDefs = () => jsonFiles(join(FIXTURE, 'content-types')).map(readJson);
const itemFiles = () => jsonFiles(join(FIXTURE, 'content')).map((f) => ({ path: relative(join(FIXTURE, 'content'), f), item: readJson(f) }));

const home = new CliHome();
let served: Served;
let admin: Api;
let env: Record<string, string>;
beforeAll(async () => {
  served = await serve([], home.env);
  admin = await new Api(served.url).login();
  env = { CMS_API_URL: `${served.url}/v2/content`, CMS_AUTH_URL: served.url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
}, 60_000);

afterAll(async () => {
  await served?.stop();
  home.cleanup();
});

describe('the fixture', () => {
  it('is the model the issue describes', () => {
    const schemas = schemaDefs();
    expect(schemas.length).toBeGreaterThanOrEqual(20);
    const draft07 = schemas.filter((s) => s.document.$schema === 'http://json-schema.org/draft-07/schema#');
    expect(draft07.length).toBeGreaterThan(schemas.length / 2);
    expect(draft07.length).toBeLessThan(schemas.length);
    expect(schemas.some((s) => s.validationLevel === 'PARTIAL' && !s.document.type && s.document.definitions)).toBe(true);
    expect(schemas.some((s) => s.validationLevel === 'SLOT')).toBe(true);
    const text = JSON.stringify(schemas.map((s) => s.document));
    expect(text).toContain('/cms/schema/v1/localization#/definitions/localized-string');
    expect(text).toContain('#/definitions/image-link');
    const types = typeDefs();
    expect(types.every((t) => t.settings.icons.length && t.settings.visualizations[0].default && t.settings.cards.length)).toBe(true);
    const items = itemFiles();
    expect(items.length).toBeGreaterThanOrEqual(20);
    expect(items.filter((i) => i.item.body._meta.deliveryKey).length).toBeGreaterThan(5);
  });
});

describe('loaded concurrently over raw HTTP', () => {
  const errors: string[] = [];
  const must = async (what: string, res: Promise<{ status: number; text: string; body: any }>, ok = [200, 201]) => {
    const r = await res;
    if (!ok.includes(r.status)) errors.push(`${what}: ${r.status} ${r.text.slice(0, 400)}`);
    return r.body;
  };

  it('every schema, type and item goes in at once, in no order, and items validate against the late references', async () => {
    const hub = await must('hub', admin.post('/hubs', { name: 'vendor-raw', label: 'Vendor raw' }));
    // The vendor's demo hub delivers by key: Content Delivery 2 is enabled.
    await must('enable cd2', admin.post(`/admin/hubs/${hub.id}/modules/content-delivery-2`, {}), [200, 204]);
    const repo = await must('repo', admin.post(`/hubs/${hub.id}/content-repositories`, { name: 'content', label: 'Website Content', features: ['slots'] }));
    // All schemas at once: references point every way.
    await Promise.all(schemaDefs().map((s) => must(`schema ${s.schemaId}`, admin.post(`/hubs/${hub.id}/content-type-schemas`, { schemaId: s.schemaId, body: JSON.stringify(s.document, null, 2), validationLevel: s.validationLevel }))));
    expect(errors).toEqual([]);
    const types = await Promise.all(typeDefs().map((t) => must(`type ${t.contentTypeUri}`, admin.post(`/hubs/${hub.id}/content-types`, { contentTypeUri: t.contentTypeUri, settings: t.settings }))));
    await Promise.all(types.filter(Boolean).map((t) => must(`assign ${t.contentTypeUri}`, admin.post(`/content-repositories/${repo.id}/content-types`, { contentTypeId: t.id }))));
    expect(errors).toEqual([]);

    // Items: created at once (links still naming the source ids), then every link rewritten.
    const files = itemFiles();
    const made = await Promise.all(files.map(({ path, item }) => must(`item ${path}`, admin.post(`/content-repositories/${repo.id}/content-items`, { label: item.label, locale: item.locale, body: item.body }))));
    expect(errors).toEqual([]);
    const idOf = new Map(files.map(({ item }, i) => [item.id, made[i].id]));
    const rewrite = (v: unknown): unknown =>
      Array.isArray(v) ? v.map(rewrite) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'id' && idOf.has(x as string) ? idOf.get(x as string) : rewrite(x)])) : v;
    await Promise.all(made.map((m, i) => must(`relink ${files[i]!.path}`, admin.patch(`/content-items/${m.id}`, { body: rewrite(files[i]!.item.body), version: m.version }))));
    expect(errors).toEqual([]);

    // Every type's effective schema lists its properties; delivery keys are there.
    for (const t of types) {
      const eff = await must(`effective ${t.contentTypeUri}`, admin.get(`/content-types/${t.id}/effective-content-type`));
      expect(Object.keys(eff.properties ?? {}).length, t.contentTypeUri).toBeGreaterThan(0);
    }
    expect(errors).toEqual([]);
    const home = made[files.findIndex((f) => f.item.body._meta.deliveryKey === 'home')];
    const stored = await must('get home', admin.get(`/content-items/${home.id}`));
    expect(stored.body._meta.deliveryKey).toBe('home');
    expect(stored.body.components[0].id).toBe(idOf.get(files.find((f) => f.item.body._meta.name === 'hero-home')!.item.id));
    expect(errors).toEqual([]);
  }, 120_000);
});

describe('loaded with the CLI', () => {
  const cms = async (args: string[]) => {
    const res = await home.run([...args, '-o', 'json'], { env, timeout: 120_000 });
    expect(res.exitCode, `cms ${args.join(' ')}\n${res.stderr}`).toBe(0);
    expect(res.stderr).not.toMatch(/    at /);
    return JSON.parse(res.stdout || 'null');
  };
  const work = join(home.dir, 'model');

  beforeAll(async () => {
    cpSync(FIXTURE, work, { recursive: true });
    await cms(['hub', 'create', '--name', 'vendor-cli', '--label', 'Vendor CLI']);
    await cms(['repo', 'create', '--hub', 'vendor-cli', '--name', 'content', '--label', 'Website Content']);
    await cms(['admin', 'enable', 'content-delivery-2', '--hub', 'vendor-cli']);
  }, 60_000);

  it('schema apply, type apply and item import (dc-cli layout) load the model; applying again changes nothing', async () => {
    const schemas = await cms(['schema', 'apply', join(work, 'content-type-schemas'), '--hub', 'vendor-cli']);
    expect(schemas).toMatchObject({ created: schemaDefs().length, failed: 0 });
    const types = await cms(['type', 'apply', join(work, 'content-types'), '--hub', 'vendor-cli']);
    expect(types).toMatchObject({ created: typeDefs().length, failed: 0 });
    const imported = await cms(['item', 'import', join(work, 'content'), '--hub', 'vendor-cli', '--layout', 'dc-cli']);
    expect(imported.failed ?? 0).toBe(0);
    const items = await cms(['item', 'list', '--hub', 'vendor-cli', '--repo', 'content', '--limit', '0']);
    expect(items).toHaveLength(itemFiles().length);
    const again = await home.run(['schema', 'apply', join(work, 'content-type-schemas'), '--hub', 'vendor-cli', '--dry-run', '--exit-code', '-o', 'json'], { env });
    expect(again.exitCode, again.stderr).toBe(0);
    const page = await cms(['type', 'get', 'Page', '--hub', 'vendor-cli', '--effective']);
    expect(page.properties.components.type).toBe('array');
    expect(page.properties.seo.properties.metaTitle.type).toBe('object');

    // Publish the home page and everything it links to; take it out again.
    const homePage = items.find((i: any) => i.body._meta.deliveryKey === 'home');
    await cms(['item', 'publish', homePage.id, '--wait']);
    expect((await admin.get(`/content-items/${homePage.id}`)).body.publishingStatus).toBe('LATEST');
    // A site reads the published home page by its key through Content Delivery 2 (no token).
    const delivered = await fetch(`${served.url}/cdn/vendor-cli/content/key/home?depth=all&format=inlined`);
    expect(delivered.status).toBe(200);
    expect(((await delivered.json()) as any).content._meta.deliveryKey).toBe('home');
    // Unpublish waits on the item's dates, as the vendor's tools do; then delivery has nothing.
    await cms(['item', 'unpublish', homePage.id, '--wait']);
    const after = (await admin.get(`/content-items/${homePage.id}`)).body;
    expect(after.publishingStatus).toBe('UNPUBLISHED');
    expect(after.lastUnpublishedDate >= after.lastPublishedDate).toBe(true);
    expect((await fetch(`${served.url}/cdn/vendor-cli/content/key/home`)).status).toBe(404);
  }, 300_000);

  it('our own layout: item export, then import into another hub with the model applied', async () => {
    const out = join(home.dir, 'export');
    await cms(['item', 'export', out, '--hub', 'vendor-cli']);
    await cms(['hub', 'create', '--name', 'vendor-copy', '--label', 'Vendor copy']);
    await cms(['repo', 'create', '--hub', 'vendor-copy', '--name', 'content', '--label', 'Website Content']);
    await cms(['admin', 'enable', 'content-delivery-2', '--hub', 'vendor-copy']);
    await cms(['schema', 'apply', join(work, 'content-type-schemas'), '--hub', 'vendor-copy']);
    await cms(['type', 'apply', join(work, 'content-types'), '--hub', 'vendor-copy']);
    const imported = await cms(['item', 'import', out, '--hub', 'vendor-copy']);
    expect(imported.failed ?? 0).toBe(0);
    const items = await cms(['item', 'list', '--hub', 'vendor-copy', '--repo', 'content', '--limit', '0']);
    expect(items).toHaveLength(itemFiles().length);
    expect(served.stderr()).not.toMatch(/    at |sandbox error/);
  }, 300_000);

  it("clean up as the vendor's cleanup does: items archived, folders deleted, types and schemas archived", async () => {
    await cms(['hub', 'clean', 'vendor-cli', '--yes']);
    expect(await cms(['item', 'list', '--hub', 'vendor-cli', '--repo', 'content', '--limit', '0', '--status', 'ACTIVE'])).toHaveLength(0);
    expect(await cms(['item', 'list', '--hub', 'vendor-cli', '--repo', 'content', '--limit', '0', '--status', 'ARCHIVED'])).toHaveLength(itemFiles().length);
    expect(await cms(['folder', 'list', '--hub', 'vendor-cli', '--repo', 'content'])).toHaveLength(0);
    expect((await cms(['type', 'list', '--hub', 'vendor-cli', '--status', 'ACTIVE'])) ?? []).toHaveLength(0);
    expect((await cms(['schema', 'list', '--hub', 'vendor-cli', '--status', 'ACTIVE'])) ?? []).toHaveLength(0);
    expect(served.stderr()).not.toMatch(/    at |sandbox error/);
  }, 300_000);
});
