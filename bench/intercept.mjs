#!/usr/bin/env node
// The interception proxy (issue 33): what it costs a client that cannot be pointed at the sandbox.
//   node bench/intercept.mjs [--duration 3] [--rounds 5] [--connections 10] [--exec-rounds 9]
//
// 1. A Content Delivery 2 read of a published item (depth=all, inlined) from `cms sandbox serve
//    --intercept`: `https://<hub>.cdn.content.amplience.net/content/id/<id>` through the proxy
//    (CONNECT, TLS ended by the proxy with a leaf of its CA, keep-alive connections in the
//    tunnels), against the same read at `http://127.0.0.1:<port>/cdn/<hub>/content/id/<id>`
//    without it. undici clients with --connections connections each, for --duration seconds,
//    interleaved rounds; the ratio of the medians. Target >= 0.5x.
// 2. `cms sandbox exec --intercept -- true` against `cms sandbox exec -- true`, whole runs,
//    interleaved. Target < 1.5x.
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, ProxyAgent, request } from 'undici';
import { api, articleBody, bin, contentModel, median, startSandbox, token } from './lib.mjs';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '3' }, rounds: { type: 'string', default: '5' }, connections: { type: 'string', default: '10' }, 'exec-rounds': { type: 'string', default: '9' } } });
const durationMs = Number(values.duration) * 1000;
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const execRounds = Number(values['exec-rounds']);
const rows = [];
const row = (what, figure, target, met) => rows.push(`| ${what} | ${figure} | ${target} | ${met === undefined ? '' : met ? 'met' : 'NOT met'} |`);
const load = [loadavg()[0]];

// 1. CD2 read through the proxy over TLS, and without.
const sb = await startSandbox({}, ['--intercept']);
const call = api(sb.url, await token(sb.url));
const { hub, repo, schemaId } = await contentModel(call, 'bench');
const item = await call('POST', `/content-repositories/${repo.id}/content-items`, { label: 'Article', body: articleBody(schemaId, 1) });
await call('POST', `/content-items/${item.id}/publish`, {});
const query = `/content/id/${item.id}?depth=all&format=inlined`;
const direct = { url: `${sb.url}/cdn/${hub.name}${query}`, dispatcher: new Agent({ connections }) };
const proxied = {
  url: `https://${hub.name}.cdn.content.amplience.net${query}`,
  dispatcher: new ProxyAgent({ uri: sb.info.intercept.proxyUrl, requestTls: { ca: readFileSync(sb.info.intercept.caFile) }, connections }),
};

async function rate({ url, dispatcher }) {
  let done = 0;
  const until = performance.now() + durationMs;
  const loop = async () => {
    while (performance.now() < until) {
      const res = await request(url, { dispatcher });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
      done++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  return done / ((performance.now() - t0) / 1000);
}

// Warm both (connections made, the leaf issued, the answer cached).
await rate({ ...direct });
await rate({ ...proxied });
const directRates = [];
const proxiedRates = [];
for (let i = 0; i < rounds; i++) {
  directRates.push(await rate(direct));
  proxiedRates.push(await rate(proxied));
}
await sb.stop();
const fmt = (xs) => `${median(xs).toFixed(0)} req/s (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
const readRatio = median(proxiedRates) / median(directRates);
row(`CD2 read without the proxy (\`http://127.0.0.1/cdn/<hub>/…\`), ${connections} connections`, fmt(directRates), '', undefined);
row('the same read through the proxy over TLS (`https://<hub>.cdn.content.amplience.net/…`)', `${fmt(proxiedRates)}: **${readRatio.toFixed(2)}x**`, '>= 0.5x', readRatio >= 0.5);
load.push(loadavg()[0]);

// 2. exec --intercept -- true against exec -- true.
const run = (args) =>
  new Promise((resolve, reject) => {
    const dir = mkdtempSync(join(tmpdir(), 'cms-bench-intercept-'));
    const env = { ...process.env, CMS_DATA_DIR: join(dir, 'data'), CMS_CONFIG_DIR: join(dir, 'config') };
    const t0 = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}`));
      resolve(performance.now() - t0);
    });
  });
const plain = [];
const intercepting = [];
await run(['sandbox', 'exec', '--intercept', '--', 'true']);
for (let i = 0; i < execRounds; i++) {
  plain.push(await run(['sandbox', 'exec', '--', 'true']));
  intercepting.push(await run(['sandbox', 'exec', '--intercept', '--', 'true']));
}
const ms = (xs) => `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
const execRatio = median(intercepting) / median(plain);
row('`cms sandbox exec -- true`, whole run', ms(plain), '', undefined);
row('`cms sandbox exec --intercept -- true` (a new CA for the run, the proxy started and stopped)', `${ms(intercepting)}: **${execRatio.toFixed(2)}x**`, '< 1.5x', execRatio < 1.5);
load.push(loadavg()[0]);

console.log(`Node ${process.version}; load average (1 min) ${load.map((l) => l.toFixed(1)).join(' → ')}\n`);
console.log('| Measure | Median (min–max) | Target | |\n|---|---|---|---|');
console.log(rows.join('\n'));
