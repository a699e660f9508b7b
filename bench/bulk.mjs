#!/usr/bin/env node
// Bulk content operations through `cms sandbox serve` on 127.0.0.1: `cms item export` and
// `cms item import` of 10,000 items with realistic bodies and links, and an export of 100,000
// items to show that the CLI's memory stays flat. Each measurement runs the real binary as its
// own process; items/s is over its wall time, peak RSS is VmHWM from /proc/<pid>/status.
// Targets: import >= 500 items/s, export >= 2,000 items/s, export peak RSS < 200 MB at 100,000.
//   node bench/bulk.mjs [--items 10000] [--big 100000] [--rounds 3] [--concurrency 8]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { articleBody, bin, contentModel, median, root, startSandbox } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : dflt);
const ITEMS = opt('items', 10_000);
const BIG = opt('big', 100_000);
const ROUNDS = opt('rounds', 3);
const CONCURRENCY = opt('concurrency', 8);
/** Items written per request before they are multiplied by the service's bulk copy job. */
const ORIGINALS = 1000;

const work = mkdtempSync(join(tmpdir(), 'cms-bulk-'));
const dataDir = join(work, 'sandbox');

/** The sandbox in this process, on the data directory `cms sandbox serve` will open next. */
async function inProcess() {
  const { createSandbox } = await import(join(root, 'dist', 'server', 'app.js'));
  const sandbox = createSandbox({ dataDir });
  const origin = 'http://sandbox.localhost';
  const form = 'grant_type=client_credentials&client_id=sandbox-admin&client_secret=sandbox-secret';
  const tokenRes = await sandbox.fetch(new Request(`${origin}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }));
  const bearer = (await tokenRes.json()).access_token;
  const call = async (method, path, body) => {
    const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/hal+json' };
    const res = await sandbox.fetch(new Request(`${origin}/v2/content${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return { sandbox, call };
}

/**
 * `count` articles in a new hub: the first 50 link to nothing (shared pages), the others link to
 * two of them, every tenth has a delivery key. Beyond ORIGINALS, the service's copy-items bulk
 * job multiplies them 1,000 at a time (one request instead of 1,000).
 */
async function seedHub(call, name, count) {
  const model = await contentModel(call, name);
  await call('POST', `/admin/hubs/${model.hub.id}/modules/content-delivery-2`);
  const originals = [];
  for (let n = 0; n < Math.min(count, ORIGINALS); n++) {
    const links = n < 50 ? [] : [originals[n % 50].id, originals[(n * 7) % 50].id];
    const body = articleBody(model.schemaId, n, links);
    if (n % 10 === 0) body._meta.deliveryKey = `${name}/article-${n}`;
    originals.push(await call('POST', `/content-repositories/${model.repo.id}/content-items`, { label: `Article ${n}`, body }));
  }
  for (let done = originals.length; done < count; done += ORIGINALS) {
    const selection = Array.from({ length: Math.min(ORIGINALS, count - done) }, (_, i) => {
      const o = originals[(done + i) % originals.length];
      return { contentItemId: o.id, version: o.version, contentRepositoryId: model.repo.id, name: `copy-${done + i}`, label: `Article ${done + i}` };
    });
    const job = await call('POST', `/hubs/${model.hub.id}/bulk-jobs/copy-items`, { selection });
    let state;
    do state = await call('GET', `/hubs/${model.hub.id}/bulk-jobs/${job.id}`);
    while (state.status !== 'COMPLETED' && state.status !== 'FAILED');
    if (state.status !== 'COMPLETED') throw new Error(`copy job ${job.id} ended ${state.status}`);
  }
  return model;
}

/** A hub with the content type registered and assigned to an empty repository named like the source's. */
async function targetHub(call, name) {
  const model = await contentModel(call, name);
  await call('POST', `/admin/hubs/${model.hub.id}/modules/content-delivery-2`);
}

/** Runs the CLI to completion, sampling its peak RSS (VmHWM) while it runs. */
function measure(env, cliArgs) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, ...cliArgs, '-o', 'json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let peakKb = 0;
    const sample = () => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peakKb = Math.max(peakKb, kb);
      } catch {
        /* exited */
      }
    };
    const timer = setInterval(sample, 20);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      clearInterval(timer);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return reject(new Error(`cms ${cliArgs.join(' ')} exited ${code}: ${err.slice(0, 2000)}`));
      resolve({ seconds, peakMb: peakKb / 1024, result: JSON.parse(out) });
    });
  });
}

function row(label, samples, items, target) {
  const rates = samples.map((s) => items / s.seconds);
  const rate = median(rates);
  const seconds = median(samples.map((s) => s.seconds));
  const rss = median(samples.map((s) => s.peakMb));
  const met = target ? (target(rate, rss) ? 'met' : 'NOT met') : '';
  const range = `${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)}`;
  console.log(`| ${label} | ${items} | ${rate.toFixed(0)} | ${range} | ${seconds.toFixed(2)} | ${rss.toFixed(0)} | ${met} |`);
}

try {
  if (!existsSync(join(root, 'dist', 'server', 'app.js'))) throw new Error('build first: npm run build');
  process.stderr.write(`seeding ${ITEMS} items${BIG ? ` and ${BIG} items` : ''} in ${dataDir} ...\n`);
  const { sandbox, call } = await inProcess();
  await seedHub(call, 'bench', ITEMS);
  for (let r = 1; r <= ROUNDS; r++) await targetHub(call, `bench-dst-${r}`);
  if (BIG) await seedHub(call, 'big', BIG);
  sandbox.close();

  const served = await startSandbox({ CMS_DATA_DIR: dataDir });
  const env = {
    ...process.env,
    CMS_API_URL: served.url,
    CMS_CLIENT_ID: 'sandbox-admin',
    CMS_CLIENT_SECRET: 'sandbox-secret',
    CMS_CONFIG_DIR: join(work, 'config'),
    CMS_DATA_DIR: join(work, 'cli-data'),
    CMS_PROFILE: '',
    NO_COLOR: '1',
  };
  const results = { export: [], reexport: [], import: [], reimport: [], big: [] };
  try {
    for (let r = 1; r <= ROUNDS; r++) {
      process.stderr.write(`round ${r}/${ROUNDS}\n`);
      const dir = join(work, `export-${r}`);
      results.export.push(await measure(env, ['item', 'export', dir, '--hub', 'bench']));
      results.reexport.push(await measure(env, ['item', 'export', dir, '--hub', 'bench']));
      results.import.push(await measure(env, ['item', 'import', dir, '--hub', `bench-dst-${r}`, '--concurrency', String(CONCURRENCY)]));
      results.reimport.push(await measure(env, ['item', 'import', dir, '--hub', `bench-dst-${r}`, '--concurrency', String(CONCURRENCY)]));
      for (const [k, s] of Object.entries(results)) if (s.length && s.at(-1).result.failed) throw new Error(`${k}: ${s.at(-1).result.failed} failed`);
      if (BIG) {
        const bigDir = join(work, `big-${r}`);
        results.big.push(await measure(env, ['item', 'export', bigDir, '--hub', 'big']));
        rmSync(bigDir, { recursive: true, force: true });
      }
    }
  } finally {
    await served.stop();
  }
  const check = (name, samples, key, expected) => {
    for (const s of samples) if (s.result[key] !== expected) throw new Error(`${name}: ${key} was ${s.result[key]}, expected ${expected}`);
  };
  check('export', results.export, 'items', ITEMS);
  check('import', results.import, 'created', ITEMS);
  check('re-import', results.reimport, 'unchanged', ITEMS);
  if (BIG) check('big export', results.big, 'items', BIG);

  console.log(`bulk, ${ROUNDS} rounds (medians), cms sandbox serve on 127.0.0.1, node ${process.version}, import --concurrency ${CONCURRENCY}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  console.log('| measurement | items | items/s (median) | items/s (min–max) | wall s | peak RSS MB | target |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  row('export (new directory)', results.export, ITEMS, (rate) => rate >= 2000);
  row('export again (nothing changed)', results.reexport, ITEMS);
  row('import (creates)', results.import, ITEMS, (rate) => rate >= 500);
  row('import again (all unchanged)', results.reimport, ITEMS);
  if (BIG) row('export (new directory)', results.big, BIG, (rate, rss) => rate >= 2000 && rss < 200);
} finally {
  rmSync(work, { recursive: true, force: true });
}
