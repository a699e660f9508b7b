import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Receiver } from '../helpers/receiver.js';
import { serveSandbox } from '../helpers/serve.js';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Sets up a hub with a repository, an assigned type and one item, through `cms api`. */
async function seed(home: CliHome) {
  const api = async (method: string, path: string, body: unknown) => {
    const res = await home.run(['api', method, path, '--input', '-'], { input: JSON.stringify(body) });
    if (res.exitCode !== 0) throw new Error(`${method} ${path}: ${res.stderr}`);
    return res.stdout ? JSON.parse(res.stdout) : undefined;
  };
  const hub = await api('POST', '/hubs', { name: 'pub', label: 'Publishing' });
  const repo = await api('POST', `/hubs/${hub.id}/content-repositories`, { name: 'content', label: 'Content' });
  const uri = 'https://schemas.example.com/page.json';
  const doc = { $schema: 'http://bigcontent.io/cms/schema/v1/schema#', id: uri, type: 'object', allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }], properties: { title: { type: 'string' } } };
  await api('POST', `/hubs/${hub.id}/content-type-schemas`, { schemaId: uri, body: JSON.stringify(doc), validationLevel: 'CONTENT_TYPE' });
  const type = await api('POST', `/hubs/${hub.id}/content-types`, { contentTypeUri: uri, settings: { label: 'Page' } });
  await api('POST', `/content-repositories/${repo.id}/content-types`, { contentTypeId: type.id });
  const item = await api('POST', `/content-repositories/${repo.id}/content-items`, { label: 'Home page', body: { _meta: { schema: uri }, title: 'Welcome' } });
  return { api, hub, repo, item };
}

describe('cms sandbox clock, job and item publish', () => {
  const home = new CliHome();
  let s: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    s = await seed(home);
  });
  afterAll(() => home.cleanup());

  it('clock show / set / freeze / advance / resume', async () => {
    const set = await home.json(['sandbox', 'clock', 'set', '2030-01-01T00:00:00Z']);
    expect(Date.parse(set.now)).toBeGreaterThanOrEqual(Date.parse('2030-01-01T00:00:00Z'));
    const frozen = await home.json(['sandbox', 'clock', 'freeze']);
    expect(frozen.frozen).toBe(true);
    const advanced = await home.json(['sandbox', 'clock', 'advance', '90m']);
    expect(Date.parse(advanced.now) - Date.parse(frozen.now)).toBe(90 * 60_000);
    const shown = await home.json(['sandbox', 'clock', 'show']);
    expect(shown.now).toBe(advanced.now);
    const resumed = await home.json(['sandbox', 'clock', 'resume']);
    expect(resumed.frozen).toBe(false);
    const bad = await home.run(['sandbox', 'clock', 'advance', 'soon']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('not a duration');
    expect((await home.run(['sandbox', 'clock', 'set', 'tomorrow'])).exitCode).toBe(2);
  });

  it('item publish --wait completes the job and marks the item published', async () => {
    const job = await home.json(['item', 'publish', s.item.id, '--wait']);
    expect(job.state).toBe('COMPLETED');
    const item = await home.json(['api', 'GET', `/content-items/${s.item.id}`]);
    expect(item.publishingStatus).toBe('LATEST');
  });

  it('item publish (no --wait) prints the job its 204 answer locates', async () => {
    const job = await home.json(['item', 'publish', s.item.id]);
    expect(job).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{24}$/), state: 'COMPLETED' });
    expect((await home.json(['job', 'get', job.id])).id).toBe(job.id);
  });

  it('job create --at +2h waits on the sandbox clock; job wait times out with exit 8, then completes after the clock moves', async () => {
    const snapshot = await s.api('POST', `/hubs/${s.hub.id}/snapshots`, { comment: 'cli', createdFrom: 'content-item', type: 'USER', contentRoot: s.item.id });
    const job = await home.json(['job', 'create', '--snapshot', snapshot.id, '--at', '+2h']);
    expect(job.state).toBe('WAITING');
    const timedOut = await home.run(['job', 'wait', job.id, '--timeout', '1s', '--interval', '200ms']);
    expect(timedOut.exitCode).toBe(8);
    expect(timedOut.stderr).toContain('still WAITING');
    expect((await home.run(['sandbox', 'clock', 'advance', '3h'])).exitCode).toBe(0);
    const done = await home.json(['job', 'wait', job.id, '--timeout', '10s']);
    expect(done.state).toBe('COMPLETED');
    const listed = await home.run(['job', 'list', '--snapshot', snapshot.id, '--query', '[].state']);
    expect(listed.stdout).toBe('COMPLETED\n');
  });

  it('job cancel, then wait exits 1 naming the state; bad durations are usage errors', async () => {
    const snapshot = await s.api('POST', `/hubs/${s.hub.id}/snapshots`, { comment: 'cli', createdFrom: 'content-item', type: 'USER', contentRoot: s.item.id });
    const job = await home.json(['job', 'create', '--snapshot', snapshot.id, '--at', '+1d']);
    expect((await home.json(['job', 'cancel', job.id])).state).toBe('CANCELLED');
    const waited = await home.run(['job', 'wait', job.id]);
    expect(waited.exitCode).toBe(1);
    expect(waited.stderr).toContain('ended CANCELLED');
    expect((await home.run(['job', 'cancel', job.id])).exitCode).toBe(1);
    expect((await home.run(['job', 'wait', job.id, '--timeout', 'forever'])).exitCode).toBe(2);
    expect((await home.run(['job', 'create', '--snapshot', snapshot.id, '--at', 'next week'])).exitCode).toBe(2);
  });

  it('job list without --snapshot against a service that lacks the sandbox listing (404, as the hosted one) gathers every snapshot\'s jobs, newest snapshot first; --limit stops early', async () => {
    const viaSandbox = await home.json(['job', 'list', '--hub', 'pub', '--all']);
    expect(viaSandbox.length).toBeGreaterThanOrEqual(3);
    const served = await serveSandbox({ ...home.env });
    // In front of it, a service without the /__sandbox endpoints: they answer 404 like unknown paths.
    const seen: string[] = [];
    const proxy = createServer((req, res) => {
      seen.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
      if ((req.url ?? '').startsWith('/__sandbox/')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ errors: [{ code: 'NOT_FOUND', level: 'ERROR', message: 'Not found' }] }));
        return;
      }
      const target = new URL(req.url ?? '/', served.url);
      const upstream = httpRequest(target, { method: req.method, headers: { ...req.headers, host: target.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      const env = { CMS_API_URL: url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
      const gathered = await home.json(['job', 'list', '--hub', 'pub', '--all'], { env });
      expect(seen.some((r) => r.startsWith('GET /__sandbox/hubs/'))).toBe(true);
      expect(seen.some((r) => /^GET \/v2\/content\/snapshots\/[0-9a-f]+\/publishing-jobs$/.test(r))).toBe(true);
      expect(gathered.map((j: { id: string }) => j.id).sort()).toEqual(viaSandbox.map((j: { id: string }) => j.id).sort());
      // Newest snapshot first: the jobs' snapshots appear in the order the hub lists them newest first.
      const snapshots = (await home.json(['api', 'GET', '/hubs/{hub}/snapshots?sort=createdDate,desc&size=100', '--hub', 'pub']))._embedded.snapshots.map((x: { id: string }) => x.id);
      const order = gathered.map((j: { snapshotId?: string; _links?: { snapshot?: { href: string } } }) => snapshots.indexOf(j.snapshotId ?? j._links?.snapshot?.href.split('/').pop()));
      expect(order.every((o: number) => o >= 0)).toBe(true);
      expect([...order].sort((a, b) => a - b)).toEqual(order);
      seen.length = 0;
      const one = await home.json(['job', 'list', '--hub', 'pub', '--limit', '1'], { env });
      expect(one).toHaveLength(1);
      expect(seen.filter((r) => r.includes('/publishing-jobs') && r.includes('/snapshots/'))).toHaveLength(1);
    } finally {
      await new Promise((r) => proxy.close(r));
      await served.stop();
    }
  });
});

describe('cms webhook', () => {
  const home = new CliHome();
  let receiver: Receiver;
  let s: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    receiver = await new Receiver().start();
    s = await seed(home);
  });
  afterAll(async () => {
    await receiver.stop();
    home.cleanup();
  });

  it('create, list, get, update, requests and delete', async () => {
    const hook = await home.json([
      'webhook', 'create', '--label', 'CLI hook', '--event', 'content-item.published', '--handler', `${receiver.url}/cli`,
      '--secret', 'sign-me', '--header', 'X-Team=web', '--secret-header', 'Authorization=Bearer top-secret',
    ]);
    expect(hook.headers).toEqual([
      { key: 'X-Team', value: 'web', secret: false },
      { key: 'Authorization', value: null, secret: true },
    ]);
    expect((await home.run(['webhook', 'list', '--query', '[].label'])).stdout).toBe('CLI hook\n');
    const shown = await home.run(['webhook', 'get', hook.id, '-o', 'json']);
    expect(shown.stdout).not.toContain('top-secret');

    // The delivery leaves before the CLI process exits: nothing else needs to run.
    expect((await home.run(['item', 'publish', s.item.id, '--wait'])).exitCode).toBe(0);
    const [delivery] = await receiver.waitFor(1, (r) => r.url === '/cli');
    expect(delivery!.headers.authorization).toBe('Bearer top-secret');
    const requests = await home.json(['webhook', 'requests', hook.id]);
    expect(requests[0]).toMatchObject({ eventName: 'content-item.published', result: 200, attempt: 1 });
    expect(JSON.stringify(requests)).not.toContain('top-secret');

    const updated = await home.json(['webhook', 'update', hook.id, '--no-active', '--label', 'Paused']);
    expect(updated).toMatchObject({ active: false, label: 'Paused' });
    expect((await home.run(['webhook', 'update', hook.id])).exitCode).toBe(2);
    expect((await home.run(['webhook', 'delete', hook.id])).exitCode).toBe(2);
    expect((await home.run(['webhook', 'delete', hook.id, '--yes'])).exitCode).toBe(0);
    expect((await home.run(['webhook', 'get', hook.id])).exitCode).toBe(1);
  });

  it('invalid webhooks are refused with the property named (exit 2)', async () => {
    const res = await home.run(['webhook', 'create', '--label', 'bad', '--event', 'no.such.event', '--handler', 'not-a-url']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toContain('events.0');
    expect(res.stderr).toContain('handlers.0');
  });
});
