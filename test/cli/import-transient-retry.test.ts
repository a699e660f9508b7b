import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CliHome } from '../helpers/cli.js';
import { Api, ok, startServer } from '../helpers/server.js';
import { contentLink, itemBody, repoWithType, SCHEMA_HOST } from '../helpers/content.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve.js';

// A bulk run tries again, later in the same run, the items the service refused for now (after
// the client's own six attempts), instead of failing them and every item linking to them. The
// service here refuses every create until the test lifts the fault, which it does only once the
// run has said it will try again: deterministic, whatever the machine's speed.

const N = 30;
const URI = `${SCHEMA_HOST}/transient-article.json`;
const CREATES = '503 100% retry-after 0.01 on POST /v2/content/content-repositories/*/content-items';

describe('a bulk run under transient refusals', () => {
  const home = new CliHome();
  const dir = join(home.dir, 'export');
  const targets: { served: ServedSandbox; api: Api; repo: string; data: string }[] = [];

  beforeAll(async () => {
    const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
    try {
      const api = await new Api(srv.url).login();
      const { repoId } = await repoWithType(api, 'source', URI);
      const ids: string[] = [];
      // Three chains: item i links to item i-3.
      for (let i = 0; i < N; i++) {
        const previous = i >= 3 ? ids[i - 3] : undefined;
        ids.push((await ok(api.post(`/content-repositories/${repoId}/content-items`, { label: `item-${i}`, body: itemBody(URI, { title: `Item ${i}`, links: previous ? [contentLink(previous, URI)] : [] }) }))).id);
      }
    } finally {
      await srv.stop();
    }
    expect((await home.json(['item', 'export', dir, '--hub', 'source'])).items).toBe(N);
  }, 120_000);

  afterAll(async () => {
    for (const t of targets) {
      await t.served.stop();
      rmSync(t.data, { recursive: true, force: true });
    }
    home.cleanup();
  });

  async function target(profile: string) {
    const data = mkdtempSync(join(tmpdir(), 'cms-transient-'));
    const served = await serveSandbox(home.env, ['--data-dir', data]);
    const api = await new Api(served.url).login();
    const repo = (await repoWithType(api, 'target', URI)).repoId;
    await ok(api.post('/__sandbox/faults', { spec: CREATES }));
    const login = await home.run(['login', '--profile', profile, '--api-url', served.url, '--client-id', 'sandbox-admin', '--client-secret', 'sandbox-secret', '--hub', 'target']);
    expect(login.exitCode, login.stderr).toBe(0);
    const t = { served, api, repo, data };
    targets.push(t);
    return t;
  }

  /** The import as a child process, resolved once it has said it will try an item again. */
  function startImport(profile: string) {
    const child = execa(process.execPath, [BIN, '--profile', profile, 'item', 'import', dir, '--progress', 'json', '-o', 'json'], { env: home.env, reject: false, timeout: 120_000 });
    const retrying = new Promise<void>((resolve, reject) => {
      let err = '';
      child.stderr!.on('data', (c: Buffer) => {
        err += c.toString();
        if (/trying it again later/.test(err)) resolve();
      });
      void child.then((r) => reject(new Error(`the import ended without trying again: ${err.slice(-2000)} ${String(r.stdout).slice(0, 1500)}`)));
    });
    return { child, retrying };
  }

  async function everyItemOnce(t: { api: Api; repo: string }) {
    const body = await ok(t.api.get(`/content-repositories/${t.repo}/content-items?size=100`));
    const items = body._embedded?.['content-items'] ?? [];
    const byLabel = new Map(items.map((i: any) => [i.label, i]));
    expect(items).toHaveLength(N);
    expect(byLabel.size).toBe(N);
    for (let i = 3; i < N; i++) expect((byLabel.get(`item-${i}`) as any).body.links.map((l: { id: string }) => l.id)).toEqual([(byLabel.get(`item-${i - 3}`) as any).id]);
  }

  it('finishes the refused items itself once the service takes them again: exit 0, each item once', async () => {
    const t = await target('flaky');
    const { child, retrying } = startImport('flaky');
    await retrying;
    await ok(t.api.post('/__sandbox/faults', { spec: '' }));
    const run = await child;
    expect(run.exitCode, `${run.stderr}\n${String(run.stdout).slice(0, 3000)}`).toBe(0);
    expect(JSON.parse(String(run.stdout))).toMatchObject({ failed: 0, created: N });
    await everyItemOnce(t);
  }, 180_000);

  it('a kill -9 while items wait for their next try: --resume finishes them, nothing twice', async () => {
    const t = await target('flaky-killed');
    const { child, retrying } = startImport('flaky-killed');
    await retrying;
    child.kill('SIGKILL');
    await child;
    await ok(t.api.post('/__sandbox/faults', { spec: '' }));
    const runs = await home.json<{ id: string; status?: string }[]>(['runs']);
    const resume = await home.run(['--profile', 'flaky-killed', 'item', 'import', '--resume', runs[0]!.id, '-o', 'json'], { timeout: 120_000 });
    expect(resume.exitCode, `${resume.stderr}\n${resume.stdout.slice(0, 3000)}`).toBe(0);
    expect(JSON.parse(resume.stdout)).toMatchObject({ failed: 0 });
    await everyItemOnce(t);
  }, 180_000);
});
