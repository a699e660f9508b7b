#!/usr/bin/env node
// Item reads and writes through `cms sandbox serve` on 127.0.0.1, measured with autocannon next
// to a bare node:http server that returns a stored JSON document of the same size, in the same
// run. Measurements per round (alternated so background noise hits all alike):
//   bare      the baseline
//   get       GET of one item, again and again (the row cache's best case)
//   create    POST content items (validated, versioned, indexed, evented)
//   getAfter  GETs of 100 items while another connection creates 100 items a second: reads
//             after writes (only GETs are counted)
//   mixed     80% GETs of those 100 items, 20% creates, on the same connections
// Targets (issue 14): create >= 2,500 req/s; GET after writes >= 0.6x bare.
//   node bench/items.mjs [--duration 10] [--connections 10] [--rounds 3]
//   CMS_BENCH_ROOT=/other/checkout node bench/items.mjs   (that checkout's build)
import autocannon from 'autocannon';
import { createServer } from 'node:http';
import { articleBody, api, contentModel, median, root, spread, startSandbox, token } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : dflt);
const duration = opt('duration', 10);
const connections = opt('connections', 10);
const rounds = opt('rounds', 3);

const run = (opts) =>
  new Promise((resolve, reject) => autocannon({ duration, connections, ...opts }, (err, res) => (err ? reject(err) : resolve(res))));

const sandbox = await startSandbox();
try {
  const bearer = await token(sandbox.url);
  const call = api(sandbox.url, bearer);
  const { repo, schemaId } = await contentModel(call);
  const auth = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' };
  const item = await call('POST', `/content-repositories/${repo.id}/content-items`, { label: 'Bench item', body: articleBody(schemaId, 0) });
  const itemJson = JSON.stringify(await call('GET', `/content-items/${item.id}`));
  const pool = [];
  for (let i = 0; i < 100; i++) pool.push((await call('POST', `/content-repositories/${repo.id}/content-items`, { label: `Pool ${i}`, body: articleBody(schemaId, i) })).id);

  // The baseline: the same document, stored in memory, answered by bare node:http.
  const bare = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/hal+json;charset=UTF-8', 'content-length': Buffer.byteLength(itemJson) });
    res.end(itemJson);
  });
  await new Promise((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${bare.address().port}`;

  const createPath = `/v2/content/content-repositories/${repo.id}/content-items`;
  const createBody = JSON.stringify({ label: 'Created by autocannon', body: articleBody(schemaId, 1) });
  const poolGet = (req) => ({ ...req, path: `/v2/content/content-items/${pool[Math.floor(Math.random() * pool.length)]}` });
  const checked = (res, what) => {
    if (res.non2xx || res.errors) throw new Error(`${what}: ${res.non2xx} non-2xx answers (${JSON.stringify(res.statusCodeStats)}), ${res.errors} errors`);
    return res.requests.average;
  };

  const results = { bare: [], get: [], create: [], getAfter: [], mixed: [] };
  for (let r = 0; r < rounds; r++) {
    results.bare.push(checked(await run({ url: `${bareUrl}/v2/content/content-items/${item.id}` }), 'bare'));
    results.get.push(checked(await run({ url: `${sandbox.url}/v2/content/content-items/${item.id}`, headers: auth }), 'get'));
    results.create.push(checked(await run({ url: `${sandbox.url}${createPath}`, method: 'POST', headers: auth, body: createBody }), 'create'));
    const [reads, writes] = await Promise.all([
      run({ url: sandbox.url, headers: auth, requests: [{ setupRequest: poolGet }] }),
      run({ url: `${sandbox.url}${createPath}`, connections: 1, overallRate: 100, method: 'POST', headers: auth, body: createBody }),
    ]);
    checked(writes, 'writes beside reads');
    results.getAfter.push(checked(reads, 'get after writes'));
    // Each connection repeats 4 GETs and 1 create.
    const read = { method: 'GET', headers: auth, setupRequest: poolGet };
    const mixed = [read, read, read, read, { method: 'POST', path: createPath, headers: auth, body: createBody }];
    results.mixed.push(checked(await run({ url: sandbox.url, requests: mixed }), 'mixed'));
  }
  bare.close();

  const m = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, median(v)]));
  const ratio = (k) => (m[k] / m.bare).toFixed(2);
  console.log(`items (${root}), ${rounds} rounds of ${duration}s, ${connections} connections, node ${process.version}, document ${Buffer.byteLength(itemJson)} bytes\n`);
  console.log('| measurement | req/s median (min–max) | x bare node:http | target | |');
  console.log('|---|---:|---:|---:|---|');
  console.log(`| bare node:http, stored JSON | ${spread(results.bare)} | 1 | | |`);
  console.log(`| GET /content-items/{id}, same item | ${spread(results.get)} | ${ratio('get')} | | |`);
  console.log(`| POST content item | ${spread(results.create)} | ${ratio('create')} | >= 2,500 req/s | ${m.create >= 2500 ? 'met' : 'NOT met'} |`);
  console.log(`| GET of 100 items while 100 creates/s run | ${spread(results.getAfter)} | ${ratio('getAfter')} | >= 0.6x | ${m.getAfter / m.bare >= 0.6 ? 'met' : 'NOT met'} |`);
  console.log(`| mixed: 80% GET, 20% POST | ${spread(results.mixed)} | ${ratio('mixed')} | | |`);
} finally {
  await sandbox.stop();
}
