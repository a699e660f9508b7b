import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, startServer, type TestServer } from '../../helpers/server.js';
import { errorProperties, expectError, FN, HEX_ID, ISO_MILLIS, MISSING_ID } from '../../helpers/assert.js';
import { CONTENT_REF, CORE, IMAGE_REF, createSchema, schemaDoc, schemaUri } from '../../helpers/content-model.js';

// Content type schemas: wire-contract §4 (create, list, get, by version, history, update,
// archive, unarchive, resolve) with the rules of schema validation and optimistic versions.

let srv: TestServer;
let admin: Api;
let hubId: string;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  hubId = (await createHub(admin)).id;
});

afterAll(async () => {
  await srv?.stop();
});

const post = (body: unknown, hub = hubId) => admin.post(`/hubs/${hub}/content-type-schemas`, body);
const schemaIds = (body: any): string[] => body._embedded['content-type-schemas'].map((s: { schemaId: string }) => s.schemaId);

describe('create', () => {
  it('answers 201 with the schema at version 1, its body as a string, and a Location', async () => {
    const id = schemaUri();
    const doc = schemaDoc(id);
    const res = await post({ schemaId: id, body: JSON.stringify(doc), validationLevel: 'CONTENT_TYPE' });
    expect(res.status, res.text).toBe(201);
    const s = res.body;
    expect(s.id).toMatch(HEX_ID);
    expect(s).toMatchObject({ schemaId: id, version: 1, validationLevel: 'CONTENT_TYPE', status: 'ACTIVE' });
    expect(JSON.parse(s.body)).toEqual(doc);
    expect(s.createdDate).toMatch(ISO_MILLIS);
    expect(res.headers.get('location')).toBe(`${admin.base}/content-type-schemas/${s.id}`);
  });

  it('an active schema links self, content-type-schema, hub, history, getByVersion, update and archive', async () => {
    const s = await createSchema(admin, hubId);
    const self = `${admin.base}/content-type-schemas/${s.id}`;
    expect(s._links).toEqual({
      self: { href: self },
      'content-type-schema': { href: self },
      hub: { href: `${admin.base}/hubs/${hubId}` },
      history: { href: `${self}/history{?page,size,sort}`, templated: true },
      getByVersion: { href: `${self}/{version}`, templated: true },
      update: { href: self },
      archive: { href: `${self}/archive` },
    });
  });

  it('accepts the body as an object and stores it as a string; validationLevel defaults to CONTENT_TYPE', async () => {
    const id = schemaUri();
    const res = await post({ schemaId: id, body: schemaDoc(id) });
    expect(res.status, res.text).toBe(201);
    expect(typeof res.body.body).toBe('string');
    expect(JSON.parse(res.body.body).id).toBe(id);
    expect(res.body.validationLevel).toBe('CONTENT_TYPE');
  });

  it.each([
    ['body', (id: string) => ({ schemaId: id, body: '{"$schema": ' })],
    ['body', (id: string) => ({ schemaId: id, body: '[1, 2]' })],
    ['body.$schema', (id: string) => ({ schemaId: id, body: schemaDoc(id, { $schema: 'http://json-schema.org/draft-03/schema#' }) })],
    ['body.$schema', (id: string) => ({ schemaId: id, body: schemaDoc(id, { $schema: undefined }) })],
    ['body.id', (id: string) => ({ schemaId: id, body: schemaDoc(`${id}.other`) })],
    ['body.id', (id: string) => ({ schemaId: id, body: schemaDoc(id, { id: undefined }) })],
    ['body.type', (id: string) => ({ schemaId: id, body: schemaDoc(id, { type: 'array' }) })],
    ['body.properties.title.type', (id: string) => ({ schemaId: id, body: schemaDoc(id, { properties: { title: { type: 'no-such-type' } } }) })],
    ['body.$ref', (id: string) => ({ schemaId: id, body: schemaDoc(id, { properties: { other: { $ref: '#/definitions/missing' } } }) })],
    ['schemaId', () => ({ schemaId: 'not a url', body: schemaDoc('not a url') })],
    ['schemaId', (id: string) => ({ body: schemaDoc(id) })],
    ['body', (id: string) => ({ schemaId: id })],
    ['validationLevel', (id: string) => ({ schemaId: id, body: schemaDoc(id), validationLevel: 'STRICT' })],
  ])('a schema failing a rule is 400 naming %s', async (property, make) => {
    const id = schemaUri();
    const res = await post(make(id));
    const err = expectError(res, 400);
    expect(errorProperties(res), res.text).toContain(property);
    expect(err.entity).toBe('ContentTypeSchema');
    // Nothing was stored.
    const listed = await admin.get(`/hubs/${hubId}/content-type-schemas?size=1000`);
    expect(schemaIds(listed.body)).not.toContain(id);
  });

  it('reports every rule a document breaks in one answer', async () => {
    const id = schemaUri();
    const res = await post({ schemaId: id, body: schemaDoc(`${id}.x`, { type: 'string', $schema: 'nope' }) });
    expectError(res, 400);
    expect(errorProperties(res)).toEqual(expect.arrayContaining(['body.$schema', 'body.id', 'body.type']));
  });

  it('SLOT validation refuses image and video chooser properties, naming each; CONTENT_TYPE accepts them', async () => {
    const id = schemaUri('slot');
    const doc = schemaDoc(id, { properties: { hero: { allOf: [{ $ref: IMAGE_REF }] }, nested: { type: 'object', properties: { clip: { $ref: `${CORE}#/definitions/video-link` } } } } });
    const slot = await post({ schemaId: id, body: doc, validationLevel: 'SLOT' });
    expectError(slot, 400);
    expect(errorProperties(slot)).toEqual(['body.properties.hero', 'body.properties.nested.properties.clip']);
    expect((await post({ schemaId: id, body: doc, validationLevel: 'CONTENT_TYPE' })).status).toBe(201);
  });

  it('a $ref to another schema of the hub is allowed', async () => {
    const other = await createSchema(admin, hubId);
    const id = schemaUri();
    const res = await post({ schemaId: id, body: schemaDoc(id, { properties: { inner: { $ref: other.schemaId } } }) });
    expect(res.status, res.text).toBe(201);
  });

  it('a schema id taken in the hub is 409 naming schemaId; another hub may use it', async () => {
    const s = await createSchema(admin, hubId);
    const err = expectError(await post({ schemaId: s.schemaId, body: s.body }), 409);
    expect(err).toMatchObject({ code: 'DUPLICATE_SCHEMA_ID', property: 'schemaId' });
    const other = (await createHub(admin)).id;
    expect((await post({ schemaId: s.schemaId, body: s.body }, other)).status).toBe(201);
  });

  it('in an unknown hub is 404', async () => {
    const id = schemaUri();
    expectError(await post({ schemaId: id, body: schemaDoc(id) }, MISSING_ID), 404);
  });
});

describe('list', () => {
  let listHub: string;
  let a: any;
  let b: any;
  let c: any;
  beforeAll(async () => {
    listHub = (await createHub(admin)).id;
    a = await createSchema(admin, listHub, 'https://schema.example.com/list/a.json');
    b = await createSchema(admin, listHub, 'https://schema.example.com/list/b.json');
    c = await createSchema(admin, listHub, 'https://schema.example.com/list/c.json');
    expect((await admin.post(`/content-type-schemas/${b.id}/archive`, { version: 1 })).status).toBe(200);
  });
  const listOf = (query = '') => admin.get(`/hubs/${listHub}/content-type-schemas${query}`);

  it('without a filter lists every schema of the hub, oldest first, in the paging envelope', async () => {
    const res = await listOf();
    expect(res.status).toBe(200);
    expect(schemaIds(res.body)).toEqual([a.schemaId, b.schemaId, c.schemaId]);
    expect(res.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    expect(Object.keys(res.body._links).sort()).toEqual(['first', 'last', 'self']);
    expect(res.body._embedded['content-type-schemas'][0]._links.self.href).toBe(`${admin.base}/content-type-schemas/${a.id}`);
  });

  it.each([
    ['ACTIVE', () => [a, c]],
    ['ARCHIVED', () => [b]],
    ['ACTIVE,ARCHIVED', () => [a, b, c]],
    ['ACTIVE%2CARCHIVED', () => [a, b, c]],
  ])('status=%s filters', async (status, expected) => {
    const res = await listOf(`?status=${status}`);
    expect(schemaIds(res.body)).toEqual(expected().map((s: any) => s.schemaId));
  });

  it('pages with size and zero-based page, with next and prev links', async () => {
    const first = await listOf('?size=2');
    expect(schemaIds(first.body)).toEqual([a.schemaId, b.schemaId]);
    expect(first.body.page).toEqual({ size: 2, totalElements: 3, totalPages: 2, number: 0 });
    expect(first.body._links.next.href).toContain('page=1');
    const second = await admin.get(first.body._links.next.href);
    expect(schemaIds(second.body)).toEqual([c.schemaId]);
    expect(second.body._links.prev.href).toContain('page=0');
    const beyond = await listOf('?size=2&page=5');
    expect(beyond.body._embedded['content-type-schemas']).toEqual([]);
  });

  it('sorts by schemaId descending', async () => {
    expect(schemaIds((await listOf('?sort=schemaId,desc')).body)).toEqual([c.schemaId, b.schemaId, a.schemaId]);
  });

  it('an empty hub answers an empty embedded array', async () => {
    const empty = (await createHub(admin)).id;
    const res = await admin.get(`/hubs/${empty}/content-type-schemas`);
    expect(res.body._embedded).toEqual({ 'content-type-schemas': [] });
    expect(res.body.page.totalElements).toBe(0);
  });

  it.each([
    ['status', '?status=DELETED'],
    ['sort', '?sort=body,asc'],
    ['size', '?size=0'],
  ])('a bad %s is 400', async (property, query) => {
    expect(expectError(await listOf(query), 400).property).toBe(property);
  });
});

describe('get, by version and history', () => {
  it('gets a schema by id; an unknown id is 404', async () => {
    const s = await createSchema(admin, hubId);
    const res = await admin.get(`/content-type-schemas/${s.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(s);
    expect(expectError(await admin.get(`/content-type-schemas/${MISSING_ID}`), 404).entity).toBe('ContentTypeSchema');
  });

  it('each version stays readable; history lists them newest first, paged', async () => {
    const s = await createSchema(admin, hubId);
    const v2Doc = schemaDoc(s.schemaId, { title: 'Second' });
    const v3Doc = schemaDoc(s.schemaId, { title: 'Third' });
    expect((await admin.patch(`/content-type-schemas/${s.id}`, { body: JSON.stringify(v2Doc) })).status).toBe(200);
    expect((await admin.patch(`/content-type-schemas/${s.id}`, { body: JSON.stringify(v3Doc) })).status).toBe(200);

    const v1 = await admin.get(`/content-type-schemas/${s.id}/1`);
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({ id: s.id, version: 1, schemaId: s.schemaId });
    expect(JSON.parse(v1.body.body).title).toBe('Test type');
    expect(v1.body._links.self.href).toBe(`${admin.base}/content-type-schemas/${s.id}/1`);
    expect(v1.body._links['content-type-schema'].href).toBe(`${admin.base}/content-type-schemas/${s.id}`);
    expect(v1.body._links.update).toBeUndefined();
    expect(JSON.parse((await admin.get(`/content-type-schemas/${s.id}/2`)).body.body).title).toBe('Second');

    const history = await admin.get(`/content-type-schemas/${s.id}/history`);
    expect(history.status).toBe(200);
    expect(history.body._embedded['content-type-schemas'].map((v: any) => v.version)).toEqual([3, 2, 1]);
    expect(history.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    const asc = await admin.get(`/content-type-schemas/${s.id}/history?sort=version,asc&size=2&page=1`);
    expect(asc.body._embedded['content-type-schemas'].map((v: any) => v.version)).toEqual([3]);
    expect(asc.body.page).toMatchObject({ totalPages: 2, number: 1 });
  });

  it('an unknown version is 404 naming version; a version that is not a positive integer is 400', async () => {
    const s = await createSchema(admin, hubId);
    expect(expectError(await admin.get(`/content-type-schemas/${s.id}/9`), 404).property).toBe('version');
    expect(expectError(await admin.get(`/content-type-schemas/${s.id}/0`), 400).property).toBe('version');
    expect(expectError(await admin.get(`/content-type-schemas/${s.id}/latest`), 400).property).toBe('version');
    expectError(await admin.get(`/content-type-schemas/${MISSING_ID}/1`), 404);
    expectError(await admin.get(`/content-type-schemas/${MISSING_ID}/history`), 404);
  });
});

describe('update', () => {
  it('a new body makes a new version (200 with Location); the document is re-validated', async () => {
    const s = await createSchema(admin, hubId);
    const doc = schemaDoc(s.schemaId, { properties: { title: { type: 'string' }, subtitle: { type: 'string' } } });
    const res = await admin.patch(`/content-type-schemas/${s.id}`, { body: JSON.stringify(doc) });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('location')).toBe(`${admin.base}/content-type-schemas/${s.id}`);
    expect(res.body).toMatchObject({ id: s.id, version: 2, status: 'ACTIVE', validationLevel: 'CONTENT_TYPE' });
    expect(JSON.parse(res.body.body)).toEqual(doc);
    expect((await admin.get(`/content-type-schemas/${s.id}`)).body.version).toBe(2);
  });

  it('validationLevel alone makes a new version, checked against the stored body', async () => {
    const id = schemaUri();
    const withImage = await createSchema(admin, hubId, id, schemaDoc(id, { properties: { hero: { $ref: IMAGE_REF } } }));
    const slot = await admin.patch(`/content-type-schemas/${withImage.id}`, { validationLevel: 'SLOT' });
    expect(errorProperties(slot)).toEqual(['body.properties.hero']);
    const plain = await createSchema(admin, hubId);
    const ok = await admin.patch(`/content-type-schemas/${plain.id}`, { validationLevel: 'SLOT' });
    expect(ok.body).toMatchObject({ version: 2, validationLevel: 'SLOT' });
    expect(ok.body.body).toBe(plain.body);
  });

  it('the whole fetched resource sent back is accepted: read-only fields are ignored', async () => {
    const s = await createSchema(admin, hubId);
    const doc = schemaDoc(s.schemaId, { title: 'Round trip' });
    const res = await admin.patch(`/content-type-schemas/${s.id}`, { ...s, body: JSON.stringify(doc), id: MISSING_ID, status: 'ARCHIVED', createdBy: 'someone' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, version: 2, status: 'ACTIVE', createdBy: s.createdBy });
  });

  it('a given version must be the current one: a stale version is 409 and nothing changes', async () => {
    const s = await createSchema(admin, hubId);
    const doc = (title: string) => JSON.stringify(schemaDoc(s.schemaId, { title }));
    expect((await admin.patch(`/content-type-schemas/${s.id}`, { body: doc('Two'), version: 1 })).body.version).toBe(2);
    const stale = await admin.patch(`/content-type-schemas/${s.id}`, { body: doc('Stale'), version: 1 });
    expect(expectError(stale, 409)).toMatchObject({ code: 'VERSION_CONFLICT', property: 'version', invalidValue: 1 });
    const now = (await admin.get(`/content-type-schemas/${s.id}`)).body;
    expect(now.version).toBe(2);
    expect(JSON.parse(now.body).title).toBe('Two');
  });

  it.each([
    ['body.id', (id: string) => ({ body: schemaDoc(`${id}.renamed`) })],
    ['body.type', (id: string) => ({ body: schemaDoc(id, { type: 'string' }) })],
    ['body', () => ({ body: 'not json' })],
    ['body', () => ({})],
    ['validationLevel', () => ({ validationLevel: 'ANY' })],
    ['version', (id: string) => ({ body: schemaDoc(id), version: 'one' })],
  ])('an update breaking a rule is 400 naming %s, and keeps the version', async (property, make) => {
    const s = await createSchema(admin, hubId);
    const res = await admin.patch(`/content-type-schemas/${s.id}`, make(s.schemaId));
    expectError(res, 400);
    expect(errorProperties(res)).toContain(property);
    expect((await admin.get(`/content-type-schemas/${s.id}`)).body.version).toBe(1);
  });

  it('an archived schema cannot be updated (409)', async () => {
    const s = await createSchema(admin, hubId);
    await admin.post(`/content-type-schemas/${s.id}/archive`, { version: 1 });
    const err = expectError(await admin.patch(`/content-type-schemas/${s.id}`, { body: s.body }), 409);
    expect(err.code).toBe('SCHEMA_ARCHIVED');
  });

  it('an unknown schema is 404', async () => {
    expectError(await admin.patch(`/content-type-schemas/${MISSING_ID}`, { validationLevel: 'SLOT' }), 404);
  });
});

describe('archive and unarchive', () => {
  it('archive takes the current version; the archived schema offers only unarchive', async () => {
    const s = await createSchema(admin, hubId);
    const res = await admin.post(`/content-type-schemas/${s.id}/archive`, { version: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, status: 'ARCHIVED', version: 1 });
    const self = `${admin.base}/content-type-schemas/${s.id}`;
    expect(res.body._links.unarchive).toEqual({ href: `${self}/unarchive` });
    expect(res.body._links.update).toBeUndefined();
    expect(res.body._links.archive).toBeUndefined();
    expect((await admin.get(`/content-type-schemas/${s.id}`)).body.status).toBe('ARCHIVED');
  });

  it('unarchive brings it back with update and archive links', async () => {
    const s = await createSchema(admin, hubId);
    await admin.post(`/content-type-schemas/${s.id}/archive`, { version: 1 });
    const res = await admin.post(`/content-type-schemas/${s.id}/unarchive`, { version: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('ACTIVE');
    expect(res.body._links.update).toBeDefined();
    expect(res.body._links.archive).toBeDefined();
    expect(res.body._links.unarchive).toBeUndefined();
  });

  it('archiving an archived schema and unarchiving an active one are 409 with their own codes', async () => {
    const s = await createSchema(admin, hubId);
    expect(expectError(await admin.post(`/content-type-schemas/${s.id}/unarchive`, { version: 1 }), 409).code).toBe('SCHEMA_NOT_ARCHIVED');
    await admin.post(`/content-type-schemas/${s.id}/archive`, { version: 1 });
    expect(expectError(await admin.post(`/content-type-schemas/${s.id}/archive`, { version: 1 }), 409).code).toBe('SCHEMA_ALREADY_ARCHIVED');
  });

  it('a stale version is 409 and the state stays', async () => {
    const s = await createSchema(admin, hubId);
    await admin.patch(`/content-type-schemas/${s.id}`, { validationLevel: 'SLOT' });
    expect(expectError(await admin.post(`/content-type-schemas/${s.id}/archive`, { version: 1 }), 409).code).toBe('VERSION_CONFLICT');
    expect((await admin.get(`/content-type-schemas/${s.id}`)).body.status).toBe('ACTIVE');
    await admin.post(`/content-type-schemas/${s.id}/archive`, { version: 2 });
    expect(expectError(await admin.post(`/content-type-schemas/${s.id}/unarchive`, { version: 1 }), 409).code).toBe('VERSION_CONFLICT');
    expect((await admin.get(`/content-type-schemas/${s.id}`)).body.status).toBe('ARCHIVED');
  });

  it('the version is required (400); an unknown schema is 404', async () => {
    const s = await createSchema(admin, hubId);
    expect(errorProperties(await admin.post(`/content-type-schemas/${s.id}/archive`, {}))).toEqual(['version']);
    expectError(await admin.post(`/content-type-schemas/${MISSING_ID}/archive`, { version: 1 }), 404);
  });
});

describe('resolve', () => {
  const resolve = (body: unknown, hub = hubId) => admin.post(`/hubs/${hub}/content-type-schemas/resolve`, body);
  let leaf: any;
  let middle: any;

  beforeAll(async () => {
    // leaf defines a link; middle uses it through its own internal definition.
    const leafId = schemaUri('leaf');
    leaf = await createSchema(admin, hubId, leafId, schemaDoc(leafId, { definitions: { tag: { type: 'string', maxLength: 10 } } }));
    const middleId = schemaUri('middle');
    middle = await createSchema(
      admin,
      hubId,
      middleId,
      schemaDoc(middleId, {
        definitions: { tags: { type: 'array', items: { $ref: '#/definitions/tagRef' } }, tagRef: { $ref: `${leafId}#/definitions/tag` } },
      }),
    );
  });

  it('inlines refs to other schemas of the hub, through chains and their internal refs; core and local refs stay', async () => {
    const id = schemaUri('root');
    const doc = schemaDoc(id, {
      definitions: { local: { type: 'number' } },
      properties: {
        tags: { $ref: `${middle.schemaId}#/definitions/tags` },
        whole: { $ref: leaf.schemaId },
        count: { $ref: '#/definitions/local' },
      },
    });
    const res = await resolve({ body: JSON.stringify(doc) });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ schemaId: id, resolved: true });
    const out = JSON.parse(res.body.body);
    expect(out.properties.tags).toEqual({ type: 'array', items: { type: 'string', maxLength: 10 } });
    expect(out.properties.count).toEqual({ $ref: '#/definitions/local' });
    expect(out.allOf).toEqual([{ $ref: CONTENT_REF }]);
    // A whole inlined document keeps its content but not its identity.
    const { $schema: _d, id: _i, ...leafContent } = JSON.parse(leaf.body);
    expect(out.properties.whole).toEqual(leafContent);
    expect(JSON.stringify(out)).not.toContain(leaf.schemaId);
    expect(JSON.stringify(out)).not.toContain(middle.schemaId);
  });

  it('resolves a stored schema named by schemaId, and a body given as an object', async () => {
    const byId = await resolve({ schemaId: middle.schemaId });
    expect(byId.status, byId.text).toBe(200);
    expect(byId.body.schemaId).toBe(middle.schemaId);
    const out = JSON.parse(byId.body.body);
    expect(out.definitions.tagRef).toEqual({ type: 'string', maxLength: 10 });
    expect(out.definitions.tags.items).toEqual({ $ref: '#/definitions/tagRef' });
    const asObject = await resolve({ body: JSON.parse(middle.body) });
    expect(JSON.parse(asObject.body.body)).toEqual(out);
  });

  it('a ref back to the resolved document becomes local', async () => {
    const rootId = schemaUri('cyc-root');
    const helperId = schemaUri('helper');
    const definitions = { own: { type: 'boolean' } };
    await createSchema(admin, hubId, rootId, schemaDoc(rootId, { definitions }));
    await createSchema(admin, hubId, helperId, schemaDoc(helperId, { definitions: { back: { $ref: `${rootId}#/definitions/own` } } }));
    const doc = schemaDoc(rootId, { definitions, properties: { flag: { $ref: `${helperId}#/definitions/back` } } });
    const out = JSON.parse((await resolve({ body: doc })).body.body);
    expect(out.properties.flag).toEqual({ $ref: '#/definitions/own' });
  });

  it.each([
    ['an unknown schema', { $ref: 'https://schema.example.com/nowhere.json' }, 'SCHEMA_REF_NOT_FOUND'],
    ['a missing part of a schema', { $ref: '<leaf>#/definitions/absent' }, 'SCHEMA_REF_NOT_FOUND'],
  ])('a ref to %s is 400 naming where the ref is', async (_what, node, code) => {
    const id = schemaUri();
    const ref = node.$ref.replace('<leaf>', leaf.schemaId);
    const res = await resolve({ body: schemaDoc(id, { properties: { broken: { $ref: ref } } }) });
    expect(expectError(res, 400)).toMatchObject({ code, property: 'body.properties.broken.$ref', invalidValue: ref });
  });

  it('a cycle through other schemas is 400 (it cannot be inlined)', async () => {
    const aId = schemaUri('loop-a');
    const bId = schemaUri('loop-b');
    // a refers to b, and b (updated after a exists) refers back to a: a legitimate recursive schema.
    const loopB = await createSchema(admin, hubId, bId, schemaDoc(bId, { definitions: { node: { type: 'object' } } }));
    await createSchema(admin, hubId, aId, schemaDoc(aId, { definitions: { next: { $ref: `${bId}#/definitions/node` } } }));
    const node = { type: 'object', properties: { child: { $ref: `${aId}#/definitions/next` } } };
    const patched = await admin.patch(`/content-type-schemas/${loopB.id}`, { body: schemaDoc(bId, { definitions: { node } }) });
    expect(patched.status, patched.text).toBe(200);
    const res = await resolve({ body: schemaDoc(schemaUri(), { properties: { loop: { $ref: `${aId}#/definitions/next` } } }) });
    expect(expectError(res, 400).code).toBe('CIRCULAR_SCHEMA_REF');
  });

  it.each([
    ['schemaId', { schemaId: 'https://schema.example.com/unknown.json' }],
    ['body', { body: '{ nope' }],
    [undefined, {}],
  ])('a bad request is 400 (%s)', async (property, body) => {
    const err = expectError(await resolve(body), 400);
    expect(err.property).toBe(property);
  });

  it('in an unknown hub is 404', async () => {
    expectError(await resolve({ schemaId: leaf.schemaId }, MISSING_ID), 404);
  });
});

describe('permissions', () => {
  let reader: Api;
  let noRead: Api;
  let noEdit: Api;
  let stranger: Api;
  let s: any;

  beforeAll(async () => {
    s = await createSchema(admin, hubId);
    const acl = [{ resource: 'hubs' as const, id: hubId, permissions: ['READ'] }];
    reader = await admin.client(`schema-reader-${process.pid}`, [FN('CONTENT_TYPE', 'READ')], acl);
    noRead = await admin.client(`schema-noread-${process.pid}`, [FN('CONTENT_TYPE', 'EDIT'), FN('CONTENT_TYPE', 'CREATE')], acl);
    noEdit = await admin.client(`schema-noedit-${process.pid}`, [FN('CONTENT_TYPE', 'READ'), FN('CONTENT_TYPE', 'CREATE')], acl);
    stranger = await admin.client(`schema-stranger-${process.pid}`, [FN('CONTENT_TYPE', 'READ')]);
  });

  it('reads need CONTENT_TYPE:READ (403 without it)', async () => {
    for (const path of [`/hubs/${hubId}/content-type-schemas`, `/content-type-schemas/${s.id}`, `/content-type-schemas/${s.id}/1`, `/content-type-schemas/${s.id}/history`]) {
      expect((await reader.get(path)).status, path).toBe(200);
      const err = expectError(await noRead.get(path), 403);
      expect(err.message).toContain(FN('CONTENT_TYPE', 'READ'));
    }
    expectError(await noRead.post(`/hubs/${hubId}/content-type-schemas/resolve`, { schemaId: s.schemaId }), 403);
    expect((await reader.post(`/hubs/${hubId}/content-type-schemas/resolve`, { schemaId: s.schemaId })).status).toBe(200);
  });

  it('update, archive and unarchive need CONTENT_TYPE:EDIT (403 without it); create needs CREATE', async () => {
    expect(expectError(await noEdit.patch(`/content-type-schemas/${s.id}`, { validationLevel: 'SLOT' }), 403).message).toContain(FN('CONTENT_TYPE', 'EDIT'));
    expectError(await noEdit.post(`/content-type-schemas/${s.id}/archive`, { version: 1 }), 403);
    expectError(await noEdit.post(`/content-type-schemas/${s.id}/unarchive`, { version: 1 }), 403);
    const id = schemaUri();
    expectError(await reader.post(`/hubs/${hubId}/content-type-schemas`, { schemaId: id, body: schemaDoc(id) }), 403);
    expect((await noEdit.post(`/hubs/${hubId}/content-type-schemas`, { schemaId: id, body: schemaDoc(id) })).status).toBe(201);
    expect((await admin.get(`/content-type-schemas/${s.id}`)).body.version).toBe(1);
  });

  it('a reader sees no update or archive links', async () => {
    const links = (await reader.get(`/content-type-schemas/${s.id}`)).body._links;
    expect(Object.keys(links).sort()).toEqual(['content-type-schema', 'getByVersion', 'history', 'hub', 'self']);
  });

  it('a client without access to the hub gets 404', async () => {
    expectError(await stranger.get(`/content-type-schemas/${s.id}`), 404);
    expectError(await stranger.get(`/hubs/${hubId}/content-type-schemas`), 404);
  });
});
