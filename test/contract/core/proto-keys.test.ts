import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, type TestServer } from '../../helpers/server.js';
import { contentSetup, type ContentSetup } from '../../helpers/content.js';
import { expectError } from '../../helpers/assert.js';

// Issue 24 ("also seen"): a `__proto__` key in a body was dropped when stored, without a word.
// Every JSON body is read by one parser: it refuses the key with a 400 naming where it is.

let srv: TestServer;
let api: Api;
let setup: ContentSetup;

beforeAll(async () => {
  srv = await startServer();
  api = await new Api(srv.url).login();
  setup = await contentSetup(api);
});
afterAll(async () => srv?.stop());

const itemsPath = () => `/content-repositories/${setup.repoId}/content-items`;
const raw = (body: string) => api.post(itemsPath(), undefined, { raw: body });

describe('a __proto__ key in a body', () => {
  it('in an item body is refused with 400 naming the property, and nothing is stored', async () => {
    const before = (await api.get(`${itemsPath()}?size=1`)).body.page.totalElements;
    const res = await raw(`{"label":"p","body":{"_meta":{"schema":"${setup.uri}"},"title":"t","__proto__":{"polluted":true}}}`);
    const err = expectError(res, 400);
    expect(err.property).toBe('body.__proto__');
    expect(err.message).toContain('__proto__');
    expect((await api.get(`${itemsPath()}?size=1`)).body.page.totalElements).toBe(before);
  });

  it('written with escapes, nested in arrays, or at the top is refused the same way', async () => {
    expect(expectError(await raw(`{"label":"p","body":{"_meta":{"schema":"${setup.uri}"},"title":"t","list":[{"\\u005f_proto__":1}]}}`), 400).property).toBe('body.list.0.__proto__');
    expect(expectError(await raw(`{"__proto__":{},"label":"p"}`), 400).property).toBe('__proto__');
  });

  it('is refused in other bodies too (a hub settings change)', async () => {
    const res = await api.patch(`/hubs/${setup.hubId}/settings`, undefined, { raw: '{"publishing":{"__proto__":{"x":1}}}' });
    expect(expectError(res, 400).property).toBe('publishing.__proto__');
  });

  it('a value "__proto__" and keys like "constructor" are ordinary data', async () => {
    const res = await raw(`{"label":"p","body":{"_meta":{"schema":"${setup.uri}"},"title":"__proto__","constructor":"c"}}`);
    expect(res.status, res.text).toBe(201);
  });
});
