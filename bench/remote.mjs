#!/usr/bin/env node
// Bulk work against a service that is far away: `cms item export` and `cms item import` of 5,000
// items with links through `cms sandbox serve --faults "latency 40ms 100%"` (every request waits
// 40 ms, what a hosted service looks like from a CI runner), then again with 5% of the requests
// refused with 429 (Retry-After 1 s). A sequential client (one request at a time, the simplest
// possible tool) is measured in the same run as the baseline. Every run is checked: each source
// item exported exactly once, each imported exactly once. The rate governor's concurrency over
// time comes from the CLI itself (CMS_GOVERNOR_LOG).
// Targets at 40 ms: import >= 300 items/s, export >= 2,500 items/s; with 5% 429s import >= 150 items/s.
// Exports are written to --out (default /dev/shm, a tmpfs). This machine's disk is ext4 without
// a journal, where the kernel skips inodes deleted in the last 5 minutes while their inode table
// is unwritten (`recently_deleted`): after any mass deletion (a test run, an earlier benchmark)
// creating a file there costs ~0.6 ms of kernel time, whatever program creates it. So each round
// also exports to the disk (tmpdir) and times the plainest possible writer there (open, write,
// close, rename of the same 5,000 files, no network): the disk's floor, in the same run.
//   node bench/remote.mjs [--items 5000] [--rounds 3] [--baseline-items 200] [--latency 40] [--out /dev/shm]
import { accessSync, closeSync, constants, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, articleBody, inProcess, measure, median, seedHub, startSandbox, targetHub, token } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : dflt);
const ITEMS = opt('items', 5000);
const ROUNDS = opt('rounds', 3);
const BASELINE = opt('baseline-items', 200);
const LATENCY = opt('latency', 40);
const SETUPS = [
  { name: `latency ${LATENCY}ms`, faults: `latency ${LATENCY}ms 100%`, targets: { export: 2500, import: 300 } },
  { name: `latency ${LATENCY}ms, 5% 429`, faults: `latency ${LATENCY}ms 100%; 429 5%`, targets: { import: 150 } },
];

const work = mkdtempSync(join(tmpdir(), 'cms-remote-'));
const dataDir = join(work, 'sandbox');
const outRoot = args.includes('--out') ? args[args.indexOf('--out') + 1] : writable('/dev/shm') ? '/dev/shm' : tmpdir();
const out = mkdtempSync(join(outRoot, 'cms-remote-out-'));

function writable(dir) {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The disk's floor: the files of an export written again into a new directory, one after another, as plainly as possible. */
function plainWrites(fromDir, toDir) {
  const files = readdirSync(join(fromDir, 'items'), { recursive: true }).filter((f) => String(f).endsWith('.json'));
  const texts = files.map((f) => readFileSync(join(fromDir, 'items', String(f))));
  mkdirSync(toDir, { recursive: true });
  const started = process.hrtime.bigint();
  texts.forEach((text, n) => {
    const temp = join(toDir, `.${n}.tmp`);
    const fd = openSync(temp, 'wx');
    writeSync(fd, text);
    closeSync(fd);
    renameSync(temp, join(toDir, `${n}.json`));
  });
  return { items: texts.length, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

/** Every item of a repository, read without faults' help: a plain paged listing (retrying refusals). */
async function listAll(call, repoId) {
  const out = [];
  for (let page = 0; ; page++) {
    const data = await patient(() => call('GET', `/content-repositories/${repoId}/content-items?size=1000&page=${page}&sort=createdDate,asc`));
    out.push(...(data._embedded?.['content-items'] ?? []));
    if (!data.page || page + 1 >= data.page.totalPages) return out;
  }
}

async function patient(fn) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt > 20 || !/: (429|503) /.test(err.message)) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

/** Each source label exactly once among `items`. */
function checkOnce(what, labels, items) {
  const seen = new Map();
  for (const i of items) seen.set(i.label, (seen.get(i.label) ?? 0) + 1);
  const wrong = labels.filter((l) => seen.get(l) !== 1);
  if (wrong.length || items.length !== labels.length) throw new Error(`${what}: ${items.length} items for ${labels.length} labels; not exactly once: ${wrong.slice(0, 5).join(', ')}`);
}

/** The export directory holds every source item exactly once (files and index). */
function checkExport(dir, ids) {
  const index = Object.keys(JSON.parse(readFileSync(join(dir, '.index.json'), 'utf8')).items);
  const files = readdirSync(join(dir, 'items'), { recursive: true }).filter((f) => String(f).endsWith('.json'));
  const want = new Set(ids);
  if (index.length !== ids.length || files.length !== ids.length || !index.every((id) => want.has(id))) {
    throw new Error(`export ${dir}: ${index.length} index entries, ${files.length} files for ${ids.length} items`);
  }
}

/** The governor's limit over the run: "second:limit" at each second (the latest change before it). */
function concurrencyOverTime(logFile, startedAtMs, seconds) {
  let events = [];
  try {
    events = readFileSync(logFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  } catch {
    return { series: '(no governor samples)', peak: 0 };
  }
  const points = [];
  for (let s = 0; s <= Math.ceil(seconds); s++) {
    const at = startedAtMs + s * 1000;
    const last = events.filter((e) => e.at <= at).at(-1);
    points.push(`${s}:${last ? last.limit : '-'}`);
  }
  return { series: points.join(' '), peak: Math.max(...events.map((e) => e.limit)), cuts: events.filter((e) => e.event === 'cut').length };
}

/** One CLI run with its governor log. */
async function timed(env, cliArgs, tag) {
  const log = join(work, `governor-${tag}.ndjson`);
  rmSync(log, { force: true });
  const startedAt = Date.now();
  const m = await measure({ ...env, CMS_GOVERNOR_LOG: log }, cliArgs);
  return { ...m, governor: concurrencyOverTime(log, startedAt, m.seconds) };
}

/** The simplest client: one request at a time. Export: pages of 100; import: one POST per item, links mapped. */
async function sequentialExport(call, repoId) {
  const started = process.hrtime.bigint();
  let n = 0;
  for (let page = 0; ; page++) {
    const data = await patient(() => call('GET', `/content-repositories/${repoId}/content-items?size=100&page=${page}`));
    n += data._embedded?.['content-items']?.length ?? 0;
    if (!data.page || page + 1 >= data.page.totalPages) break;
  }
  return { items: n, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

async function sequentialImport(call, repoId, schemaId, count) {
  const started = process.hrtime.bigint();
  const made = [];
  for (let n = 0; n < count; n++) {
    const links = n < 50 ? [] : [made[n % 50], made[(n * 7) % 50]];
    const body = articleBody(schemaId, n, links);
    made.push((await patient(() => call('POST', `/content-repositories/${repoId}/content-items`, { label: `Sequential ${n}`, body }))).id);
  }
  return { items: count, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const fmt = (x) => Math.round(x).toLocaleString('en-US');
const range = (xs) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;

try {
  process.stderr.write(`seeding ${ITEMS} items in ${dataDir} ...\n`);
  const { sandbox, call: local } = await inProcess(dataDir);
  const source = await seedHub(local, 'remote', ITEMS);
  for (const [s] of SETUPS.entries()) for (let r = 1; r <= ROUNDS; r++) await targetHub(local, `dst-${s}-${r}`);
  const baselineModel = await targetHub(local, 'sequential');
  const sourceItems = await listAll(local, source.repo.id);
  sandbox.close();
  const labels = sourceItems.map((i) => i.label);
  const ids = sourceItems.map((i) => i.id);

  const rows = [];
  for (const [s, setup] of SETUPS.entries()) {
    process.stderr.write(`serving with --faults "${setup.faults}"\n`);
    const served = await startSandbox({ CMS_DATA_DIR: dataDir }, ['--faults', setup.faults]);
    const env = { ...process.env, CMS_API_URL: served.url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret', CMS_CONFIG_DIR: join(work, 'config'), CMS_DATA_DIR: join(work, 'cli-data'), CMS_PROFILE: '', NO_COLOR: '1' };
    const call = api(served.url, await patient(() => token(served.url)));
    const results = { export: [], import: [], seqExport: [], seqImport: [], diskExport: [], diskFloor: [] };
    try {
      for (let r = 1; r <= ROUNDS; r++) {
        process.stderr.write(`  round ${r}/${ROUNDS}\n`);
        const dir = join(out, `export-${s}-${r}`);
        const e = await timed(env, ['item', 'export', dir, '--hub', 'remote'], `export-${s}-${r}`);
        if (e.result.items !== ITEMS) throw new Error(`export: ${e.result.items} items`);
        checkExport(dir, ids);
        results.export.push(e);
        if (s === 0) {
          const onDisk = join(work, `export-disk-${r}`);
          const d = await timed(env, ['item', 'export', onDisk, '--hub', 'remote'], `export-disk-${r}`);
          checkExport(onDisk, ids);
          results.diskExport.push(d);
          results.diskFloor.push(plainWrites(dir, join(work, `plain-${r}`)));
        }
        const dst = `dst-${s}-${r}`;
        const i = await timed(env, ['item', 'import', dir, '--hub', dst], `import-${s}-${r}`);
        if (i.result.created !== ITEMS || i.result.failed) throw new Error(`import: ${JSON.stringify(i.result)}`);
        const hubs = await patient(() => call('GET', '/hubs?size=1000'));
        const hub = hubs._embedded.hubs.find((h) => h.name === dst);
        const repos = await patient(() => call('GET', `/hubs/${hub.id}/content-repositories`));
        checkOnce(`import into ${dst}`, labels, await listAll(call, repos._embedded['content-repositories'][0].id));
        results.import.push(i);
        // The directory stays until the end of the run: deleting it here would slow the next round's file creation (see measure() in lib.mjs).
        results.seqExport.push(await sequentialExport(call, source.repo.id));
        if (s === 0 || r === 1) results.seqImport.push(await sequentialImport(call, baselineModel.repo.id, baselineModel.schemaId, BASELINE));
      }
    } finally {
      await served.stop(true);
    }
    rows.push({ setup, results });
  }

  console.log(`remote, ${ITEMS} items with links, ${ROUNDS} rounds (medians), cms sandbox serve on 127.0.0.1 with --faults, exports to ${outRoot}, node ${process.version}, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  console.log('| faults | measurement | items/s (median) | items/s (min–max) | wall s | x sequential | peak RSS MB | peak concurrency | target |');
  console.log('|---|---|---:|---:|---:|---:|---:|---:|---|');
  const series = [];
  for (const { setup, results } of rows) {
    const seqRate = (k) => median(results[k].map((x) => x.items / x.seconds));
    for (const kind of ['export', 'import']) {
      const rates = results[kind].map((x) => ITEMS / x.seconds);
      const rate = median(rates);
      const base = seqRate(kind === 'export' ? 'seqExport' : 'seqImport');
      const target = setup.targets[kind];
      const verdict = target ? `>= ${fmt(target)}: ${rate >= target ? 'met' : 'NOT met'}` : '';
      const mid = results[kind][rates.indexOf([...rates].sort((a, b) => a - b)[Math.floor(rates.length / 2)])];
      console.log(`| ${setup.name} | \`cms item ${kind}\` | ${fmt(rate)} | ${range(rates)} | ${median(results[kind].map((x) => x.seconds)).toFixed(2)} | ${(rate / base).toFixed(1)} | ${median(results[kind].map((x) => x.peakMb)).toFixed(0)} | ${Math.max(...results[kind].map((x) => x.governor.peak))} | ${verdict} |`);
      series.push(`${setup.name}, ${kind} (median round, ${mid.governor.cuts ?? 0} cut(s)): ${mid.governor.series}`);
    }
    const extra = [
      ['seqExport', 'sequential export (pages of 100, one at a time)'],
      ['seqImport', `sequential import (one POST at a time, ${BASELINE} items)`],
      ['diskExport', `\`cms item export\` to the disk (${tmpdir()}, ext4 without a journal)`],
      ['diskFloor', `plain writes of the same ${ITEMS} files to the disk, no network (the disk's floor)`],
    ];
    for (const [k, label] of extra) {
      if (!results[k].length) continue;
      const rates = results[k].map((x) => (x.items ?? ITEMS) / x.seconds);
      console.log(`| ${setup.name} | ${label} | ${fmt(median(rates))} | ${range(rates)} | ${median(results[k].map((x) => x.seconds)).toFixed(2)} | ${k.startsWith('seq') ? 1 : ''} | ${results[k][0].peakMb ? median(results[k].map((x) => x.peakMb)).toFixed(0) : ''} | | |`);
    }
  }
  console.log('\nGovernor concurrency over time (second:limit):\n');
  for (const line of series) console.log(`- ${line}`);
} finally {
  rmSync(work, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
}
