#!/usr/bin/env node
// The console's first view: from opening the page to the hubs list rendered (page, script and
// style loaded, sign-in with the prefilled admin client, token, GET /hubs, render) on a served
// demo sandbox, in headless Chromium. Cold: a fresh browser context each run (empty HTTP cache);
// warm: a reload in the same context (assets revalidated by ETag). Median over runs; the time is
// the page's own clock from navigation start, so the browser's process start-up is not in it.
//   node bench/console.mjs [--runs 15]
import { spawnSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { bin, startSandbox } from './lib.mjs';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 15;
const TARGET_MS = 300;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const sandbox = await startSandbox();
const demo = spawnSync(process.execPath, [bin, 'demo'], { env: sandbox.env, encoding: 'utf8' });
if (demo.status !== 0) throw new Error(`cms demo failed: ${demo.stderr}`);
const browser = await chromium.launch({ executablePath: process.env.CMS_CHROMIUM ?? '/usr/bin/chromium' });

/**
 * Milliseconds from the navigation's start (the page's own clock, performance.now()) to the hubs
 * list in the DOM: what the user waits for, without the browser's process start-up. The
 * sign-in click is sent as soon as the form is there.
 */
async function firstView(page, load) {
  await load();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('#hubs-table a').first().waitFor({ timeout: 30_000 });
  return page.evaluate(() => performance.now());
}

const cold = [];
const warm = [];
try {
  for (let i = 0; i < runs + 1; i++) {
    const context = await browser.newContext({ viewport: { width: 1366, height: 860 } });
    const page = await context.newPage();
    const c = await firstView(page, () => page.goto(`${sandbox.url}/`));
    const w = await firstView(page, () => page.reload());
    if (i > 0) {
      // The first round starts the browser's processes and the sandbox's caches: not counted.
      cold.push(c);
      warm.push(w);
    }
    await context.close();
  }
} finally {
  await browser.close();
  await sandbox.stop();
}

const row = (name, xs) => `| ${name} | ${median(xs).toFixed(0)} | ${Math.min(...xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} | < ${TARGET_MS} | ${median(xs) < TARGET_MS ? 'ok' : 'MISSED'} |`;
console.log(`Console first view: page open to the hubs list rendered, demo sandbox, ${runs} runs\n`);
console.log('| run | median ms | min | max | target | |');
console.log('|---|---:|---:|---:|---:|---|');
console.log(row('cold (new browser context)', cold));
console.log(row('warm (reload, cached assets)', warm));
