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
//   delivery  GET {origin}/cdn/{hub}/content/id/{id}?depth=all&format=inlined of a published item
//             (Content Delivery 2, no token), next to its own bare node:http answering that document
//   depthAll  in process (no HTTP): service time of the same read for an item with 20 linked items
// Targets (issue 14): create >= 2,500 req/s; GET after writes >= 0.6x bare. Issue 23: delivery
// >= 0.8x its bare server; depth all of 20 linked items < 2 ms of service time.
//   node bench/items.mjs [--duration 10] [--connections 10] [--rounds 3] [--only delivery]
//   CMS_BENCH_ROOT=/other/checkout node bench/items.mjs   (that checkout's build)
import autocannon from 'autocannon';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { articleBody, api, contentModel, inProcess, median, root, spread, startSandbox, token } from './lib.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : dflt);
const duration = opt('duration', 10);
const connections = opt('connections', 10);
const rounds = opt('rounds', 3);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1].split(',') : null;
const wanted = (group) => !only || only.includes(group);

/** A bare node:http server answering one stored document. */
async function bareServer(json, type) {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(json) });
    res.end(json);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/** Service time of a depth-all delivery read of an item with 20 linked items, in this process. */
async function depthAllServiceTime() {
  const dir = mkdtempSync(join(tmpdir(), 'cms-bench-delivery-'));
  const { sandbox, call } = await inProcess(dir);
  try {
    const { hub, repo, schemaId } = await contentModel(call, 'depth');
    const linked = [];
    for (let i = 0; i < 20; i++) linked.push((await call('POST', `/content-repositories/${repo.id}/content-items`, { label: `Linked ${i}`, body: articleBody(schemaId, i) })).id);
    const rootItem = await call('POST', `/content-repositories/${repo.id}/content-items`, { label: 'Root of 20', body: articleBody(schemaId, 99, linked) });
    await call('POST', `/content-items/${rootItem.id}/publish`, {});
    const url = `http://sandbox.localhost/cdn/${hub.name}/content/id/${rootItem.id}?depth=all&format=inlined`;
    const once = async () => {
      const res = await sandbox.fetch(new Request(url, { headers: { accept: 'application/json' } }));
      const text = await res.text();
      if (res.status !== 200) throw new Error(`depth all: ${res.status} ${text}`);
      return text;
    };
    const doc = JSON.parse(await once());
    if (doc.content.related.length !== 20 || doc.content.related.some((r) => typeof r.title !== 'string')) throw new Error('depth all did not inline the 20 linked items');
    for (let i = 0; i < 200; i++) await once();
    // Repeated reads are answered from the delivery cache; the first read after a write (here a
    // hub label change, not timed) computes the graph and the answer.
    const samples = [];
    const fresh = [];
    for (let r = 0; r < 5; r++) {
      const n = 500;
      const start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) await once();
      samples.push(Number(process.hrtime.bigint() - start) / 1e6 / n);
      let total = 0n;
      for (let i = 0; i < 50; i++) {
        await call('PATCH', `/hubs/${hub.id}`, { label: `Depth ${r}.${i}` });
        const t = process.hrtime.bigint();
        await once();
        total += process.hrtime.bigint() - t;
      }
      fresh.push(Number(total) / 1e6 / 50);
    }
    // A yardstick from the same run: the service time of a plain read of one item (row cache).
    const plain = `http://sandbox.localhost/cdn/${hub.name}/content/id/${linked[0]}?depth=root`;
    await call('POST', `/content-items/${linked[0]}/publish`, {});
    const yard = [];
    for (let r = 0; r < 5; r++) {
      const n = 500;
      const start = process.hrtime.bigint();
      for (let i = 0; i < n; i++) {
        const res = await sandbox.fetch(new Request(plain, { headers: { accept: 'application/json' } }));
        await res.text();
      }
      yard.push(Number(process.hrtime.bigint() - start) / 1e6 / n);
    }
    return { samples, fresh, yard, bytes: JSON.stringify(doc).length };
  } finally {
    sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

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

  // Delivery: a published item read as the delivery SDK reads it, and its own bare server.
  await call('POST', `/content-items/${item.id}/publish`, {});
  const deliveryPath = `/cdn/bench/content/id/${item.id}?depth=all&format=inlined`;
  const deliveredJson = await (await fetch(`${sandbox.url}${deliveryPath}`)).text();
  const bareDelivery = await bareServer(deliveredJson, 'application/json; charset=utf-8');

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

  const results = { bare: [], get: [], create: [], getAfter: [], mixed: [], bareDelivery: [], delivery: [] };
  for (let r = 0; r < rounds; r++) {
    if (wanted('delivery')) {
      results.bareDelivery.push(checked(await run({ url: `${bareDelivery.url}${deliveryPath}` }), 'bare delivery'));
      results.delivery.push(checked(await run({ url: `${sandbox.url}${deliveryPath}` }), 'delivery'));
    }
    if (!wanted('items')) continue;
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
  bareDelivery.close();
  const depthAll = wanted('delivery') ? await depthAllServiceTime() : null;

  const m = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, v.length ? median(v) : NaN]));
  const ratio = (k) => (m[k] / m.bare).toFixed(2);
  console.log(`items (${root}), ${rounds} rounds of ${duration}s, ${connections} connections, node ${process.version}, document ${Buffer.byteLength(itemJson)} bytes\n`);
  console.log('| measurement | req/s median (min–max) | x bare node:http | target | |');
  console.log('|---|---:|---:|---:|---|');
  if (wanted('delivery')) {
    const dr = m.delivery / m.bareDelivery;
    console.log(`| bare node:http, the delivered document (${Buffer.byteLength(deliveredJson)} bytes) | ${spread(results.bareDelivery)} | 1 | | |`);
    console.log(`| GET /cdn/{hub}/content/id/{id}?depth=all, published item (no token) | ${spread(results.delivery)} | ${dr.toFixed(2)} | >= 0.8x | ${dr >= 0.8 ? 'met' : 'NOT met'} |`);
    const ms = median(depthAll.samples);
    const range = (xs) => `${median(xs).toFixed(3)} ms (${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)})`;
    console.log(`| depth=all of an item with 20 linked items (${depthAll.bytes} bytes), service time in process, repeated read | ${range(depthAll.samples)} | | < 2 ms | ${ms < 2 ? 'met' : 'NOT met'} |`);
    const first = median(depthAll.fresh);
    console.log(`| the same, first read after a write (graph computed) | ${range(depthAll.fresh)} | | < 2 ms | ${first < 2 ? 'met' : 'NOT met'} |`);
    console.log(`| yardstick: depth=root read of one published item, same process and run | ${range(depthAll.yard)} | | | |`);
  }
  if (wanted('items')) {
    console.log(`| bare node:http, stored JSON | ${spread(results.bare)} | 1 | | |`);
    console.log(`| GET /content-items/{id}, same item | ${spread(results.get)} | ${ratio('get')} | | |`);
    console.log(`| POST content item | ${spread(results.create)} | ${ratio('create')} | >= 2,500 req/s | ${m.create >= 2500 ? 'met' : 'NOT met'} |`);
    console.log(`| GET of 100 items while 100 creates/s run | ${spread(results.getAfter)} | ${ratio('getAfter')} | >= 0.6x | ${m.getAfter / m.bare >= 0.6 ? 'met' : 'NOT met'} |`);
    console.log(`| mixed: 80% GET, 20% POST | ${spread(results.mixed)} | ${ratio('mixed')} | | |`);
  }
} finally {
  await sandbox.stop();
}
