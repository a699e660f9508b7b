import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, createRepo, startServer, unique, type Reply, type TestServer } from '../../helpers/server.js';
import { expectError, FN, MISSING_ID } from '../../helpers/assert.js';

// Authorization (description "Authentication" 5-6 and its permission table): no token 401,
// a missing functional permission or ACL 403, a resource of a hub without any ACL 404.

const HUB_ACL = ['READ', 'EDIT', 'DELETE', 'SHARE', 'CREATE_REPOSITORY', 'MANAGE_ACCESS'];
const REPO_ACL = ['READ', 'EDIT', 'DELETE', 'SHARE', 'CREATE_CONTENT', 'EDIT_CONTENT', 'DELETE_CONTENT', 'MANAGE_ACCESS'];

let srv: TestServer;
let admin: Api;
/** The hub and repository the restricted clients get ACLs on, and those of a hub they have none on. */
let hubA: any;
let repoA: any;
let hubB: any;
let repoB: any;
let shareTarget: string;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  hubA = await createHub(admin);
  repoA = await createRepo(admin, hubA.id);
  hubB = await createHub(admin);
  repoB = await createRepo(admin, hubB.id);
  shareTarget = unique('share-target');
  await admin.client(shareTarget, []);
});

afterAll(async () => {
  await srv?.stop();
});

/** A restricted client with functional permissions and ACLs on hub A and its repository. */
function clientWith(fn: string[], hubAcl: string[], repoAcl: string[] = []): Promise<Api> {
  const acl: { resource: 'hubs' | 'content-repositories'; id: string; permissions: string[] }[] = [];
  if (hubAcl.length) acl.push({ resource: 'hubs', id: hubA.id, permissions: hubAcl });
  if (repoAcl.length) acl.push({ resource: 'content-repositories', id: repoA.id, permissions: repoAcl });
  return admin.client(unique('perm'), fn, acl);
}

interface Target {
  hubId: string;
  repoId: string;
}

interface Operation {
  name: string;
  fn: string[];
  hubAcl: string[];
  repoAcl: string[];
  /** Which resource a 404 names when the target is not visible (undefined: the operation has none). */
  entity?: 'Hub' | 'ContentRepository';
  call(api: Api, t: Target, opts?: { token?: string | null }): Promise<Reply>;
  ok: number;
}

const operations: Operation[] = [
  { name: 'list hubs', fn: [], hubAcl: [], repoAcl: [], call: (api, _t, o) => api.get('/hubs', o), ok: 200 },
  {
    name: 'create hub',
    fn: [FN('HUB', 'CREATE')],
    hubAcl: [],
    repoAcl: [],
    call: (api, _t, o) => api.post('/hubs', { name: unique('perm-hub'), label: 'L' }, o),
    ok: 201,
  },
  { name: 'get hub', fn: [], hubAcl: ['READ'], repoAcl: [], entity: 'Hub', call: (api, t, o) => api.get(`/hubs/${t.hubId}`, o), ok: 200 },
  {
    name: 'update hub',
    fn: [FN('HUB', 'EDIT')],
    hubAcl: ['READ', 'EDIT'],
    repoAcl: [],
    entity: 'Hub',
    call: (api, t, o) => api.patch(`/hubs/${t.hubId}`, { description: 'changed' }, o),
    ok: 200,
  },
  {
    name: 'update hub settings',
    fn: [FN('HUB', 'EDIT')],
    hubAcl: ['READ', 'EDIT'],
    repoAcl: [],
    entity: 'Hub',
    call: (api, t, o) => api.patch(`/hubs/${t.hubId}/settings`, { applications: [] }, o),
    ok: 204,
  },
  {
    name: 'share hub',
    fn: [],
    hubAcl: ['READ', 'SHARE'],
    repoAcl: [],
    entity: 'Hub',
    call: (api, t, o) => api.post(`/hubs/${t.hubId}/share`, { user: shareTarget, additionalPermissions: ['READ'] }, o),
    ok: 204,
  },
  {
    name: 'create repository',
    fn: [FN('REPOSITORY', 'CREATE')],
    hubAcl: ['READ', 'CREATE_REPOSITORY'],
    repoAcl: [],
    entity: 'Hub',
    call: (api, t, o) => api.post(`/hubs/${t.hubId}/content-repositories`, { name: unique('perm-repo'), label: 'L' }, o),
    ok: 201,
  },
  {
    name: 'list repositories',
    fn: [FN('REPOSITORY', 'READ')],
    hubAcl: ['READ'],
    repoAcl: [],
    entity: 'Hub',
    call: (api, t, o) => api.get(`/hubs/${t.hubId}/content-repositories`, o),
    ok: 200,
  },
  {
    name: 'get repository',
    fn: [FN('REPOSITORY', 'READ')],
    hubAcl: ['READ'],
    repoAcl: [],
    entity: 'ContentRepository',
    call: (api, t, o) => api.get(`/content-repositories/${t.repoId}`, o),
    ok: 200,
  },
  {
    name: 'update repository',
    fn: [FN('REPOSITORY', 'EDIT')],
    hubAcl: ['READ'],
    repoAcl: ['EDIT'],
    entity: 'ContentRepository',
    call: (api, t, o) => api.patch(`/content-repositories/${t.repoId}`, { label: 'changed' }, o),
    ok: 200,
  },
  {
    name: 'add feature',
    fn: [FN('REPOSITORY', 'EDIT')],
    hubAcl: ['READ'],
    repoAcl: ['EDIT'],
    entity: 'ContentRepository',
    call: (api, t, o) => api.post(`/content-repositories/${t.repoId}/features?feature=slots`, undefined, o),
    ok: 204,
  },
  {
    name: 'remove feature',
    fn: [FN('REPOSITORY', 'EDIT')],
    hubAcl: ['READ'],
    repoAcl: ['EDIT'],
    entity: 'ContentRepository',
    call: (api, t, o) => api.del(`/content-repositories/${t.repoId}/features?feature=slots`, o),
    ok: 204,
  },
  {
    name: 'find repositories by feature',
    fn: [],
    hubAcl: ['READ'],
    repoAcl: [],
    entity: 'Hub',
    call: (api, t, o) => api.get(`/hubs/${t.hubId}/content-repositories/search/findByFeaturesContaining?feature=slots`, o),
    ok: 200,
  },
  {
    name: 'share repository',
    fn: [],
    hubAcl: ['READ'],
    repoAcl: ['SHARE'],
    entity: 'ContentRepository',
    call: (api, t, o) => api.post(`/content-repositories/${t.repoId}/share`, { user: shareTarget, additionalPermissions: ['READ'] }, o),
    ok: 204,
  },
];

const A = (): Target => ({ hubId: hubA.id, repoId: repoA.id });
const B = (): Target => ({ hubId: hubB.id, repoId: repoB.id });
const MISSING = (): Target => ({ hubId: MISSING_ID, repoId: MISSING_ID });

/** The error entry with the resource id blanked, to compare 404 answers for different ids. */
function shape(res: Reply, id: string) {
  return JSON.parse(res.text.split(id).join('<id>'));
}

describe.each(operations)('$name', (op) => {
  it('without a token is 401', async () => {
    expectError(await op.call(admin, A(), { token: null }), 401);
  });

  it('with exactly the required permissions succeeds', async () => {
    const api = await clientWith(op.fn, op.hubAcl, op.repoAcl);
    const res = await op.call(api, A());
    expect(res.status, res.text).toBe(op.ok);
  });

  if (op.fn.length > 0) {
    it('without the functional permission is 403', async () => {
      const api = await clientWith([], HUB_ACL, REPO_ACL);
      const err = expectError(await op.call(api, A()), 403);
      expect(err.message).toContain(op.fn[0]);
    });
  }

  const required = [...op.hubAcl.map((p) => ['Hub', p] as const), ...op.repoAcl.map((p) => ['ContentRepository', p] as const)];
  if (required.length) it.each(required)('with every ACL except %s - %s is 403', async (kind, permission) => {
    const api = await clientWith(
      op.fn,
      HUB_ACL.filter((p) => kind !== 'Hub' || p !== permission),
      REPO_ACL.filter((p) => kind !== 'ContentRepository' || p !== permission),
    );
    const err = expectError(await op.call(api, A()), 403);
    expect(err.message).toContain(`${kind} - ${permission}`);
  });

  if (op.entity !== undefined) {
    it('on a hub the client has no ACL on is 404, shaped like a missing resource', async () => {
      const api = await clientWith(op.fn, HUB_ACL, REPO_ACL);
      const hidden = await op.call(api, B());
      const err = expectError(hidden, 404);
      expect(err.entity).toBe(op.entity);
      const missing = await op.call(api, MISSING());
      expectError(missing, 404);
      const hiddenId = op.entity === 'Hub' ? hubB.id : repoB.id;
      expect(shape(hidden, hiddenId)).toEqual(shape(missing, MISSING_ID));
    });
  }
});

describe('visibility', () => {
  it('list hubs returns only the hubs the client has an ACL on', async () => {
    const api = await clientWith([], ['READ']);
    const res = await api.get('/hubs');
    expect(res.body._embedded.hubs.map((h: { id: string }) => h.id)).toEqual([hubA.id]);
    expect(res.body.page.totalElements).toBe(1);
  });

  it('a client without any ACL sees an empty hub list', async () => {
    const api = await clientWith([], []);
    const res = await api.get('/hubs');
    expect(res.status).toBe(200);
    expect(res.body._embedded.hubs).toEqual([]);
    expect(res.body.page).toMatchObject({ totalElements: 0, totalPages: 0, number: 0 });
  });

  it('a client without the EDIT ACL does not see the update links of a hub', async () => {
    const api = await clientWith([FN('HUB', 'EDIT')], ['READ']);
    const links = (await api.get(`/hubs/${hubA.id}`)).body._links;
    expect(links.self).toBeDefined();
    expect(links.update).toBeUndefined();
    expect(links['update-settings']).toBeUndefined();
    expect(links.share).toBeUndefined();
    expect(links.delete).toBeUndefined();
    expect(links['create-content-repository']).toBeUndefined();
  });

  it('a client without the HUB:EDIT functional permission does not see the update link either', async () => {
    const api = await clientWith([], ['READ', 'EDIT']);
    expect((await api.get(`/hubs/${hubA.id}`)).body._links.update).toBeUndefined();
  });

  it('a client with the permissions sees the update and share links', async () => {
    const api = await clientWith([FN('HUB', 'EDIT')], ['READ', 'EDIT', 'SHARE']);
    const links = (await api.get(`/hubs/${hubA.id}`)).body._links;
    expect(links.update.href).toBe(`${api.base}/hubs/${hubA.id}`);
    expect(links['update-settings']).toBeDefined();
    expect(links.share).toBeDefined();
  });

  it('hubs embedded in a list carry the link set of the caller', async () => {
    const api = await clientWith([], ['READ']);
    const embedded = (await api.get('/hubs')).body._embedded.hubs[0];
    expect(embedded._links).toEqual((await api.get(`/hubs/${hubA.id}`)).body._links);
    expect(embedded._links.update).toBeUndefined();
  });

  it('a repository shows update and share only to a client holding those repository ACLs', async () => {
    const reader = await clientWith([FN('REPOSITORY', 'READ'), FN('REPOSITORY', 'EDIT')], ['READ']);
    const readerLinks = (await reader.get(`/content-repositories/${repoA.id}`)).body._links;
    expect(readerLinks.update).toBeUndefined();
    expect(readerLinks.share).toBeUndefined();
    const editor = await clientWith([FN('REPOSITORY', 'READ'), FN('REPOSITORY', 'EDIT')], ['READ'], ['EDIT', 'SHARE']);
    const editorLinks = (await editor.get(`/content-repositories/${repoA.id}`)).body._links;
    expect(editorLinks.update).toBeDefined();
    expect(editorLinks.share).toBeDefined();
  });
});

describe('creators', () => {
  it('a hub creator automatically gets every ACL on it', async () => {
    const id = unique('hub-creator');
    const creator = await admin.client(id, [FN('HUB', 'CREATE'), FN('HUB', 'EDIT')]);
    const hub = await createHub(creator);
    const clients = (await admin.get('/__sandbox/clients')).body.clients;
    const acl = clients.find((c: { id: string }) => c.id === id).acl;
    expect(acl).toHaveLength(1);
    expect(acl[0]).toMatchObject({ resource: 'hubs', id: hub.id });
    expect([...acl[0].permissions].sort()).toEqual([...HUB_ACL].sort());
    expect((await creator.get(`/hubs/${hub.id}`)).status).toBe(200);
    expect((await creator.patch(`/hubs/${hub.id}`, { label: 'Mine' })).status).toBe(200);
    expect((await creator.post(`/hubs/${hub.id}/share`, { user: shareTarget, additionalPermissions: ['READ'] })).status).toBe(204);
    expect((await creator.get('/hubs')).body._embedded.hubs.map((h: { id: string }) => h.id)).toEqual([hub.id]);
    // The create answer already shows what the creator may do.
    expect(hub._links.update).toBeDefined();
    expect(hub._links.share).toBeDefined();
  });

  it('a repository creator gets every ACL on it, and the create answer shows the links it may use', async () => {
    const id = unique('repo-creator');
    const creator = await admin.client(id, [FN('REPOSITORY', 'CREATE'), FN('REPOSITORY', 'READ'), FN('REPOSITORY', 'EDIT')], [
      { resource: 'hubs', id: hubA.id, permissions: ['READ', 'CREATE_REPOSITORY'] },
    ]);
    const created = await creator.post(`/hubs/${hubA.id}/content-repositories`, { name: unique('own-repo'), label: 'Own' });
    expect(created.status).toBe(201);
    const fetched = await creator.get(`/content-repositories/${created.body.id}`);
    expect(fetched.body._links.update).toBeDefined();
    expect(fetched.body._links.share).toBeDefined();
    expect(created.body._links).toEqual(fetched.body._links);
    expect((await creator.patch(`/content-repositories/${created.body.id}`, { label: 'Edited' })).status).toBe(200);
    const acl = (await admin.get('/__sandbox/clients')).body.clients.find((c: { id: string }) => c.id === id).acl;
    const repoAcl = acl.find((e: { resource: string }) => e.resource === 'content-repositories');
    expect([...repoAcl.permissions].sort()).toEqual([...REPO_ACL].sort());
  });
});
