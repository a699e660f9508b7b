import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, createRepo, startServer, type TestServer } from '../../helpers/server.js';
import { errorProperties, expectError, FN, HEX_ID, ISO_MILLIS, MISSING_ID } from '../../helpers/assert.js';
import { createType } from '../../helpers/content-model.js';

// Folders: wire-contract §4 (paths and link names) and the SDK notes 2.6: top-level folders
// have no parent-folder (the CLI finds roots by its absence), content-items is templated.

let srv: TestServer;
let admin: Api;
let hubId: string;
let repo: any;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  hubId = (await createHub(admin)).id;
  repo = await createRepo(admin, hubId);
});

afterAll(async () => {
  await srv?.stop();
});

async function folderIn(repoId: string, name: string): Promise<any> {
  const res = await admin.post(`/content-repositories/${repoId}/folders`, { name });
  if (res.status !== 201) throw new Error(`folder create failed: ${res.status} ${res.text}`);
  return res.body;
}

async function childOf(folderId: string, name: string): Promise<any> {
  const res = await admin.post(`/folders/${folderId}/folders`, { name });
  if (res.status !== 201) throw new Error(`child folder create failed: ${res.status} ${res.text}`);
  return res.body;
}

const names = (body: any): string[] => body._embedded.folders.map((f: { name: string }) => f.name);

describe('create', () => {
  it('a top-level folder: 201, Location, {id, name}, and every link but parent-folder', async () => {
    const res = await admin.post(`/content-repositories/${repo.id}/folders`, { name: 'Campaigns' });
    expect(res.status, res.text).toBe(201);
    const f = res.body;
    expect(f.id).toMatch(HEX_ID);
    expect(f).toMatchObject({ name: 'Campaigns', contentRepositoryId: repo.id, parentId: null });
    expect(f.createdDate).toMatch(ISO_MILLIS);
    const self = `${admin.base}/folders/${f.id}`;
    expect(res.headers.get('location')).toBe(self);
    expect(f._links).toEqual({
      self: { href: self },
      folder: { href: self },
      folders: { href: `${self}/folders{?page,size,sort}`, templated: true },
      'create-folder': { href: `${self}/folders` },
      'update-folder': { href: self },
      'delete-folder': { href: self },
      'content-repository': { href: `${admin.base}/content-repositories/${repo.id}` },
      'content-items': { href: `${admin.base}/content-repositories/${repo.id}/content-items?folderId=${f.id}{&page,size,sort,status,projection}`, templated: true },
    });
  });

  it('a nested folder links its parent-folder', async () => {
    const parent = await folderIn(repo.id, 'Parent');
    const res = await admin.post(`/folders/${parent.id}/folders`, { name: 'Child' });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: 'Child', parentId: parent.id, contentRepositoryId: repo.id });
    expect(res.body._links['parent-folder']).toEqual({ href: `${admin.base}/folders/${parent.id}` });
    const grandchild = await childOf(res.body.id, 'Grandchild');
    expect(grandchild._links['parent-folder'].href).toBe(`${admin.base}/folders/${res.body.id}`);
  });

  it.each([
    ['name', {}],
    ['name', { name: '' }],
    ['name', { name: '   ' }],
    ['name', { name: 42 }],
    ['name', { name: 'x'.repeat(256) }],
  ])('a bad body is 400 naming %s', async (property, body) => {
    const top = await admin.post(`/content-repositories/${repo.id}/folders`, body);
    expectError(top, 400);
    expect(errorProperties(top)).toEqual([property]);
    const parent = await folderIn(repo.id, 'Holder');
    expectError(await admin.post(`/folders/${parent.id}/folders`, body), 400);
  });

  it('in an unknown repository or folder is 404', async () => {
    expect(expectError(await admin.post(`/content-repositories/${MISSING_ID}/folders`, { name: 'x' }), 404).entity).toBe('ContentRepository');
    expect(expectError(await admin.post(`/folders/${MISSING_ID}/folders`, { name: 'x' }), 404).entity).toBe('Folder');
  });
});

describe('list', () => {
  let listRepo: any;
  let a: any;
  beforeAll(async () => {
    listRepo = await createRepo(admin, hubId);
    a = await folderIn(listRepo.id, 'A');
    await folderIn(listRepo.id, 'C');
    await folderIn(listRepo.id, 'B');
    await childOf(a.id, 'A2');
    await childOf(a.id, 'A1');
  });

  it('the repository lists its top-level folders only, in the paging envelope', async () => {
    const res = await admin.get(`/content-repositories/${listRepo.id}/folders`);
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['A', 'C', 'B']);
    expect(res.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    for (const f of res.body._embedded.folders) expect(f._links['parent-folder']).toBeUndefined();
  });

  it('sorts by name and pages', async () => {
    expect(names((await admin.get(`/content-repositories/${listRepo.id}/folders?sort=name,asc`)).body)).toEqual(['A', 'B', 'C']);
    const page = await admin.get(`/content-repositories/${listRepo.id}/folders?sort=name,desc&size=2&page=1`);
    expect(names(page.body)).toEqual(['A']);
    expect(page.body.page).toEqual({ size: 2, totalElements: 3, totalPages: 2, number: 1 });
  });

  it('a folder lists its sub-folders, each linking back to it', async () => {
    const res = await admin.get(`/folders/${a.id}/folders?sort=name,asc`);
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['A1', 'A2']);
    for (const f of res.body._embedded.folders) expect(f._links['parent-folder'].href).toBe(`${admin.base}/folders/${a.id}`);
  });

  it('an empty list is an empty embedded array', async () => {
    const empty = await createRepo(admin, hubId);
    expect((await admin.get(`/content-repositories/${empty.id}/folders`)).body._embedded).toEqual({ folders: [] });
    const leaf = await folderIn(empty.id, 'Leaf');
    expect((await admin.get(`/folders/${leaf.id}/folders`)).body._embedded).toEqual({ folders: [] });
  });

  it('a bad sort is 400; an unknown repository or folder is 404', async () => {
    expect(expectError(await admin.get(`/content-repositories/${listRepo.id}/folders?sort=colour,asc`), 400).property).toBe('sort');
    expectError(await admin.get(`/content-repositories/${MISSING_ID}/folders`), 404);
    expectError(await admin.get(`/folders/${MISSING_ID}/folders`), 404);
  });
});

describe('get, rename and delete', () => {
  it('gets a folder; an unknown id is 404', async () => {
    const f = await folderIn(repo.id, 'Gettable');
    const res = await admin.get(`/folders/${f.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(f);
    expect(expectError(await admin.get(`/folders/${MISSING_ID}`), 404).entity).toBe('Folder');
  });

  it('rename answers 200 with Location; the whole fetched folder sent back is accepted', async () => {
    const f = await folderIn(repo.id, 'Before');
    const res = await admin.patch(`/folders/${f.id}`, { ...f, name: 'After', parentId: MISSING_ID });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('location')).toBe(`${admin.base}/folders/${f.id}`);
    expect(res.body).toMatchObject({ id: f.id, name: 'After', parentId: null });
    expect((await admin.get(`/folders/${f.id}`)).body.name).toBe('After');
  });

  it('rename with a bad name is 400 and keeps the name; an unknown folder is 404', async () => {
    const f = await folderIn(repo.id, 'Steady');
    expect(errorProperties(await admin.patch(`/folders/${f.id}`, { name: '' }))).toEqual(['name']);
    expect((await admin.get(`/folders/${f.id}`)).body.name).toBe('Steady');
    expectError(await admin.patch(`/folders/${MISSING_ID}`, { name: 'x' }), 404);
  });

  it('delete answers 204 with no body; the folder is gone', async () => {
    const f = await folderIn(repo.id, 'Doomed');
    const res = await admin.del(`/folders/${f.id}`);
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expectError(await admin.get(`/folders/${f.id}`), 404);
    expectError(await admin.del(`/folders/${f.id}`), 404);
  });

  it('a folder with sub-folders is not deleted (409); once empty it is', async () => {
    const parent = await folderIn(repo.id, 'Full');
    const child = await childOf(parent.id, 'Inside');
    const err = expectError(await admin.del(`/folders/${parent.id}`), 409);
    expect(err).toMatchObject({ code: 'FOLDER_NOT_EMPTY', folders: 1, items: 0 });
    expect((await admin.get(`/folders/${parent.id}`)).status).toBe(200);
    expect((await admin.del(`/folders/${child.id}`)).status).toBe(204);
    expect((await admin.del(`/folders/${parent.id}`)).status).toBe(204);
  });

  it('a folder holding a content item is not deleted (409)', async () => {
    const type = await createType(admin, hubId);
    await admin.post(`/content-repositories/${repo.id}/content-types`, { contentTypeId: type.id });
    const f = await folderIn(repo.id, 'With item');
    const item = await admin.post(`/content-repositories/${repo.id}/content-items`, {
      label: 'Inside a folder',
      folderId: f.id,
      body: { _meta: { name: 'inside', schema: type.contentTypeUri }, title: 'Hello' },
    });
    expect(item.status, item.text).toBe(201);
    expect(expectError(await admin.del(`/folders/${f.id}`), 409)).toMatchObject({ code: 'FOLDER_NOT_EMPTY', folders: 0, items: 1 });
    expect((await admin.get(`/folders/${f.id}`)).status).toBe(200);
  });

  // Issue 22.8: the vendor's cleanup archives every item, then deletes the folders.
  it('archived items do not hold a folder open: it is deleted, and they move to the repository root', async () => {
    const type = await createType(admin, hubId);
    await admin.post(`/content-repositories/${repo.id}/content-types`, { contentTypeId: type.id });
    const parent = await folderIn(repo.id, 'Cleaned');
    const child = await childOf(parent.id, 'Cleaned inside');
    const made: any[] = [];
    for (const folderId of [parent.id, child.id, child.id]) {
      const res = await admin.post(`/content-repositories/${repo.id}/content-items`, { label: 'to archive', folderId, body: { _meta: { schema: type.contentTypeUri }, title: 'x' } });
      expect(res.status, res.text).toBe(201);
      made.push(res.body);
    }
    // The child's items are archived; the parent's one is still active.
    for (const item of made.slice(1)) expect((await admin.post(`/content-items/${item.id}/archive`, { version: item.version })).status).toBe(200);
    const archivedOnly = await admin.del(`/folders/${child.id}`);
    expect(archivedOnly.status, archivedOnly.text).toBe(204);
    // The parent still holds an active item: refused, counting only that one.
    expect(expectError(await admin.del(`/folders/${parent.id}`), 409)).toMatchObject({ code: 'FOLDER_NOT_EMPTY', folders: 0, items: 1 });
    expect((await admin.post(`/content-items/${made[0].id}/archive`, { version: made[0].version })).status).toBe(200);
    expect((await admin.del(`/folders/${parent.id}`)).status).toBe(204);
    for (const item of made) {
      const now = (await admin.get(`/content-items/${item.id}`)).body;
      expect(now).toMatchObject({ status: 'ARCHIVED', folderId: null, version: item.version + 1 });
      // Unarchived, it is in the repository root, not in a folder that no longer exists.
      const back = await admin.post(`/content-items/${item.id}/unarchive`, { version: now.version });
      expect(back.status, back.text).toBe(200);
      expect(back.body.folderId).toBeNull();
    }
  });
});

describe('permissions', () => {
  let f: any;
  let reader: Api;
  let creator: Api;
  let stranger: Api;

  beforeAll(async () => {
    f = await folderIn(repo.id, 'Guarded');
    const hubRead = { resource: 'hubs' as const, id: hubId, permissions: ['READ'] };
    reader = await admin.client(`folder-reader-${process.pid}`, [FN('CONTENT_ITEM', 'READ')], [hubRead]);
    creator = await admin.client(`folder-creator-${process.pid}`, [FN('CONTENT_ITEM', 'READ'), FN('CONTENT_ITEM', 'CREATE')], [
      hubRead,
      { resource: 'content-repositories', id: repo.id, permissions: ['CREATE_CONTENT'] },
    ]);
    stranger = await admin.client(`folder-stranger-${process.pid}`, [FN('CONTENT_ITEM', 'READ')]);
  });

  it('reads need CONTENT_ITEM:READ', async () => {
    expect((await reader.get(`/folders/${f.id}`)).status).toBe(200);
    expect((await reader.get(`/content-repositories/${repo.id}/folders`)).status).toBe(200);
    const blind = await admin.client(`folder-blind-${process.pid}`, [], [{ resource: 'hubs', id: hubId, permissions: ['READ'] }]);
    expect(expectError(await blind.get(`/folders/${f.id}`), 403).message).toContain(FN('CONTENT_ITEM', 'READ'));
  });

  it('create needs CONTENT_ITEM:CREATE and CREATE_CONTENT on the repository; rename and delete need EDIT_CONTENT and DELETE_CONTENT', async () => {
    expectError(await reader.post(`/content-repositories/${repo.id}/folders`, { name: 'No' }), 403);
    expect((await creator.post(`/content-repositories/${repo.id}/folders`, { name: 'Yes' })).status).toBe(201);
    expect((await creator.post(`/folders/${f.id}/folders`, { name: 'Yes too' })).status).toBe(201);
    expectError(await creator.patch(`/folders/${f.id}`, { name: 'Renamed' }), 403);
    expectError(await creator.del(`/folders/${f.id}`), 403);
    expect((await admin.get(`/folders/${f.id}`)).body.name).toBe('Guarded');
  });

  it('a reader sees only the links it may follow', async () => {
    const links = (await reader.get(`/folders/${f.id}`)).body._links;
    expect(Object.keys(links).sort()).toEqual(['content-items', 'folder', 'folders', 'self']);
  });

  it('a client without access to the hub gets 404', async () => {
    expectError(await stranger.get(`/folders/${f.id}`), 404);
  });
});
