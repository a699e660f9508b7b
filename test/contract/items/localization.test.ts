import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, createRepo, startServer, unique, type Reply, type TestServer } from '../../helpers/server.js';
import { HEX_ID, expectError } from '../../helpers/assert.js';
import { contentLink, createContentRepo, createContentType, createItem, itemBody } from '../../helpers/content.js';

// Localization: localizing an item graph into the locales of its repository's localization
// group (an asynchronous localization job), the localizations of an item, and the job reads.

let srv: TestServer;
let admin: Api;
let hubId: string;
let uri: string;
/** Repositories of one localization group, by the locale each serves (it-IT lacks the content type). */
const repo: Record<string, any> = {};
/** A repository of another group. */
let spanish: any;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  hubId = (await createHub(admin)).id;
  const type = await createContentType(admin, hubId);
  uri = type.uri;
  for (const locale of ['en-GB', 'fr-FR', 'de-DE']) repo[locale] = await createContentRepo(admin, hubId, type.id, [locale]);
  repo['it-IT'] = await createRepo(admin, hubId);
  await admin.post(`/content-repositories/${repo['it-IT'].id}/item-locales`, { itemLocales: ['it-IT'] });
  for (const locale of ['fr-FR', 'de-DE', 'it-IT']) {
    const res = await admin.post(`/content-repositories/${repo['en-GB'].id}/localization-group`, { newRepositoryId: repo[locale].id });
    expect(res.status, res.text).toBe(200);
  }
  spanish = await createContentRepo(admin, hubId, type.id, ['es-ES']);
});

afterAll(async () => {
  await srv?.stop();
});

const english = (fields: Record<string, unknown> = {}) => createItem(admin, repo['en-GB'].id, uri, { locale: 'en-GB', ...fields });
const localize = (id: string, locales: string[], version = 1, api = admin) => api.post(`/content-items/${id}/localize`, { locales, version });
const ids = (res: Reply, key = 'content-items') => res.body._embedded[key].map((i: { id: string }) => i.id);
const getItem = async (id: string) => (await admin.get(`/content-items/${id}`)).body;

/** Polls a job until it leaves IN_PROGRESS (the scheduler runs it before the next request). */
async function finished(jobId: string): Promise<any> {
  for (let i = 0; i < 50; i++) {
    const job = (await admin.get(`/localization-jobs/${jobId}`)).body;
    if (job.status !== 'IN_PROGRESS') return job;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`job ${jobId} did not finish`);
}

/** A root linking to two children, the first of which links to the second too. */
async function graph() {
  const leaf = await english({ label: 'leaf' });
  const mid = await english({ label: 'mid', body: itemBody(uri, { links: [contentLink(leaf.id, uri)] }) });
  const root = await english({ label: 'root', body: itemBody(uri, { title: 'Root', links: [contentLink(mid.id, uri), contentLink(leaf.id, uri)] }) });
  return { root, mid, leaf };
}

describe('localize', () => {
  it('answers 202 with the job (IN_PROGRESS) and its Location; the job then COMPLETES with a result per locale', async () => {
    const { root } = await graph();
    const res = await localize(root.id, ['fr-FR']);
    expect(res.status, res.text).toBe(202);
    const job = res.body;
    expect(job.id).toMatch(HEX_ID);
    expect(job).toMatchObject({ status: 'IN_PROGRESS', rootContentItem: { id: root.id, label: 'root', locale: 'en-GB' }, requestedLocales: ['fr-FR'], createdBy: 'sandbox-admin' });
    expect(res.headers.get('location')).toBe(`${admin.base}/localization-jobs/${job.id}`);
    expect(job._links).toEqual({
      self: { href: `${admin.base}/localization-jobs/${job.id}` },
      'content-root': { href: `${admin.base}/content-items/${root.id}` },
      findByRootContentItem: { href: `${admin.base}/localization-jobs/search/findByRootContentItem?id=${root.id}{&page,size,sort}`, templated: true },
    });
    const done = await finished(job.id);
    expect(done.status).toBe('COMPLETED');
    expect(done.results).toEqual([{ locale: 'fr-FR', status: 'COMPLETED', repositoryId: repo['fr-FR'].id, createdItemIds: expect.any(Array) }]);
    expect(done.results[0].createdItemIds).toHaveLength(3);
  });

  it('copies the whole graph into the repository serving the locale, with the links rewired to the copies', async () => {
    const { root, mid, leaf } = await graph();
    await finished((await localize(root.id, ['fr-FR'])).body.id);
    const frRoot = (await admin.get(`/content-items/${root.id}/localizations`)).body._embedded['content-items'][0];
    expect(frRoot).toMatchObject({ label: 'root', locale: 'fr-FR', contentRepositoryId: repo['fr-FR'].id, version: 1, status: 'ACTIVE', body: { title: 'Root' } });
    const children = await admin.get(`/content-items/search/findByIdWithChildren?id=${frRoot.id}`);
    const copies = children.body._embedded['content-items'];
    expect(copies.map((c: any) => c.label)).toEqual(['root', 'mid', 'leaf']);
    for (const c of copies) expect(c).toMatchObject({ locale: 'fr-FR', contentRepositoryId: repo['fr-FR'].id });
    const [, frMid, frLeaf] = copies;
    expect(frRoot.body.links.map((l: { id: string }) => l.id)).toEqual([frMid.id, frLeaf.id]);
    expect(frMid.body.links[0].id).toBe(frLeaf.id);
    expect([frMid.id, frLeaf.id]).not.toContain(mid.id);
    // The originals are untouched.
    expect(await getItem(root.id)).toMatchObject({ version: 1, locale: 'en-GB', body: root.body });
    expect((await getItem(mid.id)).body.links[0].id).toBe(leaf.id);
  });

  it('localizations list the other-locale variants of any member of the group', async () => {
    const root = await english({ label: 'solo' });
    const job = await finished((await localize(root.id, ['fr-FR', 'de-DE'])).body.id);
    expect(job.results.map((r: any) => [r.locale, r.status])).toEqual([
      ['fr-FR', 'COMPLETED'],
      ['de-DE', 'COMPLETED'],
    ]);
    const res = await admin.get(`/content-items/${root.id}/localizations`);
    expect(res.status).toBe(200);
    const variants = res.body._embedded['content-items'];
    expect(variants.map((v: any) => v.locale).sort()).toEqual(['de-DE', 'fr-FR']);
    expect(res.body.page.totalElements).toBe(2);
    const fr = variants.find((v: any) => v.locale === 'fr-FR');
    const fromFr = await admin.get(`/content-items/${fr.id}/localizations`);
    expect(fromFr.body._embedded['content-items'].map((v: any) => v.locale).sort()).toEqual(['de-DE', 'en-GB']);
    expect(ids(fromFr)).toContain(root.id);
  });

  it('an item never localized has no localizations', async () => {
    const item = await english();
    const res = await admin.get(`/content-items/${item.id}/localizations`);
    expect(res.body._embedded['content-items']).toEqual([]);
  });

  it('localizing again reuses the existing variants instead of copying twice', async () => {
    const { root } = await graph();
    await finished((await localize(root.id, ['de-DE'])).body.id);
    const again = await finished((await localize(root.id, ['de-DE'])).body.id);
    expect(again.results).toEqual([{ locale: 'de-DE', status: 'COMPLETED', repositoryId: repo['de-DE'].id, createdItemIds: [] }]);
    expect(ids(await admin.get(`/content-items/${root.id}/localizations`))).toHaveLength(1);
  });

  it('a locale whose repository lacks the content type FAILS with a reason, creating nothing there; other locales still complete', async () => {
    const { root } = await graph();
    const job = await finished((await localize(root.id, ['it-IT', 'de-DE'])).body.id);
    expect(job.status).toBe('FAILED');
    expect(job.results[0]).toMatchObject({ locale: 'it-IT', status: 'FAILED' });
    expect(job.results[0].message).toContain('not assigned');
    expect(job.results[1]).toMatchObject({ locale: 'de-DE', status: 'COMPLETED' });
    expect((await admin.get(`/content-repositories/${repo['it-IT'].id}/content-items`)).body.page.totalElements).toBe(0);
  });

  it('the item must have a locale (400), the current version (409), and each locale must be served by its group (400 naming it)', async () => {
    const noLocale = await createItem(admin, repo['en-GB'].id, uri);
    expect(expectError(await localize(noLocale.id, ['fr-FR']), 400).code).toBe('ITEM_HAS_NO_LOCALE');
    const item = await english();
    expect(expectError(await localize(item.id, ['fr-FR'], 2), 409).property).toBe('version');
    expect(expectError(await localize(item.id, ['fr-FR', 'es-ES']), 400)).toMatchObject({ code: 'LOCALE_NOT_IN_GROUP', property: 'locales', invalidValue: 'es-ES' });
    expect(expectError(await localize(item.id, ['en-GB']), 400)).toMatchObject({ property: 'locales', invalidValue: 'en-GB' });
    expect(expectError(await localize(item.id, []), 400).property).toBe('locales');
    expect(expectError(await admin.post(`/content-items/${item.id}/localize`, { locales: ['fr-FR'] }), 400).property).toBe('version');
    expect((await admin.get(`/localization-jobs/search/findByRootContentItem?id=${item.id}`)).body.page.totalElements).toBe(0);
  });

  it('the group of the repository decides: a repository of another group does not serve its locale', async () => {
    const item = await createItem(admin, spanish.id, uri, { locale: 'es-ES' });
    expect(expectError(await localize(item.id, ['fr-FR']), 400).invalidValue).toBe('fr-FR');
  });

  it('needs CONTENT_ITEM:CREATE (403 without it)', async () => {
    const item = await english();
    const editor = await admin.client(unique('loc'), ['CONTENT:FUNCTIONAL:CONTENT_ITEM:EDIT', 'CONTENT:FUNCTIONAL:CONTENT_ITEM:READ'], [
      { resource: 'hubs', id: hubId, permissions: ['READ'] },
      { resource: 'content-repositories', id: repo['en-GB'].id, permissions: ['EDIT_CONTENT'] },
    ]);
    expectError(await localize(item.id, ['fr-FR'], 1, editor), 403);
  });
});

describe('localization jobs', () => {
  let root: any;
  let jobIds: string[];
  beforeAll(async () => {
    root = await english({ label: 'jobs root' });
    jobIds = [];
    for (const locale of ['fr-FR', 'de-DE']) jobIds.push((await localize(root.id, [locale])).body.id);
    for (const id of jobIds) await finished(id);
  });

  it('findByRootContentItem pages the jobs of an item under localization-jobs', async () => {
    const res = await admin.get(`/localization-jobs/search/findByRootContentItem?id=${root.id}`);
    expect(res.status).toBe(200);
    expect(ids(res, 'localization-jobs').sort()).toEqual([...jobIds].sort());
    expect(res.body.page.totalElements).toBe(2);
    for (const job of res.body._embedded['localization-jobs']) expect(job.status).toBe('COMPLETED');
    expect(expectError(await admin.get('/localization-jobs/search/findByRootContentItem'), 400).property).toBe('id');
  });

  it('one job by id; an unknown job is 404', async () => {
    const res = await admin.get(`/localization-jobs/${jobIds[0]}`);
    expect(res.body).toMatchObject({ id: jobIds[0], status: 'COMPLETED', requestedLocales: ['fr-FR'] });
    expectError(await admin.get('/localization-jobs/5f0000000000000000000000'), 404);
  });

  it('the hub search lists the jobs of the hub', async () => {
    const res = await admin.get(`/hubs/${hubId}/localization-jobs?size=100`);
    expect(res.status).toBe(200);
    expect(ids(res, 'localization-jobs')).toEqual(expect.arrayContaining(jobIds));
    const other = await createHub(admin);
    expect((await admin.get(`/hubs/${other.id}/localization-jobs`)).body._embedded['localization-jobs']).toEqual([]);
  });

  it('a job of a hub the caller cannot see is 404', async () => {
    const stranger = await admin.client(unique('loc'), ['CONTENT:FUNCTIONAL:CONTENT_ITEM:READ']);
    expectError(await stranger.get(`/localization-jobs/${jobIds[0]}`), 404);
  });
});
