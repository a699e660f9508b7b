import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, createRepo, startServer, unique, type Reply, type TestServer } from '../../helpers/server.js';
import { errorProperties, expectError, FN, MISSING_ID } from '../../helpers/assert.js';

// Administration (description "Administration" and the permission table; wire-contract §4):
// operations and access entry points, members of hubs and repositories with their ACL
// permissions, revoking permissions, and hub modules.

const HUB_ACL = ['READ', 'EDIT', 'DELETE', 'SHARE', 'CREATE_REPOSITORY', 'MANAGE_ACCESS'];
const REPO_ACL = ['READ', 'EDIT', 'DELETE', 'SHARE', 'CREATE_CONTENT', 'EDIT_CONTENT', 'DELETE_CONTENT', 'MANAGE_ACCESS'];
const ADMIN_FN = FN('ADMIN', 'MANAGE_ACCESS');
const HUB_ADMIN_FN = [ADMIN_FN, FN('HUB', 'MANAGE_ACCESS')];
const REPO_ADMIN_FN = [ADMIN_FN, FN('REPOSITORY', 'MANAGE_ACCESS')];

let srv: TestServer;
let admin: Api;
/** Created the hub and its repository, so it holds every ACL on both. */
let creator: Api;
let hub: any;
let repo: any;
let otherHub: any;
let otherRepo: any;
/** Shared with (READ, EDIT), and a client created with ACLs. */
let sharedId: string;
let aclClientId: string;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  creator = await admin.client(unique('creator'), [FN('HUB', 'CREATE'), FN('REPOSITORY', 'CREATE'), ...HUB_ADMIN_FN, FN('REPOSITORY', 'MANAGE_ACCESS')]);
  hub = await createHub(creator);
  repo = await createRepo(creator, hub.id);
  otherHub = await createHub(admin);
  otherRepo = await createRepo(admin, otherHub.id);
  sharedId = unique('shared');
  await admin.client(sharedId, [FN('HUB', 'EDIT')]);
  const share = await creator.post(`/hubs/${hub.id}/share`, { user: sharedId, additionalPermissions: ['READ', 'EDIT'] });
  expect(share.status, share.text).toBe(204);
  aclClientId = unique('acl');
  await admin.client(aclClientId, [], [
    { resource: 'hubs', id: hub.id, permissions: ['READ'] },
    { resource: 'content-repositories', id: repo.id, permissions: ['READ', 'EDIT_CONTENT'] },
  ]);
});

afterAll(async () => {
  await srv?.stop();
});

const hubAccess = (id = hub.id) => `/admin/access/hubs/${id}`;
const repoAccess = (id = repo.id) => `/admin/access/content-repositories/${id}`;
const members = (res: Reply) => res.body._embedded.members.map((m: any) => ({ sid: m.sid, permissions: m.permissions }));

describe('entry points', () => {
  it('GET /admin lists the administrative operations as links', async () => {
    const res = await admin.get('/admin');
    expect(res.status, res.text).toBe(200);
    expect(res.body._links).toEqual({
      self: { href: `${admin.base}/admin` },
      access: { href: `${admin.base}/admin/access` },
      'hub-modules': { href: `${admin.base}/admin/hubs/{hubId}/modules`, templated: true },
      'enable-search-index': { href: `${admin.base}/admin/hubs/{hubId}/modules/search-index`, templated: true },
      'enable-content-delivery-2': { href: `${admin.base}/admin/hubs/{hubId}/modules/content-delivery-2`, templated: true },
    });
    expect((await admin.get('')).body._links.admin).toEqual({ href: `${admin.base}/admin` });
  });

  it('GET /admin/access links the resource types', async () => {
    const res = await admin.get('/admin/access');
    expect(res.status).toBe(200);
    expect(res.body._links).toEqual({
      self: { href: `${admin.base}/admin/access` },
      hubs: { href: `${admin.base}/admin/access/hubs/{resourceId}`, templated: true },
      'content-repositories': { href: `${admin.base}/admin/access/content-repositories/{resourceId}`, templated: true },
    });
  });

  it('both need ADMIN:MANAGE_ACCESS (403 without, 401 without a token)', async () => {
    const without = await admin.client(unique('no-admin'), [FN('HUB', 'MANAGE_ACCESS')]);
    const holder = await admin.client(unique('admin-fn'), [ADMIN_FN]);
    for (const path of ['/admin', '/admin/access']) {
      expect(expectError(await without.get(path), 403).message).toContain(ADMIN_FN);
      expectError(await admin.get(path, { token: null }), 401);
      expect((await holder.get(path)).status).toBe(200);
    }
  });

  it('an unknown resource type is 404', async () => {
    expectError(await admin.get(`/admin/access/events/${hub.id}`), 404);
  });
});

describe('operations on a resource', () => {
  it('a hub: members, member, revoke-permissions, the hub and its modules', async () => {
    const res = await creator.get(hubAccess());
    expect(res.status, res.text).toBe(200);
    const base = `${admin.base}${hubAccess()}`;
    expect(res.body).toMatchObject({ resource: 'hubs', resourceId: hub.id });
    expect(res.body._links).toEqual({
      self: { href: base },
      members: { href: `${base}/members{?page,size,sort}`, templated: true },
      member: { href: `${base}/members{/sid}`, templated: true },
      'revoke-permissions': { href: `${base}/members/{sid}/permissions{?permissions}`, templated: true },
      hub: { href: `${admin.base}/hubs/${hub.id}` },
      modules: { href: `${admin.base}/admin/hubs/${hub.id}/modules` },
    });
  });

  it('a repository: the same operations and the repository', async () => {
    const res = await creator.get(repoAccess());
    expect(res.status, res.text).toBe(200);
    const base = `${admin.base}${repoAccess()}`;
    expect(res.body).toMatchObject({ resource: 'content-repositories', resourceId: repo.id });
    expect(res.body._links).toMatchObject({
      self: { href: base },
      members: { href: `${base}/members{?page,size,sort}`, templated: true },
      'content-repository': { href: `${admin.base}/content-repositories/${repo.id}` },
    });
  });
});

describe('members', () => {
  it('a hub lists its creator (every permission), clients shared with and clients created with ACLs', async () => {
    const res = await creator.get(`${hubAccess()}/members`);
    expect(res.status, res.text).toBe(200);
    const list = members(res);
    expect(list).toContainEqual({ sid: creator.clientId, permissions: HUB_ACL });
    expect(list).toContainEqual({ sid: sharedId, permissions: ['READ', 'EDIT'] });
    expect(list).toContainEqual({ sid: aclClientId, permissions: ['READ'] });
    expect(list).toHaveLength(3);
    expect(list.map((m: any) => m.sid)).toEqual([...list.map((m: any) => m.sid)].sort());
    expect(res.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    const member = res.body._embedded.members.find((m: any) => m.sid === sharedId);
    const self = `${admin.base}${hubAccess()}/members/${sharedId}`;
    expect(member._links).toEqual({ self: { href: self }, member: { href: self }, 'revoke-permissions': { href: `${self}/permissions{?permissions}`, templated: true } });
  });

  it('pages and sorts by sid', async () => {
    const all = members(await creator.get(`${hubAccess()}/members`)).map((m: any) => m.sid);
    const second = await creator.get(`${hubAccess()}/members?page=1&size=1`);
    expect(second.body.page).toEqual({ size: 1, totalElements: 3, totalPages: 3, number: 1 });
    expect(members(second).map((m: any) => m.sid)).toEqual([all[1]]);
    const desc = await creator.get(`${hubAccess()}/members?sort=sid,desc`);
    expect(members(desc).map((m: any) => m.sid)).toEqual([...all].reverse());
    expectError(await creator.get(`${hubAccess()}/members?sort=permissions,asc`), 400);
  });

  it('a repository lists its own members with repository permissions', async () => {
    const list = members(await creator.get(`${repoAccess()}/members`));
    expect(list).toEqual(
      [
        { sid: creator.clientId, permissions: REPO_ACL },
        { sid: aclClientId, permissions: ['READ', 'EDIT_CONTENT'] },
      ].sort((a, b) => a.sid.localeCompare(b.sid)),
    );
  });

  it('one member; 404 for a client without permissions on the resource', async () => {
    const res = await creator.get(`${hubAccess()}/members/${sharedId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sid: sharedId, permissions: ['READ', 'EDIT'] });
    expectError(await creator.get(`${hubAccess()}/members/nobody`), 404);
    expectError(await creator.get(`${repoAccess()}/members/${sharedId}`), 404);
  });
});

describe('revoke permissions', () => {
  it('removes the named permissions (204) and the member loses what they allowed', async () => {
    const id = unique('editor');
    const editor = await admin.client(id, [FN('HUB', 'EDIT')], [{ resource: 'hubs', id: hub.id, permissions: ['READ', 'EDIT', 'SHARE'] }]);
    expect((await editor.patch(`/hubs/${hub.id}`, { description: 'by editor' })).status).toBe(200);
    const res = await creator.del(`${hubAccess()}/members/${id}/permissions?permissions=EDIT,SHARE`);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect((await creator.get(`${hubAccess()}/members/${id}`)).body.permissions).toEqual(['READ']);
    expectError(await editor.patch(`/hubs/${hub.id}`, { description: 'again' }), 403);
    expect((await editor.get(`/hubs/${hub.id}`)).status).toBe(200);
  });

  it('revoking every permission removes the member; the client then cannot see the hub (404)', async () => {
    const id = unique('reader');
    const reader = await admin.client(id, [], [{ resource: 'hubs', id: hub.id, permissions: ['READ'] }]);
    expect((await creator.del(`${hubAccess()}/members/${id}/permissions?permissions=READ`)).status).toBe(204);
    expectError(await creator.get(`${hubAccess()}/members/${id}`), 404);
    expectError(await reader.get(`/hubs/${hub.id}`), 404);
  });

  it('404 when the member holds none of the permissions; a partial match revokes what it holds', async () => {
    const id = unique('partial');
    await admin.client(id, [], [{ resource: 'hubs', id: hub.id, permissions: ['READ', 'EDIT'] }]);
    expectError(await creator.del(`${hubAccess()}/members/${id}/permissions?permissions=DELETE`), 404);
    expectError(await creator.del(`${hubAccess()}/members/nobody/permissions?permissions=READ`), 404);
    expect((await creator.del(`${hubAccess()}/members/${id}/permissions?permissions=EDIT,DELETE`)).status).toBe(204);
    expect((await creator.get(`${hubAccess()}/members/${id}`)).body.permissions).toEqual(['READ']);
  });

  it('permissions is required and each must be a permission of the resource type (400)', async () => {
    for (const query of ['', '?permissions=', '?permissions=READ,WRITE', '?permissions=EDIT_CONTENT']) {
      const res = await creator.del(`${hubAccess()}/members/${sharedId}/permissions${query}`);
      expectError(res, 400);
      expect(errorProperties(res)).toEqual(['permissions']);
    }
    expect((await creator.get(`${hubAccess()}/members/${sharedId}`)).body.permissions).toEqual(['READ', 'EDIT']);
  });

  it('on a repository: repository permissions (EDIT_CONTENT), repeated or comma-listed', async () => {
    const id = unique('repo-member');
    await admin.client(id, [], [{ resource: 'content-repositories', id: repo.id, permissions: ['READ', 'EDIT_CONTENT', 'DELETE_CONTENT'] }]);
    const res = await creator.del(`${repoAccess()}/members/${id}/permissions?permissions=EDIT_CONTENT&permissions=DELETE_CONTENT`);
    expect(res.status, res.text).toBe(204);
    expect((await creator.get(`${repoAccess()}/members/${id}`)).body.permissions).toEqual(['READ']);
    expectError(await creator.del(`${repoAccess()}/members/${id}/permissions?permissions=CREATE_REPOSITORY`), 400);
  });
});

describe('hub modules', () => {
  it('lists the modules; enabling one answers 204 and shows it enabled', async () => {
    const before = await creator.get(`/admin/hubs/${hub.id}/modules`);
    expect(before.status).toBe(200);
    expect(before.body.modules).toEqual([
      { name: 'SEARCH_INDEX', enabled: false },
      { name: 'CONTENT_DELIVERY_2', enabled: false },
    ]);
    expect((await creator.post(`/admin/hubs/${hub.id}/modules/search-index`)).status).toBe(204);
    const after = await creator.get(`/admin/hubs/${hub.id}/modules`);
    expect(after.body.modules).toContainEqual({ name: 'SEARCH_INDEX', enabled: true });
  });
});

// The permission rules of every operation: a hub operation needs ADMIN:MANAGE_ACCESS and
// HUB:MANAGE_ACCESS with Hub READ and MANAGE_ACCESS; a repository operation ADMIN:MANAGE_ACCESS
// and REPOSITORY:MANAGE_ACCESS with Hub READ and ContentRepository MANAGE_ACCESS.

interface Target {
  hubId: string;
  repoId: string;
}

interface Operation {
  name: string;
  on: 'hub' | 'repository';
  call(api: Api, t: Target): Promise<Reply>;
  ok: number;
}

/** A member that holds SHARE again before each revoke, so every successful revoke has something to remove. */
async function revokeShare(api: Api, kind: 'hubs' | 'content-repositories', id: string): Promise<Reply> {
  const victim = unique('victim');
  await admin.client(victim, [], [{ resource: kind, id, permissions: ['SHARE'] }]);
  return api.del(`/admin/access/${kind}/${id}/members/${victim}/permissions?permissions=SHARE`);
}

const operations: Operation[] = [
  { name: 'hub operations', on: 'hub', call: (api, t) => api.get(hubAccess(t.hubId)), ok: 200 },
  { name: 'hub members', on: 'hub', call: (api, t) => api.get(`${hubAccess(t.hubId)}/members`), ok: 200 },
  { name: 'hub member', on: 'hub', call: (api, t) => api.get(`${hubAccess(t.hubId)}/members/${api.clientId}`), ok: 200 },
  { name: 'revoke hub permissions', on: 'hub', call: (api, t) => revokeShare(api, 'hubs', t.hubId), ok: 204 },
  { name: 'hub modules', on: 'hub', call: (api, t) => api.get(`/admin/hubs/${t.hubId}/modules`), ok: 200 },
  { name: 'enable search index', on: 'hub', call: (api, t) => api.post(`/admin/hubs/${t.hubId}/modules/search-index`), ok: 204 },
  { name: 'enable content delivery 2', on: 'hub', call: (api, t) => api.post(`/admin/hubs/${t.hubId}/modules/content-delivery-2`), ok: 204 },
  { name: 'repository operations', on: 'repository', call: (api, t) => api.get(repoAccess(t.repoId)), ok: 200 },
  { name: 'repository members', on: 'repository', call: (api, t) => api.get(`${repoAccess(t.repoId)}/members`), ok: 200 },
  { name: 'repository member', on: 'repository', call: (api, t) => api.get(`${repoAccess(t.repoId)}/members/${api.clientId}`), ok: 200 },
  { name: 'revoke repository permissions', on: 'repository', call: (api, t) => revokeShare(api, 'content-repositories', t.repoId), ok: 204 },
];

/** A client with functional permissions and ACLs on the test hub and its repository. */
function clientWith(fn: string[], hubAcl: string[], repoAcl: string[]): Promise<Api> {
  const acl: { resource: 'hubs' | 'content-repositories'; id: string; permissions: string[] }[] = [];
  if (hubAcl.length) acl.push({ resource: 'hubs', id: hub.id, permissions: hubAcl });
  if (repoAcl.length) acl.push({ resource: 'content-repositories', id: repo.id, permissions: repoAcl });
  return admin.client(unique('perm'), fn, acl);
}

describe.each(operations)('permissions: $name', (op) => {
  const fn = op.on === 'hub' ? HUB_ADMIN_FN : REPO_ADMIN_FN;
  const hubAcl = op.on === 'hub' ? ['READ', 'MANAGE_ACCESS'] : ['READ'];
  const repoAcl = op.on === 'hub' ? [] : ['READ', 'MANAGE_ACCESS'];
  const here = (): Target => ({ hubId: hub.id, repoId: repo.id });

  it('with exactly the required permissions succeeds', async () => {
    const res = await op.call(await clientWith(fn, hubAcl, repoAcl), here());
    expect(res.status, res.text).toBe(op.ok);
  });

  it.each(fn.map((f) => [f]))('without %s is 403', async (missing) => {
    const api = await clientWith(fn.filter((f) => f !== missing), HUB_ACL, REPO_ACL);
    expect(expectError(await op.call(api, here()), 403).message).toContain(missing);
  });

  it('without the MANAGE_ACCESS ACL is 403', async () => {
    const api = await clientWith(fn, op.on === 'hub' ? ['READ'] : HUB_ACL, op.on === 'hub' ? REPO_ACL : ['READ']);
    const err = expectError(await op.call(api, here()), 403);
    expect(err.message).toContain('MANAGE_ACCESS');
  });

  it('on another hub (no ACL there) is 404, like a missing resource', async () => {
    const api = await clientWith(fn, HUB_ACL, REPO_ACL);
    expectError(await op.call(api, { hubId: otherHub.id, repoId: otherRepo.id }), 404);
    expectError(await op.call(admin, { hubId: MISSING_ID, repoId: MISSING_ID }), 404);
  });
});
