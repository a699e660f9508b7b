import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, createRepo, startServer, unique, type TestServer } from '../../helpers/server.js';
import { HEX_ID, ISO_MILLIS, errorProperties, expectError } from '../../helpers/assert.js';

// Content repositories: description "Content repository" resource and "Content repositories" endpoints.

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

const ids = (body: any) => body._embedded['content-repositories'].map((r: { id: string }) => r.id);

describe('create', () => {
  it('answers 201 with status ACTIVE, type CONTENT and empty features, contentTypes and itemLocales', async () => {
    const name = unique('repo');
    const res = await admin.post(`/hubs/${hubId}/content-repositories`, { name, label: 'Repo label' });
    expect(res.status).toBe(201);
    const repo = res.body;
    expect(repo.id).toMatch(HEX_ID);
    expect(repo).toMatchObject({ name, label: 'Repo label', status: 'ACTIVE', type: 'CONTENT', features: [], contentTypes: [], itemLocales: [] });
    expect(repo.createdDate).toMatch(ISO_MILLIS);
    expect(res.headers.get('location')).toBe(`${admin.base}/content-repositories/${repo.id}`);
  });

  it('the repository link set names its operations', async () => {
    const repo = await createRepo(admin, hubId);
    const self = `${admin.base}/content-repositories/${repo.id}`;
    const l = repo._links;
    expect(l.self.href).toBe(self);
    expect(l['content-repository'].href).toBe(self);
    expect(l.update.href).toBe(self);
    expect(l.delete.href).toBe(self);
    expect(l.hub.href).toBe(`${admin.base}/hubs/${hubId}`);
    expect(l.share.href).toBe(`${self}/share`);
    expect(l.features).toEqual({ href: `${self}/features{?feature}`, templated: true });
    expect(l['set-item-locales'].href).toBe(`${self}/item-locales`);
    expect(l['join-localization-group'].href).toBe(`${self}/localization-group`);
    expect(l['localization-group-locales'].href).toBe(`${self}/localization-group/locales`);
    expect((await admin.get(`/content-repositories/${repo.id}`)).body._links).toEqual(l);
  });

  it.each([
    ['name', { label: 'L' }],
    ['label', { name: 'n' }],
    ['name', { name: '', label: 'L' }],
    ['label', { name: 'n', label: '' }],
    ['name', { name: '  ', label: 'L' }],
    ['name', { name: 7, label: 'L' }],
  ])('a missing, empty or mistyped %s is 400 naming it', async (property, body) => {
    const res = await admin.post(`/hubs/${hubId}/content-repositories`, body);
    expectError(res, 400);
    expect(errorProperties(res)).toContain(property);
  });

  it('a duplicate name in the same hub is 409 naming property name', async () => {
    const repo = await createRepo(admin, hubId);
    const err = expectError(await admin.post(`/hubs/${hubId}/content-repositories`, { name: repo.name, label: 'Again' }), 409);
    expect(err.property).toBe('name');
  });

  it('the same name in another hub is allowed', async () => {
    const repo = await createRepo(admin, hubId);
    const other = await createHub(admin);
    expect((await admin.post(`/hubs/${other.id}/content-repositories`, { name: repo.name, label: 'Same name' })).status).toBe(201);
  });

  it('in an unknown hub is 404', async () => {
    expectError(await admin.post('/hubs/5f0000000000000000000000/content-repositories', { name: 'x', label: 'x' }), 404);
  });
});

describe('list and get', () => {
  it('lists the hub repositories under content-repositories with paging and the findByFeaturesContaining link', async () => {
    const hub = await createHub(admin);
    const a = await createRepo(admin, hub.id);
    const b = await createRepo(admin, hub.id);
    const res = await admin.get(`/hubs/${hub.id}/content-repositories`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([a.id, b.id]);
    expect(res.body.page).toEqual({ size: 20, totalElements: 2, totalPages: 1, number: 0 });
    expect(res.body._links['search:findByFeaturesContaining']).toEqual({
      href: `${admin.base}/hubs/${hub.id}/content-repositories/search/findByFeaturesContaining{?feature,page,size,sort}`,
      templated: true,
    });
    const paged = await admin.get(`/hubs/${hub.id}/content-repositories?page=1&size=1`);
    expect(ids(paged.body)).toEqual([b.id]);
    expect(paged.body.page).toEqual({ size: 1, totalElements: 2, totalPages: 2, number: 1 });
  });

  it('lists only the repositories of that hub', async () => {
    const hub = await createHub(admin);
    await createRepo(admin, hubId);
    const mine = await createRepo(admin, hub.id);
    expect(ids((await admin.get(`/hubs/${hub.id}/content-repositories`)).body)).toEqual([mine.id]);
  });

  it('gets a repository', async () => {
    const repo = await createRepo(admin, hubId);
    const res = await admin.get(`/content-repositories/${repo.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(repo);
  });

  it('an unknown repository is 404', async () => {
    const err = expectError(await admin.get('/content-repositories/5f0000000000000000000000'), 404);
    expect(err.entity).toBe('ContentRepository');
  });
});

describe('update', () => {
  it('changes name and label, answering 200 with Location', async () => {
    const repo = await createRepo(admin, hubId);
    const name = unique('renamed');
    const res = await admin.patch(`/content-repositories/${repo.id}`, { name, label: 'New label' });
    expect(res.status).toBe(200);
    expect(res.headers.get('location')).toBe(repo._links.self.href);
    expect(res.body).toMatchObject({ id: repo.id, name, label: 'New label', status: 'ACTIVE', type: 'CONTENT' });
    expect((await admin.get(`/content-repositories/${repo.id}`)).body).toMatchObject({ name, label: 'New label' });
  });

  it('overwrites only the supplied fields', async () => {
    const repo = await createRepo(admin, hubId);
    const res = await admin.patch(`/content-repositories/${repo.id}`, { label: 'Only label' });
    expect(res.body).toMatchObject({ name: repo.name, label: 'Only label' });
  });

  it.each([['name'], ['label']])('an empty %s is 400', async (property) => {
    const repo = await createRepo(admin, hubId);
    const res = await admin.patch(`/content-repositories/${repo.id}`, { [property]: '' });
    expectError(res, 400);
    expect(errorProperties(res)).toContain(property);
  });

  it('renaming to the name of another repository of the hub is 409', async () => {
    const a = await createRepo(admin, hubId);
    const b = await createRepo(admin, hubId);
    const err = expectError(await admin.patch(`/content-repositories/${b.id}`, { name: a.name }), 409);
    expect(err.property).toBe('name');
  });
});

describe('delete', () => {
  it('answers 204, then the repository is 404', async () => {
    const repo = await createRepo(admin, hubId);
    const res = await admin.del(`/content-repositories/${repo.id}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expectError(await admin.get(`/content-repositories/${repo.id}`), 404);
    expect(ids((await admin.get(`/hubs/${hubId}/content-repositories?size=1000`)).body)).not.toContain(repo.id);
    expectError(await admin.del(`/content-repositories/${repo.id}`), 404);
  });
});

describe('delete and access', () => {
  it('deleting a repository removes the ACL entries on it, as deleting a hub does', async () => {
    const repo = await createRepo(admin, hubId);
    const userId = unique('repo-acl');
    await admin.client(userId, [], [{ resource: 'content-repositories', id: repo.id, permissions: ['READ', 'EDIT'] }]);
    const aclOf = async () => (await admin.get('/__sandbox/clients')).body.clients.find((c: { id: string }) => c.id === userId).acl;
    expect(await aclOf()).toEqual([{ resource: 'content-repositories', id: repo.id, permissions: ['EDIT', 'READ'] }]);
    expect((await admin.del(`/content-repositories/${repo.id}`)).status).toBe(204);
    expect(await aclOf()).toEqual([]);
  });
});

describe('features', () => {
  it('adds and removes a feature with 204', async () => {
    const repo = await createRepo(admin, hubId);
    const add = await admin.post(`/content-repositories/${repo.id}/features?feature=slots`);
    expect(add.status).toBe(204);
    expect(add.text).toBe('');
    expect((await admin.get(`/content-repositories/${repo.id}`)).body.features).toEqual(['slots']);
    // Adding twice keeps one entry.
    expect((await admin.post(`/content-repositories/${repo.id}/features?feature=slots`)).status).toBe(204);
    expect((await admin.post(`/content-repositories/${repo.id}/features?feature=other`)).status).toBe(204);
    expect((await admin.get(`/content-repositories/${repo.id}`)).body.features).toEqual(['slots', 'other']);
    const remove = await admin.del(`/content-repositories/${repo.id}/features?feature=slots`);
    expect(remove.status).toBe(204);
    expect((await admin.get(`/content-repositories/${repo.id}`)).body.features).toEqual(['other']);
  });

  it('follows the templated features link', async () => {
    const repo = await createRepo(admin, hubId);
    const href = repo._links.features.href.replace('{?feature}', '?feature=slots');
    expect((await admin.post(href)).status).toBe(204);
    expect((await admin.get(`/content-repositories/${repo.id}`)).body.features).toEqual(['slots']);
  });

  it('the feature query parameter is required', async () => {
    const repo = await createRepo(admin, hubId);
    expect(expectError(await admin.post(`/content-repositories/${repo.id}/features`), 400).property).toBe('feature');
    expect(expectError(await admin.del(`/content-repositories/${repo.id}/features`), 400).property).toBe('feature');
    expectError(await admin.post(`/content-repositories/${repo.id}/features?feature=`), 400);
  });

  it('on an unknown repository is 404', async () => {
    expectError(await admin.post('/content-repositories/5f0000000000000000000000/features?feature=slots'), 404);
  });
});

describe('findByFeaturesContaining', () => {
  it('finds the repositories of the hub that have the feature', async () => {
    const hub = await createHub(admin);
    const slots = await createRepo(admin, hub.id);
    await createRepo(admin, hub.id);
    await admin.post(`/content-repositories/${slots.id}/features?feature=slots`);
    const elsewhere = await createRepo(admin, hubId);
    await admin.post(`/content-repositories/${elsewhere.id}/features?feature=slots`);
    const res = await admin.get(`/hubs/${hub.id}/content-repositories/search/findByFeaturesContaining?feature=slots`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([slots.id]);
    expect(res.body.page).toEqual({ size: 20, totalElements: 1, totalPages: 1, number: 0 });
    const none = await admin.get(`/hubs/${hub.id}/content-repositories/search/findByFeaturesContaining?feature=nothing`);
    expect(none.body._embedded['content-repositories']).toEqual([]);
  });

  it('works through the templated link of a listing', async () => {
    const hub = await createHub(admin);
    const repo = await createRepo(admin, hub.id);
    await admin.post(`/content-repositories/${repo.id}/features?feature=slots`);
    const list = await admin.get(`/hubs/${hub.id}/content-repositories`);
    const href = list.body._links['search:findByFeaturesContaining'].href.replace('{?feature,page,size,sort}', '?feature=slots&page=0&size=5');
    const res = await admin.get(href);
    expect(ids(res.body)).toEqual([repo.id]);
    expect(res.body.page.size).toBe(5);
  });

  it('its page links keep the feature parameter', async () => {
    const hub = await createHub(admin);
    for (let i = 0; i < 3; i++) {
      const repo = await createRepo(admin, hub.id);
      await admin.post(`/content-repositories/${repo.id}/features?feature=slots`);
    }
    const first = await admin.get(`/hubs/${hub.id}/content-repositories/search/findByFeaturesContaining?feature=slots&size=2`);
    expect(first.body.page).toEqual({ size: 2, totalElements: 3, totalPages: 2, number: 0 });
    for (const rel of ['first', 'self', 'last', 'next']) expect(new URL(first.body._links[rel].href).searchParams.get('feature')).toBe('slots');
    const second = await admin.get(first.body._links.next.href);
    expect(second.body._embedded['content-repositories']).toHaveLength(1);
  });

  it('feature is required', async () => {
    const res = await admin.get(`/hubs/${hubId}/content-repositories/search/findByFeaturesContaining`);
    expect(expectError(res, 400).property).toBe('feature');
  });
});

describe('share', () => {
  it('answers 204 and grants the permissions on the repository', async () => {
    const repo = await createRepo(admin, hubId);
    const editor = await admin.client(unique('repo-editor'), ['CONTENT:FUNCTIONAL:REPOSITORY:EDIT'], [{ resource: 'hubs', id: hubId, permissions: ['READ'] }]);
    expectError(await editor.patch(`/content-repositories/${repo.id}`, { label: 'Not yet' }), 403);
    const res = await admin.post(`/content-repositories/${repo.id}/share`, { user: editor.clientId, additionalPermissions: ['EDIT'] });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const edit = await editor.patch(`/content-repositories/${repo.id}`, { label: 'Now' });
    expect(edit.status).toBe(200);
    expect(edit.body.label).toBe('Now');
  });

  it('user is required, permissions are READ, EDIT, DELETE or SHARE, and an unknown user is 400', async () => {
    const repo = await createRepo(admin, hubId);
    const user = unique('u');
    await admin.client(user, []);
    expect(errorProperties(await admin.post(`/content-repositories/${repo.id}/share`, { additionalPermissions: ['READ'] }))).toContain('user');
    expectError(await admin.post(`/content-repositories/${repo.id}/share`, { user, additionalPermissions: ['CREATE_CONTENT'] }), 400);
    expectError(await admin.post(`/content-repositories/${repo.id}/share`, { user: 'nobody-here', additionalPermissions: ['READ'] }), 400);
    expect((await admin.post(`/content-repositories/${repo.id}/share`, { user, additionalPermissions: ['READ', 'EDIT', 'DELETE', 'SHARE'] })).status).toBe(204);
  });
});

describe('item locales', () => {
  it.each([['POST'], ['PATCH']])('%s sets the item locales', async (method) => {
    const repo = await createRepo(admin, hubId);
    const res = await admin.req(method, `/content-repositories/${repo.id}/item-locales`, { itemLocales: ['en-GB', 'fr-FR'] });
    expect(res.status, res.text).toBe(200);
    expect(res.body.itemLocales).toEqual(['en-GB', 'fr-FR']);
    expect(res.body._links.self.href).toBe(repo._links.self.href);
    expect((await admin.get(`/content-repositories/${repo.id}`)).body.itemLocales).toEqual(['en-GB', 'fr-FR']);
  });

  it('replaces the previous locales, and an empty list clears them', async () => {
    const repo = await createRepo(admin, hubId);
    await admin.post(`/content-repositories/${repo.id}/item-locales`, { itemLocales: ['en-GB'] });
    expect((await admin.post(`/content-repositories/${repo.id}/item-locales`, { itemLocales: ['de-DE', 'de-DE'] })).body.itemLocales).toEqual(['de-DE']);
    expect((await admin.post(`/content-repositories/${repo.id}/item-locales`, { itemLocales: [] })).body.itemLocales).toEqual([]);
  });

  it('an invalid locale is 400', async () => {
    const repo = await createRepo(admin, hubId);
    for (const bad of ['not a locale', '', 'e', 'en_GB!']) {
      const res = await admin.post(`/content-repositories/${repo.id}/item-locales`, { itemLocales: [bad] });
      expectError(res, 400);
      expect(errorProperties(res).some((p) => p.startsWith('itemLocales'))).toBe(true);
    }
    expect((await admin.get(`/content-repositories/${repo.id}`)).body.itemLocales).toEqual([]);
  });

  it('itemLocales is required and must be an array', async () => {
    const repo = await createRepo(admin, hubId);
    expect(errorProperties(await admin.post(`/content-repositories/${repo.id}/item-locales`, {}))).toContain('itemLocales');
    expectError(await admin.post(`/content-repositories/${repo.id}/item-locales`, { itemLocales: 'en-GB' }), 400);
  });
});

describe('localization group', () => {
  const setLocales = (id: string, itemLocales: string[]) => admin.post(`/content-repositories/${id}/item-locales`, { itemLocales });
  const groupLocales = async (id: string) => {
    const res = await admin.get(`/content-repositories/${id}/localization-group/locales`);
    expect(res.status, res.text).toBe(200);
    return res.body.locales as string[];
  };

  it('a repository alone is a group of its own item locales', async () => {
    const repo = await createRepo(admin, hubId);
    await setLocales(repo.id, ['en-GB']);
    expect(await groupLocales(repo.id)).toEqual(['en-GB']);
  });

  it('join moves newRepositoryId into the target group; any member sees the union of item locales', async () => {
    const target = await createRepo(admin, hubId);
    const joining = await createRepo(admin, hubId);
    await setLocales(target.id, ['en-GB', 'en-US']);
    await setLocales(joining.id, ['fr-FR', 'en-GB']);
    const res = await admin.post(`/content-repositories/${target.id}/localization-group`, { newRepositoryId: joining.id });
    expect(res.status, res.text).toBe(200);
    for (const id of [target.id, joining.id]) {
      expect((await groupLocales(id)).sort()).toEqual(['en-GB', 'en-US', 'fr-FR']);
    }
    // Locales set later count too.
    await setLocales(joining.id, ['fr-FR', 'de-DE']);
    expect((await groupLocales(target.id)).sort()).toEqual(['de-DE', 'en-GB', 'en-US', 'fr-FR']);
  });

  it('the repository that left no longer sees the old group locales, and the old group no longer sees its own', async () => {
    const a = await createRepo(admin, hubId);
    const b = await createRepo(admin, hubId);
    const c = await createRepo(admin, hubId);
    await setLocales(a.id, ['en-GB']);
    await setLocales(b.id, ['fr-FR']);
    await setLocales(c.id, ['ja-JP']);
    // b joins a's group, then moves on to c's group.
    await admin.post(`/content-repositories/${a.id}/localization-group`, { newRepositoryId: b.id });
    expect((await groupLocales(b.id)).sort()).toEqual(['en-GB', 'fr-FR']);
    await admin.post(`/content-repositories/${c.id}/localization-group`, { newRepositoryId: b.id });
    expect((await groupLocales(b.id)).sort()).toEqual(['fr-FR', 'ja-JP']);
    expect((await groupLocales(c.id)).sort()).toEqual(['fr-FR', 'ja-JP']);
    expect(await groupLocales(a.id)).toEqual(['en-GB']);
  });

  it('a repository whose group members leave keeps a group with those who stay', async () => {
    const a = await createRepo(admin, hubId);
    const b = await createRepo(admin, hubId);
    const c = await createRepo(admin, hubId);
    const d = await createRepo(admin, hubId);
    await setLocales(a.id, ['en-GB']);
    await setLocales(b.id, ['fr-FR']);
    await setLocales(c.id, ['it-IT']);
    await setLocales(d.id, ['ja-JP']);
    // b and c join a's group; then a itself joins d's group.
    await admin.post(`/content-repositories/${a.id}/localization-group`, { newRepositoryId: b.id });
    await admin.post(`/content-repositories/${a.id}/localization-group`, { newRepositoryId: c.id });
    await admin.post(`/content-repositories/${d.id}/localization-group`, { newRepositoryId: a.id });
    expect((await groupLocales(a.id)).sort()).toEqual(['en-GB', 'ja-JP']);
    expect((await groupLocales(b.id)).sort()).toEqual(['fr-FR', 'it-IT']);
    expect((await groupLocales(c.id)).sort()).toEqual(['fr-FR', 'it-IT']);
  });

  it('newRepositoryId is required; an unknown repository is 400', async () => {
    const repo = await createRepo(admin, hubId);
    expect(errorProperties(await admin.post(`/content-repositories/${repo.id}/localization-group`, {}))).toContain('newRepositoryId');
    const err = expectError(await admin.post(`/content-repositories/${repo.id}/localization-group`, { newRepositoryId: '5f0000000000000000000000' }), 400);
    expect(err.property).toBe('newRepositoryId');
  });

  it('the locales of an unknown repository are 404', async () => {
    expectError(await admin.get('/content-repositories/5f0000000000000000000000/localization-group/locales'), 404);
  });
});
