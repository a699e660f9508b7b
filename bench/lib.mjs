// Shared pieces of the benchmarks: start `cms sandbox serve` on a temporary data directory,
// talk to it, and summarise samples.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// CMS_BENCH_ROOT runs the benchmarks against another checkout's build (a before/after comparison).
export const root = process.env.CMS_BENCH_ROOT ?? fileURLToPath(new URL('..', import.meta.url));
export const bin = join(root, 'bin', 'cms.js');

/** Starts the real binary's `sandbox serve --port 0` and resolves with its URL and a stop(). */
export async function startSandbox(extraEnv = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cms-bench-'));
  const env = { ...process.env, CMS_DATA_DIR: join(dir, 'data'), CMS_CONFIG_DIR: join(dir, 'config'), ...extraEnv };
  const child = spawn(process.execPath, [bin, 'sandbox', 'serve', '--port', '0', '-o', 'json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
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
    env,
    dir,
    pid: child.pid,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dir, { recursive: true, force: true });
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
