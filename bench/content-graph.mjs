#!/usr/bin/env node
// Issue 11 finding 2: the public delivery render of an item graph where item i links to i-1 and
// i-2 (300 items). Prints status, answer size, time and the server's peak RSS for items 20, 26
// and 299. Each request is abandoned after --timeout seconds (default 30).
//   node bench/content-graph.mjs [--count 300] [--timeout 30]
import { readFileSync } from 'node:fs';
import { articleBody, api, contentModel, startSandbox, token } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : dflt);
const count = opt('count', 300);
const timeout = opt('timeout', 30);

const rssMb = (pid) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { now: Number(/VmRSS:\s+(\d+)/.exec(status)[1]) / 1024, peak: Number(/VmHWM:\s+(\d+)/.exec(status)[1]) / 1024 };
};

const sandbox = await startSandbox();
try {
  const call = api(sandbox.url, await token(sandbox.url));
  const { repo, schemaId } = await contentModel(call);
  const ids = [];
  for (let i = 0; i < count; i++) {
    const links = [ids[i - 1], ids[i - 2]].filter(Boolean);
    ids.push((await call('POST', `/content-repositories/${repo.id}/content-items`, { label: `item ${i}`, body: articleBody(schemaId, i, links) })).id);
  }
  console.log(`${count} items, item i links to i-1 and i-2; node ${process.version}; idle RSS ${rssMb(sandbox.pid).now.toFixed(0)} MB`);
  console.log('| item | status | bytes | ms | server peak RSS MB |');
  console.log('|---:|---:|---:|---:|---:|');
  for (const n of [20, 26, count - 1]) {
    const started = performance.now();
    let status = 'timeout';
    let bytes = 0;
    try {
      const res = await fetch(`${sandbox.url}/v1/content/store/content-item/${ids[n]}`, { signal: AbortSignal.timeout(timeout * 1000) });
      status = res.status;
      bytes = (await res.arrayBuffer()).byteLength;
    } catch (e) {
      status = `abandoned after ${timeout}s`;
    }
    console.log(`| ${n} | ${status} | ${bytes} | ${(performance.now() - started).toFixed(0)} | ${rssMb(sandbox.pid).peak.toFixed(0)} |`);
  }
} finally {
  await sandbox.stop();
}
