import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CliHome } from '../helpers/cli.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve.js';
import { Api } from '../helpers/server.js';
import { contentSetup, createItem, enableDeliveryKeys, itemBody } from '../helpers/content.js';

// A site in a real Chromium, on its own origin (http://localhost:<port>), reading the served
// sandbox (`cms sandbox serve`, the built binary, on http://127.0.0.1:<port>) through the vendor's
// browser bundle of dc-delivery-sdk-js: blocked without --cors-origin (no CORS, the threat
// model's default), working with it (a GET, and a filter whose JSON body needs a preflight), and
// the management API and the token endpoint unreadable from that page even with the flag.

const CHROMIUM = process.env.CMS_CHROMIUM ?? '/usr/bin/chromium';
const SDK_BUNDLE = join(dirname(createRequire(import.meta.url).resolve('dc-delivery-sdk-js/package.json')), 'dist', 'dynamicContent.browser.umd.js');

describe.skipIf(!existsSync(CHROMIUM))('a site on another origin reads delivery in a browser', { timeout: 180_000 }, () => {
  const home = new CliHome();
  let site: Server;
  let siteOrigin: string;
  let closed: ServedSandbox; // no --cors-origin
  let open: ServedSandbox; // --cors-origin <site>
  let browser: Browser;
  let page: Page;
  let api: Api;
  let hubName: string;
  let typeUri: string;
  let itemId: string;

  beforeAll(async () => {
    // The site: a page and the SDK's browser bundle, nothing else.
    const bundle = readFileSync(SDK_BUNDLE);
    site = createServer((req, res) => {
      if (req.url === '/sdk.js') res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>site</title><script src="/sdk.js"></script>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;

    closed = await serveSandbox(home.env);
    api = await new Api(closed.url).login();
    const setup = await contentSetup(api);
    typeUri = setup.uri;
    hubName = (await api.get(`/hubs/${setup.hubId}`)).body.name;
    await enableDeliveryKeys(api, setup.hubId);
    itemId = (await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'From the sandbox' }, { deliveryKey: 'pages/home' }) })).id;
    expect((await api.post(`/content-items/${itemId}/publish`, {})).status).toBe(204);
    // The same data directory, served again with the flag.
    open = await serveSandbox(home.env, ['--cors-origin', siteOrigin]);

    browser = await chromium.launch({ executablePath: CHROMIUM });
    page = await browser.newPage();
    await page.goto(`${siteOrigin}/`);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await open?.stop();
    await closed?.stop();
    site?.close();
    home.cleanup();
  });

  /** Runs the SDK in the page against a served sandbox: the item by key, and a filter by content type. */
  const readWithSdk = (sandboxUrl: string) =>
    page.evaluate(
      async ({ base, hub, key, uri }) => {
        const sdk = (globalThis as any).ampDynamicContent;
        const client = new sdk.ContentClient({ hubName: hub, baseUrl: `${base}/cdn/${hub}` });
        try {
          const item = await client.getContentItemByKey(key);
          const listed = await client.filterByContentType(uri).request();
          return { title: item.toJSON().title, listed: listed.responses.length };
        } catch (err) {
          return { error: String((err as Error).message) };
        }
      },
      { base: sandboxUrl, hub: hubName, key: 'pages/home', uri: typeUri },
    );

  /** What a page's fetch of a sandbox URL gives: the status it could read, or that it was blocked. */
  const pageFetch = (url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
    page.evaluate(
      async ({ url, init }) => {
        try {
          const res = await fetch(url, init);
          return { status: res.status, text: await res.text() };
        } catch (err) {
          return { blocked: String((err as Error).message) };
        }
      },
      { url, init },
    );

  it('the page is on another origin than the sandbox', async () => {
    expect(await page.evaluate(() => location.origin)).toBe(siteOrigin);
    expect(new URL(open.url).origin).not.toBe(siteOrigin);
  });

  it('without --cors-origin the browser blocks the SDK (no CORS headers)', async () => {
    const res = await readWithSdk(closed.url);
    expect(res).toHaveProperty('error');
    expect(res).not.toHaveProperty('title');
  });

  it('with --cors-origin the SDK reads published content by key and filters (a preflighted POST)', async () => {
    expect(await readWithSdk(open.url)).toEqual({ title: 'From the sandbox', listed: 1 });
  });

  it('the management API and the token endpoint stay unreadable from the page, even with the flag', async () => {
    const hubs = await pageFetch(`${open.url}/v2/content/hubs`, { headers: { authorization: `Bearer ${api.token}` } });
    expect(hubs).toHaveProperty('blocked');
    // A form POST goes out without a preflight, but its answer (a token) cannot be read.
    const token = await pageFetch(`${open.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=sandbox-admin&client_secret=sandbox-secret',
    });
    expect(token).toHaveProperty('blocked');
    expect(JSON.stringify(token)).not.toContain('access_token');
    expect(await pageFetch(`${open.url}/__sandbox/status`)).toHaveProperty('blocked');
    // While delivery on the same sandbox answers the page.
    expect(await pageFetch(`${open.url}/cdn/${hubName}/content/id/${itemId}`)).toMatchObject({ status: 200 });
  });
});
