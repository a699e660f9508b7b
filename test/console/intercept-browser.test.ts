import { generateKeyPairSync } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startSandbox, type SandboxFixture } from '../../src/fixture/index.js';
import { issueCertificate, pem } from '../../src/server/intercept/x509.js';
import { Api, unique } from '../helpers/server.js';
import { contentSetup, createItem, enableDeliveryKeys, itemBody } from '../helpers/content.js';

// A headless Chromium reaching the sandbox at the service's own names through the interception
// proxy, configured the way docs/testing-with-the-sandbox.md shows for Playwright: the proxy as
// its proxy server, and the leaves' key as the one key whose certificates it accepts
// (--ignore-certificate-errors-spki-list=$CMS_INTERCEPT_SPKI): nothing installed, no other
// certificate error ignored.

const CHROMIUM = process.env.CMS_CHROMIUM ?? '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('a browser through the interception proxy', { timeout: 180_000 }, () => {
  let sb: SandboxFixture;
  let browser: Browser;
  let hubName: string;
  let itemId: string;
  const staging = `${unique('vse')}.staging.example.test`;

  beforeAll(async () => {
    sb = await startSandbox({ intercept: true });
    const api = await new Api(sb.url).login();
    const setup = await contentSetup(api);
    hubName = (await api.get(`/hubs/${setup.hubId}`)).body.name;
    await enableDeliveryKeys(api, setup.hubId);
    itemId = (await createItem(api, setup.repoId, setup.uri, { body: itemBody(setup.uri, { title: 'In the browser' }, { deliveryKey: 'pages/home' }) })).id;
    expect((await api.post(`/content-items/${itemId}/publish`, {})).status).toBe(204);
    expect((await api.patch(`/hubs/${setup.hubId}/settings`, { virtualStagingEnvironment: { hostname: staging } })).status).toBe(204);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      proxy: { server: sb.intercept!.proxyUrl },
      args: [`--ignore-certificate-errors-spki-list=${sb.intercept!.env.CMS_INTERCEPT_SPKI}`],
    });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await sb?.close();
  });

  it('opens https://<hub>.cdn.content.amplience.net/content/key/... and a staging hostname', async () => {
    const page = await browser.newPage();
    const res = await page.goto(`https://${hubName}.cdn.content.amplience.net/content/key/pages/home`);
    expect(res!.status()).toBe(200);
    expect(JSON.parse(await res!.text()).content).toMatchObject({ title: 'In the browser', _meta: { deliveryKey: 'pages/home' } });
    // The page's own fetch, on its origin.
    const viaFetch = await page.evaluate(async (id) => (await (await fetch(`/content/id/${id}`)).json()).content.title, itemId);
    expect(viaFetch).toBe('In the browser');
    const onStaging = await page.goto(`https://${staging}/content/id/${itemId}`);
    expect(onStaging!.status()).toBe(200);
    expect(JSON.parse(await onStaging!.text()).content.title).toBe('In the browser');
    await page.close();
  });

  it("a certificate from anyone else is still refused (only the leaves' key is accepted), and without the flag the sandbox's too", async () => {
    // A TLS stand-in for another host, with a certificate of its own, reached through the proxy's
    // pass-through (loopback sent through the proxy for the test: `<-loopback>`).
    const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const now = Date.now();
    const cert = pem(issueCertificate({ subjectKey: keys.publicKey, issuerKey: keys.privateKey, issuerPublicKey: keys.publicKey, issuerName: 'stand-in', notBefore: new Date(now - 3_600_000), notAfter: new Date(now + 86_400_000), dnsNames: ['127.0.0.1'] }));
    const server = createServer({ key: keys.privateKey.export({ format: 'pem', type: 'pkcs8' }), cert }, (_req, res) => res.end('stand-in'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const context = await browser.newContext({ proxy: { server: sb.intercept!.proxyUrl, bypass: '<-loopback>' } });
      const page = await context.newPage();
      const err = await page.goto(`https://127.0.0.1:${(server.address() as AddressInfo).port}/`).then(() => null, (e: Error) => e.message);
      expect(err).toMatch(/net::ERR_CERT_/);
      await context.close();
    } finally {
      server.close();
    }
    // A browser not given the leaves' key refuses the sandbox's certificates: the trust is the flag's alone.
    const plain = await chromium.launch({ executablePath: CHROMIUM, proxy: { server: sb.intercept!.proxyUrl } });
    try {
      const page = await plain.newPage();
      const err = await page.goto(`https://${hubName}.cdn.content.amplience.net/content/key/pages/home`).then(() => null, (e: Error) => e.message);
      expect(err).toMatch(/net::ERR_CERT_AUTHORITY_INVALID/);
    } finally {
      await plain.close();
    }
  });
});
