import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import axios, { type AxiosAdapter } from 'axios';
import { ContentClient } from 'dc-delivery-sdk-js';
import { Api, createHub, unique, startServer, type TestServer } from '../../helpers/server.js';
import { SCHEMA_HOST, contentLink, createContentRepo, enableDeliveryKeys } from '../../helpers/content.js';
import { rawRequest } from '../../helpers/raw-http.js';

// Issue 31 points 1 and 2: what a real site in a locale reads. `locale` (a list with wildcards,
// `en-US,en-*`) resolves every field of the core localized-value shape to a single value, on
// Content Delivery 2 (id, key, filter, fetch, hierarchies) at /cdn/<hub> and on the hub's staging
// host (CD2 paths and the staging query), through the vendor's delivery SDK configured with
// `locale` and through raw requests in the forms the vendor's storefront sends (lower-case
// `sortBy.order`, `locale` in `parameters`, `locale=` empty). Bad input: 400 naming `locale`.

const CORE = 'http://bigcontent.io/cms/schema/v1/core#/definitions';
const LOCALIZED = `${CORE}/localized-value`;
const LOCALIZED_STRING = 'http://bigcontent.io/cms/schema/v1/localization#/definitions/localized-string';

let srv: TestServer;
let api: Api;
let hubId: string;
let hubName: string;
let repoId: string;
let uri: string;
let staging: string;

/** A localized value as stored: `[[locale, value], …]` in this order. */
const lv = (...values: [string, unknown][]) => ({ _meta: { schema: LOCALIZED }, values: values.map(([locale, value]) => ({ locale, value })) });

function schema(id: string): Record<string, unknown> {
  return {
    $schema: 'http://bigcontent.io/cms/schema/v1/schema#',
    id,
    title: 'Localized page',
    type: 'object',
    allOf: [{ $ref: `${CORE}/content` }],
    properties: {
      heading: { allOf: [{ $ref: LOCALIZED }] },
      blurb: { allOf: [{ $ref: LOCALIZED_STRING }] },
      order: { type: 'integer' },
      card: { type: 'object', properties: { label: { allOf: [{ $ref: LOCALIZED }] } } },
      links: { type: 'array', items: { allOf: [{ $ref: `${CORE}/content-link` }] } },
      localizedLink: { allOf: [{ $ref: LOCALIZED }] },
      free: { type: 'object' },
    },
  };
}

const publish = async (id: string) => expect((await api.post(`/content-items/${id}/publish`, {})).status).toBe(204);

async function item(fields: Record<string, unknown>, meta: Record<string, unknown> = {}, published = true): Promise<string> {
  const res = await api.post(`/content-repositories/${repoId}/content-items`, { label: unique('page'), body: { _meta: { schema: uri, name: 'page', ...meta }, ...fields } });
  expect(res.status, res.text).toBe(201);
  if (published) await publish(res.body.id);
  return res.body.id;
}

beforeAll(async () => {
  srv = await startServer();
  api = await new Api(srv.url).login();
  const hub = await createHub(api);
  hubId = hub.id;
  hubName = hub.name;
  await enableDeliveryKeys(api, hubId);
  uri = `${SCHEMA_HOST}/${unique('localized')}.json`;
  expect((await api.post(`/hubs/${hubId}/content-type-schemas`, { schemaId: uri, body: JSON.stringify(schema(uri)), validationLevel: 'CONTENT_TYPE' })).status).toBe(201);
  const type = await api.post(`/hubs/${hubId}/content-types`, { contentTypeUri: uri, settings: { label: 'Localized page' } });
  expect(type.status, type.text).toBe(201);
  repoId = (await createContentRepo(api, hubId, type.body.id)).id;
  staging = `${unique('vse')}.staging.example.test`;
  expect((await api.patch(`/hubs/${hubId}/settings`, { virtualStagingEnvironment: { hostname: staging } })).status).toBe(204);
});
afterAll(() => srv?.stop());

const cd2 = (options: Record<string, unknown> = {}) => new ContentClient({ hubName, baseUrl: `${srv.url}/cdn/${hubName}`, ...options });
/** The SDK's own HTTP adapter sent to the sandbox with the Host the SDK addresses (it calls https://<staging host>). */
const viaSandbox = (): AxiosAdapter => {
  const http = axios.getAdapter('http');
  return (config) => http({ ...config, baseURL: srv.url, headers: { ...config.headers, Host: new URL(config.baseURL!).host } as never });
};
const onStaging = (options: Record<string, unknown> = {}) => new ContentClient({ hubName, stagingEnvironment: staging, adaptor: viaSandbox(), ...options });
/** The staging query (Content Delivery 1) as the SDK calls it on the staging host: account is the staging store. */
const cd1OnStaging = (options: Record<string, unknown> = {}) => new ContentClient({ account: 'staging', stagingEnvironment: staging, adaptor: viaSandbox(), ...options });

async function raw(method: string, target: string, body?: unknown, host = new URL(srv.url).host) {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const res = await rawRequest(srv.url, {
    method,
    target,
    headers: [['Host', host], ['Accept', 'application/json'], ...(text ? ([['Content-Type', 'application/json'], ['Content-Length', String(Buffer.byteLength(text))]] as [string, string][]) : [])],
    ...(text ? { body: text } : {}),
  });
  return { status: res.status, text: res.text, json: () => JSON.parse(res.text) };
}
const cdn = (path: string) => `/cdn/${hubName}${path}`;

async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected the SDK call to fail');
}

describe('locale resolves localized fields (the vendor SDK configured with locale)', () => {
  let leaf: string;
  let root: string;
  let key: string;

  beforeAll(async () => {
    leaf = await item({ heading: lv(['de-DE', 'Blatt'], ['en-US', 'Leaf']), order: 2 });
    key = `home/${unique('page')}`;
    root = await item(
      {
        heading: lv(['en-US', 'Set'], ['de-de', 'Satz'], ['en-GB', 'Set (GB)']),
        blurb: lv(['en-GB', 'Colour'], ['fr-FR', 'Couleur']),
        order: 1,
        card: { label: lv(['en-US', 'Shop now'], ['de-DE', 'Jetzt kaufen']) },
        links: [contentLink(leaf, uri)],
        onlyFrench: lv(['fr-FR', 'Seulement']),
      },
      { deliveryKey: key },
    );
  });

  it('CD2 by id and by key: every localized field is a string, linked items too; the first locale of the list with a value wins; none: null', async () => {
    const client = cd2({ locale: 'en-US,en-*' });
    const byId = (await client.getContentItemById(root)).toJSON() as any;
    expect(byId.heading).toBe('Set');
    // en-US has no blurb: the wildcard en-* takes en-GB.
    expect(byId.blurb).toBe('Colour');
    expect(byId.card).toEqual({ label: 'Shop now' });
    expect(byId.links[0]).toMatchObject({ heading: 'Leaf', order: 2, _meta: { deliveryId: leaf } });
    // No locale of the list has a value: null (the sandbox's choice, docs/delivery.md).
    expect(byId.onlyFrench).toBeNull();
    expect(byId._meta).toMatchObject({ schema: uri, deliveryId: root, deliveryKey: key });
    expect((await client.getContentItemByKey(key)).toJSON()).toEqual(byId);

    // List order decides, not the order of the stored values; locales compare without regard to case.
    const german = (await cd2({ locale: 'de-DE,en-US' }).getContentItemById(root)).toJSON() as any;
    expect(german).toMatchObject({ heading: 'Satz', card: { label: 'Jetzt kaufen' }, links: [{ heading: 'Blatt' }] });
    expect(german.blurb).toBeNull();
    // `*` takes the first value there is.
    expect(((await cd2({ locale: 'xx-XX,*' }).getContentItemById(root)).toJSON() as any).blurb).toBe('Colour');
    // Without locale: every value, as stored.
    expect(((await cd2().getContentItemById(root)).toJSON() as any).heading).toEqual(lv(['en-US', 'Set'], ['de-de', 'Satz'], ['en-GB', 'Set (GB)']));
  });

  it('CD2 filter and fetch (parameters.locale) and hierarchies (?locale) through the SDK', async () => {
    const client = cd2({ locale: 'en-GB,en-*' });
    const page = await client.filterByContentType(uri).sortBy('default', 'ASC').request({ depth: 'all', format: 'inlined' });
    const roots = page.responses.map((r: any) => r.content).filter((c: any) => c._meta.deliveryId === root);
    expect(roots).toHaveLength(1);
    expect(roots[0]).toMatchObject({ heading: 'Set (GB)', blurb: 'Colour', links: [{ heading: 'Leaf' }] });

    const fetched = await client.getContentItemsById([root, leaf]);
    expect(fetched.responses.map((r: any) => r.content.heading)).toEqual(['Set (GB)', 'Leaf']);

    const top = await item({ heading: lv(['en-GB', 'Menu'], ['de-DE', 'Menü']) }, { hierarchy: { root: true } });
    const child = await item({ heading: lv(['de-DE', 'Kind'], ['en-GB', 'Child']) }, { hierarchy: { root: false, parentId: top } });
    const tree = await cd2({ locale: 'de-DE' }).getByHierarchy({ rootId: top });
    expect((tree as any).content.heading).toBe('Menü');
    expect((tree as any).children.map((c: any) => [c.content._meta.deliveryId, c.content.heading])).toEqual([[child, 'Kind']]);
  });

  it('the staging host: CD2 paths and the staging query (the SDK with stagingEnvironment and locale) answer the latest version localized', async () => {
    const draft = await item({ heading: lv(['en-US', 'Draft'], ['de-DE', 'Entwurf']), links: [contentLink(leaf, uri)] }, {}, false);
    const viaCd2 = (await onStaging({ locale: 'en-US' }).getContentItemById(draft)).toJSON() as any;
    expect(viaCd2).toMatchObject({ heading: 'Draft', links: [{ heading: 'Leaf' }] });
    const filtered = await onStaging({ locale: 'de-*' }).filterByContentType(uri).request({ depth: 'all', format: 'inlined' });
    expect(filtered.responses.find((r: any) => r.content._meta.deliveryId === draft)?.content.heading).toBe('Entwurf');

    // Content Delivery 1: the SDK adds &locale= to /cms/content/query.
    const viaQuery = (await cd1OnStaging({ locale: 'de-DE,en-US' }).getContentItemById(draft)).toJSON() as any;
    expect(viaQuery).toMatchObject({ heading: 'Entwurf', links: [{ heading: 'Blatt' }] });
    // Without locale the staging query answers every value.
    expect(((await cd1OnStaging().getContentItemById(draft)).toJSON() as any).heading.values).toHaveLength(2);
    // Rendering (the SDK adds ?locale= there too): the raw template shows the item as JSON.
    const rendered = await new ContentClient({ account: hubName, baseUrl: srv.url, locale: 'de-DE' }).renderContentItem(draft, 'raw');
    expect(rendered.body).toContain('&quot;heading&quot;: &quot;Entwurf&quot;');
    expect(rendered.body).not.toContain('Draft');
    // The staging query on the sandbox's own origin takes it too.
    const iri = encodeURIComponent(JSON.stringify({ 'sys.iri': `http://content.cms.amplience.com/${draft}` }));
    const q = await raw('GET', `/cms/content/query?query=${iri}&fullBodyObject=true&scope=tree&store=${hubName}&locale=en-US`);
    expect(q.status, q.text).toBe(200);
    expect(q.json()['@graph'].find((n: any) => n['@id'].endsWith(draft)).heading).toBe('Draft');
  });

  it('a localized link: only the chosen locale\'s item is followed (inlined, and in linkedContent)', async () => {
    const english = await item({ heading: lv(['en-US', 'English target']) });
    const german = await item({ heading: lv(['de-DE', 'Deutsches Ziel']) });
    const page = await item({ localizedLink: lv(['en-US', contentLink(english, uri)], ['de-DE', contentLink(german, uri)]) });
    const inlined = await raw('GET', cdn(`/content/id/${page}?depth=all&format=inlined&locale=de-DE`));
    expect(inlined.json().content.localizedLink).toMatchObject({ heading: 'Deutsches Ziel', _meta: { deliveryId: german } });
    const linked = await raw('GET', cdn(`/content/id/${page}?depth=all&format=linked&locale=en-US`));
    expect(linked.json().content.localizedLink).toEqual(contentLink(english, uri));
    expect(linked.json().linkedContent.map((c: any) => [c._meta.deliveryId, c.heading])).toEqual([[english, 'English target']]);
  });
});

describe('raw requests in the forms real sites send', () => {
  it('GET with locale in the query, POST filter with parameters.locale and lower-case sortBy.order, fetch with parameters.locale', async () => {
    const a = await item({ heading: lv(['en-US', 'First']), order: 10 });
    const b = await item({ heading: lv(['en-US', 'Second']), order: 20 });
    const got = await raw('GET', cdn(`/content/id/${a}?depth=all&format=inlined&locale=en-US`));
    expect(got.status, got.text).toBe(200);
    expect(got.json().content.heading).toBe('First');
    // The vendor's storefront sends `locale=` when no locale is set: every value, not a 400.
    expect((await raw('GET', cdn(`/content/id/${a}?depth=all&format=inlined&locale=`))).json().content.heading.values).toHaveLength(1);

    const filterBody = (order: string) => ({
      filterBy: [{ path: '/_meta/schema', value: uri }],
      sortBy: { key: 'default', order },
      page: { size: 12 },
      parameters: { depth: 'all', format: 'inlined', locale: 'en-US' },
    });
    const headings = (res: { json: () => any }) => res.json().responses.map((r: any) => r.content.heading).filter((h: unknown) => h === 'First' || h === 'Second');
    const asc = await raw('POST', cdn('/content/filter'), filterBody('asc'));
    expect(asc.status, asc.text).toBe(200);
    expect(headings(asc)).toEqual(['First', 'Second']);
    // Descending, in mixed case, reaches the items created last first.
    const desc = await raw('POST', cdn('/content/filter'), { ...filterBody('Desc'), filterBy: [{ path: '/_meta/schema', value: uri }] });
    expect(desc.status, desc.text).toBe(200);
    expect(headings(desc)).toEqual(['Second', 'First']);
    for (const order of ['ASC', 'desc', 'aSc']) expect((await raw('POST', cdn('/content/filter'), filterBody(order))).status, order).toBe(200);

    const fetched = await raw('POST', cdn('/content/fetch'), { requests: [{ id: b }, { id: a }], parameters: { depth: 'all', format: 'inlined', locale: 'en-US' } });
    expect(fetched.json().responses.map((r: any) => r.content.heading)).toEqual(['Second', 'First']);

    // The same forms on the staging host.
    expect((await raw('GET', `/content/id/${a}?depth=all&format=inlined&locale=en-US`, undefined, staging)).json().content.heading).toBe('First');
    const stagedFilter = await raw('POST', '/content/filter', filterBody('asc'), staging);
    expect(stagedFilter.status, stagedFilter.text).toBe(200);
    expect(headings(stagedFilter)).toEqual(['First', 'Second']);
    // Hierarchy sort order takes any case too.
    const top = await item({ heading: lv(['en-US', 'Top']) }, { hierarchy: { root: true } });
    expect((await raw('GET', cdn(`/content/hierarchies/descendants/id/${top}?sortByOrder=desc&locale=en-US`))).status).toBe(200);
  });
});

describe('bad input', () => {
  it('a malformed or unknown locale list is 400 INVALID_PARAMETERS naming locale, on every route (CD2 and the staging host)', async () => {
    const id = await item({ heading: lv(['en-US', 'x']) }, { hierarchy: { root: true } });
    const bad = ['english', 'en_US', 'en-US;q=0.9', '*-US', 'en-**', 'en,,de', ',', 'e', `${'en-US,'.repeat(32)}en-US`, `en-${'a'.repeat(300)}`, 'en-US\u0000'];
    for (const locale of bad) {
      const q = encodeURIComponent(locale);
      for (const [method, target, body] of [
        ['GET', `/content/id/${id}?locale=${q}`],
        ['GET', `/content/key/some/key?locale=${q}`],
        ['POST', '/content/filter', { filterBy: [{ path: '/_meta/schema', value: uri }], parameters: { locale } }],
        ['POST', '/content/fetch', { requests: [{ id }], parameters: { locale } }],
        ['GET', `/content/hierarchies/descendants/id/${id}?locale=${q}`],
      ] as [string, string, unknown?][]) {
        for (const [path, host] of [[cdn(target), undefined], [target, staging]] as const) {
          const res = await raw(method, path, body, host);
          expect(res.status, `${method} ${path} ${locale}: ${res.text}`).toBe(400);
          expect(res.json().error, locale).toMatchObject({ type: 'INVALID_PARAMETERS', data: { parameter: 'locale' } });
          expect(res.json().error.message).toContain('locale');
        }
      }
      const iri = encodeURIComponent(JSON.stringify({ 'sys.iri': `http://content.cms.amplience.com/${id}` }));
      const query = await raw('GET', `/cms/content/query?query=${iri}&store=staging&locale=${q}`, undefined, staging);
      expect(query.status, `staging query ${locale}`).toBe(400);
      expect(query.json().errors[0]).toMatchObject({ property: 'locale' });
    }
    // Not a string in parameters.
    for (const locale of [5, ['en-US'], { en: true }, true]) {
      const res = await raw('POST', cdn('/content/filter'), { filterBy: [{ path: '/_meta/schema', value: uri }], parameters: { locale } });
      expect(res.status, JSON.stringify(locale)).toBe(400);
      expect(res.json().error.data.parameter).toBe('locale');
    }
    // The SDK raises it as an HttpError with the status.
    const err = await rejection(cd2({ locale: 'english' }).getContentItemById(id));
    expect(err.status ?? err.response?.status).toBe(400);
  });

  it('sortBy.order other than ASC/DESC in any case is still 400', async () => {
    for (const order of ['up', 'ascending', 'ASCX', '', 1]) {
      const res = await raw('POST', cdn('/content/filter'), { filterBy: [{ path: '/_meta/schema', value: uri }], sortBy: { key: 'default', order } });
      expect(res.status, String(order)).toBe(400);
      expect(res.json().error.type).toBe('INVALID_PARAMETERS');
    }
    const top = await item({ heading: lv(['en-US', 'Top']) }, { hierarchy: { root: true } });
    expect((await raw('GET', cdn(`/content/hierarchies/descendants/id/${top}?sortByOrder=sideways`))).status).toBe(400);
  });

  it('a localized-value with a malformed values list in stored content is delivered as stored, never a 500', async () => {
    const malformed = [
      { _meta: { schema: LOCALIZED }, values: 'en-US' },
      { _meta: { schema: LOCALIZED }, values: [{ locale: 5, value: 'x' }] },
      { _meta: { schema: LOCALIZED }, values: [{ locale: 'en-US' }] },
      { _meta: { schema: LOCALIZED }, values: [null] },
      { _meta: { schema: LOCALIZED } },
    ];
    for (const free of malformed) {
      const id = await item({ heading: lv(['en-US', 'Fine']), free });
      for (const [target, host] of [[cdn(`/content/id/${id}?depth=all&locale=en-US`), undefined], [`/content/id/${id}?locale=en-US`, staging]] as const) {
        const res = await raw('GET', target, undefined, host);
        expect(res.status, res.text).toBe(200);
        expect(res.json().content.free, JSON.stringify(free)).toEqual(free);
        expect(res.json().content.heading).toBe('Fine');
      }
    }
  });

  it('a long list against many values: answered (the work is entries × values, no pattern built from input)', async () => {
    const values: [string, unknown][] = Array.from({ length: 500 }, (_, i) => [`zz-${String(i).padStart(3, '0')}`, `v${i}`]);
    const id = await item({ heading: lv(...values, ['en-US', 'Found']) });
    const list = [...Array.from({ length: 30 }, (_, i) => `q${String.fromCharCode(97 + (i % 26))}-*`), 'en-*', '*'].join(',');
    const res = await raw('GET', cdn(`/content/id/${id}?locale=${encodeURIComponent(list)}`));
    expect(res.status, res.text).toBe(200);
    expect(res.json().content.heading).toBe('Found');
    // Measured, not asserted: the median of 5 reads with the list and without (answers are
    // cached per list, so each read names a list of its own: a space after a different entry).
    const median = async (target: (i: number) => string) => {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const t = performance.now();
        expect((await raw('GET', cdn(target(i)))).status).toBe(200);
        times.push(performance.now() - t);
      }
      return times.sort((x, y) => x - y)[2]!.toFixed(1);
    };
    const entries = list.split(',');
    const withList = await median((i) => `/content/id/${id}?locale=${encodeURIComponent(entries.map((e, j) => (j === i ? ` ${e}` : e)).join(','))}`);
    const without = await median((i) => `/content/id/${id}?depth=root&format=${i % 2 ? 'inlined' : 'linked'}&x=${i}`);
    console.log(`[reliability] locale: 32 entries (30 wildcards that match nothing) against 501 values: median ${withList} ms a read (the same item without locale: ${without} ms)`);
  });
});
