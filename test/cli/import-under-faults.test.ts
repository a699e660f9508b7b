import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Api, ok, startServer, type Reply } from '../helpers/server.js';
import { contentLink, itemBody, repoWithType, SCHEMA_HOST } from '../helpers/content.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve.js';

// A 2,000-item import into `cms sandbox serve --faults "429 10%; 503 5%"`: any request of the run
// (tokens, reads, creates) may be refused, and the client's retries and rate governor must carry
// it through with every item present exactly once.

const N = 2000;
const URI = `${SCHEMA_HOST}/faulty-article.json`;
const FAULTS = '429 10% retry-after 0.05; 503 5% retry-after 0.05';

/** The test's own calls to the faulty service retry what the service refused (a fault never applies a change). */
class PatientApi extends Api {
  override async login(): Promise<this> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await super.login();
      } catch (err) {
        if (attempt > 50) throw err;
      }
    }
  }

  override async req<T = any>(...args: Parameters<Api['req']>): Promise<Reply<T>> {
    for (let attempt = 0; ; attempt++) {
      const reply = await super.req<T>(...args);
      if ((reply.status !== 429 && reply.status !== 503) || attempt > 50) return reply;
    }
  }
}

describe(`a ${N}-item import under 10% 429s and 5% 503s`, () => {
  const home = new CliHome();
  const targetData = mkdtempSync(join(tmpdir(), 'cms-faulty-'));
  const dir = join(home.dir, 'export');
  let served: ServedSandbox;
  let target: PatientApi;
  let targetRepo: string;

  beforeAll(async () => {
    // The source: the CLI's embedded sandbox, filled over HTTP by a server on its data directory.
    const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
    try {
      const api = await new Api(srv.url).login();
      const { repoId } = await repoWithType(api, 'source', URI);
      // Ten chains of links (item i links to item i-1 of its chain), created eight at a time.
      const ids: string[] = [];
      for (let start = 0; start < N; start += 8) {
        const batch = Array.from({ length: Math.min(8, N - start) }, (_, k) => start + k);
        const created = await Promise.all(
          batch.map((i) => {
            const previous = i >= 10 ? ids[i - 10] : undefined;
            const body = itemBody(URI, { title: `Item ${i}`, links: previous ? [contentLink(previous, URI)] : [] }, i % 100 === 0 ? { deliveryKey: `key-${i}` } : {});
            return ok(api.post(`/content-repositories/${repoId}/content-items`, { label: `item-${i}`, body }));
          }),
        );
        created.forEach((item, k) => (ids[batch[k]!] = item.id));
      }
    } finally {
      await srv.stop();
    }
    expect((await home.json(['item', 'export', dir, '--hub', 'source'])).items).toBe(N);

    // The target: another sandbox served with faults on every route but its admin endpoints.
    served = await serveSandbox(home.env, ['--data-dir', targetData, '--faults', FAULTS, '--faults-seed', '2000']);
    target = await new PatientApi(served.url).login();
    targetRepo = (await repoWithType(target, 'target', URI)).repoId;
    const login = await home.run(['login', '--profile', 'faulty', '--api-url', served.url, '--client-id', 'sandbox-admin', '--client-secret', 'sandbox-secret', '--hub', 'target']);
    expect(login.exitCode, login.stderr).toBe(0);
  }, 240_000);

  afterAll(async () => {
    await served?.stop();
    home.cleanup();
    rmSync(targetData, { recursive: true, force: true });
  });

  it('finishes with every item present exactly once, links between the copies, and the faults survived', async () => {
    // Six attempts a request: at 15% faults one request in about 90,000 is refused six times.
    // The run tries such an item again later itself (with the items linking to it waiting), so
    // it finishes without --resume (import-transient-retry.test.ts forces that case).
    const run = await home.run(['--profile', 'faulty', 'item', 'import', dir, '-o', 'json'], { timeout: 300_000 });
    // On failure, the run's own list of failed items (stdout, -o json) says why.
    expect(run.exitCode, `${run.stderr}\n${run.stdout.slice(0, 4000)}`).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ failed: 0, created: N });

    // Every item once, read back page by page (through the faults).
    const items: any[] = [];
    for (let page = 0; ; page++) {
      const body = await ok(target.get(`/content-repositories/${targetRepo}/content-items?size=100&page=${page}`));
      items.push(...body._embedded['content-items']);
      if (page + 1 >= body.page.totalPages) break;
    }
    expect(items).toHaveLength(N);
    const byLabel = new Map(items.map((i) => [i.label, i]));
    expect(byLabel.size).toBe(N);
    for (let i = 0; i < N; i++) {
      const item = byLabel.get(`item-${i}`);
      expect(item, `item-${i}`).toBeDefined();
      const links = item.body.links ?? [];
      if (i >= 10) expect(links.map((l: { id: string }) => l.id)).toEqual([byLabel.get(`item-${i - 10}`).id]);
      else expect(links).toEqual([]);
      if (i % 100 === 0) expect(item.deliveryKey).toBe(`key-${i}`);
    }

    // The service did refuse a good share of the run's requests.
    const report = await ok(target.get('/__sandbox/faults'));
    const injected = (status: number) => report.rules.find((r: { status?: number }) => r.status === status).injected as number;
    expect(injected(429)).toBeGreaterThan(150);
    expect(injected(503)).toBeGreaterThan(75);
    console.log(`[reliability] import of ${N} items under "${FAULTS}": ${injected(429)} 429s and ${injected(503)} 503s injected, ${items.length} items present once`);
  }, 300_000);
});
