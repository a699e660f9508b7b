import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, createRepo, startServer, unique, type TestServer } from '../../helpers/server.js';
import { expectError, FN } from '../../helpers/assert.js';

// The sandbox's own admin prefix: /__sandbox/status, reset, clock and clients.

describe('status, clients and access', () => {
  let srv: TestServer;
  let admin: Api;

  beforeAll(async () => {
    srv = await startServer();
    admin = await new Api(srv.url).login();
  });

  afterAll(async () => {
    await srv?.stop();
  });

  describe('GET /__sandbox/status', () => {
    it('is public and reports the sandbox state', async () => {
      const res = await admin.get('/__sandbox/status', { token: null });
      expect(res.status).toBe(200);
      expect(res.body.status).toBe('UP');
      expect(typeof res.body.version).toBe('string');
      expect(res.body.tokenLifetimeSeconds).toBe(300);
      expect(res.body.clock).toMatchObject({ frozen: false, realTime: true });
      expect(res.body.counts).toMatchObject({ hubs: expect.any(Number), repositories: expect.any(Number), clients: expect.any(Number) });
      // The database schema version: migrations applied and the newest one's name (cms version).
      expect(res.body.schema).toEqual({ version: expect.any(Number), migration: expect.stringMatching(/^\d{4}-/) });
      expect(res.body.schema.version).toBeGreaterThan(0);
    });

    it('counts hubs and repositories', async () => {
      const before = (await admin.get('/__sandbox/status')).body.counts;
      const hub = await createHub(admin);
      await createRepo(admin, hub.id);
      const after = (await admin.get('/__sandbox/status')).body.counts;
      expect(after.hubs).toBe(before.hubs + 1);
      expect(after.repositories).toBe(before.repositories + 1);
    });
  });

  describe('/__sandbox/clients', () => {
    it('POST creates a client that can log in; 201 with Location and without the secret', async () => {
      const id = unique('client');
      const secret = `secret-${unique('s')}`;
      const hub = await createHub(admin);
      const res = await admin.post('/__sandbox/clients', {
        id,
        secret,
        label: 'A client',
        permissions: [FN('HUB', 'EDIT')],
        acl: [{ resource: 'hubs', id: hub.id, permissions: ['READ', 'EDIT'] }],
      });
      expect(res.status, res.text).toBe(201);
      expect(res.headers.get('location')).toBe(`${srv.url}/__sandbox/clients/${id}`);
      expect(res.body).toMatchObject({ id, label: 'A client', admin: false, permissions: [FN('HUB', 'EDIT')] });
      expect(res.body.acl).toEqual([{ resource: 'hubs', id: hub.id, permissions: ['EDIT', 'READ'] }]);
      expect(res.text).not.toContain(secret);
      expect(res.body.secret).toBeUndefined();
      const api = await new Api(srv.url, id, secret).login();
      expect((await api.patch(`/hubs/${hub.id}`, { label: 'By the new client' })).status).toBe(200);
    });

    it('GET lists every client, the admin first, and never a secret', async () => {
      const id = unique('listed');
      const secret = `secret-${unique('s')}`;
      await admin.post('/__sandbox/clients', { id, secret, permissions: [] });
      const res = await admin.get('/__sandbox/clients');
      expect(res.status).toBe(200);
      const clients = res.body.clients;
      expect(clients[0]).toMatchObject({ id: 'sandbox-admin', admin: true });
      expect(clients[0].permissions).toContain(FN('HUB', 'CREATE'));
      expect(clients.find((c: { id: string }) => c.id === id)).toMatchObject({ id, admin: false, permissions: [], acl: [] });
      expect(res.text).not.toContain(secret);
      expect(res.text).not.toContain('sandbox-secret');
      for (const c of clients) expect(c.secret).toBeUndefined();
    });

    it('an unknown functional permission is 400', async () => {
      const res = await admin.post('/__sandbox/clients', { id: unique('bad'), secret: 's', permissions: ['CONTENT:FUNCTIONAL:HUB:FLY'] });
      const err = expectError(res, 400);
      expect(err.property).toBe('permissions');
      expect(err.invalidValue).toBe('CONTENT:FUNCTIONAL:HUB:FLY');
    });

    it('an unknown ACL permission is 400', async () => {
      const hub = await createHub(admin);
      const res = await admin.post('/__sandbox/clients', {
        id: unique('bad'),
        secret: 's',
        acl: [{ resource: 'hubs', id: hub.id, permissions: ['CREATE_CONTENT'] }],
      });
      expectError(res, 400);
    });

    it('a missing id or secret, or an id with other characters, is 400', async () => {
      expect(expectError(await admin.post('/__sandbox/clients', { secret: 's' }), 400).property).toBe('id');
      expect(expectError(await admin.post('/__sandbox/clients', { id: unique('x') }), 400).property).toBe('secret');
      expectError(await admin.post('/__sandbox/clients', { id: 'has space', secret: 's' }), 400);
    });

    it('a duplicate id is 409', async () => {
      const id = unique('dup');
      expect((await admin.post('/__sandbox/clients', { id, secret: 'a' })).status).toBe(201);
      const err = expectError(await admin.post('/__sandbox/clients', { id, secret: 'b' }), 409);
      expect(err.property).toBe('id');
      expectError(await admin.post('/__sandbox/clients', { id: 'sandbox-admin', secret: 'b' }), 409);
    });

    it('DELETE removes a client (204), its token stops working, and a second DELETE is 404', async () => {
      const id = unique('gone');
      const api = await admin.client(id, []);
      const res = await admin.del(`/__sandbox/clients/${id}`);
      expect(res.status).toBe(204);
      expect((await admin.get('/__sandbox/clients')).body.clients.map((c: { id: string }) => c.id)).not.toContain(id);
      expectError(await api.get('/hubs'), 401);
      expectError(await admin.del(`/__sandbox/clients/${id}`), 404);
    });

    it('the admin client cannot be removed', async () => {
      expectError(await admin.del('/__sandbox/clients/sandbox-admin'), 400);
      expect((await admin.get('/hubs')).status).toBe(200);
    });

    it('only the admin client may manage clients', async () => {
      const restricted = await admin.client(unique('restricted'), [FN('HUB', 'CREATE')]);
      expectError(await restricted.get('/__sandbox/clients'), 403);
      expectError(await restricted.post('/__sandbox/clients', { id: unique('x'), secret: 's' }), 403);
      expectError(await restricted.del(`/__sandbox/clients/${restricted.clientId}`), 403);
      expectError(await admin.get('/__sandbox/clients', { token: null }), 401);
    });
  });
});

describe('POST /__sandbox/reset', () => {
  let srv: TestServer;
  let admin: Api;

  beforeAll(async () => {
    srv = await startServer();
    admin = await new Api(srv.url).login();
  });

  afterAll(async () => {
    await srv?.stop();
  });

  it('needs a token and the admin client', async () => {
    expectError(await admin.post('/__sandbox/reset', undefined, { token: null }), 401);
    const restricted = await admin.client(unique('restricted'), [FN('HUB', 'CREATE')]);
    expectError(await restricted.post('/__sandbox/reset'), 403);
  });

  it('empties hubs and restricted clients and keeps the admin client working', async () => {
    const hub = await createHub(admin);
    const repo = await createRepo(admin, hub.id);
    const restrictedId = unique('to-reset');
    const restricted = await admin.client(restrictedId, [], [{ resource: 'hubs', id: hub.id, permissions: ['READ'] }]);
    await admin.post('/__sandbox/clock', { advance: '1m' });

    const res = await admin.post('/__sandbox/reset');
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    // The admin token issued before the reset still works.
    const hubs = await admin.get('/hubs');
    expect(hubs.status).toBe(200);
    expect(hubs.body._embedded.hubs).toEqual([]);
    expect(hubs.body.page.totalElements).toBe(0);
    expectError(await admin.get(`/hubs/${hub.id}`), 404);
    expectError(await admin.get(`/content-repositories/${repo.id}`), 404);
    const clients = (await admin.get('/__sandbox/clients')).body.clients;
    expect(clients.map((c: { id: string }) => c.id)).toEqual(['sandbox-admin']);
    expectError(await restricted.get('/hubs'), 401);
    await expect(new Api(srv.url, restrictedId, `${restrictedId}-secret`).login()).rejects.toThrow(/400/);
    const status = (await admin.get('/__sandbox/status')).body;
    expect(status.counts).toMatchObject({ hubs: 0, repositories: 0, clients: 1 });
    expect(status.clock.realTime).toBe(true);

    // The sandbox is usable again, with the old names free.
    await new Api(srv.url).login();
    expect((await admin.post('/hubs', { name: hub.name, label: 'Again' })).status).toBe(201);
    expect((await admin.client(restrictedId, [])).clientId).toBe(restrictedId);
  });
});

describe('/__sandbox/clock', () => {
  let srv: TestServer;
  let admin: Api;

  beforeAll(async () => {
    srv = await startServer();
    admin = await new Api(srv.url).login();
  });

  afterAll(async () => {
    await srv?.stop();
  });

  const now = async () => Date.parse((await admin.get('/__sandbox/clock', { token: null })).body.now);

  it('GET is public and shows the real time by default', async () => {
    const res = await admin.get('/__sandbox/clock', { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ frozen: false, offsetMs: 0, realTime: true });
    expect(Math.abs(Date.parse(res.body.now) - Date.now())).toBeLessThan(5000);
  });

  it('needs a token and the admin client to change', async () => {
    expectError(await admin.post('/__sandbox/clock', { advance: '1m' }, { token: null }), 401);
    const restricted = await admin.client(unique('restricted'), []);
    expectError(await restricted.post('/__sandbox/clock', { advance: '1m' }), 403);
  });

  it('set moves the clock to an instant and it keeps running', async () => {
    const res = await admin.post('/__sandbox/clock', { set: '2020-06-01T12:00:00.000Z' });
    expect(res.status).toBe(200);
    expect(res.body.frozen).toBe(false);
    expect(res.body.realTime).toBe(false);
    const at = Date.parse('2020-06-01T12:00:00.000Z');
    expect(Math.abs(Date.parse(res.body.now) - at)).toBeLessThan(2000);
    expect(Math.abs((await now()) - at)).toBeLessThan(2000);
  });

  it('freeze stops the clock; set and advance then move it exactly', async () => {
    const frozen = await admin.post('/__sandbox/clock', { freeze: true });
    expect(frozen.status).toBe(200);
    expect(frozen.body.frozen).toBe(true);
    const first = await now();
    await new Promise((r) => setTimeout(r, 30));
    expect(await now()).toBe(first);

    const set = await admin.post('/__sandbox/clock', { set: '2021-03-04T05:06:07.890Z' });
    expect(set.body).toMatchObject({ now: '2021-03-04T05:06:07.890Z', frozen: true });
    const advanced = await admin.post('/__sandbox/clock', { advance: '1h30m' });
    expect(advanced.body.now).toBe('2021-03-04T06:36:07.890Z');
    expect((await admin.post('/__sandbox/clock', { advance: '2d' })).body.now).toBe('2021-03-06T06:36:07.890Z');
    expect((await admin.post('/__sandbox/clock', { advance: 500 })).body.now).toBe('2021-03-06T06:36:08.390Z');
    expect((await admin.post('/__sandbox/clock', { advance: '-15m' })).body.now).toBe('2021-03-06T06:21:08.390Z');
  });

  it('resources carry the sandbox time', async () => {
    await admin.post('/__sandbox/clock', { freeze: true });
    await admin.post('/__sandbox/clock', { set: '2021-07-08T09:10:11.123Z' });
    const hub = await createHub(admin);
    expect(hub.createdDate).toBe('2021-07-08T09:10:11.123Z');
    expect(hub.id.slice(0, 8)).toBe(Math.floor(Date.parse('2021-07-08T09:10:11.123Z') / 1000).toString(16));
  });

  it('resume lets a frozen clock run on from where it stood', async () => {
    await admin.post('/__sandbox/clock', { freeze: true });
    await admin.post('/__sandbox/clock', { set: '2022-01-01T00:00:00.000Z' });
    const res = await admin.post('/__sandbox/clock', { resume: true });
    expect(res.status).toBe(200);
    expect(res.body.frozen).toBe(false);
    const start = Date.parse('2022-01-01T00:00:00.000Z');
    const a = await now();
    expect(a - start).toBeGreaterThanOrEqual(0);
    expect(a - start).toBeLessThan(2000);
    await new Promise((r) => setTimeout(r, 30));
    expect(await now()).toBeGreaterThan(a);
  });

  it.each([['soon'], ['10 minutes'], ['5x'], ['']])('a bad duration %j is 400', async (advance) => {
    const err = expectError(await admin.post('/__sandbox/clock', { advance }), 400);
    expect(err.property).toBe('advance');
  });

  it('a bad instant is 400', async () => {
    const err = expectError(await admin.post('/__sandbox/clock', { set: 'yesterday' }), 400);
    expect(err.property).toBe('set');
  });

  it.each([
    ['no action', {}],
    ['two actions', { set: '2020-01-01T00:00:00.000Z', advance: '1m' }],
    ['freeze and resume', { freeze: true, resume: true }],
    ['freeze: false only', { freeze: false }],
  ])('exactly one action is required (%s is 400)', async (_name, body) => {
    const before = (await admin.get('/__sandbox/clock')).body;
    expectError(await admin.post('/__sandbox/clock', body), 400);
    const after = (await admin.get('/__sandbox/clock')).body;
    expect(after.frozen).toBe(before.frozen);
  });
});
