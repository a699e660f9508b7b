import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DynamicContent, ContentTypeSchema, ValidationLevel } from 'dc-management-sdk-js';
import { Api, createHub, createRepo, startServer, unique, type TestServer } from '../../helpers/server.js';
import { errorProperties } from '../../helpers/assert.js';
import { enableDeliveryKeys } from '../../helpers/content.js';

// Issue 31.3: plain JSON Schema draft-04 content type schemas (`$schema`
// http://json-schema.org/draft-04/schema#, identity in `id`, allOf of the core `content`
// definition), the form the vendor's sample blog ships all six of its schemas in. Accepted beside
// the service dialect and draft-07, validated as draft-04 (a boolean exclusiveMaximum), with the
// core definitions resolvable. The fixture is the project's own (test/fixtures/draft04-blog).

const FIXTURES = join(import.meta.dirname, '../../fixtures/draft04-blog');
const BASE = 'https://schemas.example.com/draft04-blog/';
const CORE = 'http://bigcontent.io/cms/schema/v1/core#/definitions';
const docs = Object.fromEntries(
  readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .map((f) => [f.replace(/\.json$/, ''), JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as Record<string, unknown>]),
);

let srv: TestServer;
let api: Api;
let hubId: string;
let repoId: string;

beforeAll(async () => {
  srv = await startServer();
  api = await new Api(srv.url).login();
  hubId = (await createHub(api)).id;
  await enableDeliveryKeys(api, hubId);
  repoId = (await createRepo(api, hubId)).id;
});
afterAll(() => srv?.stop());

const uri = (name: string) => `${BASE}${name}.json`;
const link = (id: string, name: string) => ({ _meta: { schema: `${CORE}/content-link` }, contentType: uri(name), id });
const createItem = (name: string, fields: Record<string, unknown>, meta: Record<string, unknown> = {}) =>
  api.post(`/content-repositories/${repoId}/content-items`, { label: unique(name), body: { _meta: { schema: uri(name), name, ...meta }, ...fields } });
async function created(name: string, fields: Record<string, unknown>, meta: Record<string, unknown> = {}): Promise<string> {
  const res = await createItem(name, fields, meta);
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

describe('plain draft-04 content type schemas (the sample blog form)', () => {
  it('the six schemas are created through the vendor management SDK, all at once (links between them resolve late), registered and assigned', async () => {
    expect(Object.keys(docs).sort()).toEqual(['article', 'clip', 'picture', 'post-list', 'prose', 'writer']);
    const dc = new DynamicContent({ client_id: 'sandbox-admin', client_secret: 'sandbox-secret' }, { apiUrl: `${srv.url}/v2/content`, authUrl: srv.url });
    const hub = await dc.hubs.get(hubId);
    // In reverse order, concurrently, as tools create a model: article names writer before writer exists.
    const schemas = await Promise.all(
      Object.entries(docs)
        .reverse()
        .map(([name, doc]) => hub.related.contentTypeSchema.create(new ContentTypeSchema({ schemaId: uri(name), body: JSON.stringify(doc, null, 2), validationLevel: ValidationLevel.CONTENT_TYPE }))),
    );
    for (const s of schemas) expect(JSON.parse(s.body!).$schema).toBe('http://json-schema.org/draft-04/schema#');
    for (const name of Object.keys(docs)) {
      const type = await api.post(`/hubs/${hubId}/content-types`, { contentTypeUri: uri(name), settings: { label: docs[name]!.title } });
      expect(type.status, type.text).toBe(201);
      expect((await api.post(`/content-repositories/${repoId}/content-types`, { contentTypeId: type.body.id })).status).toBe(200);
    }
    // Every reference of the front page (articles, then writers and pictures) resolves.
    const resolved = await api.post(`/hubs/${hubId}/content-type-schemas/resolve`, { schemaId: uri('post-list') });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.body.resolved).toBe(true);
  });

  it('content is validated as draft-04: a boolean exclusiveMaximum, the core content-link and image-link definitions, patterns, required _meta.deliveryKey', async () => {
    const image = { _meta: { schema: `${CORE}/image-link` }, id: 'img-1', name: 'desk', endpoint: 'demo', defaultHost: 'cdn.media.example.test' };
    const picture = await created('picture', { media: image, caption: 'A desk' });
    const writer = await created('writer', { name: 'Ada', portrait: link(picture, 'picture') });
    const prose = await created('prose', { markdown: '# Hello' });
    const article = (minutes: unknown, extra: Record<string, unknown> = {}) => ({
      headline: 'First post',
      published: '2024-02-29',
      summary: 'What this blog is about',
      cover: link(picture, 'picture'),
      minutes,
      writers: [link(writer, 'writer')],
      body: [link(prose, 'prose'), link(picture, 'picture')],
      ...extra,
    });
    const key = { deliveryKey: unique('posts/first') };
    const post = await created('article', article(119), key);
    await created('post-list', { heading: 'Latest', perPage: 12, pinned: [link(post, 'article')] });

    // draft-04: exclusiveMaximum true beside maximum 120 makes 120 itself too long.
    const atLimit = await createItem('article', article(120), { deliveryKey: unique('posts/limit') });
    expect(atLimit.status, atLimit.text).toBe(400);
    expect(errorProperties(atLimit)).toContain('body.minutes');
    // exclusiveMinimum true beside minimum 0 on the clip: 0 seconds is refused, 1 accepted.
    const video = { _meta: { schema: `${CORE}/video-link` }, id: 'vid-1', name: 'intro', endpoint: 'demo', defaultHost: 'cdn.media.example.test' };
    expect((await createItem('clip', { media: video, seconds: 0 })).status).toBe(400);
    await created('clip', { media: video, seconds: 1 });
    for (const [fields, meta, property] of [
      [article(30, { published: '2024-13-01' }), { deliveryKey: unique('p') }, 'body.published'],
      [article(30, { writers: [] }), { deliveryKey: unique('p') }, 'body.writers'],
      [article(30, { cover: link(prose, 'prose') }), { deliveryKey: unique('p') }, 'body.cover'],
      [article(30), {}, 'body._meta.deliveryKey'],
    ] as const) {
      const res = await createItem('article', fields, meta);
      expect(res.status, `${property}: ${res.text}`).toBe(400);
      expect(errorProperties(res).join(' '), property).toContain(property);
    }
  });

  it('bad draft-04 documents: no id, numeric exclusiveMaximum (draft-06+), an unknown dialect: 400 naming where', async () => {
    const base = docs.prose!;
    const post = (schemaId: string, body: Record<string, unknown>) => api.post(`/hubs/${hubId}/content-type-schemas`, { schemaId, body: JSON.stringify(body), validationLevel: 'CONTENT_TYPE' });
    const idless = `${BASE}${unique('idless')}.json`;
    const { id: _id, ...rest } = base;
    const noId = await post(idless, rest);
    expect(noId.status).toBe(400);
    expect(errorProperties(noId)).toContain('body.id');
    const numeric = `${BASE}${unique('numeric')}.json`;
    const numericBound = await post(numeric, { ...base, id: numeric, properties: { n: { type: 'integer', exclusiveMaximum: 5 } } });
    expect(numericBound.status, numericBound.text).toBe(400);
    expect(errorProperties(numericBound).join(' ')).toContain('exclusiveMaximum');
    const other = `${BASE}${unique('draft03')}.json`;
    const draft03 = await post(other, { ...base, id: other, $schema: 'http://json-schema.org/draft-03/schema#' });
    expect(draft03.status).toBe(400);
    expect(errorProperties(draft03)).toContain('body.$schema');
  });
});
