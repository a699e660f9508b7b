import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CliHome } from '../helpers/cli.js';
import { Api, ok, startServer } from '../helpers/server.js';
import { contentLink, itemBody, repoWithType, SCHEMA_HOST } from '../helpers/content.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve.js';

// Bulk runs against `cms sandbox serve` (the real binary, over HTTP): an import killed with
// SIGKILL mid-run and resumed, and a copy between two sandboxes through two profiles.

const URI = `${SCHEMA_HOST}/served-article.json`;
const creds = ['--client-id', 'sandbox-admin', '--client-secret', 'sandbox-secret'];

describe('an import killed with SIGKILL mid-run, then resumed', () => {
  const home = new CliHome();
  const N = 300;
  let served: ServedSandbox;
  let api: Api;
  const dir = join(home.dir, 'export');

  beforeAll(async () => {
    served = await serveSandbox(home.env);
    api = await new Api(served.url).login();
    const source = await repoWithType(api, 'kill-src', URI);
    await repoWithType(api, 'kill-dst', URI);
    await repoWithType(api, 'ctrl-c-dst', URI);
    // Chains of ten items: item i links to item i-1 within its chain.
    let previous: string | null = null;
    for (let i = 0; i < N; i++) {
      const links = i % 10 && previous ? [contentLink(previous, URI)] : [];
      const body = itemBody(URI, { title: `Item ${i}`, links }, i % 50 === 0 ? { deliveryKey: `key-${i}` } : {});
      previous = (await ok(api.post(`/content-repositories/${source.repoId}/content-items`, { label: `item-${i}`, body }))).id;
    }
    expect((await home.run(['login', '--profile', 'served', '--api-url', served.url, ...creds])).exitCode).toBe(0);
    expect((await home.json(['item', 'export', dir, '--hub', 'kill-src'])).items).toBe(N);
    // Slow creates down (and push back now and then) so the kill lands mid-run.
    await ok(api.post('/__sandbox/faults', { spec: 'latency 15ms 100% on POST /v2/content/content-repositories/*/content-items; 429 4% retry-after 0.1 on POST /v2/content/content-repositories/*/content-items', seed: 7 }));
  });

  afterAll(async () => {
    await served.stop();
    home.cleanup();
  });

  it('continues with --resume from where it stopped: every item exactly once, nothing missing', async () => {
    const runsDir = join(home.env.CMS_DATA_DIR, 'runs');
    const child = execa(process.execPath, [BIN, 'item', 'import', dir, '--hub', 'kill-dst', '--concurrency', '2', '-o', 'json'], { env: home.env, reject: false });
    // Kill it after some 60 journaled steps.
    const journal = () => {
      try {
        const runId = readdirSync(runsDir)[0];
        return runId ? { runId, text: readFileSync(join(runsDir, runId, 'journal.ndjson'), 'utf8') } : undefined;
      } catch {
        return undefined; // not created yet
      }
    };
    for (let waited = 0; (journal()?.text.split('\n').length ?? 0) <= 60; waited += 10) {
      if (waited > 30_000) throw new Error('the import never journaled 60 steps');
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGKILL');
    const killed = await child;
    expect(killed.signal).toBe('SIGKILL');
    const { runId, text } = journal()!;
    const journaled = text.split('\n').filter((l) => l.includes('"key":"item:')).length;
    expect(journaled).toBeLessThan(N);
    expect((await home.json(['runs'])).find((r: { id: string }) => r.id === runId)).toMatchObject({ command: 'item import', status: 'interrupted' });

    const resumed = await home.run(['item', 'import', '--resume', runId, '-o', 'json'], { timeout: 120_000 });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ runId, created: N, failed: 0 });

    const items = await home.json<{ label: string; body: { links?: { id: string }[] } }[]>(['item', 'list', '--hub', 'kill-dst', '--repo', 'content', '--limit', '0']);
    expect(items).toHaveLength(N);
    expect(new Set(items.map((i) => i.label)).size).toBe(N);
    // Every link names an item of the target.
    const ids = new Set(items.map((i: any) => i.id));
    for (const i of items) for (const l of i.body.links ?? []) expect(ids.has(l.id)).toBe(true);
    // A new run maps every item to its copy: nothing to write.
    expect(await home.json(['item', 'import', dir, '--hub', 'kill-dst'])).toMatchObject({ created: 0, updated: 0, unchanged: N, failed: 0 });
    // The service did push back, and the run honoured it.
    const faults = await ok(api.get('/__sandbox/faults'));
    expect(faults.rules.find((r: { status?: number }) => r.status === 429).injected).toBeGreaterThan(0);
  }, 180_000);

  it('Ctrl-C stops at a safe point, leaves the run interrupted and says how to resume it', async () => {
    const child = execa(process.execPath, [BIN, 'item', 'import', dir, '--hub', 'ctrl-c-dst', '--concurrency', '2', '-o', 'json'], { env: home.env, reject: false });
    const runsDir = join(home.env.CMS_DATA_DIR, 'runs');
    const before = new Set(readdirSync(runsDir));
    const latest = () => readdirSync(runsDir).find((id) => !before.has(id));
    const steps = () => {
      try {
        return readFileSync(join(runsDir, latest()!, 'journal.ndjson'), 'utf8').split('\n').length - 1;
      } catch {
        return 0; // not started yet
      }
    };
    let exited = false;
    void child.then(() => (exited = true));
    for (let waited = 0; steps() < 30; waited += 10) {
      if (waited > 30_000 || exited) throw new Error(`the import never journaled 30 steps: ${(await child).stderr}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGINT');
    const stopped = await child;
    expect(stopped.exitCode).toBe(130);
    const runId = latest()!;
    expect(stopped.stderr).toContain(`cms item import --resume ${runId}`);
    expect(JSON.parse(readFileSync(join(runsDir, runId, 'meta.json'), 'utf8'))).toMatchObject({ status: 'interrupted' });
    expect(await home.json(['item', 'import', '--resume', runId], { timeout: 120_000 })).toMatchObject({ created: N, failed: 0 });
    expect(await home.json(['item', 'list', '--hub', 'ctrl-c-dst', '--repo', 'content', '--limit', '0'])).toHaveLength(N);
  }, 180_000);
});

describe('cms item copy between two sandboxes (two profiles)', () => {
  const home = new CliHome();
  const prodData = mkdtempSync(join(tmpdir(), 'cms-prod-'));
  let served: ServedSandbox;
  let prod: Api;
  const src: Record<string, any> = {};
  let prodRepo: string;

  beforeAll(async () => {
    // dev: the embedded sandbox of the CLI's data directory, seeded by a server on it.
    const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
    try {
      const dev = await new Api(srv.url).login();
      const { repoId } = await repoWithType(dev, 'site', URI);
      src.Y = await ok(dev.post(`/content-repositories/${repoId}/content-items`, { label: 'Y', body: itemBody(URI) }));
      src.X = await ok(dev.post(`/content-repositories/${repoId}/content-items`, { label: 'X', locale: null, body: itemBody(URI, { links: [contentLink(src.Y.id, URI)] }, { deliveryKey: 'landing' }) }));
      src.Z = await ok(dev.post(`/content-repositories/${repoId}/content-items`, { label: 'Z', body: itemBody(URI, { links: [contentLink(src.X.id, URI)] }) }));
      // Y links back to X: a cycle across the copy.
      src.Y = await ok(dev.patch(`/content-items/${src.Y.id}`, { version: src.Y.version, body: itemBody(URI, { links: [contentLink(src.X.id, URI)] }) }));
    } finally {
      await srv.stop();
    }
    // prod: another sandbox, served over HTTP from its own data directory.
    served = await serveSandbox(home.env, ['--data-dir', prodData]);
    prod = await new Api(served.url).login();
    prodRepo = (await repoWithType(prod, 'site-prod', URI)).repoId;
    expect((await home.run(['login', '--profile', 'dev', '--sandbox'])).exitCode).toBe(0);
    expect((await home.run(['login', '--profile', 'prod', '--api-url', served.url, ...creds, '--hub', 'site-prod'])).exitCode).toBe(0);
  });

  afterAll(async () => {
    await served.stop();
    home.cleanup();
    rmSync(prodData, { recursive: true, force: true });
  });

  const prodItems = async () => (await ok(prod.get(`/content-repositories/${prodRepo}/content-items?size=100`)))._embedded['content-items'] as any[];

  it('--dry-run reads both sides and changes nothing in the destination', async () => {
    const res = await home.run(['--profile', 'dev', 'item', 'copy', src.X.id, '--hub', 'site', '--to-profile', 'prod', '--to-repo', 'content', '--with-deps', '--dry-run', '-o', 'json']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ dryRun: true, created: 2 });
    expect(await prodItems()).toEqual([]);
  });

  it('copies the item and what it links to, with links between the copies and the delivery key; undo archives the copies', async () => {
    const res = await home.run(['--profile', 'dev', 'item', 'copy', src.X.id, '--hub', 'site', '--to-profile', 'prod', '--to-repo', 'content', '--with-deps', '-o', 'json']);
    expect(res.exitCode, res.stderr).toBe(0);
    const summary = JSON.parse(res.stdout);
    expect(summary).toMatchObject({ created: 2, failed: 0 });
    const copies = Object.fromEntries((await prodItems()).map((i) => [i.label, i]));
    expect(Object.keys(copies).sort()).toEqual(['X', 'Y']);
    expect(copies.X.id).toBe(summary.copies[src.X.id]);
    expect(copies.X.body.links[0].id).toBe(copies.Y.id);
    expect(copies.Y.body.links[0].id).toBe(copies.X.id);
    expect(copies.X.deliveryKey).toBe('landing');
    // The source is untouched.
    expect((await home.json(['--profile', 'dev', 'item', 'get', src.X.id])).version).toBe(src.X.version);

    // Undo reaches the destination through the run's profile.
    const undo = await home.run(['--profile', 'dev', 'undo', summary.runId, '--yes', '-o', 'json']);
    expect(undo.exitCode, undo.stderr).toBe(0);
    expect((await prodItems()).map((i) => i.status)).toEqual(['ARCHIVED', 'ARCHIVED']);
  });
});
