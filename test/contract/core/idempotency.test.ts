import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentSetup, itemBody, type ContentSetup } from '../../helpers/content.js';

describe('Idempotency-Key on POST', () => {
  let server: TestServer;
  let api: Api;
  let setup: ContentSetup;
  beforeAll(async () => {
    server = await startServer();
    api = await new Api(server.url).login();
    setup = await contentSetup(api);
  });
  afterAll(() => server.stop());

  const create = (key: string, label = 'Once') =>
    api.post(`/content-repositories/${setup.repoId}/content-items`, { label, body: itemBody(setup.uri) }, { headers: { 'Idempotency-Key': key } });
  const count = async () => (await api.get(`/content-repositories/${setup.repoId}/content-items?size=1`)).body.page.totalElements;

  it('a repeated create returns the first answer and creates nothing more', async () => {
    const before = await count();
    const key = unique('key');
    const first = await create(key);
    expect(first.status).toBe(201);
    const again = await create(key);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    expect(again.headers.get('location')).toBe(first.headers.get('location'));
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await count()).toBe(before + 1);
  });

  it('concurrent repeats still create one resource', async () => {
    const before = await count();
    const key = unique('key');
    const replies = await Promise.all(Array.from({ length: 6 }, () => create(key)));
    expect(new Set(replies.map((r) => r.body.id)).size).toBe(1);
    expect(await count()).toBe(before + 1);
  });

  it('an error is not remembered (the corrected request may use the key); a key reused for another request is 422', async () => {
    const key = unique('key');
    const bad = await api.post(`/content-repositories/${setup.repoId}/content-items`, { label: '' }, { headers: { 'Idempotency-Key': key } });
    expect(bad.status).toBe(400);
    const fixed = await create(key, 'Fixed');
    expect(fixed.status).toBe(201);
    const other = await api.post(`/hubs/${setup.hubId}/content-repositories`, { name: unique('r'), label: 'R' }, { headers: { 'Idempotency-Key': key } });
    expect(other.status).toBe(422);
    expect(other.body.errors[0].code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('the same key on the same path with a different body is 422 IDEMPOTENCY_KEY_REUSED; the same body replays', async () => {
    const before = await count();
    const key = unique('key');
    expect((await create(key, 'First body')).status).toBe(201);
    const changed = await create(key, 'Another body');
    expect(changed.status).toBe(422);
    expect(changed.body.errors[0]).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', property: 'Idempotency-Key', invalidValue: key });
    expect(changed.body.errors[0].message).toContain('different body');
    const same = await create(key, 'First body');
    expect(same.status).toBe(201);
    expect(same.headers.get('idempotent-replayed')).toBe('true');
    expect(await count()).toBe(before + 1);
  });

  it('keys belong to a client: another client with the same key gets its own resource', async () => {
    const key = unique('key');
    const first = await create(key);
    const other = await api.client(unique('writer'), ['CONTENT:FUNCTIONAL:CONTENT_ITEM:CREATE'], [{ resource: 'hubs', id: setup.hubId, permissions: ['READ'] }, { resource: 'content-repositories', id: setup.repoId, permissions: ['CREATE_CONTENT'] }]);
    const theirs = await other.post(`/content-repositories/${setup.repoId}/content-items`, { label: 'Theirs', body: itemBody(setup.uri) }, { headers: { 'Idempotency-Key': key } });
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);
  });
});
