import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Api, ok, startServer } from '../helpers/server.js';
import { itemBody, repoWithType, SCHEMA_HOST } from '../helpers/content.js';

// Four imports of one directory into one hub at once: the runs take a lock on their target hub,
// so one imports and the others are refused (exit 1, naming the holder); the hub ends with
// exactly one copy of each item. An import after them finds every item mapped: nothing new.

const N = 40;
const URI = `${SCHEMA_HOST}/locked-article.json`;

describe('concurrent imports into one hub', () => {
  const home = new CliHome();
  const dir = join(home.dir, 'export');
  let targetRepo = '';

  beforeAll(async () => {
    const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
    try {
      const api = await new Api(srv.url).login();
      const { repoId } = await repoWithType(api, 'source', URI);
      for (let i = 0; i < N; i++) await ok(api.post(`/content-repositories/${repoId}/content-items`, { label: `item-${i}`, body: itemBody(URI, { title: `Item ${i}` }) }));
      targetRepo = (await repoWithType(api, 'target', URI)).repoId;
    } finally {
      await srv.stop();
    }
    expect((await home.json(['item', 'export', dir, '--hub', 'source'])).items).toBe(N);
  }, 120_000);

  afterAll(() => home.cleanup());

  const targetItems = async (repo = targetRepo) => {
    const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
    try {
      const api = await new Api(srv.url).login();
      const body = await ok(api.get(`/content-repositories/${repo}/content-items?size=500&status=ACTIVE`));
      return body._embedded['content-items'] as { label: string }[];
    } finally {
      await srv.stop();
    }
  };

  it('a run that takes the lock just as another releases it reads what that run left: one copy of each item, round after round', async () => {
    // A run reads the hub's mapping (what earlier runs created) once it holds the lock. Read
    // before, while another run still imported, the mapping missed that run's items, and a run
    // that got the lock right after created them all again (1 round in 4 on an idle machine).
    for (let round = 0; round < 4; round++) {
      const hub = `round-${round}`;
      const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
      let repo = '';
      try {
        repo = (await repoWithType(await new Api(srv.url).login(), hub, URI)).repoId;
      } finally {
        await srv.stop();
      }
      const runs = await Promise.all(Array.from({ length: 4 }, () => home.run(['item', 'import', dir, '--hub', hub, '--concurrency', '2', '-o', 'json'], { timeout: 120_000 })));
      const items = await targetItems(repo);
      console.log(`[reliability] round ${round}: 4 imports at once, exits ${runs.map((r) => r.exitCode).join(',')}, ${items.length} items in the hub`);
      for (const r of runs) expect([0, 1], r.stderr).toContain(r.exitCode);
      expect(items.length).toBe(N);
    }
  }, 240_000);

  it('one run imports, the others are refused naming the holder; one copy of each item', async () => {
    const runs = await Promise.all(Array.from({ length: 4 }, () => home.run(['item', 'import', dir, '--hub', 'target', '--concurrency', '2', '-o', 'json'], { timeout: 120_000 })));
    const items = await targetItems();
    const labels = items.map((i) => i.label);
    console.log(`[reliability] 4 concurrent imports of ${N} items into one hub: exits ${runs.map((r) => r.exitCode).join(',')}, ${items.length} items in the hub`);
    expect(labels.length).toBe(N);
    expect(new Set(labels).size).toBe(N);
    const succeeded = runs.filter((r) => r.exitCode === 0);
    const refused = runs.filter((r) => r.exitCode !== 0);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    for (const r of refused) {
      expect(r.exitCode).toBe(1);
      expect(r.stderr).toMatch(/another run .* is writing to hub .* \(process \d+/i);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    // The lock is gone with its runs; a later import finds everything mapped.
    expect(readdirSync(join(home.env.CMS_DATA_DIR, 'locks')).filter((f) => f.endsWith('.lock'))).toEqual([]);
    const again = await home.json(['item', 'import', dir, '--hub', 'target']);
    expect(again).toMatchObject({ created: 0, unchanged: N, failed: 0 });
    expect((await targetItems()).length).toBe(N);
  }, 240_000);
});
