// Shared pieces of the benchmarks: start `cms sandbox serve` on a temporary data directory,
// talk to it, and summarise samples.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// CMS_BENCH_ROOT runs the benchmarks against another checkout's build (a before/after comparison).
export const root = process.env.CMS_BENCH_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
export const bin = join(root, 'bin', 'cms.js');

/** Starts the real binary's `sandbox serve --port 0 [...args]` and resolves with its URL and a stop(). */
export async function startSandbox(extraEnv = {}, args = []) {
  const dir = mkdtempSync(join(tmpdir(), 'cms-bench-'));
  const env = { ...process.env, CMS_DATA_DIR: join(dir, 'data'), CMS_CONFIG_DIR: join(dir, 'config'), ...extraEnv };
  const child = spawn(process.execPath, [bin, 'sandbox', 'serve', '--port', '0', '-o', 'json', ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (d) => {
      buf += d;
      const line = buf.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return {
    url: info.url,
    info,
    env,
    dir,
    pid: child.pid,
    /** Stops the server; `keep` leaves its data directory (another server opens it next). */
    stop: async (keep = false) => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function token(url, id = 'sandbox-admin', secret = 'sandbox-secret') {
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret }),
  });
  return (await res.json()).access_token;
}

/** A JSON API caller with a bearer token; throws on an error status. */
export function api(url, bearer) {
  return async (method, path, body) => {
    const res = await fetch(`${url}/v2/content${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

/** A hub, a repository and an assigned content type with a realistic schema. */
export async function contentModel(call, name = 'bench') {
  const hub = await call('POST', '/hubs', { name, label: 'Bench' });
  const repo = await call('POST', `/hubs/${hub.id}/content-repositories`, { name: 'content', label: 'Content' });
  const schemaId = 'https://bench.example.com/article.json';
  const doc = {
    $schema: 'https://schema.example.com/cms/schema/v1/schema#',
    id: schemaId,
    title: 'Article',
    type: 'object',
    allOf: [{ $ref: 'https://schema.example.com/cms/schema/v1/core#/definitions/content' }],
    properties: {
      title: { type: 'string', minLength: 1, maxLength: 200 },
      summary: { type: 'string' },
      body: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
      author: { type: 'object', properties: { name: { type: 'string' }, email: { type: 'string', format: 'email' } } },
      related: { type: 'array', items: { allOf: [{ $ref: 'https://schema.example.com/cms/schema/v1/core#/definitions/content-link' }] } },
    },
    required: ['title'],
  };
  await call('POST', `/hubs/${hub.id}/content-type-schemas`, { schemaId, body: JSON.stringify(doc), validationLevel: 'CONTENT_TYPE' });
  const type = await call('POST', `/hubs/${hub.id}/content-types`, { contentTypeUri: schemaId, settings: { label: 'Article' } });
  await call('POST', `/content-repositories/${repo.id}/content-types`, { contentTypeId: type.id });
  return { hub, repo, schemaId };
}

/** A realistic item body (~1.5 KB), optionally linking to other items. */
export function articleBody(schemaId, n, links = []) {
  return {
    _meta: { schema: schemaId, name: `article-${n}` },
    title: `Article number ${n}: a study of things`,
    summary: 'A short summary of the article that appears in listings and search results.',
    body: 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(18),
    tags: ['news', 'feature', `tag-${n % 17}`],
    author: { name: 'Ada Lovelace', email: 'ada@example.com' },
    related: links.map((id) => ({ _meta: { schema: 'https://schema.example.com/cms/schema/v1/core#/definitions/content-link' }, contentType: schemaId, id })),
  };
}

/** `median (min–max)` of samples, rounded. */
export const spread = (xs) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Items written per request before they are multiplied by the service's bulk copy job. */
const ORIGINALS = 1000;

/** The sandbox in this process, on the data directory `cms sandbox serve` will open next. */
export async function inProcess(dataDir) {
  const { createSandbox } = await import(join(root, 'dist', 'server', 'app.js'));
  const sandbox = createSandbox({ dataDir });
  const origin = 'http://sandbox.localhost';
  const form = 'grant_type=client_credentials&client_id=sandbox-admin&client_secret=sandbox-secret';
  const tokenRes = await sandbox.fetch(new Request(`${origin}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form }));
  const bearer = (await tokenRes.json()).access_token;
  const call = async (method, path, body) => {
    const headers = { authorization: `Bearer ${bearer}`, 'content-type': 'application/json', accept: 'application/hal+json' };
    const res = await sandbox.fetch(new Request(`${origin}/v2/content${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) }));
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  return { sandbox, call };
}

/**
 * `count` articles in a new hub: the first 50 link to nothing (shared pages), the others link to
 * two of them, every tenth has a delivery key. Beyond ORIGINALS, the service's copy-items bulk
 * job multiplies them 1,000 at a time (one request instead of 1,000).
 */
export async function seedHub(call, name, count) {
  const model = await contentModel(call, name);
  await call('POST', `/admin/hubs/${model.hub.id}/modules/content-delivery-2`);
  const originals = [];
  for (let n = 0; n < Math.min(count, ORIGINALS); n++) {
    const links = n < 50 ? [] : [originals[n % 50].id, originals[(n * 7) % 50].id];
    const body = articleBody(model.schemaId, n, links);
    if (n % 10 === 0) body._meta.deliveryKey = `${name}/article-${n}`;
    originals.push(await call('POST', `/content-repositories/${model.repo.id}/content-items`, { label: `Article ${n}`, body }));
  }
  for (let done = originals.length; done < count; done += ORIGINALS) {
    const selection = Array.from({ length: Math.min(ORIGINALS, count - done) }, (_, i) => {
      const o = originals[(done + i) % originals.length];
      return { contentItemId: o.id, version: o.version, contentRepositoryId: model.repo.id, name: `copy-${done + i}`, label: `Article ${done + i}` };
    });
    const job = await call('POST', `/hubs/${model.hub.id}/bulk-jobs/copy-items`, { selection });
    let state;
    do state = await call('GET', `/hubs/${model.hub.id}/bulk-jobs/${job.id}`);
    while (state.status !== 'COMPLETED' && state.status !== 'FAILED');
    if (state.status !== 'COMPLETED') throw new Error(`copy job ${job.id} ended ${state.status}`);
  }
  return model;
}

/** A hub with the content type registered and assigned to an empty repository named like the source's. */
export async function targetHub(call, name) {
  const model = await contentModel(call, name);
  await call('POST', `/admin/hubs/${model.hub.id}/modules/content-delivery-2`);
  return model;
}

/**
 * Runs the CLI to completion, sampling its peak RSS (VmHWM) while it runs. The disk is synced
 * first, so the harness's own earlier writes (seeding) are not flushed during the timed run.
 * Scripts keep their rounds' directories until the end of the run: this machine's ext4 has no
 * journal, and without one the kernel will not reuse an inode deleted in the last 5-35 s, so
 * every file created after removing a 5,000-file export scanned past the deleted ones
 * (`recently_deleted` in a kernel profile): ~0.6 ms a file, 3 s of a 4 s export.
 */
export function measure(env, cliArgs) {
  execFileSync('sync');
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, [bin, ...cliArgs, '-o', 'json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let peakKb = 0;
    const sample = () => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0);
        peakKb = Math.max(peakKb, kb);
      } catch {
        /* exited */
      }
    };
    const timer = setInterval(sample, 20);
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      clearInterval(timer);
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      if (code !== 0) return reject(new Error(`cms ${cliArgs.join(' ')} exited ${code}: ${err.slice(0, 2000)}`));
      resolve({ seconds, peakMb: peakKb / 1024, result: JSON.parse(out) });
    });
  });
}

