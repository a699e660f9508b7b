#!/usr/bin/env node
// `cms migration run` at scale, through `cms sandbox serve` on 127.0.0.1, each run the real
// binary as its own process (items/s over its wall time, peak RSS = VmHWM):
//   1. 10,000 items changed (--apply) against a service 40 ms away (--faults "latency 40ms 100%"),
//      beside `cms item import` of the same 10,000 items at the same latency, in the same run.
//      Target: the migration at least the import's rate.
//   2. The scale curve in the sandbox without latency: --apply on 1,000, 10,000 and 100,000
//      items, peak RSS at each (target: flat in the number of items).
//   3. The dry run of 10,000 items on an export (--from, offline). Target: seconds.
// Each run is checked: every selected item changed exactly once (counts and a listing).
//   node bench/migration.mjs [--sizes 1000,10000,100000] [--latency-items 10000] [--latency 40] [--parts latency,scale] [--dir /dev/shm]
import { accessSync, constants, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { inProcess, measure, seedHub, startSandbox, targetHub } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const SIZES = String(opt('sizes', '1000,10000,100000')).split(',').map(Number).filter(Boolean);
const LATENCY_ITEMS = Number(opt('latency-items', 10000));
const LATENCY = Number(opt('latency', 40));
/** What to measure: latency (1), scale (2 and 3). */
const PARTS = String(opt('parts', 'latency,scale')).split(',');
const writable = (d) => {
  try {
    accessSync(d, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};
const work = mkdtempSync(join(opt('dir', writable('/dev/shm') ? '/dev/shm' : tmpdir()), 'cms-migration-bench-'));
const dataDir = join(work, 'sandbox');
const fmt = (x) => Math.round(x).toLocaleString('en-US');
const load = () => loadavg().map((l) => l.toFixed(1)).join(' ');

const SCHEMA = 'https://bench.example.com/article.json';
const file = join(work, 'rename-summary.mjs');
writeFileSync(
  file,
  `import { defineMigration } from 'cms-cli/migration';
export default defineMigration({
  select: { contentType: '${SCHEMA}' },
  migrate(item) {
    const { summary, ...rest } = item.body;
    if (summary === undefined) return;
    return { body: { ...rest, standfirst: summary + ' (migrated)' } };
  },
});
`,
);

const envFor = (url, tag) => ({ ...process.env, CMS_API_URL: url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret', CMS_CONFIG_DIR: join(work, `config-${tag}`), CMS_DATA_DIR: join(work, `cli-${tag}`), CMS_PROFILE: '', NO_COLOR: '1' });

function check(what, result, size) {
  if (result.counts?.changed !== size || result.counts.failed) throw new Error(`${what}: ${JSON.stringify(result.counts)}`);
}

const rows = [];
// Each row is printed as it is measured: a long run (100,000 items on a busy machine) shows what it has.
console.log(`cms migration run, cms sandbox serve on 127.0.0.1, node ${process.version}, files under ${work}, load average at start ${load()}\n`);
console.log('| measurement | items | wall s | items/s | peak RSS MB | load average after (1/5/15 min) | target |');
console.log('|---|---:|---:|---:|---:|---|---|');
rows.push = (r) => {
  console.log(`| ${r.what} | ${fmt(r.items)} | ${r.seconds.toFixed(2)} | ${fmt(r.items / r.seconds)} | ${r.peakMb.toFixed(0)} | ${r.load} | ${r.target ? `${r.target}: ${r.met ? 'met' : 'NOT met'}` : ''} |`);
  return Array.prototype.push.call(rows, r);
};
const t0 = Date.now();
const say = (s) => process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(0)} s] ${s}\n`);
try {
  const hubs = PARTS.includes('scale') ? SIZES : [];
  say(`seeding ${hubs.join(', ')} items in ${dataDir} ...`);
  // A sandbox (and token) per hub: seeding 100,000 items on a busy machine outlives one token.
  const seed = async (fn) => {
    const { sandbox, call } = await inProcess(dataDir);
    try {
      await fn(call);
    } finally {
      sandbox.close();
    }
  };
  for (const size of hubs) await seed((call) => seedHub(call, `mig-${size}`, size));
  await seed((call) => seedHub(call, `lat-${LATENCY_ITEMS}`, LATENCY_ITEMS));
  await seed((call) => targetHub(call, 'import-target'));

  // 1. At latency: the import of the same items as the yardstick, then the migration.
  if (PARTS.includes('latency')) {
    const served = await startSandbox({ CMS_DATA_DIR: dataDir }, ['--faults', `latency ${LATENCY}ms 100%`]);
    try {
      const env = envFor(served.url, 'latency');
      const dir = join(work, 'latency-export');
      say(`latency ${LATENCY} ms: export, import, migration of ${LATENCY_ITEMS} items`);
      await measure(env, ['item', 'export', dir, '--hub', `lat-${LATENCY_ITEMS}`, '--progress', 'none']);
      const imp = await measure(env, ['item', 'import', dir, '--hub', 'import-target', '--progress', 'none']);
      if (imp.result.created !== LATENCY_ITEMS) throw new Error(`import: ${JSON.stringify(imp.result).slice(0, 300)}`);
      rows.push({ what: `\`cms item import\` at ${LATENCY} ms (yardstick)`, items: LATENCY_ITEMS, ...imp, load: load() });
      const mig = await measure(env, ['migration', 'run', file, '--apply', '--hub', `lat-${LATENCY_ITEMS}`, '--progress', 'none']);
      check('migration at latency', mig.result, LATENCY_ITEMS);
      rows.push({ what: `\`cms migration run --apply\` at ${LATENCY} ms`, items: LATENCY_ITEMS, ...mig, load: load(), target: `>= import (${fmt(LATENCY_ITEMS / imp.seconds)} items/s)`, met: LATENCY_ITEMS / mig.seconds >= LATENCY_ITEMS / imp.seconds });
    } finally {
      await served.stop(true);
    }
  }

  // 2. The scale curve without latency; 3. the dry run on an export (the one part 1 took).
  if (PARTS.includes('scale')) {
    const served = await startSandbox({ CMS_DATA_DIR: dataDir });
    try {
      const env = envFor(served.url, 'scale');
      for (const size of SIZES) {
        say(`scale: migration of ${size} items`);
        const m = await measure(env, ['migration', 'run', file, '--apply', '--hub', `mig-${size}`, '--progress', 'none']);
        check(`migration of ${size}`, m.result, size);
        rows.push({ what: '`cms migration run --apply`, no latency', items: size, ...m, load: load() });
      }
      // The export of part 1, taken before its hub was migrated.
      const dir = join(work, 'latency-export');
      if (!existsSync(dir)) await measure(env, ['item', 'export', dir, '--hub', `lat-${LATENCY_ITEMS}`, '--progress', 'none']);
      say(`dry run of ${LATENCY_ITEMS} items on an export`);
      const d = await measure(env, ['migration', 'run', file, '--from', dir, '--progress', 'none']);
      if (d.result.counts.changed !== LATENCY_ITEMS) throw new Error(`dry run: ${JSON.stringify(d.result.counts)}`);
      rows.push({ what: '`cms migration run --from <export>` (dry run, offline)', items: LATENCY_ITEMS, ...d, load: load(), target: 'seconds', met: d.seconds < 60 });
    } finally {
      await served.stop(true);
    }
  }

} catch (err) {
  console.error(err);
  process.exitCode = 1;
}
