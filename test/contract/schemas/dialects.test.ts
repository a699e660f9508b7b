import { createRequire } from 'node:module';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, createRepo, startServer, unique, type TestServer } from '../../helpers/server.js';
import { errorProperties, expectError } from '../../helpers/assert.js';
import { CONTENT_REF, CORE, DIALECT, createSchema, schemaDoc, schemaUri } from '../../helpers/content-model.js';

// What the hosted service accepts (wire-contract §6, issue 22 points 1-4 and 6; issue 24.3):
// draft-07 schemas beside the service dialect, references resolved when content is validated,
// the localization document, definitions-only documents, the effective content type as a JSON
// Schema, and patterns that run in linear time.

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const LOCALIZATION = 'https://anyhost.example.net/cms/schema/v1/localization';
const LOCALIZED_VALUE = `${CORE}#/definitions/localized-value`;

let srv: TestServer;
let admin: Api;
let hubId: string;
let repoId: string;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  hubId = (await createHub(admin)).id;
  repoId = (await createRepo(admin, hubId)).id;
});

afterAll(async () => {
  await srv?.stop();
});

/** A draft-07 content type document (identity in $id) with a title property; `extra` on top. */
function draft07(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { $schema: DRAFT_07, $id: id, title: 'Draft-07 type', type: 'object', allOf: [{ $ref: CONTENT_REF }], properties: { title: { type: 'string' } }, ...extra };
}

const postSchema = (schemaId: string, body: unknown, validationLevel = 'CONTENT_TYPE') =>
  admin.post(`/hubs/${hubId}/content-type-schemas`, { schemaId, body: typeof body === 'string' ? body : JSON.stringify(body), validationLevel });

/** Registers the (existing) schema as a type assigned to the test repository; returns the type. */
async function registerType(uri: string): Promise<any> {
  const res = await admin.post(`/hubs/${hubId}/content-types`, { contentTypeUri: uri, settings: { label: unique('type') } });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  const assigned = await admin.post(`/content-repositories/${repoId}/content-types`, { contentTypeId: res.body.id });
  if (assigned.status !== 200) throw new Error(`assign failed: ${assigned.status} ${assigned.text}`);
  return res.body;
}

const createItem = (uri: string, fields: Record<string, unknown>) =>
  admin.post(`/content-repositories/${repoId}/content-items`, { label: unique('item'), body: { _meta: { schema: uri, name: 'n' }, ...fields } });

describe('dialects', () => {
  it('a draft-07 document with its identity in $id is accepted and its content validated by draft-07 rules', async () => {
    const id = schemaUri('d7');
    const doc = draft07(id, {
      properties: {
        title: { type: 'string' },
        kind: { const: 'promo' },
        tags: { type: 'array', contains: { const: 'featured' } },
        attrs: { type: 'object', propertyNames: { pattern: '^[a-z]+$' } },
        mode: { type: 'string' },
        link: { type: 'string' },
      },
      if: { properties: { mode: { const: 'external' } }, required: ['mode'] },
      then: { required: ['link'] },
    });
    const res = await postSchema(id, doc);
    expect(res.status, res.text).toBe(201);
    expect(JSON.parse(res.body.body).$id).toBe(id);
    await registerType(id);

    const good = await createItem(id, { title: 'x', kind: 'promo', tags: ['a', 'featured'], attrs: { ab: 1 }, mode: 'external', link: 'https://x.example' });
    expect(good.status, good.text).toBe(201);

    for (const [fields, property] of [
      [{ kind: 'other' }, 'body.kind'],
      [{ tags: ['a'] }, 'body.tags'],
      [{ attrs: { Upper: 1 } }, 'body.attrs'],
      [{ mode: 'external' }, 'body.link'],
    ] as const) {
      const bad = await createItem(id, { title: 'x', ...fields });
      expectError(bad, 400);
      expect(errorProperties(bad), `${JSON.stringify(fields)} ${bad.text}`).toContain(property);
    }
  });

  it('a service-dialect document keeps draft-04 rules (exclusiveMaximum is a boolean there)', async () => {
    const id = schemaUri('d4');
    const res = await postSchema(id, schemaDoc(id, { properties: { n: { type: 'number', maximum: 10, exclusiveMaximum: true } } }));
    expect(res.status, res.text).toBe(201);
    await registerType(id);
    expect((await createItem(id, { n: 9 })).status).toBe(201);
    expect(errorProperties(await createItem(id, { n: 10 }))).toContain('body.n');
  });

  it.each([
    // Plain draft-04 is a third accepted dialect since issue 31.3 (draft04.test.ts); draft-03 is not.
    ['draft-03', 'http://json-schema.org/draft-03/schema#'],
    ['draft 2020-12', 'https://json-schema.org/draft/2020-12/schema'],
    ['a made-up dialect', 'https://schemas.example.com/other/schema#'],
  ])('a $schema that is none of the dialects (%s) is 400 naming body.$schema', async (_what, dialect) => {
    const id = schemaUri();
    const res = await postSchema(id, draft07(id, { $schema: dialect }));
    expectError(res, 400);
    expect(errorProperties(res)).toContain('body.$schema');
  });

  it.each([
    ['a property type that is no type', { properties: { title: { type: 'no-such-type' } } }],
    ['properties as an array', { properties: [] }],
    ['required as a string', { required: 'title' }],
  ])('a draft-07 document that is not JSON Schema (%s) is 400 naming body', async (_what, extra) => {
    const id = schemaUri();
    const res = await postSchema(id, draft07(id, extra));
    expectError(res, 400);
    expect(errorProperties(res).some((p) => p.startsWith('body')), res.text).toBe(true);
  });

  it('a draft-07 $id must equal schemaId', async () => {
    const id = schemaUri();
    const res = await postSchema(id, draft07(`${id}.other`));
    expectError(res, 400);
    expect(errorProperties(res)).toContain('body.$id');
  });
});

describe('references in any order', () => {
  it('a schema referring to one not registered yet is accepted; content is refused naming the reference until it exists', async () => {
    const cardId = schemaUri('card');
    const listId = schemaUri('card-list');
    const list = draft07(listId, { properties: { cards: { type: 'array', items: { $ref: `${cardId}#/definitions/card` } }, hero: { $ref: cardId } } });
    const first = await postSchema(listId, list);
    expect(first.status, first.text).toBe(201);
    const type = await registerType(listId);

    const early = await createItem(listId, { cards: [{ heading: 'h' }] });
    const err = expectError(early, 400);
    expect(early.text).toContain(cardId);
    expect(err.code).toBe('SCHEMA_REF_NOT_FOUND');

    // Sync and the cached schema work with the reference still open.
    const synced = await admin.patch(`/content-types/${type.id}/schema`, {});
    expect(synced.status, synced.text).toBe(200);

    const card = draft07(cardId, { properties: { heading: { type: 'string', maxLength: 5 } }, definitions: { card: { type: 'object', properties: { heading: { type: 'string', maxLength: 5 } }, required: ['heading'] } } });
    expect((await postSchema(cardId, card)).status).toBe(201);

    const late = await createItem(listId, { cards: [{ heading: 'h' }], hero: { _meta: { schema: cardId }, heading: 'ok' } });
    expect(late.status, late.text).toBe(201);
    const broken = await createItem(listId, { cards: [{ heading: 'too long' }] });
    expectError(broken, 400);
    expect(errorProperties(broken)).toContain('body.cards[0].heading');
  });

  it('a registered draft-07 document naming itself with $id resolves, whole and by fragment, from either dialect', async () => {
    const partId = schemaUri('part');
    const part = { $schema: DRAFT_07, $id: partId, definitions: { size: { type: 'integer', minimum: 1 }, box: { type: 'object', properties: { w: { $ref: '#/definitions/size' } } } } };
    expect((await postSchema(partId, part, 'PARTIAL')).status).toBe(201);
    const d7 = schemaUri('uses-part7');
    expect((await postSchema(d7, draft07(d7, { properties: { box: { $ref: `${partId}#/definitions/box` } } }))).status).toBe(201);
    const d4 = schemaUri('uses-part4');
    expect((await postSchema(d4, schemaDoc(d4, { properties: { box: { $ref: `${partId}#/definitions/box` } } }))).status).toBe(201);
    for (const uri of [d7, d4]) {
      await registerType(uri);
      const good = await createItem(uri, { box: { w: 3 } });
      expect(good.status, good.text).toBe(201);
      expect(errorProperties(await createItem(uri, { box: { w: 0 } }))).toContain('body.box.w');
    }
  });

  it('a draft-07 schema referring to a service-dialect one reads its draft-04 bounds as draft-04 meant them', async () => {
    const d4 = schemaUri('bounds4');
    expect((await postSchema(d4, { $schema: DIALECT, id: d4, definitions: { pct: { type: 'number', minimum: 0, maximum: 100, exclusiveMaximum: true } } }, 'PARTIAL')).status).toBe(201);
    const d7 = schemaUri('uses-bounds4');
    expect((await postSchema(d7, draft07(d7, { properties: { pct: { $ref: `${d4}#/definitions/pct` } } }))).status).toBe(201);
    await registerType(d7);
    expect((await createItem(d7, { pct: 99.5 })).status).toBe(201);
    expect(errorProperties(await createItem(d7, { pct: 100 }))).toContain('body.pct');
  });

  it('a reference cycle that can never resolve is a clear 400 naming the reference when content is validated', async () => {
    const aId = schemaUri('cyc-a');
    const bId = schemaUri('cyc-b');
    expect((await postSchema(aId, { $schema: DRAFT_07, $id: aId, definitions: { x: { $ref: `${bId}#/definitions/y` } } }, 'PARTIAL')).status).toBe(201);
    expect((await postSchema(bId, { $schema: DRAFT_07, $id: bId, definitions: { y: { $ref: `${aId}#/definitions/x` } } }, 'PARTIAL')).status).toBe(201);
    const id = schemaUri('cyc-user');
    expect((await postSchema(id, draft07(id, { properties: { loop: { $ref: `${aId}#/definitions/x` } } }))).status).toBe(201);
    await registerType(id);
    const res = await createItem(id, { loop: 1 });
    const err = expectError(res, 400);
    expect(err.code).toBe('CIRCULAR_SCHEMA_REF');
    expect(res.text).toMatch(/cyc-(a|b)/);
    // The server is still answering.
    expect((await admin.get(`/hubs/${hubId}`)).status).toBe(200);
  });

  it('a recursive schema through another schema (a tree) still validates', async () => {
    const nodeId = schemaUri('node');
    const treeId = schemaUri('tree');
    expect((await postSchema(treeId, draft07(treeId, { properties: { root: { $ref: `${nodeId}#/definitions/node` } } }))).status).toBe(201);
    expect((await postSchema(nodeId, { $schema: DRAFT_07, $id: nodeId, definitions: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: `${treeId}#/properties/root` } } } } } }, 'PARTIAL')).status).toBe(201);
    await registerType(treeId);
    expect((await createItem(treeId, { root: { name: 'a', children: [{ name: 'b', children: [] }] } })).status).toBe(201);
    expect(errorProperties(await createItem(treeId, { root: { name: 'a', children: [{ name: 5 }] } }))).toContain('body.root.children[0].name');
  });

  it('resolve reports every reference that does not resolve', async () => {
    const id = schemaUri();
    const missing1 = 'https://schema.example.com/nowhere-1.json';
    const missing2 = 'https://schema.example.com/nowhere-2.json#/definitions/x';
    const res = await admin.post(`/hubs/${hubId}/content-type-schemas/resolve`, { body: draft07(id, { properties: { a: { $ref: missing1 }, b: { $ref: missing2 } } }) });
    expectError(res, 400);
    expect(errorProperties(res)).toEqual(expect.arrayContaining(['body.properties.a.$ref', 'body.properties.b.$ref']));
  });
});

describe('the localization document', () => {
  it('is served at {origin}/cms/schema/v1/localization with the localized-* definitions', async () => {
    const res = await fetch(`${srv.url}/cms/schema/v1/localization`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as any;
    expect(doc.id).toBe(`${srv.url}/cms/schema/v1/localization`);
    for (const name of ['localized-string', 'localized-number', 'localized-integer', 'localized-boolean', 'localized-image', 'localized-video']) expect(doc.definitions[name], name).toBeTruthy();
    const core = (await (await fetch(`${srv.url}/cms/schema/v1/core`)).json()) as any;
    expect(core.definitions['localized-value']).toBeTruthy();
  });

  it('resolves offline on any host, in both dialects, and validates localized values', async () => {
    for (const make of [(id: string, extra: Record<string, unknown>) => draft07(id, extra), schemaDoc]) {
      const id = schemaUri('loc');
      const doc = make(id, {
        properties: {
          heading: { allOf: [{ $ref: `${LOCALIZATION}#/definitions/localized-string` }] },
          count: { $ref: `http://other.example/cms/schema/v1/localization#/definitions/localized-number` },
          plain: { $ref: LOCALIZED_VALUE },
        },
      });
      const res = await postSchema(id, doc);
      expect(res.status, res.text).toBe(201);
      await registerType(id);
      const meta = { schema: LOCALIZED_VALUE };
      const good = await createItem(id, {
        heading: { _meta: meta, values: [{ locale: 'en-GB', value: 'Hello' }, { locale: 'fr-FR', value: 'Bonjour' }] },
        count: { _meta: meta, values: [{ locale: 'en-GB', value: 3 }] },
        plain: { _meta: meta, values: [{ locale: 'en-GB', value: true }] },
      });
      expect(good.status, good.text).toBe(201);
      const bad = await createItem(id, { heading: { _meta: meta, values: [{ locale: 'en-GB', value: 5 }] } });
      expectError(bad, 400);
      expect(errorProperties(bad)).toContain('body.heading.values[0].value');
    }
  });
});

describe('definitions-only documents', () => {
  const defsOnly = (id: string) => ({ $schema: DRAFT_07, $id: id, title: 'Shared', definitions: { label: { type: 'string', maxLength: 20 } } });

  it.each(['PARTIAL', 'CONTENT_TYPE'])('are accepted as %s, in both dialects', async (level) => {
    const id = schemaUri('defs');
    const res = await postSchema(id, defsOnly(id), level);
    expect(res.status, res.text).toBe(201);
    const id4 = schemaUri('defs4');
    const res4 = await postSchema(id4, { $schema: DIALECT, id: id4, definitions: { n: { type: 'number' } } }, level);
    expect(res4.status, res4.text).toBe(201);
  });

  it('a slot still needs a root type object', async () => {
    const id = schemaUri('defs-slot');
    const res = await postSchema(id, defsOnly(id), 'SLOT');
    expectError(res, 400);
    expect(errorProperties(res)).toContain('body.type');
  });
});

describe('the effective content type', () => {
  it('is a JSON Schema whose top-level properties list every property an item can have, with _links', async () => {
    const baseId = schemaUri('base');
    const imageId = schemaUri('image');
    const id = schemaUri('effective');
    // Registered out of order: the type first, what it refers to afterwards.
    const doc = draft07(id, {
      allOf: [{ $ref: CONTENT_REF }, { $ref: `${baseId}#/definitions/base` }],
      properties: {
        title: { type: 'string' },
        heading: { allOf: [{ $ref: `${LOCALIZATION}#/definitions/localized-string` }] },
        picture: { $ref: `${imageId}#/definitions/picture` },
      },
      required: ['title'],
    });
    expect((await postSchema(id, doc)).status).toBe(201);
    const type = await registerType(id);
    const base = { $schema: DRAFT_07, $id: baseId, definitions: { base: { type: 'object', properties: { slug: { type: 'string' }, rank: { type: 'integer' } }, required: ['slug'] } } };
    expect((await postSchema(baseId, base, 'PARTIAL')).status).toBe(201);
    const image = { $schema: DIALECT, id: imageId, definitions: { picture: { type: 'object', properties: { image: { $ref: `${CORE}#/definitions/image-link` }, alt: { type: 'string' } } } } };
    expect((await postSchema(imageId, image, 'PARTIAL')).status).toBe(201);

    const res = await admin.get(`/content-types/${type.id}/effective-content-type`);
    expect(res.status, res.text).toBe(200);
    const eff = res.body;
    expect(eff.$schema).toBe(DRAFT_07);
    expect(eff.$id ?? eff.id).toBe(id);
    expect(eff.type).toBe('object');
    expect(Object.keys(eff.properties).sort()).toEqual(['_meta', 'heading', 'picture', 'rank', 'slug', 'title']);
    expect(eff.properties.title.type).toBe('string');
    expect(eff.properties.rank.type).toBe('integer');
    expect(eff.properties.heading.type).toBe('object');
    expect(eff.properties.picture.type).toBe('object');
    expect(eff.properties.picture.properties.image.type).toBe('object');
    expect(eff.required).toEqual(expect.arrayContaining(['title', 'slug', '_meta']));
    expect(JSON.stringify(eff)).not.toContain('$ref');
    expect(eff._links.self.href).toBe(`${admin.base}/content-types/${type.id}/effective-content-type`);
    expect(eff._links['content-type'].href).toBe(`${admin.base}/content-types/${type.id}`);
  });

  it('keeps a recursive reference as a local $ref instead of inlining it forever', async () => {
    const id = schemaUri('rec');
    const doc = draft07(id, { definitions: { node: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/definitions/node' } } } } }, properties: { tree: { $ref: '#/definitions/node' } } });
    expect((await postSchema(id, doc)).status).toBe(201);
    const type = await registerType(id);
    const res = await admin.get(`/content-types/${type.id}/effective-content-type`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.properties.tree.type).toBe('object');
  });

  it('keeps a recursion through other schemas (a card list of cards with lists) as a local definition', async () => {
    const listId = schemaUri('eff-list');
    const cardId = schemaUri('eff-card');
    const id = schemaUri('eff-page');
    expect((await postSchema(id, draft07(id, { properties: { cards: { $ref: `${listId}#/definitions/list` } } }))).status).toBe(201);
    expect((await postSchema(listId, { $schema: DRAFT_07, $id: listId, definitions: { list: { type: 'array', items: { $ref: `${cardId}#/definitions/card` } } } }, 'PARTIAL')).status).toBe(201);
    expect((await postSchema(cardId, { $schema: DRAFT_07, $id: cardId, definitions: { card: { type: 'object', properties: { heading: { type: 'string' }, more: { $ref: `${listId}#/definitions/list` } } } } }, 'PARTIAL')).status).toBe(201);
    const type = await registerType(id);
    const res = await admin.get(`/content-types/${type.id}/effective-content-type`);
    expect(res.status, res.text).toBe(200);
    const eff = res.body;
    expect(eff.properties.cards.items.properties.heading.type).toBe('string');
    const local = eff.properties.cards.items.properties.more.$ref;
    expect(local).toMatch(/^#\/definitions\//);
    expect(eff.definitions[local.split('/').pop()].type).toBe('array');
    expect(JSON.stringify(eff)).not.toContain(listId);
    // Items of the type validate against the same model.
    expect((await createItem(id, { cards: [{ heading: 'a', more: [{ heading: 'b' }] }] })).status).toBe(201);
  });

  it('names a reference that does not resolve (400)', async () => {
    const id = schemaUri('eff-missing');
    const missing = schemaUri('not-there');
    expect((await postSchema(id, draft07(id, { properties: { x: { $ref: missing } } }))).status).toBe(201);
    const type = await registerType(id);
    const res = await admin.get(`/content-types/${type.id}/effective-content-type`);
    expectError(res, 400);
    expect(res.text).toContain(missing);
  });
});

/** The type's effective schema (without _links), after registering and assigning it. */
async function effectiveOf(uri: string): Promise<Record<string, unknown>> {
  const type = await registerType(uri);
  const res = await admin.get(`/content-types/${type.id}/effective-content-type`);
  expect(res.status, res.text).toBe(200);
  const { _links, ...doc } = res.body;
  return doc;
}

/**
 * Each body: whether the service accepts it, and whether a plain draft-07 validator (ajv) of the
 * effective schema does, which must also accept the document itself.
 */
async function agree(uri: string, eff: Record<string, unknown>, bodies: [fields: Record<string, unknown>, valid: boolean][]) {
  const Ajv = (createRequire(import.meta.url)('ajv') as { default: new (o: object) => { validateSchema(s: object): boolean; compile(s: object): (d: unknown) => boolean; errors?: unknown } }).default;
  const ajv = new Ajv({ strict: false, allErrors: true });
  expect(ajv.validateSchema(eff), JSON.stringify(ajv.errors)).toBe(true);
  const validate = ajv.compile(eff);
  for (const [fields, valid] of bodies) {
    const res = await createItem(uri, fields);
    expect(res.status, `service: ${JSON.stringify(fields)} ${res.text}`).toBe(valid ? 201 : 400);
    expect(validate({ _meta: { schema: uri, name: 'n' }, ...fields }), `effective schema: ${JSON.stringify(fields)}`).toBe(valid);
  }
}

// The effective content type of a schema whose parts are of different drafts: a service-dialect
// (draft-04) type that pulls draft-07 parts, and the other way round. The merged document must
// declare a $schema under which it means what the parts meant.
const posted = async (schemaId: string, body: object, validationLevel = 'CONTENT_TYPE') => {
  const res = await postSchema(schemaId, body, validationLevel);
  expect(res.status, res.text).toBe(201);
};

describe('the effective content type of mixed drafts', () => {
  it('a service-dialect (draft-04) type pulling draft-07 parts is a draft-07 document that validates what the service validates', async () => {
    const partId = schemaUri('d7-part');
    const id = schemaUri('d4-root');
    await posted(partId, {
      $schema: DRAFT_07,
      $id: partId,
      definitions: {
        part: {
          type: 'object',
          properties: {
            kind: { const: 'promo' },
            // Draft-07 bounds: exclusive ones are the bounds themselves (5 is tighter than maximum 10).
            score: { type: 'number', exclusiveMinimum: 0, maximum: 10, exclusiveMaximum: 5 },
            tags: { type: 'array', contains: { const: 'x' } },
          },
        },
        mixin: { properties: { level: { type: 'integer', exclusiveMaximum: 3 } }, required: ['level'] },
      },
    }, 'PARTIAL');
    await posted(id, {
      $schema: DIALECT,
      id,
      type: 'object',
      allOf: [{ $ref: CONTENT_REF }, { $ref: `${partId}#/definitions/mixin` }],
      // Draft-04 bounds: a boolean beside the bound.
      properties: { price: { type: 'number', maximum: 100, exclusiveMaximum: true }, part: { $ref: `${partId}#/definitions/part` } },
    });
    const eff = await effectiveOf(id);
    expect(eff.$schema).toBe(DRAFT_07);
    expect(eff.$id).toBe(id);
    expect(eff.id).toBeUndefined();
    const ok = { price: 99.5, level: 2, part: { kind: 'promo', score: 4.5, tags: ['x'] } };
    await agree(id, eff, [
      [ok, true],
      [{ ...ok, price: 100 }, false],
      [{ ...ok, level: 3 }, false],
      [{ ...ok, part: { ...ok.part, kind: 'other' } }, false],
      [{ ...ok, part: { ...ok.part, score: 0 } }, false],
      [{ ...ok, part: { ...ok.part, score: 7 } }, false],
      [{ ...ok, part: { ...ok.part, tags: ['y'] } }, false],
    ]);
  });

  it('a draft-07 type pulling a service-dialect part gets its exclusive bounds in draft-07 form', async () => {
    const partId = schemaUri('d4-part');
    const id = schemaUri('d7-root');
    await posted(partId, { $schema: DIALECT, id: partId, definitions: { rating: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true } } }, 'PARTIAL');
    await posted(id, { $schema: DRAFT_07, $id: id, type: 'object', allOf: [{ $ref: CONTENT_REF }], properties: { rating: { $ref: `${partId}#/definitions/rating` } } });
    const eff = await effectiveOf(id);
    expect(eff.$schema).toBe(DRAFT_07);
    await agree(id, eff, [
      [{ rating: 4.9 }, true],
      [{ rating: 5 }, false],
      [{ rating: 0 }, false],
    ]);
  });

  it('a type of the service dialect alone keeps its $schema and id', async () => {
    const partId = schemaUri('d4-only-part');
    const id = schemaUri('d4-only');
    await posted(partId, { $schema: DIALECT, id: partId, definitions: { n: { type: 'number', maximum: 5, exclusiveMaximum: true } } }, 'PARTIAL');
    await posted(id, { $schema: DIALECT, id, type: 'object', allOf: [{ $ref: CONTENT_REF }], properties: { n: { $ref: `${partId}#/definitions/n` } } });
    const eff = await effectiveOf(id);
    expect(eff.$schema).toBe(DIALECT);
    expect(eff.id).toBe(id);
    expect((eff.properties as Record<string, unknown>).n).toEqual({ type: 'number', maximum: 5, exclusiveMaximum: true });
  });
});

describe('patterns run in linear time (issue 24.3)', () => {
  const EVIL = '^(a+)+$';
  const title = `${'a'.repeat(40)}!`;

  it.each([
    ['draft-07', (id: string) => draft07(id, { properties: { title: { type: 'string', pattern: EVIL } } })],
    ['service dialect', (id: string) => schemaDoc(id, { properties: { title: { type: 'string', pattern: EVIL } } })],
    ['patternProperties', (id: string) => draft07(id, { properties: { map: { type: 'object', patternProperties: { [EVIL]: { type: 'integer' } }, additionalProperties: { type: 'string' } } } })],
  ])('a backtracking pattern (%s) answers promptly and correctly', async (_what, make) => {
    const id = schemaUri('regex');
    expect((await postSchema(id, make(id))).status).toBe(201);
    await registerType(id);
    const body = _what === 'patternProperties' ? { map: { [title]: 'text', aaaa: 1 } } : { title: 'a'.repeat(40) };
    const good = await createItem(id, body);
    expect(good.status, good.text).toBe(201);
    const bad = await createItem(id, _what === 'patternProperties' ? { map: { [title]: 1, aaaa: 'x' } } : { title });
    expectError(bad, 400);
    expect(errorProperties(bad).some((p) => p.startsWith(_what === 'patternProperties' ? 'body.map' : 'body.title')), bad.text).toBe(true);
  }, 20_000);

  it('ECMAScript pattern syntax still works (classes, escapes, unicode)', async () => {
    const id = schemaUri('regex-ok');
    expect((await postSchema(id, draft07(id, { properties: { code: { type: 'string', pattern: '^[A-Z]{2}-\\d{3}$' }, word: { type: 'string', pattern: '^\\p{L}+$' } } }))).status).toBe(201);
    await registerType(id);
    expect((await createItem(id, { code: 'AB-123', word: 'héllo' })).status).toBe(201);
    expect(errorProperties(await createItem(id, { code: 'AB-12' }))).toContain('body.code');
  });

  it('a pattern that needs backtracking (a backreference, a lookahead) is refused when the schema is saved, naming it', async () => {
    for (const pattern of ['^(a)\\1$', '^(?=a)a+$']) {
      const id = schemaUri('regex-bad');
      const res = await postSchema(id, draft07(id, { properties: { title: { type: 'string', pattern } } }));
      expectError(res, 400);
      expect(res.text).toContain('linear');
    }
  });
});

describe('bounds', () => {
  it('a chain of thousands of references is refused or answered, never a 5xx (validation, effective, resolve)', async () => {
    for (const n of [5000, 250]) await chain(n);
  }, 60_000);

  async function chain(n: number) {
    const id = schemaUri('chain');
    const definitions: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) definitions[`d${i}`] = i === n - 1 ? { type: 'string' } : { $ref: `#/definitions/d${i + 1}` };
    const saved = await postSchema(id, draft07(id, { definitions, properties: { deep: { $ref: '#/definitions/d0' } } }));
    expect([201, 400], saved.text).toContain(saved.status);
    if (saved.status !== 201) return;
    const type = await registerType(id);
    const item = await createItem(id, { deep: 'x' });
    expect([201, 400], item.text).toContain(item.status);
    const eff = await admin.get(`/content-types/${type.id}/effective-content-type`);
    expect([200, 400], eff.text).toContain(eff.status);
    const resolved = await admin.post(`/hubs/${hubId}/content-type-schemas/resolve`, { schemaId: id });
    expect([200, 400], resolved.text).toContain(resolved.status);
  }
});
