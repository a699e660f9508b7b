import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.js';
import { contentLink, contentSetup, itemBody } from '../helpers/content.js';
import { Api, type Reply } from '../helpers/server.js';
import { serve, type Served } from './lib/serve.js';

// Issue 11 finding 2: one unauthenticated GET of the delivery render must not freeze the served
// sandbox. 300 items where item i links to i-1 and i-2 have exponentially many link paths (the
// old render expanded each path: item 26 was 174 MB, item 299 ran for minutes at 3 GB RSS). Each
// item is now rendered once per answer and the graph is bounded (32 hops, 1,000 items, 16 MB):
// item 26 answers its 27 items, item 299 a 400 CONTENT_GRAPH_TOO_LARGE, and the server keeps
// answering everyone else. Requests are abandoned after 20 s so the old code fails, not hangs.
// Figures (size, time, RSS before and after): bench/content-graph.mjs.

const COUNT = 300;
let dir: string;
let server: Served;
let api: Api;
const ids: string[] = [];
let hubId = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cms-graph-'));
  server = await serve(['--data-dir', join(dir, 'data')], {});
  api = await new Api(server.url).login();
  const setup = await contentSetup(api);
  hubId = setup.hubId;
  for (let i = 0; i < COUNT; i++) {
    const links = [ids[i - 1], ids[i - 2]].filter((id): id is string => !!id).map((id) => contentLink(id, setup.uri));
    const res = await api.post(`/content-repositories/${setup.repoId}/content-items`, { label: `item ${i}`, body: itemBody(setup.uri, { title: `Item ${i} ${'x'.repeat(80)}`, links }) });
    if (res.status !== 201) throw new Error(`${res.status} ${res.text}`);
    ids.push(res.body.id);
  }
}, 120_000);

afterAll(async () => {
  await server?.kill9();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function get(path: string): Promise<Reply> {
  const res = await fetch(server.url + path, { headers: { accept: 'text/html, application/json' }, signal: AbortSignal.timeout(20_000) });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

const render = (n: number) => get(`/v1/content/${hubId}/content-item/${ids[n]}`);
const query = (n: number) => get(`/cms/content/query?query=${encodeURIComponent(JSON.stringify({ 'sys.iri': `http://content.cms.amplience.com/${ids[n]}` }))}`);

describe('a 300-item graph with exponentially many paths', () => {
  it('renders item 26 with each of its 27 items once (small answer)', async () => {
    const res = await render(26);
    expect(res.status).toBe(200);
    const articles = res.text.match(/<article /g) ?? [];
    expect(articles.length).toBe(27);
    expect(res.text.length).toBeLessThan(100_000);
    const graph = await query(26);
    expect(graph.status).toBe(200);
    expect(graph.body['@graph'].length).toBe(27);
  }, 30_000);

  it('refuses item 299 (about 150 link hops deep) with a 400 naming the limit, and keeps serving', async () => {
    for (const res of [await render(299), await query(299)]) {
      const e = expectError(res, 400);
      expect(e.code).toBe('CONTENT_GRAPH_TOO_LARGE');
      expect(e.message).toContain('32 link hops');
    }
    expect((await api.get('/hubs')).status).toBe(200);
  }, 60_000);
});
