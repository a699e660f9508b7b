import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, createRepo, startServer, unique, type TestServer } from '../../helpers/server.js';
import { ERROR_CONTENT_TYPE, HEX_ID, ISO_MILLIS, expectError } from '../../helpers/assert.js';

// Rules every response follows (wire-contract §1) and the description's "Endpoints" generalities.

let srv: TestServer;
let admin: Api;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
});

afterAll(async () => {
  await srv?.stop();
});

/** Every link object ({href, templated?}) anywhere in a HAL body. */
function allLinks(value: unknown, out: { rel: string; href: string; templated?: boolean }[] = []) {
  if (Array.isArray(value)) {
    for (const v of value) allLinks(v, out);
  } else if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    if (obj._links && typeof obj._links === 'object') {
      for (const [rel, l] of Object.entries(obj._links as Record<string, { href: string; templated?: boolean }>)) out.push({ rel, ...l });
    }
    for (const [k, v] of Object.entries(obj)) if (k !== '_links') allLinks(v, out);
  }
  return out;
}

function expectTemplatesWellFormed(body: unknown) {
  const links = allLinks(body);
  expect(links.length).toBeGreaterThan(0);
  for (const l of links) {
    const hasTemplate = /[{}]/.test(l.href);
    if (hasTemplate) {
      expect(l.templated, `${l.rel} ${l.href}`).toBe(true);
      // One {?a,b,c} form, never {?a}{&b,c}.
      expect(l.href, l.rel).not.toMatch(/\{&/);
      expect((l.href.match(/\{\?/g) ?? []).length, l.rel).toBeLessThanOrEqual(1);
      // Expressions: {id}, {/id} or {?a,b,c}.
      expect(l.href, l.rel).toMatch(/^[^{}]*(\{[/?]?[A-Za-z0-9_.,]+\}[^{}]*)*$/);
    } else {
      expect(l.templated, `${l.rel} ${l.href}`).toBeUndefined();
    }
  }
}

describe('links', () => {
  it('every href is absolute on the origin the request came to', async () => {
    const hub = await createHub(admin);
    await createRepo(admin, hub.id);
    for (const path of ['', `/hubs/${hub.id}`, '/hubs', `/hubs/${hub.id}/content-repositories`, '/localization']) {
      const res = await admin.get(path);
      expect(res.status).toBe(200);
      for (const l of allLinks(res.body)) expect(l.href, `${path} ${l.rel}`).toMatch(new RegExp(`^${srv.url.replace(/\./g, '\\.')}/v2/content(/|\\{|$)`));
    }
  });

  it('a request to http://localhost:<port> gets localhost hrefs', async () => {
    const hub = await createHub(admin);
    const port = new URL(srv.url).port;
    const local = new Api(`http://localhost:${port}`);
    local.token = admin.token;
    const res = await local.get(`/hubs/${hub.id}`);
    expect(res.status).toBe(200);
    const links = allLinks(res.body);
    expect(links.length).toBeGreaterThan(0);
    for (const l of links) expect(l.href.startsWith(`http://localhost:${port}/v2/content/`), l.href).toBe(true);
    const created = await local.post('/hubs', { name: unique('local'), label: 'Local' });
    expect(created.headers.get('location')).toMatch(new RegExp(`^http://localhost:${port}/v2/content/hubs/[0-9a-f]{24}$`));
  });

  it('templated links carry templated:true and use one {?a,b,c} form', async () => {
    const hub = await createHub(admin);
    const repo = await createRepo(admin, hub.id);
    for (const path of ['', `/hubs/${hub.id}`, `/hubs/${hub.id}/content-repositories`, `/content-repositories/${repo.id}`, '/hubs']) {
      expectTemplatesWellFormed((await admin.get(path)).body);
    }
    const hubBody = (await admin.get(`/hubs/${hub.id}`)).body;
    expect(hubBody._links['content-repositories']).toEqual({ href: `${admin.base}/hubs/${hub.id}/content-repositories{?page,size,sort}`, templated: true });
  });

  it('resources embedded in a page carry the same full link set as when fetched alone', async () => {
    const hub = await createHub(admin);
    const repo = await createRepo(admin, hub.id);
    const list = await admin.get(`/hubs/${hub.id}/content-repositories`);
    const single = await admin.get(`/content-repositories/${repo.id}`);
    expect(list.body._embedded['content-repositories'][0]._links).toEqual(single.body._links);
  });
});

describe('root and localization', () => {
  it('GET /v2/content lists hubs (templated), self, admin, localization and management', async () => {
    const res = await admin.get('');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/hal+json;charset=UTF-8');
    const links = res.body._links;
    expect(links.hubs).toEqual({ href: `${admin.base}/hubs{?page,size,sort}`, templated: true });
    expect(links.self.href).toBe(admin.base);
    expect(links.admin.href).toBe(`${admin.base}/admin`);
    expect(links.localization.href).toBe(`${admin.base}/localization`);
    expect(links.management.href).toMatch(/^http:\/\//);
  });

  it('GET /v2/content/localization lists ISO 639-1 languages and ISO 3166 alpha-2 countries', async () => {
    const res = await admin.get('/localization');
    expect(res.status).toBe(200);
    const { languages, countries } = res.body;
    expect(languages).toEqual(expect.arrayContaining(['en', 'fr', 'zh', 'de', 'ja']));
    expect(countries).toEqual(expect.arrayContaining(['GB', 'FR', 'US', 'DE', 'JP']));
    expect(languages.length).toBeGreaterThanOrEqual(180);
    expect(countries.length).toBeGreaterThanOrEqual(240);
    for (const l of languages) expect(l).toMatch(/^[a-z]{2}$/);
    for (const c of countries) expect(c).toMatch(/^[A-Z]{2}$/);
    expect(new Set(languages).size).toBe(languages.length);
    expect(res.body._links.self.href).toBe(`${admin.base}/localization`);
  });

  it('a restricted client without any permission may read the localization lists', async () => {
    const plain = await admin.client(unique('loc-client'), []);
    expect((await plain.get('/localization')).status).toBe(200);
  });
});

describe('paging envelope', () => {
  let hubId: string;
  const prefix = unique('pg');

  beforeAll(async () => {
    hubId = (await createHub(admin)).id;
    // Created in the order c, a, e, b, d so name order differs from creation order.
    for (const n of ['c', 'a', 'e', 'b', 'd']) await createRepo(admin, hubId, `${prefix}-${n}`);
  });

  it('an empty collection has _embedded.<key> = [] and page numbers of zero', async () => {
    const empty = await createHub(admin);
    const res = await admin.get(`/hubs/${empty.id}/content-repositories`);
    expect(res.status).toBe(200);
    expect(res.body._embedded).toEqual({ 'content-repositories': [] });
    expect(res.body.page).toEqual({ size: 20, totalElements: 0, totalPages: 0, number: 0 });
    expect(Object.keys(res.body._links)).toEqual(expect.arrayContaining(['first', 'self', 'last']));
    expect(res.body._links.next).toBeUndefined();
    expect(res.body._links.prev).toBeUndefined();
  });

  it('the default page size is 20 and page.number is zero-based', async () => {
    const res = await admin.get(`/hubs/${hubId}/content-repositories`);
    expect(res.body.page).toEqual({ size: 20, totalElements: 5, totalPages: 1, number: 0 });
    expect(res.body._embedded['content-repositories']).toHaveLength(5);
  });

  it('first, self and last are always present; next and prev only where they exist', async () => {
    const page = async (n: number) => (await admin.get(`/hubs/${hubId}/content-repositories?page=${n}&size=2`)).body;
    const p0 = await page(0);
    expect(p0.page).toEqual({ size: 2, totalElements: 5, totalPages: 3, number: 0 });
    expect(p0._links.prev).toBeUndefined();
    expect(p0._links.next.href).toMatch(/[?&]page=1(&|$)/);
    const p1 = await page(1);
    expect(p1.page.number).toBe(1);
    expect(p1._links.prev.href).toMatch(/[?&]page=0(&|$)/);
    expect(p1._links.next.href).toMatch(/[?&]page=2(&|$)/);
    const p2 = await page(2);
    expect(p2._embedded['content-repositories']).toHaveLength(1);
    expect(p2._links.next).toBeUndefined();
    expect(p2._links.prev.href).toMatch(/[?&]page=1(&|$)/);
    for (const p of [p0, p1, p2]) {
      expect(p._links.first.href).toMatch(/[?&]page=0(&|$)/);
      expect(p._links.last.href).toMatch(/[?&]page=2(&|$)/);
      expect(p._links.self.href).toMatch(new RegExp(`[?&]page=${p.page.number}(&|$)`));
      for (const rel of ['first', 'self', 'last']) expect(p._links[rel].href).toMatch(/[?&]size=2(&|$)/);
    }
    // Following next walks every element exactly once.
    const seen = [p0, p1, p2].flatMap((p) => p._embedded['content-repositories'].map((r: { id: string }) => r.id));
    expect(new Set(seen).size).toBe(5);
    const viaNext = await admin.get(p0._links.next.href);
    expect(viaNext.body.page.number).toBe(1);
  });

  it('a page past the end is empty but keeps the envelope', async () => {
    const res = await admin.get(`/hubs/${hubId}/content-repositories?page=9&size=2`);
    expect(res.status).toBe(200);
    expect(res.body._embedded['content-repositories']).toEqual([]);
    expect(res.body.page).toEqual({ size: 2, totalElements: 5, totalPages: 3, number: 9 });
    expect(res.body._links.next).toBeUndefined();
  });

  it('sort=name,asc and sort=name%2Cdesc order by name', async () => {
    const names = (body: any) => body._embedded['content-repositories'].map((r: { name: string }) => r.name);
    const asc = await admin.get(`/hubs/${hubId}/content-repositories?sort=name,asc`);
    expect(names(asc.body)).toEqual(['a', 'b', 'c', 'd', 'e'].map((n) => `${prefix}-${n}`));
    const desc = await admin.get(`/hubs/${hubId}/content-repositories?sort=name%2Cdesc`);
    expect(names(desc.body)).toEqual(['e', 'd', 'c', 'b', 'a'].map((n) => `${prefix}-${n}`));
  });

  it('hubs can be listed with page and size only', async () => {
    const res = await admin.get('/hubs?page=0&size=1');
    expect(res.status).toBe(200);
    expect(res.body.page.size).toBe(1);
    expect(res.body._embedded.hubs).toHaveLength(1);
  });

  it.each(['page=-1', 'page=x', 'page=1.5', 'size=0', 'size=abc', 'sort=bogus,asc', 'sort=name,sideways', 'sort=name,asc,extra'])(
    'a bad paging parameter (%s) is 400',
    async (query) => {
      const res = await admin.get(`/hubs/${hubId}/content-repositories?${query}`);
      const err = expectError(res, 400);
      expect(['page', 'size', 'sort']).toContain(err.property);
    },
  );
});

describe('request bodies and media types', () => {
  it('only the first JSON value of a body is read; trailing characters are ignored', async () => {
    const name = unique('trail');
    const res = await admin.post('/hubs', undefined, { raw: `{"name":"${name}","label":"Trailing"} garbage {"name":"other"` });
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe(name);
    expect(res.body.label).toBe('Trailing');
  });

  it('malformed JSON is 400 with the error body', async () => {
    expectError(await admin.post('/hubs', undefined, { raw: '{"name": "x", ' }), 400);
    expectError(await admin.post('/hubs', undefined, { raw: '{"name": x}', headers: { 'content-type': 'application/json' } }), 400);
  });

  it('PUT on a hub is 405 with an Allow header', async () => {
    const hub = await createHub(admin);
    const res = await admin.put(`/hubs/${hub.id}`, { label: 'x' });
    expectError(res, 405);
    const allow = (res.headers.get('allow') ?? '').split(',').map((s) => s.trim());
    expect(allow).toEqual(expect.arrayContaining(['GET', 'PATCH', 'DELETE']));
    expect(allow).not.toContain('PUT');
  });

  it('Accept: text/html is 406 with the error body', async () => {
    const res = await admin.get('/hubs', { headers: { accept: 'text/html' } });
    expectError(res, 406);
  });

  it('the Accept header an SDK sends (application/json, text/plain, */*) is served', async () => {
    const res = await admin.get('/hubs', { headers: { accept: 'application/json, text/plain, */*' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/hal+json;charset=UTF-8');
    expect((await admin.get('/hubs', { headers: { accept: 'application/json' } })).status).toBe(200);
  });

  it('a text/plain body is 415 with the error body', async () => {
    const res = await admin.post('/hubs', undefined, { raw: 'name=x', headers: { 'content-type': 'text/plain' } });
    expectError(res, 415);
  });

  it('plain application/json bodies are accepted (application/hal+json is not required)', async () => {
    const res = await admin.post('/hubs', { name: unique('json'), label: 'Json' }, { headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(201);
  });

  it('an unknown path is 404 with the error body', async () => {
    expectError(await admin.get('/no-such-thing'), 404);
    expectError(await admin.get(`/hubs/${'0'.repeat(24)}`), 404);
  });

  it('a trailing slash is served without a redirect', async () => {
    const res = await admin.get('/hubs/');
    expect(res.status).toBe(200);
  });

  it('error bodies are application/hal+json;charset=UTF-8 with errors[].level/code/message', async () => {
    const res = await admin.post('/hubs', { label: 'no name' });
    expect(res.headers.get('content-type')).toBe(ERROR_CONTENT_TYPE);
    const err = expectError(res, 400);
    expect(err.property).toBe('name');
    expect(err.entity).toBe('Hub');
  });
});

describe('status codes and headers of writes', () => {
  it('create answers 201 with a Location header equal to the self link', async () => {
    const res = await admin.post('/hubs', { name: unique('loc'), label: 'Loc' });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.body._links.self.href);
    const repo = await admin.post(`/hubs/${res.body.id}/content-repositories`, { name: unique('r'), label: 'R' });
    expect(repo.status).toBe(201);
    expect(repo.headers.get('location')).toBe(repo.body._links.self.href);
  });

  it('update answers 200 with a Location header and the resource', async () => {
    const hub = await createHub(admin);
    const res = await admin.patch(`/hubs/${hub.id}`, { label: 'Changed' });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBe(hub._links.self.href);
    expect(res.body.label).toBe('Changed');
    const repo = await createRepo(admin, hub.id);
    const r = await admin.patch(`/content-repositories/${repo.id}`, { label: 'Changed' });
    expect(r.status).toBe(200);
    expect(r.headers.get('location')).toBe(repo._links.self.href);
  });

  it('settings, share and delete answer 204 with an empty body', async () => {
    const hub = await createHub(admin);
    const settings = await admin.patch(`/hubs/${hub.id}/settings`, { applications: [] });
    expect(settings.status).toBe(204);
    expect(settings.text).toBe('');
    expect(settings.headers.get('location')).toBe(hub._links.self.href);
    const other = await admin.client(unique('share-target'), []);
    const share = await admin.post(`/hubs/${hub.id}/share`, { user: other.clientId, additionalPermissions: ['READ'] });
    expect(share.status).toBe(204);
    expect(share.text).toBe('');
    const del = await admin.del(`/hubs/${hub.id}`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
  });

  it('PATCH ignores unknown and read-only fields (a whole fetched hub sent back)', async () => {
    const hub = await createHub(admin);
    const fetched = (await admin.get(`/hubs/${hub.id}`)).body;
    const sent = {
      ...fetched,
      label: 'Edited label',
      id: 'ffffffffffffffffffffffff',
      status: 'ARCHIVED',
      createdBy: 'someone-else',
      createdDate: '2001-01-01T00:00:00.000Z',
      lastModifiedBy: 'someone-else',
      somethingUnknown: { deep: [1, 2] },
      _embedded: { whatever: [] },
    };
    const res = await admin.patch(`/hubs/${hub.id}`, sent);
    expect(res.status, res.text).toBe(200);
    expect(res.body.label).toBe('Edited label');
    expect(res.body.id).toBe(hub.id);
    expect(res.body.status).toBe('ACTIVE');
    expect(res.body.createdBy).toBe(hub.createdBy);
    expect(res.body.createdDate).toBe(hub.createdDate);
    expect(res.body.lastModifiedBy).toBe('sandbox-admin');
    expect(res.body.somethingUnknown).toBeUndefined();
    expect((await admin.get(`/hubs/${hub.id}`)).body.label).toBe('Edited label');
  });

  it('PATCH on a repository ignores a whole fetched repository sent back', async () => {
    const hub = await createHub(admin);
    const repo = await createRepo(admin, hub.id);
    const res = await admin.patch(`/content-repositories/${repo.id}`, { ...repo, label: 'Edited', features: ['x'], id: 'nope', unknown: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.label).toBe('Edited');
    expect(res.body.id).toBe(repo.id);
    expect(res.body.features).toEqual([]);
  });
});

describe('resource fields', () => {
  it('ids are 24 hex characters and timestamps are ISO 8601 UTC with milliseconds', async () => {
    const hub = await createHub(admin);
    const repo = await createRepo(admin, hub.id);
    for (const r of [hub, repo]) {
      expect(r.id).toMatch(HEX_ID);
      expect(r.createdDate).toMatch(ISO_MILLIS);
      expect(r.lastModifiedDate).toMatch(ISO_MILLIS);
    }
  });

  it('createdBy and lastModifiedBy are the client id of the caller', async () => {
    const creatorId = unique('creator');
    const creator = await admin.client(creatorId, ['CONTENT:FUNCTIONAL:HUB:CREATE', 'CONTENT:FUNCTIONAL:REPOSITORY:CREATE']);
    const hub = await createHub(creator);
    expect(hub.createdBy).toBe(creatorId);
    expect(hub.lastModifiedBy).toBe(creatorId);
    const repo = await createRepo(creator, hub.id);
    expect(repo.createdBy).toBe(creatorId);
    const updated = await admin.patch(`/hubs/${hub.id}`, { label: 'By admin' });
    expect(updated.body.createdBy).toBe(creatorId);
    expect(updated.body.lastModifiedBy).toBe('sandbox-admin');
  });

  it('lastModifiedDate moves on update and createdDate does not', async () => {
    const hub = await createHub(admin);
    await new Promise((r) => setTimeout(r, 5));
    const updated = (await admin.patch(`/hubs/${hub.id}`, { label: 'Later' })).body;
    expect(updated.createdDate).toBe(hub.createdDate);
    expect(Date.parse(updated.lastModifiedDate)).toBeGreaterThan(Date.parse(hub.lastModifiedDate));
  });
});
