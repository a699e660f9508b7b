#!/usr/bin/env node
// Item create and get throughput through `cms sandbox serve` on 127.0.0.1, measured with
// autocannon next to a bare node:http server that returns a stored JSON document of the same
// size, in the same run. Target: GET item >= 0.5x the bare server's requests per second.
//   node bench/items.mjs [--duration 10] [--connections 10] [--rounds 3]
import autocannon from 'autocannon';
import { createServer } from 'node:http';
import { articleBody, api, contentModel, median, startSandbox, token } from './lib.mjs';

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

  // The baseline: the same document, stored in memory, answered by bare node:http.
  const bare = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/hal+json;charset=UTF-8', 'content-length': Buffer.byteLength(itemJson) });
    res.end(itemJson);
  });
  await new Promise((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${bare.address().port}`;

  const results = { create: [], get: [], bare: [] };
  const createBody = JSON.stringify({ label: 'Created by autocannon', body: articleBody(schemaId, 1) });
  for (let r = 0; r < rounds; r++) {
    // Alternate so background noise hits both the sandbox and the baseline alike.
    results.bare.push((await run({ url: `${bareUrl}/v2/content/content-items/${item.id}` })).requests.average);
    results.get.push((await run({ url: `${sandbox.url}/v2/content/content-items/${item.id}`, headers: auth })).requests.average);
    const created = await run({ url: `${sandbox.url}/v2/content/content-repositories/${repo.id}/content-items`, method: 'POST', headers: auth, body: createBody });
    if (created.non2xx) throw new Error(`${created.non2xx} creates failed`);
    results.create.push(created.requests.average);
  }
  bare.close();

  const m = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, median(v)]));
  console.log(`items, ${rounds} rounds of ${duration}s, ${connections} connections, node ${process.version}, document ${Buffer.byteLength(itemJson)} bytes\n`);
  console.log('| measurement | median req/s | x bare node:http |');
  console.log('|---|---:|---:|');
  console.log(`| bare node:http, stored JSON | ${m.bare.toFixed(0)} | 1 |`);
  console.log(`| GET /content-items/{id} | ${m.get.toFixed(0)} | ${(m.get / m.bare).toFixed(2)} |`);
  console.log(`| POST content item (validated, versioned, indexed) | ${m.create.toFixed(0)} | ${(m.create / m.bare).toFixed(2)} |`);
  console.log(`\nGET target >= 0.5x: ${m.get / m.bare >= 0.5 ? 'met' : 'NOT met'}`);
} finally {
  await sandbox.stop();
}
