import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Api, ok, startServer, type TestServer } from '../helpers/server.js';
import { itemBody, repoWithType, SCHEMA_HOST } from '../helpers/content.js';
import { listRuns } from '../../src/ops/runs/journal.js';
import { random } from '../../src/server/core/faults.js';

// kill -9 of `cms item import`, its --resume and `cms undo`, at random writes (seeded): creates,
// updates, archives, unarchives and undo's restores, each killed just before the write is sent
// or just after the service applied it (CMS_TEST_KILL_AT, src/core/kill-switch.ts). After every
// chain of killed attempts, the clean resume must leave the repository exactly as the import
// directory says, and the clean undo exactly as it was before the run. Two lanes run side by
// side, each on hubs of its own (lane l: seed + l). Seed: CRASH_SEED; rounds per lane: CRASH_ROUNDS.

const SEED = Number(process.env.CRASH_SEED ?? 20250611);
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 45);
const LANES = 2;
const URI = `${SCHEMA_HOST}/crash-article.json`;
const N = 6;

/** mulberry32, the sandbox's own seeded generator (its fault rules use it). */
const rng = random;

interface Want {
  title: string;
  status: string;
}

describe('kill -9 of import, resume and undo at random writes', () => {
  const home = new CliHome();
  const dirA = join(home.dir, 'export-a');
  const dirB = join(home.dir, 'export-b');
  const stateA = new Map<string, Want>();
  const stateB = new Map<string, Want>();
  let srv: TestServer;
  let api: Api;
  /** Per lane: the repository that goes A -> B -> A, and the hub creating rounds make repositories in. */
  const lanes: { chainRepo: string; freshHub: string; typeId: string }[] = [];

  beforeAll(async () => {
    srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
    api = await new Api(srv.url).login();
    const { repoId: sourceRepo } = await repoWithType(api, 'source', URI);
    // Two versions of the source: A, then B with every title changed and statuses flipped.
    const items: any[] = [];
    for (let i = 0; i < N; i++) items.push(await ok(api.post(`/content-repositories/${sourceRepo}/content-items`, { label: `item-${i}`, body: itemBody(URI, { title: `A${i}`, code: `c${i}` }) })));
    for (const [i, it] of items.entries()) if (i % 3 !== 0) items[i] = await ok(api.post(`/content-items/${it.id}/archive`, { version: it.version })).catch(() => it);
    for (const [i, it] of items.entries()) stateA.set(`c${i}`, { title: `A${i}`, status: i % 3 !== 0 ? 'ARCHIVED' : 'ACTIVE' });
    await srv.stop();
    expect((await home.json(['item', 'export', dirA, '--hub', 'source', '--status', 'ACTIVE,ARCHIVED'])).items).toBe(N);
    srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
    api = await new Api(srv.url).login();
    for (const [i, it0] of items.entries()) {
      let it = await ok(api.get(`/content-items/${it0.id}`));
      const archived = i % 3 !== 0;
      const wantArchived = i % 2 === 0;
      if (archived) it = await ok(api.post(`/content-items/${it.id}/unarchive`, { version: it.version }));
      it = await ok(api.patch(`/content-items/${it.id}`, { label: `item-${i}`, body: itemBody(URI, { title: `B${i}`, code: `c${i}` }), version: it.version }));
      if (wantArchived) it = await ok(api.post(`/content-items/${it.id}/archive`, { version: it.version }));
      stateB.set(`c${i}`, { title: `B${i}`, status: wantArchived ? 'ARCHIVED' : 'ACTIVE' });
    }
    for (let l = 0; l < LANES; l++) {
      const chainRepo = (await repoWithType(api, `target-${l}`, URI)).repoId;
      // Creating rounds write to new repositories of their own hub (the id mapping is per hub).
      const fresh = await repoWithType(api, `fresh-${l}`, URI);
      const typeId = (await ok(api.get(`/content-repositories/${fresh.repoId}`))).contentTypes[0].hubContentTypeId;
      lanes.push({ chainRepo, freshHub: fresh.hubId, typeId });
    }
    await srv.stop();
    expect((await home.json(['item', 'export', dirB, '--hub', 'source', '--status', 'ACTIVE,ARCHIVED'])).items).toBe(N);
    // The chain repositories start as A.
    for (const [l, lane] of lanes.entries()) expect(await home.json(['item', 'import', dirA, '--hub', `target-${l}`, '--repo', lane.chainRepo])).toMatchObject({ created: N, failed: 0 });
    srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
    api = await new Api(srv.url).login();
  }, 180_000);

  afterAll(async () => {
    await srv?.stop();
    // CRASH_KEEP=1 keeps the data directory (journals) to look into a failure.
    if (process.env.CRASH_KEEP) console.log(`[reliability] run-crash data kept in ${home.dir}`);
    else home.cleanup();
  });

  it('every resume ends as the import directory says, every undo as before the run: zero differences', async () => {
    const kills = new Map<string, number>();
    const differences: string[] = [];
    let processes = 0;
    let totalKills = 0;
    console.log(`[reliability] run-crash seed ${SEED} (CRASH_SEED), ${LANES} lanes of ${ROUNDS} rounds`);
    const seen = new Set(listRuns(home.env.CMS_DATA_DIR!).map((r) => r.id));

    /** Runs the CLI, killed at the nth write of a kind; true when it was killed. */
    const attempt = async (args: string[], kind: string, n: number, phase: string, where: string): Promise<boolean> => {
      processes++;
      const res = await home.run(args, { env: { CMS_TEST_KILL_AT: `${kind}:${n}:${phase}` }, timeout: 60_000 });
      if (res.exitCode === -1) {
        totalKills++;
        kills.set(`${where} ${kind} ${phase}`, (kills.get(`${where} ${kind} ${phase}`) ?? 0) + 1);
        return true;
      }
      if (res.exitCode !== 0) differences.push(`${where}: ${args.join(' ')} exited ${res.exitCode}: ${res.stderr.slice(0, 400)} ${res.stdout.slice(0, 600)}`);
      return false;
    };
    const clean = async (args: string[], where: string) => {
      processes++;
      const res = await home.run(args, { timeout: 60_000 });
      if (res.exitCode !== 0) differences.push(`${where}: ${args.join(' ')} exited ${res.exitCode}: ${res.stderr.slice(0, 400)} ${res.stdout.slice(0, 600)}`);
    };

    const check = async (repoId: string, want: Map<string, Want> | 'retired', where: string) => {
      const body = await ok(api.get(`/content-repositories/${repoId}/content-items?size=500&status=ACTIVE,ARCHIVED`));
      const items = (body._embedded?.['content-items'] ?? []) as any[];
      const byCode = new Map<string, any[]>();
      for (const it of items) byCode.set(it.body.code, [...(byCode.get(it.body.code) ?? []), it]);
      if (want === 'retired') {
        for (const it of items) if (it.status !== 'ARCHIVED') differences.push(`${where}: ${it.body.code} ${it.body.title} is ${it.status}, the undo should have archived it`);
        return;
      }
      for (const [code, w] of want) {
        const found = byCode.get(code) ?? [];
        if (found.length !== 1) differences.push(`${where}: ${found.length} items for ${code}`);
        for (const it of found) {
          if (it.body.title !== w.title) differences.push(`${where}: ${code} has title ${it.body.title}, want ${w.title}`);
          if (it.status !== w.status) differences.push(`${where}: ${code} is ${it.status}, want ${w.status}`);
        }
      }
    };

    const importKinds = (creating: boolean) => (creating ? ['create', 'create', 'archive'] : ['update', 'update', 'archive', 'unarchive']);
    const undoKinds = ['restore', 'archive', 'archive', 'unarchive'];

    const runLane = async (l: number) => {
      const { chainRepo, freshHub, typeId } = lanes[l]!;
      const random = rng(SEED + l);
      const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
      const phase = () => (random() < 0.5 ? 'before' : 'after');
      for (let round = 0; round < ROUNDS; round++) {
        const creating = random() < 0.35;
        let repoId = chainRepo;
        if (creating) {
          const repo = await ok(api.post(`/hubs/${freshHub}/content-repositories`, { name: `fresh-${round}`, label: `Fresh ${round}` }));
          await ok(api.post(`/content-repositories/${repo.id}/content-types`, { contentTypeId: typeId }));
          repoId = repo.id;
        }
        const [dir, after, beforeRun] = creating ? [dirA, stateA, 'retired' as const] : [dirB, stateB, stateA];
        const where = `lane ${l} round ${round} (${creating ? 'create' : 'update'})`;
        const importKind = pick(importKinds(creating));
        const killed = await attempt(['item', 'import', dir, '--hub', creating ? `fresh-${l}` : `target-${l}`, '--repo', repoId, '--concurrency', String(1 + Math.floor(random() * 3)), '-o', 'json'], importKind, 1 + Math.floor(random() * 3), phase(), 'import');
        const runs = listRuns(home.env.CMS_DATA_DIR!).filter((r) => r.command === 'item import' && r.options.repoId === repoId && !seen.has(r.id));
        if (runs.length !== 1) {
          differences.push(`${where}: ${runs.length} journals for the import`);
          continue;
        }
        const runId = runs[0]!.id;
        seen.add(runId);
        if (killed && random() < 0.5) {
          // Resume, killed up to twice, then to the end: the repository is as the directory says.
          for (let k = Math.floor(random() * 3); k > 0; k--) if (!(await attempt(['item', 'import', '--resume', runId, '-o', 'json'], pick(importKinds(creating)), 1 + Math.floor(random() * 2), phase(), 'resume'))) break;
          await clean(['item', 'import', '--resume', runId, '-o', 'json'], `${where} resume`);
          await check(repoId, after, `${where} after resume`);
        } else if (!killed) {
          await check(repoId, after, `${where} after the import`);
        }
        // Undo, killed up to twice, then to the end: the repository is as before the run.
        for (let k = Math.floor(random() * 3); k > 0; k--) if (!(await attempt(['undo', runId, '--yes', '-o', 'json'], pick(undoKinds), 1 + Math.floor(random() * 3), phase(), 'undo'))) break;
        await clean(['undo', runId, '--yes', '-o', 'json'], `${where} undo`);
        await check(repoId, beforeRun, `${where} after undo`);
        if (differences.length > 20) break;
      }
    };
    await Promise.all(lanes.map((_, l) => runLane(l)));

    const perKind = [...kills].sort().map(([k, n]) => `${k} ${n}`).join(', ');
    console.log(`[reliability] run-crash seed ${SEED}: ${totalKills} kills in ${processes} processes over ${LANES} x ${ROUNDS} rounds (${perKind}); ${differences.length} differences`);
    expect(differences, `seed ${SEED}`).toEqual([]);
    expect(totalKills).toBeGreaterThan(LANES * ROUNDS * 0.5);
  }, 900_000);
  it('a move killed around each of its writes is undone whole: sources active again, copies archived', async () => {
    const { freshHub, typeId } = lanes[0]!;
    const differences: string[] = [];
    let killsMade = 0;
    const seen = new Set(listRuns(home.env.CMS_DATA_DIR!).map((r) => r.id));
    const newRepo = async (name: string) => {
      const repo = await ok(api.post(`/hubs/${freshHub}/content-repositories`, { name, label: name }));
      await ok(api.post(`/content-repositories/${repo.id}/content-types`, { contentTypeId: typeId }));
      return repo.id as string;
    };
    for (const kind of ['create', 'archive']) {
      for (const phase of ['before', 'after']) {
        for (const n of [1, 3]) {
          const where = `move ${kind}:${n}:${phase}`;
          const from = await newRepo(`from-${kind}-${phase}-${n}`);
          const to = await newRepo(`to-${kind}-${phase}-${n}`);
          const ids: string[] = [];
          for (let i = 0; i < 3; i++) ids.push((await ok(api.post(`/content-repositories/${from}/content-items`, { label: `m${i}`, body: itemBody(URI, { title: `M${i}`, code: `m${i}` }) }))).id);
          const res = await home.run(['item', 'move', ...ids, '--hub', `fresh-0`, '--to-repo', to, '--concurrency', '1', '-o', 'json'], { env: { CMS_TEST_KILL_AT: `${kind}:${n}:${phase}` } });
          if (res.exitCode === -1) killsMade++;
          const run = listRuns(home.env.CMS_DATA_DIR!).find((r) => r.command === 'item move' && !seen.has(r.id))!;
          seen.add(run.id);
          const undo = await home.run(['undo', run.id, '--yes', '-o', 'json']);
          if (undo.exitCode !== 0) differences.push(`${where}: undo exited ${undo.exitCode}: ${undo.stderr} ${undo.stdout.slice(0, 400)}`);
          for (const id of ids) {
            const item = await ok(api.get(`/content-items/${id}`));
            if (item.status !== 'ACTIVE') differences.push(`${where}: source ${item.label} is ${item.status}`);
          }
          const copies = (await ok(api.get(`/content-repositories/${to}/content-items?size=50&status=ACTIVE`)))._embedded?.['content-items'] ?? [];
          for (const c of copies) differences.push(`${where}: copy ${c.label} is still ACTIVE`);
        }
      }
    }
    console.log(`[reliability] run-crash move: ${killsMade} kills of 8 moves, each undone; ${differences.length} differences`);
    expect(differences).toEqual([]);
    expect(killsMade).toBeGreaterThan(4);
  }, 300_000);
});
