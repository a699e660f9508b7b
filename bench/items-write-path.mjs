#!/usr/bin/env node
// The write path without HTTP: N creates, N PATCHes and N create-then-GET pairs straight into
// Service.handle of a checkout's build, microseconds per request. SPLIT=1 also times BEGIN, the
// handler and COMMIT of each write (COMMIT's p99 shows the WAL checkpoints). For profiles:
//   node --cpu-prof --cpu-prof-dir /tmp/p bench/items-write-path.mjs [checkout] [N]
//   node bench/items-profile.mjs --analyze /tmp/p/*.cpuprofile --total

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));
const { Service } = await import(`${root}/dist/server/service.js`);
const { plainRequest } = await import(`${root}/dist/server/core/exchange.js`);
const { articleBody } = await import(`${root}/bench/lib.mjs`);
const N = Number(process.argv[3] ?? 2000);
const dir = mkdtempSync(join(tmpdir(), 'cms-inproc-'));
const s = new Service({ dataDir: dir });
const base = 'http://127.0.0.1:1';
const T = { begin: 0, body: 0, commit: 0, n: 0 };
if (process.env.SPLIT) {
  s.inTransaction = { immediate: (h, ctx, key) => {
    let t0 = performance.now(); s.db.exec('BEGIN IMMEDIATE'); let t1 = performance.now();
    let r; try { r = h(ctx); } catch (e) { s.db.exec('ROLLBACK'); throw e; }
    let t2 = performance.now(); s.db.exec('COMMIT'); let t3 = performance.now();
    (T.c ??= []).push(t3 - t2); T.begin += t1 - t0; T.body += t2 - t1; T.commit += t3 - t2; T.n++;
    return r; } };
}
let bearer;
const call = async (method, path, body, headers = {}) => {
  const r = await s.handle(plainRequest(method, base + path, { 'content-type': 'application/json', accept: 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...headers }, body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body)));
  if (r.status >= 400) throw new Error(`${method} ${path} ${r.status} ${r.body}`);
  return r.body ? JSON.parse(r.body) : undefined;
};
const tok = await call('POST', '/oauth/token', new URLSearchParams({ grant_type: 'client_credentials', client_id: 'sandbox-admin', client_secret: 'sandbox-secret' }).toString(), { 'content-type': 'application/x-www-form-urlencoded' });
bearer = tok.access_token;
const v2 = (m, p, b) => call(m, '/v2/content' + p, b);
const hub = await v2('POST', '/hubs', { name: 'b', label: 'B' });
const repo = await v2('POST', `/hubs/${hub.id}/content-repositories`, { name: 'content', label: 'Content' });
const schemaId = 'https://bench.example.com/article.json';
const doc = { $schema: 'https://schema.example.com/cms/schema/v1/schema#', id: schemaId, title: 'Article', type: 'object', allOf: [{ $ref: 'https://schema.example.com/cms/schema/v1/core#/definitions/content' }], properties: { title: { type: 'string', minLength: 1, maxLength: 200 }, summary: { type: 'string' }, body: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } }, author: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } } }, related: { type: 'array', items: { allOf: [{ $ref: 'https://schema.example.com/cms/schema/v1/core#/definitions/content-link' }] } } }, required: ['title'] };
await v2('POST', `/hubs/${hub.id}/content-type-schemas`, { schemaId, body: JSON.stringify(doc), validationLevel: 'CONTENT_TYPE' });
const type = await v2('POST', `/hubs/${hub.id}/content-types`, { contentTypeUri: schemaId, settings: { label: 'Article' } });
await v2('POST', `/content-repositories/${repo.id}/content-types`, { contentTypeId: type.id });
const body = JSON.stringify({ label: 'x', body: articleBody(schemaId, 1) });
for (let i = 0; i < 200; i++) await v2('POST', `/content-repositories/${repo.id}/content-items`, body);
let t = performance.now();
for (let i = 0; i < N; i++) await v2('POST', `/content-repositories/${repo.id}/content-items`, body);
const createUs = ((performance.now() - t) * 1000) / N;
let item = await v2('POST', `/content-repositories/${repo.id}/content-items`, body);
t = performance.now();
for (let i = 0; i < N; i++) item = await v2('PATCH', `/content-items/${item.id}`, { version: item.version, label: `L ${i}`, body: { ...item.body, title: `T ${i}` } });
const patchUs = ((performance.now() - t) * 1000) / N;
const other = await v2('POST', `/content-repositories/${repo.id}/content-items`, body);
t = performance.now();
for (let i = 0; i < N; i++) { await v2('POST', `/content-repositories/${repo.id}/content-items`, body); await v2('GET', `/content-items/${other.id}`); }
const pairUs = ((performance.now() - t) * 1000) / N;
console.log(JSON.stringify({ createUs: createUs.toFixed(0), patchUs: patchUs.toFixed(0), createThenGetUs: pairUs.toFixed(0) }));
if (process.env.SPLIT) { const c = T.c.sort((a, b) => a - b); const q = (f) => (c[Math.floor(f * c.length)] * 1000).toFixed(0); const top = c.slice(Math.floor(0.95 * c.length)).reduce((a, b) => a + b, 0) / c.reduce((a, b) => a + b, 0); console.log('commit p50', q(0.5), 'p90', q(0.9), 'p99', q(0.99), 'top5% share', top.toFixed(2)); delete T.c; }
if (process.env.SPLIT) console.log(Object.fromEntries(Object.entries(T).map(([k, v]) => [k, k === 'n' ? v : ((v * 1000) / T.n).toFixed(0)])));
s.close();
