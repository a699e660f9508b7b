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

  it('--locale: localized fields as a site in that locale reads them (issue 31.1); bad lists exit 2', async () => {
    const lv = (values: [string, string][]) => ({ _meta: { schema: 'http://bigcontent.io/cms/schema/v1/core#/definitions/localized-value' }, values: values.map(([locale, value]) => ({ locale, value })) });
    const item = await s.api('POST', `/content-repositories/${s.repo.id}/content-items`, {
      label: 'Localized',
      body: { _meta: { schema: s.uri, deliveryKey: 'pages/localized' }, title: 'Localized', heading: lv([['en-US', 'Set'], ['de-DE', 'Satz'], ['en-GB', 'Set (GB)']]) },
    });
    await home.json(['item', 'publish', item.id, '--wait', '--timeout', '30s']);
    expect((await home.json(['item', 'get', item.id, '--delivered', '--locale', 'en-US,en-*'])).content.heading).toBe('Set');
    expect((await home.json(['item', 'get', '--key', 'pages/localized', '--delivered', '--hub', 'site', '--locale', 'fr-FR,en-GB'])).content.heading).toBe('Set (GB)');
    expect((await home.json(['item', 'get', item.id, '--delivered', '--locale', 'de-*'])).content.heading).toBe('Satz');
    expect((await home.json(['item', 'get', item.id, '--delivered', '--locale', 'fr-FR'])).content.heading).toBeNull();
    // Without --locale: every value, as stored.
    expect((await home.json(['item', 'get', item.id, '--delivered'])).content.heading.values).toHaveLength(3);
    // A malformed list: the service's 400 naming locale, exit 2, one line, no stack.
    const bad = await home.run(['item', 'get', item.id, '--delivered', '--locale', 'english']);
    expect(bad.exitCode, bad.stderr).toBe(2);
    expect(bad.stderr).toContain('locale');
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    // --locale shapes what a site reads: without --delivered it is a usage error.
    const usage = await home.run(['item', 'get', item.id, '--locale', 'en-US']);
    expect(usage.exitCode).toBe(2);
    expect(usage.stderr).toContain('--delivered');
    expect((await home.run(['item', 'get', '--help'])).stdout).toContain("--locale 'en-US,en-*'");
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
    /** Headers of each request that reached /cdn through the proxy. */
    const cdnRequests: { url: string; headers: Record<string, unknown> }[] = [];
    beforeAll(async () => {
      served = await serveSandbox({ ...home.env });
      // Accepts the unpublish (204) but never does it: the item's dates never move.
      proxy = createServer((req, res) => {
        if ((req.url ?? '').startsWith('/cdn/')) cdnRequests.push({ url: req.url!, headers: { ...req.headers } });
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

    it('a served sandbox: --delivered reads {API origin}/cdn/<hub> (the default there, or CMS_DELIVERY_URL naming it) without the access token', async () => {
      await home.json(['item', 'publish', s.page.id, '--wait'], { env });
      cdnRequests.length = 0;
      const delivered = await home.json(['item', 'get', s.page.id, '--delivered'], { env });
      expect(delivered.content._meta.deliveryId).toBe(s.page.id);
      const explicit = await home.json(['item', 'get', '--key', 'pages/home', '--delivered', '--hub', 'site'], { env: { ...env, CMS_DELIVERY_URL: `${env.CMS_API_URL}/cdn/{hubName}` } });
      expect(explicit.content._meta.deliveryId).toBe(s.page.id);
      expect(cdnRequests.map((r) => r.url.split('?')[0])).toEqual([`/cdn/site/content/id/${s.page.id}`, '/cdn/site/content/key/pages/home']);
      // Same origin as the API, and still no token: delivery is public.
      for (const r of cdnRequests) expect(r.headers.authorization).toBeUndefined();
    });
  });

  describe('a delivery origin of its own (the hosted service: https://<hub>.cdn.content.amplience.net; here CMS_DELIVERY_URL)', () => {
    let served: ServedSandbox;
    let origin: Server;
    let originUrl: string;
    const seen: { method: string; url: string; headers: Record<string, unknown> }[] = [];
    /** What the delivery origin answers next: hostile text, as any outside answer may be. */
    let reply: { status: number; body: string } = { status: 200, body: '{}' };
    beforeAll(async () => {
      served = await serveSandbox({ ...home.env });
      origin = createServer((req, res) => {
        seen.push({ method: req.method!, url: req.url!, headers: { ...req.headers } });
        req.resume();
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(reply.body);
      });
      await new Promise<void>((r) => origin.listen(0, '127.0.0.1', r));
      originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      await new Promise((r) => origin?.close(r));
      await served?.stop();
    });
    const env = () => ({ CMS_API_URL: served.url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret', CMS_DELIVERY_URL: `${originUrl}/hubs/{hubName}` });

    it('reads the item there, with depth and format, and sends no credentials; its answer is escaped on the terminal', async () => {
      reply = { status: 200, body: JSON.stringify({ content: { _meta: { schema: s.uri, deliveryId: s.page.id }, title: 'From the delivery origin \u001b]0;owned\u0007\u001b[31mred' } }) };
      seen.length = 0;
      const res = await home.run(['item', 'get', s.page.id, '--delivered', '--depth', 'root', '--format', 'linked'], { env: env() });
      expect(res.exitCode, res.stderr).toBe(0);
      expect(res.stdout).toContain('From the delivery origin');
      expect(res.stdout).not.toContain('\u001b');
      expect(seen).toHaveLength(1);
      expect(seen[0]!.method).toBe('GET');
      expect(seen[0]!.url).toBe(`/hubs/site/content/id/${s.page.id}?depth=root&format=linked`);
      expect(seen[0]!.headers.authorization).toBeUndefined();
      expect(JSON.stringify(seen[0]!.headers)).not.toContain('sandbox-secret');
      // By key: the key's slashes stay slashes.
      seen.length = 0;
      expect((await home.run(['item', 'get', '--key', 'pages/home', '--delivered', '--hub', 'site'], { env: env() })).exitCode).toBe(0);
      expect(seen[0]!.url).toBe('/hubs/site/content/key/pages/home?depth=all&format=inlined');
      expect(seen[0]!.headers.authorization).toBeUndefined();
    });

    it("the origin's errors are the delivery shape, escaped; a redirect is not followed", async () => {
      reply = { status: 404, body: JSON.stringify({ error: { type: 'CONTENT_NOT_FOUND', message: 'gone \u001b[2J\u001b]8;;http://evil.example\u0007click', data: {} } }) };
      const res = await home.run(['item', 'get', s.page.id, '--delivered'], { env: env() });
      expect(res.exitCode).toBe(1);
      expect(res.stderr).toContain('gone');
      expect(res.stderr).not.toContain('\u001b');
      reply = { status: 302, body: '' };
      const moved = await home.run(['item', 'get', s.page.id, '--delivered'], { env: env() });
      expect(moved.exitCode).toBe(1);
    });

    it('cms profile show names the delivery URL in effect and where it came from', async () => {
      const hosted = await home.json(['profile', 'show'], { env: { CMS_API_URL: 'https://api.amplience.net', CMS_CLIENT_ID: 'x', CMS_CLIENT_SECRET: 'y' } });
      expect(hosted.deliveryUrl).toBe('https://{hubName}.cdn.content.amplience.net');
      expect(hosted.sources.deliveryUrl).toBe('default');
      const given = await home.json(['profile', 'show'], { env: env() });
      expect(given.deliveryUrl).toBe(`${originUrl}/hubs/{hubName}`);
      expect(given.sources.deliveryUrl).toBe('env');
    });

    it('a CMS_DELIVERY_URL that is not an http(s) URL is a usage error (exit 2)', async () => {
      const res = await home.run(['item', 'get', s.page.id, '--delivered'], { env: { ...env(), CMS_DELIVERY_URL: 'file:///etc/passwd' } });
      expect(res.exitCode).toBe(2);
      expect(res.stderr).toContain('CMS_DELIVERY_URL');
    });
  });
});
