import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { Api, createHub, startServer, type TestServer } from '../../helpers/server.js';
import { errorProperties, expectError, FN, HEX_ID, ISO_MILLIS, MISSING_ID } from '../../helpers/assert.js';

// Workflow states: wire-contract §4 ({id, label, color: "rgb(r,g,b)"}) and SDK notes 2.13.

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

async function createState(label: string, color = 'rgb(0,0,0)', hub = hubId): Promise<any> {
  const res = await admin.post(`/hubs/${hub}/workflow-states`, { label, color });
  if (res.status !== 201) throw new Error(`workflow state create failed: ${res.status} ${res.text}`);
  return res.body;
}

const labels = (body: any): string[] => body._embedded['workflow-states'].map((s: { label: string }) => s.label);

describe('create', () => {
  it('answers 201 with {id, label, color}, stamps, Location and links self, workflow-state, hub, update', async () => {
    const res = await admin.post(`/hubs/${hubId}/workflow-states`, { label: 'In review', color: 'rgb(255,128,0)' });
    expect(res.status, res.text).toBe(201);
    const s = res.body;
    expect(s.id).toMatch(HEX_ID);
    expect(s).toMatchObject({ label: 'In review', color: 'rgb(255,128,0)', createdBy: 'sandbox-admin' });
    expect(s.createdDate).toMatch(ISO_MILLIS);
    const self = `${admin.base}/workflow-states/${s.id}`;
    expect(res.headers.get('location')).toBe(self);
    expect(s._links).toEqual({ self: { href: self }, 'workflow-state': { href: self }, hub: { href: `${admin.base}/hubs/${hubId}` }, update: { href: self } });
  });

  it('spaces inside the colour are accepted and dropped', async () => {
    expect((await createState('Spaced', 'rgb( 1, 2 ,3 )')).color).toBe('rgb(1,2,3)');
  });

  it.each([
    ['label', { color: 'rgb(0,0,0)' }],
    ['label', { label: '', color: 'rgb(0,0,0)' }],
    ['color', { label: 'L' }],
    ['color', { label: 'L', color: '#ff0000' }],
    ['color', { label: 'L', color: 'rgb(256,0,0)' }],
    ['color', { label: 'L', color: 'rgb(0,0)' }],
    ['color', { label: 'L', color: 'rgb(-1,0,0)' }],
    ['color', { label: 'L', color: 'rgba(0,0,0,1)' }],
    ['color', { label: 'L', color: 7 }],
  ])('a bad body is 400 naming %s', async (property, body) => {
    const res = await admin.post(`/hubs/${hubId}/workflow-states`, body);
    expect(expectError(res, 400).entity).toBe('WorkflowState');
    expect(errorProperties(res)).toEqual([property]);
  });

  it('in an unknown hub is 404', async () => {
    expectError(await admin.post(`/hubs/${MISSING_ID}/workflow-states`, { label: 'L', color: 'rgb(0,0,0)' }), 404);
  });
});

describe('list and get', () => {
  let listHub: string;
  let first: any;
  beforeAll(async () => {
    listHub = (await createHub(admin)).id;
    first = await createState('Draft', 'rgb(200,200,200)', listHub);
    await createState('Approved', 'rgb(0,200,0)', listHub);
    await createState('Review', 'rgb(200,200,0)', listHub);
  });

  it('lists the hub states oldest first under workflow-states, paged', async () => {
    const res = await admin.get(`/hubs/${listHub}/workflow-states`);
    expect(res.status).toBe(200);
    expect(labels(res.body)).toEqual(['Draft', 'Approved', 'Review']);
    expect(res.body.page).toEqual({ size: 20, totalElements: 3, totalPages: 1, number: 0 });
    const page = await admin.get(`/hubs/${listHub}/workflow-states?sort=label,asc&size=2&page=0`);
    expect(labels(page.body)).toEqual(['Approved', 'Draft']);
    expect(page.body.page).toEqual({ size: 2, totalElements: 3, totalPages: 2, number: 0 });
    expect(page.body._links.next).toBeDefined();
  });

  it('a hub without states lists none; a bad sort is 400', async () => {
    const empty = (await createHub(admin)).id;
    expect((await admin.get(`/hubs/${empty}/workflow-states`)).body._embedded).toEqual({ 'workflow-states': [] });
    expect(expectError(await admin.get(`/hubs/${listHub}/workflow-states?sort=rank,asc`), 400).property).toBe('sort');
  });

  it('gets a state; an unknown id is 404', async () => {
    const res = await admin.get(`/workflow-states/${first.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(first);
    expect(expectError(await admin.get(`/workflow-states/${MISSING_ID}`), 404).entity).toBe('WorkflowState');
  });
});

describe('update', () => {
  it('changes only the fields given (200 with Location)', async () => {
    const s = await createState('Old', 'rgb(1,1,1)');
    const label = await admin.patch(`/workflow-states/${s.id}`, { label: 'New' });
    expect(label.status, label.text).toBe(200);
    expect(label.headers.get('location')).toBe(`${admin.base}/workflow-states/${s.id}`);
    expect(label.body).toMatchObject({ label: 'New', color: 'rgb(1,1,1)' });
    const color = await admin.patch(`/workflow-states/${s.id}`, { color: 'rgb(9,9,9)' });
    expect(color.body).toMatchObject({ label: 'New', color: 'rgb(9,9,9)' });
    expect((await admin.get(`/workflow-states/${s.id}`)).body).toMatchObject({ label: 'New', color: 'rgb(9,9,9)' });
  });

  it('the whole fetched state sent back is accepted', async () => {
    const s = await createState('Round');
    const res = await admin.patch(`/workflow-states/${s.id}`, { ...s, id: MISSING_ID, label: 'Trip' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: s.id, label: 'Trip' });
  });

  it.each([
    ['label', { label: '' }],
    ['color', { color: 'rgb(0,0,300)' }],
  ])('a bad %s is 400 and changes nothing', async (property, body) => {
    const s = await createState('Stable', 'rgb(5,5,5)');
    expect(errorProperties(await admin.patch(`/workflow-states/${s.id}`, body))).toEqual([property]);
    expect((await admin.get(`/workflow-states/${s.id}`)).body).toMatchObject({ label: 'Stable', color: 'rgb(5,5,5)' });
  });

  it('an unknown state is 404', async () => {
    expectError(await admin.patch(`/workflow-states/${MISSING_ID}`, { label: 'x' }), 404);
  });
});

describe('permissions', () => {
  let s: any;
  beforeAll(async () => {
    s = await createState('Guarded');
  });
  const hubAcl = (permissions: string[]) => [{ resource: 'hubs' as const, id: hubId, permissions }];

  it('reads need WORKFLOW_STATE:READ and hub READ', async () => {
    const reader = await admin.client(`wf-reader-${process.pid}`, [FN('WORKFLOW_STATE', 'READ')], hubAcl(['READ']));
    expect((await reader.get(`/workflow-states/${s.id}`)).status).toBe(200);
    expect((await reader.get(`/hubs/${hubId}/workflow-states`)).status).toBe(200);
    expect(Object.keys((await reader.get(`/workflow-states/${s.id}`)).body._links).sort()).toEqual(['hub', 'self', 'workflow-state']);
    const blind = await admin.client(`wf-blind-${process.pid}`, [], hubAcl(['READ']));
    expect(expectError(await blind.get(`/workflow-states/${s.id}`), 403).message).toContain(FN('WORKFLOW_STATE', 'READ'));
  });

  it('create and update need their functional permission and hub EDIT', async () => {
    const noEditAcl = await admin.client(`wf-noacl-${process.pid}`, [FN('WORKFLOW_STATE', 'CREATE'), FN('WORKFLOW_STATE', 'EDIT')], hubAcl(['READ']));
    expectError(await noEditAcl.post(`/hubs/${hubId}/workflow-states`, { label: 'L', color: 'rgb(0,0,0)' }), 403);
    expectError(await noEditAcl.patch(`/workflow-states/${s.id}`, { label: 'L' }), 403);
    const editor = await admin.client(`wf-editor-${process.pid}`, [FN('WORKFLOW_STATE', 'CREATE'), FN('WORKFLOW_STATE', 'EDIT')], hubAcl(['READ', 'EDIT']));
    expect((await editor.post(`/hubs/${hubId}/workflow-states`, { label: 'L', color: 'rgb(0,0,0)' })).status).toBe(201);
    expect((await editor.patch(`/workflow-states/${s.id}`, { label: 'Edited' })).status).toBe(200);
  });

  it('a client without access to the hub gets 404', async () => {
    const stranger = await admin.client(`wf-stranger-${process.pid}`, [FN('WORKFLOW_STATE', 'READ')]);
    expectError(await stranger.get(`/workflow-states/${s.id}`), 404);
  });
});
