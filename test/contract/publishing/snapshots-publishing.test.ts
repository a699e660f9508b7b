import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, createHub, startServer, unique, type TestServer } from '../../helpers/server.js';
import { contentLink, contentSetup, createItem, itemBody, type ContentSetup } from '../../helpers/content.js';
import { Receiver } from '../../helpers/receiver.js';

describe('snapshots and publishing jobs', () => {
  let server: TestServer;
  let api: Api;
  let setup: ContentSetup;

  beforeAll(async () => {
    server = await startServer();
    api = await new Api(server.url).login();
    setup = await contentSetup(api);
  });
  afterAll(() => server.stop());

  /** A root item linking to a child that links to a grandchild. */
  async function graph() {
    const grandchild = await createItem(api, setup.repoId, setup.uri);
    const child = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { links: [contentLink(grandchild.id, setup.uri)] }) });
    const root = await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { links: [contentLink(child.id, setup.uri)] }) });
    return { root, child, grandchild };
  }

  const snapshotOf = (contentRoot: string, extra: Record<string, unknown> = {}) =>
    api.post(`/hubs/${setup.hubId}/snapshots`, { comment: 'for a test', createdFrom: 'content-item', type: 'USER', contentRoot, ...extra });

  it('create freezes the root and every descendant at their versions', async () => {
    const { root, child, grandchild } = await graph();
    const res = await snapshotOf(root.id);
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe(res.body._links.self.href);
    expect(res.body).toMatchObject({
      comment: 'for a test',
      createdFrom: 'content-item',
      type: 'USER',
      rootContentItem: { id: root.id, label: root.label, contentTypeUri: setup.uri },
      rootContentItems: [{ id: root.id, label: root.label, contentTypeUri: setup.uri }],
      taggedEditions: [],
      createdBy: 'sandbox-admin',
    });
    for (const rel of ['self', 'snapshot', 'publishing-jobs', 'create-publishing-job', 'hub', 'content-root', 'snapshot-content-item']) expect(res.body._links[rel], rel).toBeDefined();

    // Change the grandchild: the snapshot still answers the frozen version.
    const upd = await api.patch(`/content-items/${grandchild.id}`, { version: 1, body: itemBody(setup.uri, { title: 'Changed after the snapshot' }) });
    expect(upd.status).toBe(200);
    const frozen = await api.get(`/snapshots/${res.body.id}/content-items/${grandchild.id}`);
    expect(frozen.status).toBe(200);
    expect(frozen.body).toMatchObject({ id: grandchild.id, version: 1, body: { title: 'Hello' } });
    expect((await api.get(`/snapshots/${res.body.id}/content-items/${child.id}`)).body.version).toBe(1);
    const outsider = await createItem(api, setup.repoId, setup.uri);
    expect((await api.get(`/snapshots/${res.body.id}/content-items/${outsider.id}`)).status).toBe(404);
  });

  it('every field is required; comment non-empty; the root must be an item of the hub', async () => {
    const missing = await api.post(`/hubs/${setup.hubId}/snapshots`, {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { property: string }) => e.property).sort()).toEqual(['comment', 'contentRoot', 'createdFrom', 'type']);
    const item = await createItem(api, setup.repoId, setup.uri);
    expect((await snapshotOf(item.id, { comment: '  ' })).status).toBe(400);
    expect((await snapshotOf(item.id, { createdFrom: 'elsewhere' })).status).toBe(400);
    const otherHub = await createHub(api);
    const foreign = await api.post(`/hubs/${otherHub.id}/snapshots`, { comment: 'x', createdFrom: 'content-item', type: 'USER', contentRoot: item.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body.errors[0].property).toBe('contentRoot');
  });

  // The description: create takes type USER or SYSTEM; GENERATED is a listing filter (the
  // batch endpoint, whose shape the description leaves unshown, is where generated ones come from).
  it('create takes type USER or SYSTEM only: GENERATED is refused naming the property', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    for (const type of ['GENERATED', 'generated', 'OTHER']) {
      const res = await snapshotOf(item.id, { type });
      expect(res.status, type).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ property: 'type', message: expect.stringContaining('"USER"|"SYSTEM"') })]);
    }
    expect((await snapshotOf(item.id, { type: 'system' })).body.type).toBe('SYSTEM');
    expect((await snapshotOf(item.id, { type: 'USER' })).body.type).toBe('USER');
  });

  it('batch create answers {hubId, snapshots}; list filters by type', async () => {
    const a = await createItem(api, setup.repoId, setup.uri);
    const b = await createItem(api, setup.repoId, setup.uri);
    const res = await api.post(`/hubs/${setup.hubId}/snapshots/batch`, [
      { contentRoot: a.id, comment: '', createdFrom: 'content-item', type: 'GENERATED' },
      { contentRoot: b.id, comment: 'b', createdFrom: 'content-item', type: 'SYSTEM' },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.hubId).toBe(setup.hubId);
    expect(res.body.snapshots).toHaveLength(2);
    expect(res.body.snapshots[0]._links['create-publishing-job']).toBeDefined();
    const generated = await api.get(`/hubs/${setup.hubId}/snapshots?types=generated`);
    expect(generated.body._embedded.snapshots.map((s: { id: string }) => s.id)).toEqual([res.body.snapshots[0].id]);
    const two = await api.get(`/hubs/${setup.hubId}/snapshots?types=generated,system&size=50`);
    expect(two.body._embedded.snapshots.every((s: { type: string }) => ['GENERATED', 'SYSTEM'].includes(s.type))).toBe(true);
    expect((await api.get(`/hubs/${setup.hubId}/snapshots?types=weird`)).status).toBe(400);
  });

  it('a publishing job waits for its date on the sandbox clock, then publishes the graph', async () => {
    const { root, child } = await graph();
    const snapshot = (await snapshotOf(root.id)).body;
    const at = new Date(Date.now() + 3 * 3600_000).toISOString();
    const job = await api.post(`/snapshots/${snapshot.id}/publishing-jobs`, { scheduledDate: at });
    expect(job.status).toBe(201);
    expect(job.body).toMatchObject({ state: 'WAITING', scheduledDate: at, snapshotId: snapshot.id });
    expect(job.body._links.cancel).toBeDefined();
    expect((await api.get(`/content-items/${root.id}`)).body.publishingStatus).toBe('NONE');

    await api.advanceClock({ advance: '4h' });
    const done = await api.get(`/publishing-jobs/${job.body.id}`);
    expect(done.body.state).toBe('COMPLETED');
    expect(done.body._links.cancel).toBeUndefined();
    for (const id of [root.id, child.id]) {
      const item = (await api.get(`/content-items/${id}`)).body;
      expect(item.publishingStatus).toBe('LATEST');
      expect(Date.parse(item.lastPublishedDate)).toBeGreaterThan(Date.parse(at) - 1);
    }
    // A change after publication leaves the published version behind.
    await api.patch(`/content-items/${root.id}`, { version: 1, label: 'edited' });
    expect((await api.get(`/content-items/${root.id}`)).body.publishingStatus).toBe('EARLY');
    const jobs = await api.get(`/snapshots/${snapshot.id}/publishing-jobs`);
    expect(jobs.body._embedded['publishing-jobs'].map((j: { id: string }) => j.id)).toEqual([job.body.id]);
  });

  it('a job that falls due in real time, with nothing written meanwhile, shows in the very next read of its items', async () => {
    const { root } = await graph();
    const snapshot = (await snapshotOf(root.id)).body;
    // The sandbox clock runs in real time here (perhaps moved ahead by earlier tests).
    const at = Date.parse((await api.get('/__sandbox/clock')).body.now) + 1200;
    const started = Date.now();
    expect((await api.post(`/snapshots/${snapshot.id}/publishing-jobs`, { scheduledDate: new Date(at).toISOString() })).status).toBe(201);
    // Read the item while the job waits (the service may keep it at hand), then let the date pass.
    for (let i = 0; i < 3; i++) expect((await api.get(`/content-items/${root.id}`)).body.publishingStatus).toBe('NONE');
    await new Promise((r) => setTimeout(r, started + 1300 - Date.now()));
    expect((await api.get(`/content-items/${root.id}`)).body.publishingStatus).toBe('LATEST');
  });

  it('cancel: a waiting job becomes CANCELLED and never runs; a finished one refuses', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const snapshot = (await snapshotOf(item.id)).body;
    const job = (await api.post(`/snapshots/${snapshot.id}/publishing-jobs`, { scheduledDate: new Date(Date.now() + 86400_000 * 10).toISOString() })).body;
    const bad = await api.patch(`/publishing-jobs/${job.id}`, { state: 'COMPLETED' });
    expect(bad.status).toBe(400);
    const cancelled = await api.patch(`/publishing-jobs/${job.id}`, { state: 'CANCELLED' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.state).toBe('CANCELLED');
    await api.advanceClock({ advance: '11d' });
    expect((await api.get(`/publishing-jobs/${job.id}`)).body.state).toBe('CANCELLED');
    expect((await api.get(`/content-items/${item.id}`)).body.publishingStatus).toBe('NONE');
    const again = await api.patch(`/publishing-jobs/${job.id}`, { state: 'CANCELLED' });
    expect(again.status).toBe(409);
  });

  it('publishing an item: 204 with no body + Location of the job, which completes; events are delivered', async () => {
    const receiver = await new Receiver().start();
    try {
      await api.post(`/hubs/${setup.hubId}/webhooks`, { label: unique('pub'), events: ['content-item.published', 'snapshot.published'], handlers: [receiver.url] });
      const item = await createItem(api, setup.repoId, setup.uri);
      const res = await api.post(`/content-items/${item.id}/publish`, {});
      // Clients of the hosted service treat any status but 204 as a failed publish.
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      const location = res.headers.get('location')!;
      expect(location).toMatch(new RegExp(`^${api.base}/publishing-jobs/[0-9a-f]{24}$`));
      const job = await api.get(location);
      expect(job.status).toBe(200);
      expect(job.body.state).toBe('COMPLETED');
      const published = (await api.get(`/content-items/${item.id}`)).body;
      expect(published).toMatchObject({ publishingStatus: 'LATEST' });
      const events = await receiver.waitFor(2);
      expect(events.map((e) => e.headers['x-webhook-event']).sort()).toEqual(['content-item.published', 'snapshot.published']);
      const unpublish = await api.post(`/content-items/${item.id}/unpublish`, {});
      expect(unpublish.status).toBe(204);
      expect((await api.get(`/content-items/${item.id}`)).body.publishingStatus).toBe('UNPUBLISHED');
    } finally {
      await receiver.stop();
    }
  });

  it('permissions: publishing needs CONTENT_ITEM:PUBLISH; another hub is 404', async () => {
    const item = await createItem(api, setup.repoId, setup.uri);
    const reader = await api.client(unique('reader'), ['CONTENT:FUNCTIONAL:CONTENT_ITEM:READ', 'CONTENT:FUNCTIONAL:SNAPSHOT:READ'], [{ resource: 'hubs', id: setup.hubId, permissions: ['READ'] }]);
    expect((await reader.post(`/content-items/${item.id}/publish`, {})).status).toBe(403);
    const stranger = await api.client(unique('stranger'), ['CONTENT:FUNCTIONAL:SNAPSHOT:READ'], []);
    const snapshot = (await snapshotOf(item.id)).body;
    expect((await stranger.get(`/snapshots/${snapshot.id}`)).status).toBe(404);
  });
});
