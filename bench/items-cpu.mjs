#!/usr/bin/env node
// Server CPU time per request (utime+stime of the `cms sandbox serve` process, from /proc, around
// a fixed number of requests), for builds side by side: steadier than req/s on a shared machine,
// since other load changes how long a request waits but hardly what it costs. Round 0 warms up.
//   node bench/items-cpu.mjs ROOT...           GETs of one item (the row cache hit), 40,000 a round
//   node bench/items-cpu.mjs --post ROOT...    creates, 3,000 a round
// ROOT is a built checkout (what CMS_BENCH_ROOT takes), e.g. /path/to/base /path/to/this.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';

const post = process.argv.includes('--post');
const roots = process.argv.slice(2).filter((a) => a !== '--post');
const N = post ? 3000 : 40000;
const rounds = 4;
const libs = [];
// lib.mjs reads CMS_BENCH_ROOT when it loads: one instance per build.
for (const r of roots) {
  process.env.CMS_BENCH_ROOT = r;
  libs.push(await import(`./lib.mjs?${r}`));
}
const cpuMicros = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10_000;
};
const servers = [];
for (const lib of libs) {
  const s = await lib.startSandbox();
  const bearer = await lib.token(s.url);
  const call = lib.api(s.url, bearer);
  const { repo, schemaId } = await lib.contentModel(call);
  const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
  const item = await call('POST', `/content-repositories/${repo.id}/content-items`, { label: 'Bench item', body: lib.articleBody(schemaId, 0) });
  const target = post
    ? { url: `${s.url}/v2/content/content-repositories/${repo.id}/content-items`, method: 'POST', body: JSON.stringify({ label: 'Created', body: lib.articleBody(schemaId, 1) }) }
    : { url: `${s.url}/v2/content/content-items/${item.id}` };
  servers.push({ root: lib.root, s, target: { ...target, headers }, samples: [] });
}
try {
  for (let round = 0; round < rounds; round++) {
    for (const sv of servers) {
      const before = cpuMicros(sv.s.pid);
      const res = await new Promise((resolve, reject) => autocannon({ ...sv.target, connections: 10, amount: N }, (e, r) => (e ? reject(e) : resolve(r))));
      if (res.non2xx || res.errors) throw new Error(`${sv.root}: ${res.non2xx} non-2xx, ${res.errors} errors`);
      if (round) sv.samples.push((cpuMicros(sv.s.pid) - before) / N);
    }
  }
  console.log(`server CPU µs per ${post ? 'create' : 'GET of one item'} (median, min–max of ${rounds - 1} rounds of ${N})`);
  for (const sv of servers) {
    const v = [...sv.samples].sort((a, b) => a - b);
    console.log(`${v[Math.floor(v.length / 2)].toFixed(1)} (${v[0].toFixed(1)}–${v.at(-1).toFixed(1)})  ${sv.root}`);
  }
} finally {
  for (const sv of servers) await sv.s.stop();
}
