import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve.js';

// What a site reads, from the CLI (issues 22.7 and 23): publish/unpublish --wait wait on the
// item's dates (exit 8 when they do not move in time), `item get --delivered` reads the published
// version through Content Delivery 2, `item graph` and `item render` say they read staging.

async function seed(home: CliHome) {
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await home.run(['api', method, path, ...(body === undefined ? [] : ['--input', '-'])], { input: body === undefined ? '' : JSON.stringify(body) });
    if (res.exitCode !== 0) throw new Error(`${method} ${path}: ${res.stderr}`);
    return res.stdout ? JSON.parse(res.stdout) : undefined;
  };
  const hub = await api('POST', '/hubs', { name: 'site', label: 'Site' });
  await api('POST', `/admin/hubs/${hub.id}/modules/content-delivery-2`);
  const repo = await api('POST', `/hubs/${hub.id}/content-repositories`, { name: 'content', label: 'Content' });
  const uri = 'https://schemas.example.com/page.json';
  const core = 'https://schemas.example.com/cms/schema/v1/core#/definitions';
  const doc = {
    $schema: 'https://schemas.example.com/cms/schema/v1/schema#',
    id: uri,
    type: 'object',
    allOf: [{ $ref: `${core}/content` }],
    properties: { title: { type: 'string' }, child: { allOf: [{ $ref: `${core}/content-link` }] } },
  };
  await api('POST', `/hubs/${hub.id}/content-type-schemas`, { schemaId: uri, body: JSON.stringify(doc), validationLevel: 'CONTENT_TYPE' });
  const type = await api('POST', `/hubs/${hub.id}/content-types`, { contentTypeUri: uri, settings: { label: 'Page' } });
  await api('POST', `/content-repositories/${repo.id}/content-types`, { contentTypeId: type.id });
  const child = await api('POST', `/content-repositories/${repo.id}/content-items`, { label: 'Child', body: { _meta: { schema: uri }, title: 'Child v1' } });
  const page = await api('POST', `/content-repositories/${repo.id}/content-items`, {
    label: 'Home',
    body: { _meta: { schema: uri, deliveryKey: 'pages/home' }, title: 'Home v1', child: { _meta: { schema: `${core}/content-link` }, contentType: uri, id: child.id } },
  });
  return { api, hub, repo, uri, child, page };
}

describe('cms item publish/unpublish --wait and get --delivered', () => {
  const home = new CliHome();
  let s: Awaited<ReturnType<typeof seed>>;
  beforeAll(async () => {
    s = await seed(home);
  });
  afterAll(() => home.cleanup());

  it('publish --wait, then --delivered shows the published version by id and by key while staging shows the draft', async () => {
    expect((await home.run(['item', 'get', s.page.id, '--delivered'])).exitCode).toBe(1);
    const job = await home.json(['item', 'publish', s.page.id, '--wait', '--timeout', '30s']);
    expect(job.state).toBe('COMPLETED');
    const delivered = await home.json(['item', 'get', s.page.id, '--delivered']);
    expect(delivered.content).toMatchObject({ title: 'Home v1', child: { title: 'Child v1' }, _meta: { deliveryId: s.page.id, deliveryKey: 'pages/home' } });
    expect(await home.json(['item', 'get', '--key', 'pages/home', '--delivered', '--hub', 'site'])).toEqual(delivered);
    const linked = await home.json(['item', 'get', s.page.id, '--delivered', '--format', 'linked']);
    expect(linked.linkedContent.map((c: any) => c.title)).toEqual(['Child v1']);
    const root = await home.json(['item', 'get', s.page.id, '--delivered', '--depth', 'root']);
    expect(root.content.child.id).toBe(s.child.id);

    const current = await s.api('GET', `/content-items/${s.page.id}`);
    await s.api('PATCH', `/content-items/${s.page.id}`, { version: current.version, body: { ...current.body, title: 'Home v2 (draft)' } });
    expect((await home.json(['item', 'get', s.page.id, '--delivered'])).content.title).toBe('Home v1');
    const graph = await home.json(['item', 'graph', s.page.id]);
    expect(graph['@graph'][0].title).toBe('Home v2 (draft)');
    expect(graph.result).toEqual([{ '@id': `http://content.cms.amplience.com/${s.page.id}` }]);
    const page = await home.run(['item', 'render', s.page.id]);
    expect(page.exitCode).toBe(0);
    expect(page.stdout).toContain('Home v2 (draft)');
    for (const verb of ['graph', 'render']) expect((await home.run(['item', verb, '--help'])).stdout).toMatch(/staging/i);
  });

  it('unpublish --wait returns once lastUnpublishedDate >= lastPublishedDate; delivery then answers not found', async () => {
    await home.json(['item', 'publish', s.child.id, '--wait']);
    const item = await home.json(['item', 'unpublish', s.child.id, '--wait', '--timeout', '30s']);
    expect(item.publishingStatus).toBe('UNPUBLISHED');
    expect(Date.parse(item.lastUnpublishedDate)).toBeGreaterThanOrEqual(Date.parse(item.lastPublishedDate));
    const gone = await home.run(['item', 'get', s.child.id, '--delivered']);
    expect(gone.exitCode).toBe(1);
    expect(gone.stderr).toContain('No content found');
    expect(gone.stderr).not.toContain('[object Object]');
  });

  it('bad --depth/--format are usage errors (exit 2)', async () => {
    expect((await home.run(['item', 'get', s.page.id, '--delivered', '--depth', 'deep'])).exitCode).toBe(2);
    expect((await home.run(['item', 'get', s.page.id, '--delivered', '--format', 'xml'])).exitCode).toBe(2);
    expect((await home.run(['item', 'get', s.page.id, '--delivered', '--version', '1'])).exitCode).toBe(2);
  });

  describe('against a service whose unpublish never completes', () => {
    let served: ServedSandbox;
    let proxy: Server;
    let env: Record<string, string>;
    beforeAll(async () => {
      served = await serveSandbox({ ...home.env });
      // Accepts the unpublish (204) but never does it: the item's dates never move.
      proxy = createServer((req, res) => {
        if (req.method === 'POST' && /\/unpublish$/.test((req.url ?? '').split('?')[0]!)) {
          req.resume();
          res.writeHead(204).end();
          return;
        }
        const target = new URL(req.url ?? '/', served.url);
        // The Host stays the proxy's, as a reverse proxy keeps it: links and Locations name the proxy.
        const upstream = httpRequest(target, { method: req.method, headers: req.headers }, (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        });
        req.pipe(upstream);
      });
      await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
      env = { CMS_API_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
    });
    afterAll(async () => {
      await new Promise((r) => proxy?.close(r));
      await served?.stop();
    });

    it('unpublish --wait gives up at --timeout with exit 8, naming the dates', async () => {
      await home.json(['item', 'publish', s.page.id, '--wait'], { env });
      const started = Date.now();
      const res = await home.run(['item', 'unpublish', s.page.id, '--wait', '--timeout', '1s', '--interval', '200ms'], { env });
      expect(res.exitCode, res.stderr).toBe(8);
      expect(res.stderr).toContain('not unpublished when the wait timed out');
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  });
});
