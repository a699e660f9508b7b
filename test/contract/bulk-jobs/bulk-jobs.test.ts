import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';
import { errorProperties, expectError, FN, HEX_ID, ISO_MILLIS, MISSING_ID } from '../../helpers/assert.js';
import { contentSetup, createContentRepo, createItem, itemBody, type ContentSetup } from '../../helpers/content.js';

// Hub-level bulk jobs (description "Bulk jobs", wire-contract §4): create answers 202 at once,
// the job runs as a scheduler task, and each selection entry succeeds or fails on its own with the
// rules and permissions of the single-item operation it stands for.

const MISSING_ITEM = '00000000-0000-4000-8000-000000000000';
const SUCCESS = { status: 200, code: 'SUCCESS', message: null };

let srv: TestServer;
let admin: Api;
let s: ContentSetup;
/** A second repository of the hub with the same type. */
let repoB: any;
let stateId: string;

beforeAll(async () => {
  srv = await startServer();
  admin = await new Api(srv.url).login();
  s = await contentSetup(admin);
  repoB = await createContentRepo(admin, s.hubId, s.typeId);
  const state = await admin.post(`/hubs/${s.hubId}/workflow-states`, { label: 'In review', color: 'rgb(0,0,0)' });
  stateId = state.body.id;
});

afterAll(async () => {
  await srv?.stop();
});

const newItem = (repoId = s.repoId) => createItem(admin, repoId, s.uri);
const getItem = async (id: string) => (await admin.get(`/content-items/${id}`)).body;

async function archivedItem(repoId = s.repoId): Promise<any> {
  const item = await newItem(repoId);
  const res = await admin.post(`/content-items/${item.id}/archive`, { version: 1 });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** Creates a job (202 expected) and returns its first answer. */
async function createJob(api: Api, type: string, body: unknown, hubId = s.hubId): Promise<any> {
  const res = await api.post(`/hubs/${hubId}/bulk-jobs/${type}`, body);
  expect(res.status, res.text).toBe(202);
  return res.body;
}

/** Creates a job and fetches it again: the next request runs it first. */
async function runJob(api: Api, type: string, body: unknown): Promise<any> {
  const created = await createJob(api, type, body);
  const res = await api.get(`/hubs/${s.hubId}/bulk-jobs/${created.id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** The job row as stored, read in-process without a request (a request would run due work first). */
function storedJob(id: string): any {
  const row = srv.sandbox.service.db.prepare('SELECT data FROM bulk_jobs WHERE id = ?').pluck().get(id) as string;
  return JSON.parse(row);
}

describe('create and get', () => {
  it('answers 202 at once with Location and the CREATED job; the work runs before the next request', async () => {
    const item = await archivedItem();
    const res = await admin.post(`/hubs/${s.hubId}/bulk-jobs/unarchive`, { selection: [{ contentItemId: item.id, version: 2 }] });
    expect(res.status, res.text).toBe(202);
    const job = res.body;
    const self = `${admin.base}/hubs/${s.hubId}/bulk-jobs/${job.id}`;
    expect(job.id).toMatch(HEX_ID);
    expect(res.headers.get('location')).toBe(self);
    expect(job).toMatchObject({ jobType: 'UNARCHIVE', status: 'CREATED', createdBy: 'sandbox-admin', results: [] });
    expect(job.createdDate).toMatch(ISO_MILLIS);
    expect(job.lastModifiedDate).toMatch(ISO_MILLIS);
    expect(job._links).toEqual({ self: { href: self }, 'bulk-job': { href: self }, hub: { href: `${admin.base}/hubs/${s.hubId}` } });

    // Nothing ran yet: the job waits as CREATED and the item is still archived.
    expect(storedJob(job.id).status).toBe('CREATED');
    const itemRow = srv.sandbox.service.db.prepare('SELECT status FROM content_items WHERE id = ?').pluck().get(item.id);
    expect(itemRow).toBe('ARCHIVED');

    const after = await admin.get(`/hubs/${s.hubId}/bulk-jobs/${job.id}`);
    expect(after.status).toBe(200);
    expect(after.body).toMatchObject({ id: job.id, jobType: 'UNARCHIVE', status: 'COMPLETED', results: [{ contentItemId: item.id, ...SUCCESS, version: 3 }] });
    expect(after.body.lastModifiedDate >= job.createdDate).toBe(true);
    expect(await getItem(item.id)).toMatchObject({ status: 'ACTIVE', version: 3 });
  });

  it('the hub links create-bulk-job {/jobType} and bulk-job {/jobId}', async () => {
    const hub = (await admin.get(`/hubs/${s.hubId}`)).body;
    const base = `${admin.base}/hubs/${s.hubId}/bulk-jobs`;
    expect(hub._links['create-bulk-job']).toEqual({ href: `${base}{/jobType}`, templated: true });
    expect(hub._links['bulk-job']).toEqual({ href: `${base}{/jobId}`, templated: true });
  });

  it('an unknown job, a job of another hub and an unknown job type are 404', async () => {
    const job = await createJob(admin, 'publish', { selection: [{ contentItemId: MISSING_ITEM, version: 1 }] });
    const otherHub = await createHub(admin);
    expectError(await admin.get(`/hubs/${otherHub.id}/bulk-jobs/${job.id}`), 404);
    expectError(await admin.get(`/hubs/${s.hubId}/bulk-jobs/${MISSING_ID}`), 404);
    expectError(await admin.get(`/hubs/${MISSING_ID}/bulk-jobs/${job.id}`), 404);
    expectError(await admin.post(`/hubs/${s.hubId}/bulk-jobs/archive`, { selection: [{ contentItemId: MISSING_ITEM, version: 1 }] }), 404);
  });

  it('a selection needs 1..1000 entries; outside that the whole request is 400 and no job is made', async () => {
    const count = () => srv.sandbox.service.db.prepare('SELECT count(*) FROM bulk_jobs').pluck().get() as number;
    const before = count();
    const entry = { contentItemId: MISSING_ITEM, version: 1 };
    for (const body of [{}, { selection: [] }, { selection: Array(1001).fill(entry) }, { selection: 'all' }]) {
      const res = await admin.post(`/hubs/${s.hubId}/bulk-jobs/publish`, body);
      expectError(res, 400);
      expect(errorProperties(res)).toEqual(['selection']);
    }
    expect(count()).toBe(before);
    const full = await runJob(admin, 'publish', { selection: Array(1000).fill(entry) });
    expect(full.status).toBe('COMPLETED');
    expect(full.results).toHaveLength(1000);
    expect(full.results.every((r: any) => r.status === 404 && r.code === 'NOT_FOUND' && r.contentItemId === MISSING_ITEM)).toBe(true);
  });

  it('FAILED when the job as a whole cannot run: its creator no longer exists', async () => {
    const id = unique('gone');
    const creator = await admin.client(id, [FN('CONTENT_ITEM', 'EDIT')], [{ resource: 'hubs', id: s.hubId, permissions: ['READ'] }]);
    const item = await archivedItem();
    const job = await createJob(creator, 'unarchive', { selection: [{ contentItemId: item.id, version: 2 }] });
    // Removed between creation and the run (the sandbox admin endpoint would run the job first).
    srv.sandbox.service.db.prepare('DELETE FROM clients WHERE id = ?').run(id);
    const after = (await admin.get(`/hubs/${s.hubId}/bulk-jobs/${job.id}`)).body;
    expect(after).toMatchObject({ status: 'FAILED', results: [], errors: [{ level: 'ERROR', code: 'CREATOR_NOT_FOUND' }] });
    expect((await getItem(item.id)).status).toBe('ARCHIVED');
  });
});

describe('assign-users', () => {
  it('assigns each item at its current version (or the version given) and records an ASSIGN version', async () => {
    const a = await newItem();
    const b = await newItem();
    const job = await runJob(admin, 'assign-users', {
      selection: [
        { contentItemId: a.id, assignees: ['alice', 'bob'] },
        { contentItemId: b.id, assignees: ['carol'], version: 1 },
      ],
    });
    expect(job).toMatchObject({ jobType: 'ASSIGN_USERS', status: 'COMPLETED' });
    expect(job.results).toEqual([
      { contentItemId: a.id, ...SUCCESS, version: 2 },
      { contentItemId: b.id, ...SUCCESS, version: 2 },
    ]);
    const itemA = await getItem(a.id);
    expect(itemA.assignees).toEqual(['alice', 'bob']);
    expect(itemA.assignedDate).toMatch(ISO_MILLIS);
    expect((await getItem(b.id)).assignees).toEqual(['carol']);
    const history = (await admin.get(`/content-items/${a.id}/history`)).body._embedded.history;
    expect(history[0]).toMatchObject({ version: 2, action: 'ASSIGN', user: 'sandbox-admin' });
  });

  it('a stale version is 409, an archived item 409, bad assignees 400', async () => {
    const stale = await newItem();
    await admin.patch(`/content-items/${stale.id}`, { version: 1, label: 'moved on' });
    const archived = await archivedItem();
    const plain = await newItem();
    const job = await runJob(admin, 'assign-users', {
      selection: [
        { contentItemId: stale.id, assignees: ['x'], version: 1 },
        { contentItemId: archived.id, assignees: ['x'] },
        { contentItemId: plain.id, assignees: [''] },
        { contentItemId: plain.id },
      ],
    });
    expect(job.results[0]).toMatchObject({ contentItemId: stale.id, status: 409, code: 'VERSION_CONFLICT' });
    expect(job.results[1]).toMatchObject({ contentItemId: archived.id, status: 409, code: 'ITEM_ARCHIVED' });
    expect(job.results[2]).toMatchObject({ contentItemId: plain.id, status: 400, code: 'VALIDATION_FAILED' });
    expect(job.results[3]).toMatchObject({ contentItemId: plain.id, status: 400 });
    expect(job.results[3].message).toContain('assignees');
    expect((await getItem(plain.id)).version).toBe(1);
  });
});

describe('copy-items', () => {
  it('copies the named version into the repository with the given name and label; the result names the copy', async () => {
    const source = await createItem(admin, s.repoId, s.uri, { body: itemBody(s.uri, { title: 'First' }) });
    await admin.patch(`/content-items/${source.id}`, { version: 1, body: itemBody(s.uri, { title: 'Second' }) });
    const job = await runJob(admin, 'copy-items', {
      selection: [{ contentItemId: source.id, version: 1, contentRepositoryId: repoB.id, name: 'first-copy', label: 'First copy' }],
    });
    expect(job).toMatchObject({ jobType: 'COPY_ITEMS', status: 'COMPLETED' });
    const [result] = job.results;
    expect(result).toMatchObject({ contentItemId: source.id, ...SUCCESS });
    const copy = await getItem(result.newContentItemId);
    expect(copy).toMatchObject({ contentRepositoryId: repoB.id, label: 'First copy', version: 1, body: { title: 'First', _meta: { name: 'first-copy', schema: s.uri } } });
    expect((await getItem(source.id)).version).toBe(2);
  });

  it('a missing source 404, a repository of another hub 404, a version that never existed 400, missing fields 400', async () => {
    const source = await newItem();
    const otherHub = await contentSetup(admin);
    const entry = { contentItemId: source.id, version: 1, contentRepositoryId: repoB.id, name: 'n', label: 'L' };
    const job = await runJob(admin, 'copy-items', {
      selection: [
        { ...entry, contentItemId: MISSING_ITEM },
        { ...entry, contentRepositoryId: otherHub.repoId },
        { ...entry, version: 9 },
        { contentItemId: source.id, version: 1, contentRepositoryId: repoB.id },
        entry,
      ],
    });
    expect(job.results[0]).toMatchObject({ contentItemId: MISSING_ITEM, status: 404, code: 'NOT_FOUND' });
    expect(job.results[1]).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(job.results[1].message).toContain(otherHub.repoId);
    expect(job.results[2]).toMatchObject({ status: 400, code: 'VERSION_NOT_FOUND' });
    expect(job.results[3]).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(job.results[3].message).toMatch(/name.*label|label.*name/);
    expect(job.results[4]).toMatchObject({ contentItemId: source.id, ...SUCCESS });
    const copies = (await admin.get(`/content-repositories/${repoB.id}/content-items?size=1000`)).body._embedded['content-items'];
    expect(copies.filter((i: any) => i.body._meta.name === 'n')).toHaveLength(1);
  });
});

describe('publish', () => {
  it('publishes each item at its current version through a publishing job', async () => {
    const item = await newItem();
    const job = await runJob(admin, 'publish', { selection: [{ contentItemId: item.id, version: 1 }] });
    expect(job).toMatchObject({ jobType: 'PUBLISH', status: 'COMPLETED', results: [{ contentItemId: item.id, ...SUCCESS }] });
    const publishing = await admin.get(`/publishing-jobs/${job.results[0].publishingJobId}`);
    expect(publishing.body.state).toBe('COMPLETED');
    expect(await getItem(item.id)).toMatchObject({ publishingStatus: 'LATEST', lastPublishedDate: expect.stringMatching(ISO_MILLIS) });
  });

  it('a stale version 409, an archived item 409, a version that is not an integer 400; nothing is published for them', async () => {
    const stale = await newItem();
    await admin.patch(`/content-items/${stale.id}`, { version: 1, label: 'moved on' });
    const archived = await archivedItem();
    const job = await runJob(admin, 'publish', {
      selection: [
        { contentItemId: stale.id, version: 1 },
        { contentItemId: archived.id, version: 2 },
        { contentItemId: stale.id, version: 1.5 },
      ],
    });
    expect(job.results.map((r: any) => [r.status, r.code])).toEqual([
      [409, 'VERSION_CONFLICT'],
      [409, 'ITEM_ARCHIVED'],
      [400, 'VALIDATION_FAILED'],
    ]);
    expect((await getItem(stale.id)).publishingStatus).toBe('NONE');
  });
});

describe('unarchive', () => {
  it('an item that is not archived 409, a stale version 409', async () => {
    const active = await newItem();
    const archived = await archivedItem();
    const job = await runJob(admin, 'unarchive', {
      selection: [
        { contentItemId: active.id, version: 1 },
        { contentItemId: archived.id, version: 1 },
      ],
    });
    expect(job.results[0]).toMatchObject({ contentItemId: active.id, status: 409, code: 'ITEM_NOT_ARCHIVED' });
    expect(job.results[1]).toMatchObject({ contentItemId: archived.id, status: 409, code: 'VERSION_CONFLICT' });
    expect((await getItem(archived.id)).status).toBe('ARCHIVED');
  });
});

describe('update-workflow', () => {
  it('assigns the state (version optional), and state null removes the workflow', async () => {
    const a = await newItem();
    const b = await newItem();
    const job = await runJob(admin, 'update-workflow', { selection: [{ contentItemId: a.id }, { contentItemId: b.id, version: 1 }], workflow: { state: stateId } });
    expect(job).toMatchObject({ jobType: 'UPDATE_WORKFLOW', status: 'COMPLETED' });
    expect(job.results).toEqual([
      { contentItemId: a.id, ...SUCCESS, version: 2 },
      { contentItemId: b.id, ...SUCCESS, version: 2 },
    ]);
    expect((await getItem(a.id)).workflow).toEqual({ state: stateId });
    await runJob(admin, 'update-workflow', { selection: [{ contentItemId: a.id, version: 2 }], workflow: { state: null } });
    const cleared = await getItem(a.id);
    expect(cleared.version).toBe(3);
    expect('workflow' in cleared).toBe(false);
  });

  it('a state of no workflow 400 per item, a stale version 409, an archived item 409', async () => {
    const item = await newItem();
    const archived = await archivedItem();
    const unknown = await runJob(admin, 'update-workflow', { selection: [{ contentItemId: item.id }], workflow: { state: MISSING_ID } });
    expect(unknown.results[0]).toMatchObject({ status: 400, code: 'WORKFLOW_STATE_NOT_FOUND' });
    const job = await runJob(admin, 'update-workflow', {
      selection: [
        { contentItemId: item.id, version: 7 },
        { contentItemId: archived.id },
      ],
      workflow: { state: stateId },
    });
    expect(job.results[0]).toMatchObject({ status: 409, code: 'VERSION_CONFLICT' });
    expect(job.results[1]).toMatchObject({ status: 409, code: 'ITEM_ARCHIVED' });
  });

  it('the workflow object is required: the whole request is 400', async () => {
    for (const body of [{ selection: [{ contentItemId: MISSING_ITEM }] }, { selection: [{ contentItemId: MISSING_ITEM }], workflow: {} }]) {
      const res = await admin.post(`/hubs/${s.hubId}/bulk-jobs/update-workflow`, body);
      expectError(res, 400);
      expect(errorProperties(res)[0]).toMatch(/^workflow/);
    }
  });
});

describe('one bad item fails alone', () => {
  it('every entry has a result in order; the good ones apply, the bad ones change nothing', async () => {
    const ok1 = await archivedItem();
    const stale = await archivedItem();
    await admin.post(`/content-items/${stale.id}/unarchive`, { version: 2 });
    await admin.post(`/content-items/${stale.id}/archive`, { version: 3 });
    const ok2 = await archivedItem();
    const job = await runJob(admin, 'unarchive', {
      selection: [
        { contentItemId: ok1.id, version: 2 },
        { contentItemId: MISSING_ITEM, version: 1 },
        'not an object',
        { contentItemId: 'not-a-uuid', version: 1 },
        { contentItemId: stale.id, version: 2 },
        { contentItemId: ok2.id },
        { contentItemId: ok2.id, version: 2 },
      ],
    });
    expect(job.status).toBe('COMPLETED');
    expect(job.results.map((r: any) => [r.contentItemId, r.status, r.code])).toEqual([
      [ok1.id, 200, 'SUCCESS'],
      [MISSING_ITEM, 404, 'NOT_FOUND'],
      [null, 400, 'VALIDATION_FAILED'],
      ['not-a-uuid', 400, 'VALIDATION_FAILED'],
      [stale.id, 409, 'VERSION_CONFLICT'],
      [ok2.id, 400, 'VALIDATION_FAILED'],
      [ok2.id, 200, 'SUCCESS'],
    ]);
    for (const r of job.results.filter((r: any) => r.status !== 200)) expect(r.message.length).toBeGreaterThan(0);
    expect((await getItem(ok1.id)).status).toBe('ACTIVE');
    expect((await getItem(ok2.id)).status).toBe('ACTIVE');
    expect(await getItem(stale.id)).toMatchObject({ status: 'ARCHIVED', version: 4 });
  });
});

describe('permissions of the client that created the job', () => {
  /** Edit rights on the hub's first repository only. */
  let restricted: Api;
  beforeAll(async () => {
    restricted = await admin.client(unique('bulk'), [FN('CONTENT_ITEM', 'EDIT'), FN('CONTENT_ITEM', 'READ')], [
      { resource: 'hubs', id: s.hubId, permissions: ['READ'] },
      { resource: 'content-repositories', id: s.repoId, permissions: ['READ', 'EDIT_CONTENT'] },
    ]);
  });

  it('an item of a repository without the ACL fails 403; the item of the permitted repository succeeds', async () => {
    const inA = await archivedItem(s.repoId);
    const inB = await archivedItem(repoB.id);
    const job = await runJob(restricted, 'unarchive', {
      selection: [
        { contentItemId: inA.id, version: 2 },
        { contentItemId: inB.id, version: 2 },
      ],
    });
    expect(job.createdBy).toBe(restricted.clientId);
    expect(job.results[0]).toMatchObject({ contentItemId: inA.id, ...SUCCESS });
    expect(job.results[1]).toMatchObject({ contentItemId: inB.id, status: 403, code: 'ACCESS_DENIED' });
    expect(job.results[1].message).toContain('EDIT_CONTENT');
    expect((await getItem(inB.id)).status).toBe('ARCHIVED');
    expect((await getItem(inA.id)).lastModifiedBy).toBe(restricted.clientId);
  });

  it('a missing functional permission fails each item 403 (publish needs CONTENT_ITEM:PUBLISH)', async () => {
    const item = await newItem();
    const job = await runJob(restricted, 'publish', { selection: [{ contentItemId: item.id, version: 1 }] });
    expect(job.results[0]).toMatchObject({ status: 403, code: 'ACCESS_DENIED' });
    expect(job.results[0].message).toContain('CONTENT_ITEM:PUBLISH');
    expect((await getItem(item.id)).publishingStatus).toBe('NONE');
  });

  it('copy needs create rights on the destination: copying into the permitted repository only', async () => {
    const copier = await admin.client(unique('copier'), [FN('CONTENT_ITEM', 'READ'), FN('CONTENT_ITEM', 'CREATE')], [
      { resource: 'hubs', id: s.hubId, permissions: ['READ'] },
      { resource: 'content-repositories', id: s.repoId, permissions: ['READ', 'CREATE_CONTENT'] },
    ]);
    const source = await newItem(repoB.id);
    const entry = { contentItemId: source.id, version: 1, name: 'c', label: 'Copy' };
    const job = await runJob(copier, 'copy-items', { selection: [{ ...entry, contentRepositoryId: repoB.id }, { ...entry, contentRepositoryId: s.repoId }] });
    expect(job.results[0]).toMatchObject({ status: 403, code: 'ACCESS_DENIED' });
    expect(job.results[1]).toMatchObject(SUCCESS);
    expect((await getItem(job.results[1].newContentItemId)).contentRepositoryId).toBe(s.repoId);
  });

  it('a client without access to the hub gets 404 for creating and reading jobs', async () => {
    const outsider = await admin.client(unique('outsider'), [FN('CONTENT_ITEM', 'EDIT')]);
    const job = await createJob(admin, 'publish', { selection: [{ contentItemId: MISSING_ITEM, version: 1 }] });
    expectError(await outsider.post(`/hubs/${s.hubId}/bulk-jobs/publish`, { selection: [{ contentItemId: MISSING_ITEM, version: 1 }] }), 404);
    expectError(await outsider.get(`/hubs/${s.hubId}/bulk-jobs/${job.id}`), 404);
  });
});
