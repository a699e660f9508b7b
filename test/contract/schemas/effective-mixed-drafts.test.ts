import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createHub, createRepo, startServer, unique, type TestServer } from '../../helpers/server.js';
import { CONTENT_REF, DIALECT, schemaUri } from '../../helpers/content-model.js';

// The effective content type of a schema whose parts are of different drafts: a service-dialect
// (draft-04) type that pulls draft-07 parts, and the other way round. The merged document must
// declare a $schema under which it means what the parts meant: checked with a plain draft-07
// validator (ajv), which must accept the document and agree with the service on every body.
const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const Ajv = (createRequire(import.meta.url)('ajv') as { default: new (o: object) => { validateSchema(s: object): boolean; compile(s: object): (d: unknown) => boolean; errors?: unknown } }).default;

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

const postSchema = async (schemaId: string, body: object, validationLevel = 'CONTENT_TYPE') => {
  const res = await admin.post(`/hubs/${hubId}/content-type-schemas`, { schemaId, body: JSON.stringify(body), validationLevel });
  expect(res.status, res.text).toBe(201);
};

/** The type's effective schema (without _links), after registering and assigning it. */
async function effectiveOf(uri: string): Promise<Record<string, unknown>> {
  const type = await admin.post(`/hubs/${hubId}/content-types`, { contentTypeUri: uri, settings: { label: unique('type') } });
  expect(type.status, type.text).toBe(201);
  expect((await admin.post(`/content-repositories/${repoId}/content-types`, { contentTypeId: type.body.id })).status).toBe(200);
  const res = await admin.get(`/content-types/${type.body.id}/effective-content-type`);
  expect(res.status, res.text).toBe(200);
  const { _links, ...doc } = res.body;
  return doc;
}

/** Each body: whether the service accepts it, and whether a plain draft-07 validator of the effective schema does. */
async function agree(uri: string, eff: Record<string, unknown>, bodies: [fields: Record<string, unknown>, valid: boolean][]) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  expect(ajv.validateSchema(eff), JSON.stringify(ajv.errors)).toBe(true);
  const validate = ajv.compile(eff);
  for (const [fields, valid] of bodies) {
    const body = { _meta: { schema: uri, name: 'n' }, ...fields };
    const res = await admin.post(`/content-repositories/${repoId}/content-items`, { label: unique('item'), body });
    expect(res.status, `service: ${JSON.stringify(fields)} ${res.text}`).toBe(valid ? 201 : 400);
    expect(validate(body), `effective schema: ${JSON.stringify(fields)}`).toBe(valid);
  }
}

describe('the effective content type of mixed drafts', () => {
  it('a service-dialect (draft-04) type pulling draft-07 parts is a draft-07 document that validates what the service validates', async () => {
    const partId = schemaUri('d7-part');
    const id = schemaUri('d4-root');
    await postSchema(partId, {
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
    await postSchema(id, {
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
    await postSchema(partId, { $schema: DIALECT, id: partId, definitions: { rating: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 5, exclusiveMaximum: true } } }, 'PARTIAL');
    await postSchema(id, { $schema: DRAFT_07, $id: id, type: 'object', allOf: [{ $ref: CONTENT_REF }], properties: { rating: { $ref: `${partId}#/definitions/rating` } } });
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
    await postSchema(partId, { $schema: DIALECT, id: partId, definitions: { n: { type: 'number', maximum: 5, exclusiveMaximum: true } } }, 'PARTIAL');
    await postSchema(id, { $schema: DIALECT, id, type: 'object', allOf: [{ $ref: CONTENT_REF }], properties: { n: { $ref: `${partId}#/definitions/n` } } });
    const eff = await effectiveOf(id);
    expect(eff.$schema).toBe(DIALECT);
    expect(eff.id).toBe(id);
    expect((eff.properties as Record<string, unknown>).n).toEqual({ type: 'number', maximum: 5, exclusiveMaximum: true });
  });
});
