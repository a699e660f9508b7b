#!/usr/bin/env node
// Profiles the sandbox's write path: `cms sandbox serve` under `node --cpu-prof` takes N creates
// and N PATCHes of content items over HTTP (10 connections, autocannon), then prints the top
// functions by self time. The .cpuprofile stays in --out for a closer look (Chrome DevTools).
//   node bench/items-profile.mjs [--requests 4000] [--out /tmp/cms-prof]
//   node bench/items-profile.mjs --get [--requests 40000]   (GETs of one item: the hot read)
//   node bench/items-profile.mjs --post [--requests 4000]   (creates only)
//   node bench/items-profile.mjs --analyze file.cpuprofile
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { api, articleBody, bin, contentModel, token } from './lib.mjs';

/** Ends the --get run early (the sandbox is stopped in finally). */
class Done extends Error {}
const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : dflt);
const requests = Number(opt('requests', 4000));
const out = opt('out', mkdtempSync(join(tmpdir(), 'cms-prof-')));
if (args.includes('--analyze')) {
  topSelf(opt('analyze'));
  if (args.includes('--total')) topTotal(opt('analyze'));
  process.exit(0);
}
mkdirSync(out, { recursive: true });

const dir = mkdtempSync(join(tmpdir(), 'cms-bench-'));
const env = { ...process.env, CMS_DATA_DIR: join(dir, 'data'), CMS_CONFIG_DIR: join(dir, 'config') };
const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir', out, bin, 'sandbox', 'serve', '--port', '0', '-o', 'json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
// An error thrown in autocannon's callbacks ends this process at once: never leave the sandbox behind.
process.on('exit', () => child.kill('SIGTERM'));
const url = await new Promise((resolve, reject) => {
  let buf = '';
  child.stdout.on('data', (d) => {
    buf += d;
    const line = buf.split('\n').find((l) => l.startsWith('{'));
    if (line) resolve(JSON.parse(line).url);
  });
  child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
});
try {
  const bearer = await token(url);
  const call = api(url, bearer);
  const { repo, schemaId } = await contentModel(call);
  const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
  const run = (opts) => new Promise((resolve, reject) => autocannon({ connections: 10, amount: requests, ...opts }, (err, res) => (err ? reject(err) : resolve(res))));
  if (args.includes('--get')) {
    const item = await call('POST', `/content-repositories/${repo.id}/content-items`, { label: 'Read', body: articleBody(schemaId, 0) });
    const read = await run({ url: `${url}/v2/content/content-items/${item.id}`, headers });
    console.log(`gets: ${read.requests.average} req/s (${read.non2xx} non-2xx)`);
    throw new Done();
  }
  const created = await run({ url: `${url}/v2/content/content-repositories/${repo.id}/content-items`, method: 'POST', headers, body: JSON.stringify({ label: 'Profiled', body: articleBody(schemaId, 1) }) });
  if (args.includes('--post')) {
    console.log(`creates: ${created.requests.average} req/s (${created.non2xx} non-2xx)`);
    throw new Done();
  }
  // PATCH one item per connection again and again: each answer's version feeds the next request.
  const targets = [];
  for (let i = 0; i < 40; i++) targets.push(await call('POST', `/content-repositories/${repo.id}/content-items`, { label: `Patched ${i}`, body: articleBody(schemaId, i) }));
  const patched = await run({
    url,
    requests: [
      {
        setupRequest: (req, context) => {
          context.n ??= targets.pop();
          const item = context.n;
          return { ...req, method: 'PATCH', path: `/v2/content/content-items/${item.id}`, headers, body: JSON.stringify({ version: item.version, label: `Patched ${item.version}`, body: { ...item.body, title: `Title ${item.version}` } }) };
        },
        onResponse: (status, body, context) => {
          if (status === 200) context.n = JSON.parse(body);
        },
      },
    ],
  });
  console.log(`creates: ${created.requests.average} req/s (${created.non2xx} non-2xx); patches: ${patched.requests.average} req/s (${patched.non2xx} non-2xx)`);
} catch (err) {
  if (!(err instanceof Done)) throw err;
} finally {
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  rmSync(dir, { recursive: true, force: true });
}

// Self time per function (file:line), top 25.
const file = readdirSync(out).filter((f) => f.endsWith('.cpuprofile')).sort().pop();
topSelf(join(out, file));

function topSelf(path) {
const prof = JSON.parse(readFileSync(path, 'utf8'));
const self = new Map();
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const dt = new Map();
for (let i = 0; i < prof.samples.length; i++) dt.set(prof.samples[i], (dt.get(prof.samples[i]) ?? 0) + (prof.timeDeltas[i] ?? 0));
let total = 0;
for (const [id, us] of dt) {
  const { callFrame: f } = byId.get(id);
  if (f.functionName === '(idle)') continue;
  const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(src|dist|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + us);
  total += us;
}
console.log(`\nprofile ${path}; top self time of ${(total / 1000).toFixed(0)} ms:\n`);
for (const [k, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`${((100 * us) / total).toFixed(1).padStart(5)}%  ${k}`);
}

/** Total time per function: samples with it anywhere on the stack (each counted once). */
function topTotal(path, n = 40) {
  const prof = JSON.parse(readFileSync(path, 'utf8'));
  const parent = new Map();
  for (const node of prof.nodes) for (const c of node.children ?? []) parent.set(c, node.id);
  const byId = new Map(prof.nodes.map((x) => [x.id, x]));
  const label = (f) => `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(src|dist|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
  const totals = new Map();
  let all = 0;
  prof.samples.forEach((id, i) => {
    const us = prof.timeDeltas[i] ?? 0;
    if (byId.get(id).callFrame.functionName === '(idle)') return;
    all += us;
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const key = label(byId.get(cur).callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      totals.set(key, (totals.get(key) ?? 0) + us);
    }
  });
  console.log(`\ntotal time (inclusive) of ${(all / 1000).toFixed(0)} ms:\n`);
  for (const [k, us] of [...totals].filter(([k]) => k.includes('dist/') || k.includes('node_modules/')).sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${((100 * us) / all).toFixed(1).padStart(5)}%  ${k}`);
}
