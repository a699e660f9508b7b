import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from '../../helpers/sqlite.js';
import { Api, createHub, startServer, unique, type Reply, type TestServer } from '../../helpers/server.js';
import { expectError } from '../../helpers/assert.js';
import { SCHEMA_HOST, createContentRepo, createContentType, enableDeliveryKeys, itemBody } from '../../helpers/content.js';
import { FN } from '../../../src/server/core/auth/permissions.js';



// Text search (GET /hubs/{hubId}/content-items/find): the description's syntax table, row by
// row, against a seeded corpus, asserting the exact set of labels each query finds.

let srv: TestServer;
let admin: Api;
let hubId: string;
let otherHubId: string;
let repoId: string;
let recipeRepoId: string;
const ids: Record<string, string> = {};

/** Active items of the main hub, by label. */
const ACTIVE = [
  'Apple pie',
  'Orange juice',
  'apple-orange smoothie',
  'Big fish story',
  'Fish big',
  'Meeting at 10:30',
  'Meeting at 10 and 30',
  'Crème brûlée',
  'Pear tart',
  'Pear juice',
  'Near and far',
  'Lemon cake',
  'Home banner',
] as const;
const ARCHIVED = 'Apple crumble';

const all = (...except: string[]): string[] => ACTIVE.filter((l) => !except.includes(l));

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  hubId = (await createHub(admin)).id;
  otherHubId = (await createHub(admin)).id;
  const fruit = await createContentType(admin, hubId);
  const recipe = await createContentType(admin, hubId, `${SCHEMA_HOST}/${unique('recipe')}.json`);
  repoId = (await createContentRepo(admin, hubId, fruit.id, ['en-GB', 'fr-FR'])).id;
  recipeRepoId = (await createContentRepo(admin, hubId, recipe.id)).id;
  await enableDeliveryKeys(admin, hubId);

  const add = async (label: string, fields: Record<string, unknown>, extra: { meta?: Record<string, unknown>; locale?: string; repo?: string; uri?: string } = {}) => {
    const res = await admin.post(`/content-repositories/${extra.repo ?? repoId}/content-items`, {
      label,
      body: itemBody(extra.uri ?? fruit.uri, fields, extra.meta),
      ...(extra.locale ? { locale: extra.locale } : {}),
    });
    if (res.status !== 201) throw new Error(`item create failed: ${res.status} ${res.text}`);
    ids[label] = res.body.id;
    return res.body;
  };
  await add('Apple pie', { title: 'Grandma apple pie' });
  await add('Orange juice', { title: 'Fresh orange' });
  await add('apple-orange smoothie', { title: 'Blend' });
  await add('Big fish story', { title: 'A big fish', text: 'Caught by the orange boat' });
  await add('Fish big', { title: 'Fish, big' });
  await add('Meeting at 10:30', { title: 'Agenda' });
  await add('Meeting at 10 and 30', { title: 'Agenda' });
  await add('Crème brûlée', { title: 'Dessert' }, { locale: 'fr-FR' });
  await add('Pear tart', { title: 'Pear with apple' });
  await add('Pear juice', { title: 'Pear' });
  await add('Near and far', { title: 'Travel' });
  await add('Lemon cake', { title: 'Cake' }, { repo: recipeRepoId, uri: recipe.uri });
  const banner = await add('Home banner', { title: 'Welcome' }, { meta: { name: 'banner-main' } });
  const key = await admin.patch(`/content-items/${banner.id}/delivery-key`, { deliveryKey: 'home/summer-page', version: banner.version });
  if (key.status !== 200) throw new Error(`delivery key failed: ${key.status} ${key.text}`);
  const crumble = await add(ARCHIVED, { title: 'Crumble' });
  const archived = await admin.post(`/content-items/${crumble.id}/archive`, { version: crumble.version });
  if (archived.status !== 200) throw new Error(`archive failed: ${archived.status} ${archived.text}`);

  const otherType = await createContentType(admin, otherHubId);
  const otherRepo = await createContentRepo(admin, otherHubId, otherType.id);
  const other = await admin.post(`/content-repositories/${otherRepo.id}/content-items`, { label: 'Apple in another hub', body: itemBody(otherType.uri, { title: 'apple' }) });
  if (other.status !== 201) throw new Error(`item create failed: ${other.status} ${other.text}`);
});

afterAll(async () => {
  await srv?.stop();
});

const find = (query: string | null, params: Record<string, string> = {}, api = admin, hub = hubId) => {
  const q = new URLSearchParams(params);
  if (query !== null) q.set('query', query);
  return api.get(`/hubs/${hub}/content-items/find?${q}`);
};
const labelsOf = (res: Reply): string[] => res.body._embedded['content-items'].map((i: { label: string }) => i.label);

async function labels(query: string, hub = hubId): Promise<string[]> {
  const res = await find(query, { size: '100' }, admin, hub);
  expect(res.status, res.text).toBe(200);
  return labelsOf(res).sort();
}

describe('the syntax table, one row at a time', () => {
  it.each<[string, string, readonly string[]]>([
    ['apple: items containing the word', 'apple', ['Apple pie', 'apple-orange smoothie', 'Pear tart']],
    ['apple orange: both words (AND)', 'apple orange', ['apple-orange smoothie']],
    ['apple,orange: either word (OR)', 'apple,orange', ['Apple pie', 'Orange juice', 'apple-orange smoothie', 'Big fish story', 'Pear tart']],
    ['apple -orange: apple but not orange', 'apple -orange', ['Apple pie', 'Pear tart']],
    ['-apple-orange: inner hyphens are not negation', '-apple-orange', all('apple-orange smoothie')],
    ['label:apple: the word within the named field', 'label:apple', ['Apple pie', 'apple-orange smoothie']],
    ['quoted text: exact search, quotes needed for a colon', '"10:30"', ['Meeting at 10:30']],
  ])('%s', async (_row, query, expected) => {
    expect(await labels(query)).toEqual([...expected].sort());
  });
});

describe('more of each form', () => {
  it.each<[string, readonly string[]]>([
    // words and case / diacritics
    ['APPLE', ['Apple pie', 'apple-orange smoothie', 'Pear tart']],
    ['creme', ['Crème brûlée']],
    ['CRÈME BRÛLÉE', ['Crème brûlée']],
    ['big fish', ['Big fish story', 'Fish big']],
    ['"big fish"', ['Big fish story']],
    ['10 30', ['Meeting at 10:30', 'Meeting at 10 and 30']],
    ['apple-orange', ['apple-orange smoothie']],
    ['orange -juice', ['apple-orange smoothie', 'Big fish story']],
    ['-apple', all('Apple pie', 'apple-orange smoothie', 'Pear tart')],
    ['-apple -pear', all('Apple pie', 'apple-orange smoothie', 'Pear tart', 'Pear juice')],
    ['-"big fish"', all('Big fish story')],
    // fields: label, body properties, locale, schema, name, deliveryKey, repository
    ['title:apple', ['Apple pie', 'Pear tart']],
    ['title:"big fish"', ['Big fish story']],
    ['body.title:pear', ['Pear tart', 'Pear juice']],
    ['Title:PEAR', ['Pear tart', 'Pear juice']],
    ['-label:apple apple', ['Pear tart']],
    ['locale:fr-FR', ['Crème brûlée']],
    ['locale:fr', ['Crème brûlée']],
    ['schema:recipe', ['Lemon cake']],
    ['name:banner', ['Home banner']],
    ['deliveryKey:"home/summer-page"', ['Home banner']],
    ['text:"orange boat"', ['Big fish story']],
    // mixed forms
    ['apple,orange -pear title:"big fish"', ['Big fish story']],
    ['label:apple,title:pear', ['Apple pie', 'apple-orange smoothie', 'Pear tart', 'Pear juice']],
    ['apple,-orange', all('Orange juice', 'Big fish story')],
    ['pear apple,juice', ['Pear tart', 'Pear juice']],
    ['apple , orange', ['Apple pie', 'Orange juice', 'apple-orange smoothie', 'Big fish story', 'Pear tart']],
    // unmatched quotes: the rest of the query is the phrase
    ['"big fish', ['Big fish story']],
    ['title:"pear', ['Pear tart', 'Pear juice']],
    ['juice "pear', ['Pear juice']],
  ])('%s', async (query, expected) => {
    expect(await labels(query)).toEqual([...expected].sort());
  });

  it('contentRepositoryId and folderId terms scope a search (hosted clients send them back to back)', async () => {
    expect(await labels(`contentRepositoryId:"${recipeRepoId}"`)).toEqual(['Lemon cake']);
    expect(await labels(`status:"ACTIVE"contentRepositoryId:"${repoId}"`)).toEqual(all('Lemon cake').sort());
    expect(await labels(`cake contentRepositoryId:"${repoId}"`)).toEqual([]);
  });
});

describe('status', () => {
  it('archived items are left out unless the query names a status', async () => {
    expect(await labels('crumble')).toEqual([]);
    expect(await labels('status:archived')).toEqual([ARCHIVED]);
    expect(await labels('apple status:archived')).toEqual([ARCHIVED]);
    expect(await labels('apple status:active,status:archived')).toEqual(['Apple crumble', 'Apple pie', 'Pear tart', 'apple-orange smoothie'].sort());
    expect(await labels('apple -status:archived')).toEqual(['Apple pie', 'apple-orange smoothie', 'Pear tart'].sort());
  });
});

describe('reserved characters and FTS5 syntax in user input are plain text', () => {
  it.each<[string, readonly string[]]>([
    ['NEAR', ['Near and far']],
    ['near AND far', ['Near and far']],
    ['apple AND orange', []],
    ['near*', ['Near and far']],
    ['^near', ['Near and far']],
    ['(near)', ['Near and far']],
    ['NEAR(near far)', []],
    ['near OR cake', []],
    ['{label}:near', ['Near and far']],
    ['"near" AND "far"', ['Near and far']],
    ['"near" NOT "far"', []],
    ['near "and far', ['Near and far']],
    ["'; DROP TABLE content_items; --", []],
  ])('%s', async (query, expected) => {
    expect(await labels(query)).toEqual([...expected].sort());
  });

  it('a query of punctuation only is a 400, never a 500', async () => {
    for (const query of ['*', '-', '""', '()', ',', '^ * -']) {
      const res = await find(query);
      expect(expectError(res, 400).property, query).toBe('query');
    }
  });

  it('the corpus is intact after the injection attempts', async () => {
    expect(await labels('-zzzz')).toEqual([...ACTIVE].sort());
  });
});

describe('limited to the hub', () => {
  it('finds only the items of the hub in the path', async () => {
    expect(await labels('apple', otherHubId)).toEqual(['Apple in another hub']);
    expect(await labels('-zzzz', otherHubId)).toEqual(['Apple in another hub']);
    expect(await labels('another')).toEqual([]);
  });

  it('an unknown hub is 404', async () => {
    expectError(await find('apple', {}, admin, '000000000000000000000000'), 404);
  });
});

describe('paging, sorting and projection', () => {
  it('pages under content-items with page counts and links that keep the query', async () => {
    const first = await find('apple,orange', { size: '2' });
    expect(first.status).toBe(200);
    expect(first.body.page).toEqual({ size: 2, totalElements: 5, totalPages: 3, number: 0 });
    const links = first.body._links;
    for (const rel of ['self', 'first', 'next', 'last']) expect(new URL(links[rel].href).searchParams.get('query'), rel).toBe('apple,orange');
    expect(links).not.toHaveProperty('prev');
    const seen: string[] = labelsOf(first);
    let next = links.next.href as string;
    for (let page = 1; page < 3; page++) {
      const res = await admin.get(next);
      expect(res.body.page.number).toBe(page);
      seen.push(...labelsOf(res));
      next = res.body._links.next?.href;
    }
    expect(next).toBeUndefined();
    expect(seen.sort()).toEqual(['Apple pie', 'Orange juice', 'apple-orange smoothie', 'Big fish story', 'Pear tart'].sort());
  });

  it('a page past the end is empty with the right counts', async () => {
    const res = await find('apple', { page: '5', size: '2' });
    expect(res.body._embedded['content-items']).toEqual([]);
    expect(res.body.page).toEqual({ size: 2, totalElements: 3, totalPages: 2, number: 5 });
  });

  it('ranks by relevance by default: a word in the label outranks one only in the body', async () => {
    const res = await find('apple');
    expect(labelsOf(res).at(-1)).toBe('Pear tart');
  });

  it('sorts by label, createdDate or lastModifiedDate when asked', async () => {
    expect(labelsOf(await find('apple', { sort: 'label,asc' }))).toEqual(['Apple pie', 'Pear tart', 'apple-orange smoothie']);
    expect(labelsOf(await find('apple', { sort: 'label,desc' }))).toEqual(['apple-orange smoothie', 'Pear tart', 'Apple pie']);
    expect(labelsOf(await find('apple', { sort: 'createdDate,asc' }))).toEqual(['Apple pie', 'apple-orange smoothie', 'Pear tart']);
    expect(labelsOf(await find('apple', { sort: 'createdDate,desc' }))).toEqual(['Pear tart', 'apple-orange smoothie', 'Apple pie']);
    expect(labelsOf(await find('-zzzz', { sort: 'lastModifiedDate,desc', size: '1' }))).toEqual(['Home banner']);
  });

  it('without words to rank, the newest come first', async () => {
    expect(labelsOf(await find('-zzzz', { size: '2' }))).toEqual(['Home banner', 'Lemon cake']);
  });

  it('items come whole by default; projection=basic omits the body and names the schema', async () => {
    const full = (await find('label:"apple pie"')).body._embedded['content-items'][0];
    expect(full).toMatchObject({ id: ids['Apple pie'], label: 'Apple pie', status: 'ACTIVE', body: { title: 'Grandma apple pie' } });
    expect(full._links.self.href).toBe(`${admin.base}/content-items/${ids['Apple pie']}`);
    const basic = (await find('label:"apple pie"', { projection: 'basic' })).body._embedded['content-items'][0];
    expect(basic).not.toHaveProperty('body');
    expect(basic.schema).toBe(full.body._meta.schema);
    expect(basic.label).toBe('Apple pie');
  });

  it('follows the hub link search-content-items', async () => {
    const hub = (await admin.get(`/hubs/${hubId}`)).body;
    const link = hub._links['search-content-items'];
    expect(link).toEqual({ href: `${admin.base}/hubs/${hubId}/content-items/find{?query,page,projection,size,sort}`, templated: true });
    const res = await admin.get(link.href.replace('{?query,page,projection,size,sort}', '?query=creme&size=5'));
    expect(labelsOf(res)).toEqual(['Crème brûlée']);
  });
});

describe('errors', () => {
  it.each<[string, string | null, Record<string, string>, string]>([
    ['a missing query', null, {}, 'query'],
    ['a blank query', '   ', {}, 'query'],
    ['a colon without a field', ':apple', {}, 'query'],
    ['a field without a value', 'title:', {}, 'query'],
    ['a second colon', '10:30:00', {}, 'query'],
    ['an unknown sort field', 'apple', { sort: 'version,asc' }, 'sort'],
    ['a bad page', 'apple', { page: '-1' }, 'page'],
  ])('%s is 400 naming the parameter', async (_name, query, params, property) => {
    expect(expectError(await find(query, params), 400).property).toBe(property);
  });

  it('an unmatched quote is not an error', async () => {
    expect((await find('"')).status).toBe(400);
    expect((await find('"apple')).status).toBe(200);
  });
});

describe('permissions', () => {
  it('a client without CONTENT:FUNCTIONAL:CONTENT_ITEM:READ gets 403', async () => {
    const client = await admin.client(unique('noread'), [FN('REPOSITORY', 'READ')], [{ resource: 'hubs', id: hubId, permissions: ['READ'] }]);
    const err = expectError(await find('apple', {}, client), 403);
    expect(err.invalidValue).toBe(FN('CONTENT_ITEM', 'READ'));
  });

  it('a reader of the hub may search it; a client without access to the hub gets 404', async () => {
    const reader = await admin.client(unique('reader'), [FN('CONTENT_ITEM', 'READ')], [{ resource: 'hubs', id: hubId, permissions: ['READ'] }]);
    expect(labelsOf(await find('creme', {}, reader))).toEqual(['Crème brûlée']);
    expectError(await find('apple', {}, reader, otherHubId), 404);
  });
});

// The description: quoted text is an exact search, and hyphens inside a word belong to the word.
// So "apple orange" does not find "apple-orange", nor apple-orange "apple orange"; a plain word
// still finds the hyphenated words it is part of.
describe('quoted text is exact; a hyphenated word is one word', () => {
  let exactHub: string;
  beforeAll(async () => {
    exactHub = (await createHub(admin)).id;
    const type = await createContentType(admin, exactHub);
    const repo = await createContentRepo(admin, exactHub, type.id);
    for (const [label, title] of [
      ['apple-orange blend', 'fresh-apple mix'],
      ['Apple orange tart', 'fresh apple slices'],
      ['Apple and orange', 'Fresh and apple'],
    ]) {
      const res = await admin.post(`/content-repositories/${repo.id}/content-items`, { label, body: itemBody(type.uri, { title }) });
      if (res.status !== 201) throw new Error(`item create failed: ${res.status} ${res.text}`);
    }
  });

  it.each<[string, string[]]>([
    ['"apple orange"', ['Apple orange tart']],
    ['apple-orange', ['apple-orange blend']],
    ['"apple-orange"', ['apple-orange blend']],
    ['-apple-orange', ['Apple and orange', 'Apple orange tart']],
    ['"apple"', ['Apple and orange', 'Apple orange tart']],
    ['apple', ['Apple and orange', 'Apple orange tart', 'apple-orange blend']],
    ['apple orange', ['Apple and orange', 'Apple orange tart', 'apple-orange blend']],
    ['title:"fresh apple"', ['Apple orange tart']],
    ['title:fresh-apple', ['apple-orange blend']],
    ['title:fresh', ['Apple and orange', 'Apple orange tart', 'apple-orange blend']],
    ['"APPLE-Orange blend"', ['apple-orange blend']],
  ])('%s', async (query, expected) => {
    expect(await labels(query, exactHub)).toEqual(expected.sort());
  });
});

/**
 * A stopped sandbox in a new data directory holding a hub with items (label, title), then `older`
 * run on its database (the state an earlier migration left), then the sandbox started again.
 */
async function upgraded(items: [string, string][], older: (db: InstanceType<typeof Database>) => void) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cms-search-migration-'));
  const first = await startServer({ dataDir });
  const api = await new Api(first.url).login();
  const hub = (await createHub(api)).id;
  const type = await createContentType(api, hub);
  const repo = await createContentRepo(api, hub, type.id);
  const made: any[] = [];
  for (const [label, title] of items) {
    const res = await api.post(`/content-repositories/${repo.id}/content-items`, { label, body: itemBody(type.uri, { title }) });
    expect(res.status).toBe(201);
    made.push(res.body);
  }
  await first.stop();
  const db = new Database(join(dataDir, 'sandbox.db'));
  older(db);
  db.pragma(`user_version = ${(db.prepare('SELECT count(*) FROM migrations').pluck().get() as number)}`);
  db.close();
  const own = await startServer({ dataDir });
  return { dataDir, own, api: await new Api(own.url).login(), hub, type, made };
}

describe('a database indexed before exact search', () => {
  it('is reindexed by its migration: phrases and hyphenated words are exact there too', async () => {
    // The full-text table as databases before 0009-fidelity-search-words have it, labels only.
    const { dataDir, own, api, hub } = await upgraded([['apple-orange blend', 'kiwi'], ['Apple orange tart', 'kiwi']], (db) =>
      db.exec(`DROP TABLE content_search;
        CREATE VIRTUAL TABLE content_search USING fts5(label, body, fields, tokenize = "unicode61 remove_diacritics 2 tokenchars '_'");
        INSERT INTO content_search (rowid, label, body, fields) SELECT seq, label, '', '' FROM content_items;
        DELETE FROM migrations WHERE id = '0009-fidelity-search-words';`),
    );
    try {
      const found = async (query: string) => labelsOf(await find(query, { size: '100' }, api, hub)).sort();
      expect(await found('"apple orange"')).toEqual(['Apple orange tart']);
      expect(await found('apple-orange')).toEqual(['apple-orange blend']);
      expect(await found('kiwi')).toEqual(['Apple orange tart', 'apple-orange blend']);
    } finally {
      await own.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('a database whose index kept the texts (before 0010-contentless-search-index)', () => {
  it('is reindexed into an index without them; search, updates and deletes work as before', async () => {
    // The index as 0009 made it: the same columns, with their texts stored.
    const { dataDir, own, api, hub, type, made } = await upgraded([['plum cake', 'quince'], ['pear-plum jam', 'quince']], (db) =>
      db.exec(`DROP TABLE content_search;
        CREATE VIRTUAL TABLE content_search USING fts5(label, body, fields, label_words, body_words, fields_words, tokenize = "unicode61 remove_diacritics 2 tokenchars '-_'");
        DELETE FROM migrations WHERE id = '0010-contentless-search-index';`),
    );
    try {
      const found = async (query: string) => labelsOf(await find(query, { size: '100' }, api, hub)).sort();
      expect(await found('quince')).toEqual(['pear-plum jam', 'plum cake']);
      expect(await found('"pear-plum"')).toEqual(['pear-plum jam']);
      const [cake, jam] = made;
      expect((await api.patch(`/content-items/${cake.id}`, { version: cake.version, label: 'fig cake', body: itemBody(type.uri, { title: 'medlar' }) })).status).toBe(200);
      expect(await found('quince')).toEqual(['pear-plum jam']);
      expect(await found('medlar')).toEqual(['fig cake']);
      expect((await api.post(`/content-items/${jam.id}/archive`, { version: jam.version })).status).toBe(200);
    } finally {
      await own.stop();
    }
    try {
      const after = new Database(join(dataDir, 'sandbox.db'), { readonly: true });
      expect(after.prepare("SELECT sql FROM sqlite_master WHERE name = 'content_search'").pluck().get()).toContain("content = ''");
      after.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
