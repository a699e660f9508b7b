#!/usr/bin/env node
// Bulk content operations through `cms sandbox serve` on 127.0.0.1, as a scale curve: `cms item
// export` and `cms item import` of 1,000, 10,000 and 100,000 items with realistic bodies and
// links, so that growth is visible (the goal: time linear in the items, memory flat). Each
// measurement runs the real binary as its own process; items/s is over its wall time, peak RSS is
// VmHWM from /proc/<pid>/status. Targets (10,000 items): import >= 500 items/s, export >= 2,000
// items/s; export peak RSS < 200 MB at 100,000. Everything (the sandbox's database, the exports)
// goes under --dir (default: the temporary directory). On this machine's disk, ext4 without a
// journal, creating files after a mass deletion costs ~0.6 ms each (see remote.mjs), so recorded
// runs use --dir /dev/shm, which measures the CLI rather than what the last run deleted.
//   node bench/bulk.mjs [--sizes 1000,10000,100000] [--rounds 3] [--big-rounds 1] [--concurrency N] [--kinds export,import] [--dir /dev/shm]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { inProcess, measure, median, seedHub, startSandbox, targetHub } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const SIZES = String(opt('sizes', '1000,10000,100000')).split(',').map(Number);
const ROUNDS = Number(opt('rounds', 3));
/** Rounds at 100,000 items and more (minutes each on a shared machine). */
const BIG_ROUNDS = Number(opt('big-rounds', 1));
const CONCURRENCY = opt('concurrency', undefined);
/** What to measure: export, import (which imports what the export wrote), or both. */
const KINDS = String(opt('kinds', 'export,import')).split(',');
const rounds = (size) => (size >= 100_000 ? BIG_ROUNDS : ROUNDS);

const work = mkdtempSync(join(opt('dir', tmpdir()), 'cms-bulk-'));
const dataDir = join(work, 'sandbox');
const fmt = (x) => Math.round(x).toLocaleString('en-US');

try {
  process.stderr.write(`seeding ${SIZES.join(', ')} items in ${dataDir} ...\n`);
  const { sandbox, call } = await inProcess(dataDir);
  for (const size of SIZES) {
    await seedHub(call, `bench-${size}`, size);
    for (let r = 1; r <= rounds(size); r++) await targetHub(call, `bench-${size}-dst-${r}`);
  }
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
  const concurrency = CONCURRENCY ? ['--concurrency', String(CONCURRENCY)] : [];
  const results = new Map(SIZES.map((s) => [s, { export: [], import: [] }]));
  try {
    for (const size of SIZES) {
      for (let r = 1; r <= rounds(size); r++) {
        process.stderr.write(`${size} items, round ${r}/${rounds(size)}\n`);
        const dir = join(work, `export-${size}-${r}`);
        const e = await measure(env, ['item', 'export', dir, '--hub', `bench-${size}`]);
        if (e.result.items !== size) throw new Error(`export of ${size}: ${e.result.items} items`);
        results.get(size).export.push(e);
        if (KINDS.includes('import')) {
          const i = await measure(env, ['item', 'import', dir, '--hub', `bench-${size}-dst-${r}`, ...concurrency]);
          if (i.result.created !== size || i.result.failed) throw new Error(`import of ${size}: ${JSON.stringify(i.result).slice(0, 300)}`);
          results.get(size).import.push(i);
        }
        // The directory stays until the end of the run: deleting it here would slow the next round's file creation (see measure() in lib.mjs).
      }
    }
  } finally {
    await served.stop();
  }

  console.log(`bulk scale curve, cms sandbox serve on 127.0.0.1, node ${process.version}, import ${CONCURRENCY ? `--concurrency ${CONCURRENCY}` : 'with the adaptive governor'}, files under ${opt('dir', tmpdir())}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  console.log('| measurement | items | rounds | wall s (median) | wall s (min–max) | items/s (median) | µs per item | x per-item time at smallest size | peak RSS MB (median) | target |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const kind of ['export', 'import'].filter((k) => KINDS.includes(k))) {
    let basePerItem = null;
    for (const size of SIZES) {
      const samples = results.get(size)[kind];
      const seconds = median(samples.map((s) => s.seconds));
      const perItem = (seconds / size) * 1e6;
      basePerItem ??= perItem;
      const rate = size / seconds;
      const rss = median(samples.map((s) => s.peakMb));
      let target = '';
      if (size === 10_000) target = kind === 'export' ? `>= 2,000/s: ${rate >= 2000 ? 'met' : 'NOT met'}` : `>= 500/s: ${rate >= 500 ? 'met' : 'NOT met'}`;
      if (size === 100_000 && kind === 'export') target = `RSS < 200 MB: ${rss < 200 ? 'met' : 'NOT met'}`;
      const range = `${Math.min(...samples.map((s) => s.seconds)).toFixed(2)}–${Math.max(...samples.map((s) => s.seconds)).toFixed(2)}`;
      console.log(`| ${kind} | ${fmt(size)} | ${samples.length} | ${seconds.toFixed(2)} | ${range} | ${fmt(rate)} | ${fmt(perItem)} | ${(perItem / basePerItem).toFixed(2)} | ${rss.toFixed(0)} | ${target} |`);
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
