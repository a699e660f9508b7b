import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CliHome } from '../helpers/cli.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve.js';
import { Api } from '../helpers/server.js';

// The sandbox console in a real headless Chromium against a served demo sandbox: sign in, walk
// every view, schedule an edition, move the clock and see the live content change, open a
// delivery. Each view's screenshot is saved under test-artifacts/console/; with
// CMS_CONSOLE_SCREENSHOTS=docs they are copied to docs/console/ for docs/console.md.

const ROOT = join(import.meta.dirname, '..', '..');
const ARTIFACTS = join(ROOT, 'test-artifacts', 'console');
const DOCS = join(ROOT, 'docs', 'console');
const CHROMIUM = process.env.CMS_CHROMIUM ?? '/usr/bin/chromium';
const WAIT = { timeout: Number(process.env.CMS_CONSOLE_WAIT_MS) || 30_000 };
const HOST = 'https://schemas.example.com';
const CORE = `${HOST}/cms/schema/v1/core#/definitions`;

describe('the sandbox console in a browser', { timeout: 180_000 }, () => {
  const home = new CliHome();
  let served: ServedSandbox;
  let browser: Browser;
  let page: Page;
  let api: Api;
  const ids: Record<string, string> = {};

  async function shot(name: string): Promise<void> {
    const file = join(ARTIFACTS, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    if (process.env.CMS_CONSOLE_SCREENSHOTS === 'docs') copyFileSync(file, join(DOCS, `${name}.png`));
  }

  async function signIn(): Promise<void> {
    await page.getByLabel('Client id').waitFor(WAIT);
    // Prefilled with the sandbox admin client on a local sandbox.
    expect(await page.getByLabel('Client id').inputValue()).toBe('sandbox-admin');
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  const view = (name: string) => page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name, exact: true }).click();

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    if (process.env.CMS_CONSOLE_SCREENSHOTS === 'docs') mkdirSync(DOCS, { recursive: true });
    const demo = await home.run(['demo'], { timeout: 120_000 });
    if (demo.exitCode !== 0) throw new Error(`cms demo failed: ${demo.stderr}`);
    served = await serveSandbox(home.env);
    api = await new Api(served.url).login();

    // A second DRAFT edition on the demo's hero slot, starting in twelve hours (while the demo's
    // 'Launch day', published a day ago, still runs until tomorrow: the two collide): the one the
    // test schedules from the console.
    const hub = (await api.get('/hubs')).body._embedded.hubs.find((h: any) => h.name === 'demo');
    ids.hub = hub.id;
    const repos = (await api.get(`/hubs/${hub.id}/content-repositories`)).body._embedded['content-repositories'];
    ids.content = repos.find((r: any) => r.name === 'content').id;
    const slots = repos.find((r: any) => r.name === 'slots').id;
    const slot = (await api.get(`/content-repositories/${slots}/content-items`)).body._embedded['content-items'][0];
    const items = (await api.get(`/content-repositories/${ids.content}/content-items`)).body._embedded['content-items'];
    ids.launch = items.find((i: any) => i.label === 'Launch announcement').id;
    const roundup = items.find((i: any) => i.label === 'Weekly roundup').id;
    const event = (await api.get(`/hubs/${hub.id}/events`)).body._embedded.events[0];
    const now = Date.parse((await api.get('/__sandbox/clock')).body.now);
    const day = 86_400_000;
    const edition = (await api.post(`/events/${event.id}/editions`, { name: 'Evening', start: new Date(now + day / 2).toISOString(), end: new Date(now + 4 * day).toISOString(), activeEndDate: false })).body;
    ids.edition = edition.id;
    const snapshot = (await api.post(`/hubs/${hub.id}/snapshots`, { comment: 'Evening', createdFrom: 'content-item', type: 'USER', contentRoot: roundup })).body;
    const assigned = (await api.post(`/editions/${edition.id}/slots`, [{ slot: slot.id }])).body._embedded['edition-slots'][0];
    const content = await api.put(`/editions/${edition.id}/slots/${assigned.id}/content`, {
      body: { _meta: { schema: `${HOST}/demo/hero-slot.json`, name: 'home-hero' }, hero: { _meta: { schema: `${CORE}/content-link` }, contentType: `${HOST}/demo/article.json`, id: snapshot.id } },
    });
    if (content.status >= 300) throw new Error(`slot content: ${content.status} ${content.text}`);

    browser = await chromium.launch({ executablePath: CHROMIUM });
    page = await browser.newPage({ viewport: { width: 1366, height: 860 } });
    page.setDefaultTimeout(WAIT.timeout);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    home.cleanup();
  });

  it('signs in and shows the hubs, then repositories, folders, items and an item with its versions', async () => {
    await page.goto(`${served.url}/`);
    await signIn();
    await page.locator('#hubs-table').getByRole('link', { name: 'Demo hub' }).waitFor(WAIT);
    await shot('content-hubs');
    await page.getByRole('link', { name: 'Demo hub' }).click();
    await page.locator('main table').getByRole('link', { name: 'Content', exact: true }).click();
    await page.locator('#items-table').getByRole('link', { name: 'Launch announcement' }).waitFor(WAIT);
    await page.getByRole('link', { name: /news/ }).click();
    await page.getByRole('heading', { name: 'Content / news' }).waitFor(WAIT);
    await shot('content-items');
    await page.getByLabel('Search items').fill('rocket');
    await page.getByRole('button', { name: 'Search' }).click();
    // The search is scoped to the folder: the rocket article is under features.
    await page.getByText('Nothing matches.').waitFor(WAIT);
    await page.goBack();
    await page.goBack();
    await page.locator('#items-table').getByRole('link', { name: 'Launch background' }).waitFor(WAIT);
    await page.locator('#items-table').getByRole('link', { name: 'Launch announcement' }).click();
    await page.getByRole('heading', { name: 'Launch announcement' }).waitFor(WAIT);
    const facts = page.locator('#item-facts');
    await expect.poll(() => facts.innerText()).toContain('news/launch');
    // The body as a tree with the schema's labels, and the diff between two versions.
    await page.getByText('We launch today!').first().waitFor(WAIT);
    await page.getByLabel('Compare version').selectOption('1');
    await page.locator('table.diff').getByText('We launch today!').waitFor(WAIT);
    // What a site reads (the published version, Content Delivery 2) next to the latest version.
    await expect.poll(() => page.locator('#item-delivery').innerText(), WAIT).toMatch(/Published version \d+ is what a site reads; staging shows the latest version \d+/);
    await shot('content-item');
  });

  it('an item body with content links is readable: links are links to the item, nesting keeps its width (issue 26)', async () => {
    const items = (await api.get(`/content-repositories/${ids.content}/content-items`)).body._embedded['content-items'];
    const background = items.find((i: any) => i.label === 'Launch background').id;
    // A narrow window: the body column is at its narrowest beside the versions.
    await page.setViewportSize({ width: 1000, height: 860 });
    await page.goto(`${served.url}/#/content/item/${ids.launch}`);
    const body = page.locator('#item-body');
    await body.waitFor(WAIT);
    const link = body.locator(`a[href="#/content/item/${background}"]`);
    await link.waitFor(WAIT);
    // Named by the linked item's label once it is read, with its type.
    await expect.poll(() => link.innerText()).toContain('Launch background');
    // No value is squeezed below a readable width, and no long word is broken one letter a line.
    const narrowest = await body.locator('dd').evaluateAll((els) => Math.min(...els.map((e) => e.getBoundingClientRect().width)));
    expect(narrowest).toBeGreaterThan(120);
    // A value (a leaf: no nested list inside) takes a few lines at most.
    const tallest = await body.locator('dd').evaluateAll((els) => Math.max(...els.filter((e) => !e.querySelector('dl, ol')).map((e) => e.getBoundingClientRect().height)));
    expect(tallest).toBeLessThan(80);
    await page.setViewportSize({ width: 1366, height: 860 });
  });

  it('opens a deep link after signing in, and the back button returns to the previous view', async () => {
    const fresh = await browser.newPage({ viewport: { width: 1366, height: 860 } });
    await fresh.goto(`${served.url}/__sandbox/console#/content/item/${ids.launch}`);
    await fresh.getByRole('button', { name: 'Sign in' }).click();
    await fresh.getByRole('heading', { name: 'Launch announcement' }).waitFor(WAIT);
    await fresh.locator('.crumbs').getByRole('link', { name: 'Content', exact: true }).click();
    await fresh.locator('#items-table').waitFor(WAIT);
    await fresh.goBack();
    await fresh.getByRole('heading', { name: 'Launch announcement' }).waitFor(WAIT);
    await fresh.close();
  });

  it('shows the content model', async () => {
    await view('Content model');
    await page.locator('#schemas-table').getByRole('link', { name: /article\.json/ }).waitFor(WAIT);
    await shot('content-model');
    await page.locator('#schemas-table').getByRole('link', { name: /article\.json/ }).click();
    await page.getByRole('heading', { name: 'Article' }).waitFor(WAIT);
    await shot('content-model-schema');
  });

  it('schedules an edition with the checklist, and the live content changes when the clock moves', async () => {
    await view('Planning');
    await page.locator('#timeline').getByRole('link', { name: 'Evening' }).first().waitFor(WAIT);
    const heroRow = page.locator('#live-table tbody tr').first();
    await heroRow.waitFor(WAIT);
    expect(await heroRow.innerText()).not.toContain('Evening');
    // The two editions share the hero slot while both run: marked on the timeline.
    await page.getByText('⚠ collision').first().waitFor(WAIT);
    await page.locator('.edition-name').getByRole('link', { name: 'Evening' }).click();
    await page.locator('#checklist').getByText('has content').waitFor(WAIT);
    await expect.poll(() => page.locator('#checklist').innerText()).toContain('no slot collisions');
    await page.getByLabel('Ignore warnings').check();
    await page.locator('#schedule-button').click();
    await page.locator('#schedule-message').getByText(/is scheduled/).waitFor(WAIT);
    await page.locator('#unschedule-button').waitFor(WAIT);
    await shot('planning');

    // Dragging (here: typing) the now line past the start shows Evening live in the slot.
    await page.getByLabel('Date and time (ISO)').fill(new Date(Date.now() + 3 * 86_400_000).toISOString());
    await page.getByRole('button', { name: 'Show', exact: true }).click();
    await expect.poll(() => heroRow.innerText()).toContain('Evening');
    await page.getByRole('button', { name: 'Back to the sandbox clock' }).click();
    await expect.poll(() => heroRow.innerText()).not.toContain('Evening');

    // Moving the sandbox clock publishes it: live at the clock now.
    await view('Sandbox');
    await page.getByLabel(/Advance by/).fill('3d');
    await page.getByRole('button', { name: 'Advance' }).click();
    await page.locator('#sandbox-message').getByText(/Advanced by 3d/).waitFor(WAIT);
    // The request journal shows what the console itself just asked, newest first, and no token.
    const journal = page.locator('#requests-table');
    await journal.waitFor(WAIT);
    await expect.poll(() => journal.locator('tbody tr').filter({ hasText: 'POST /__sandbox/clock' }).count()).toBeGreaterThan(0);
    expect(await journal.innerText()).not.toContain(api.token!);
    await shot('sandbox');
    await view('Planning');
    await expect.poll(() => page.locator('#live-table tbody tr').first().innerText(), { timeout: 30_000 }).toContain('Evening');
    await api.login(); // its token expired when the clock moved
    expect((await api.get(`/editions/${ids.edition}`)).body.publishingStatus).toBe('PUBLISHED');
    await shot('planning-live');
  });

  it('opens a webhook delivery with its request, signature and answer, and the jobs', async () => {
    await view('Deliveries and jobs');
    await page.getByRole('link', { name: 'Demo receiver' }).click();
    const firstAttempt = page.locator('#attempts-table tbody tr a').first();
    await firstAttempt.waitFor(WAIT);
    await firstAttempt.click();
    const detail = page.locator('#delivery-detail');
    await detail.waitFor(WAIT);
    await expect.poll(() => detail.innerText()).toMatch(/Signature\s+\S{20,}/);
    await page.getByRole('heading', { name: 'Publishing jobs' }).waitFor(WAIT);
    // The demo's localization job: its locales are shown (issue 26: the column was empty).
    const localization = page.getByRole('region', { name: 'Localization jobs' });
    await expect.poll(() => localization.locator('tbody').innerText()).toContain('fr-FR');
    await shot('deliveries');
  });

  it('every view fits the common window sizes: nothing wider than the window, no panel runs under another (issue 34.11)', async () => {
    const fresh = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    fresh.setDefaultTimeout(WAIT.timeout);
    try {
      await fresh.goto(`${served.url}/`);
      await fresh.getByRole('button', { name: 'Sign in' }).click();
      await fresh.locator('#hubs-table').waitFor(WAIT);
      const problems: string[] = [];
      for (const [width, height] of [[1024, 768], [1280, 800], [1400, 900], [1920, 1080]] as const) {
        await fresh.setViewportSize({ width, height });
        for (const name of ['Content', 'Content model', 'Planning', 'Deliveries and jobs', 'Search', 'Sandbox']) {
          await fresh.getByRole('navigation', { name: 'Views' }).getByRole('link', { name, exact: true }).click();
          // Loaded: no "Loading…" left, and the view's panels are there.
          await expect.poll(() => fresh.locator('main p[role=status]').filter({ hasText: /…$/ }).count(), WAIT).toBe(0);
          await fresh.locator('main .panel, main table').first().waitFor(WAIT);
          const found = await fresh.evaluate(() => {
            const out: string[] = [];
            if (document.documentElement.scrollWidth > window.innerWidth + 1) out.push(`the page is ${document.documentElement.scrollWidth} px wide`);
            const panels = Array.from(document.querySelectorAll('main .panel')) as HTMLElement[];
            const boxes = panels.map((p) => ({ p, r: p.getBoundingClientRect(), name: p.getAttribute('aria-label') ?? p.id ?? 'panel' }));
            for (const { p, r, name } of boxes) {
              // Content wider than its panel runs under the panel beside it.
              if (p.scrollWidth > p.clientWidth + 1) out.push(`${name}: content ${p.scrollWidth} px in ${p.clientWidth} px`);
              for (const el of Array.from(p.querySelectorAll('table, pre, dl, form')) as HTMLElement[]) {
                const e = el.getBoundingClientRect();
                if (e.right > r.right + 1 || e.left < r.left - 1) out.push(`${name}: a ${el.tagName.toLowerCase()} reaches ${Math.round(e.right)} past ${Math.round(r.right)}`);
              }
            }
            for (let i = 0; i < boxes.length; i++) {
              for (let j = i + 1; j < boxes.length; j++) {
                const a = boxes[i]!.r;
                const b = boxes[j]!.r;
                if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) out.push(`${boxes[i]!.name} overlaps ${boxes[j]!.name}`);
              }
            }
            return out;
          });
          problems.push(...found.map((p) => `${width}x${height} ${name}: ${p}`));
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await fresh.close();
    }
  });

  it('runs a query in the search playground and shows the analytics', async () => {
    await view('Search');
    await page.getByLabel('Query', { exact: true }).fill('launch');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('#query-answer').getByText(/\d+ hits?/).waitFor(WAIT);
    await page.getByText('Top searches').waitFor(WAIT);
    await shot('search');
  });
});
