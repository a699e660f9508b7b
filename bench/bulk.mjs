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
import { inProcess, measure, median, root, seedHub, startSandbox, targetHub } from './lib.mjs';

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
  const { sandbox, call } = await inProcess(dataDir);
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
