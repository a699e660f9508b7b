import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaultInjector, parseFaults } from '../../src/server/core/faults.js';
import { glob as compileGlob } from '../../src/server/core/glob.js';
import { Api, startServer, unique, type TestServer } from '../helpers/server.js';
import { contentSetup } from '../helpers/content.js';
import { createIndex, enableSearchModule, publishItem, queryPath, type SearchSetup } from '../helpers/search-indexes.js';

// Issue 24, the new classes for the attack suites:
// - matching cost: fault path globs are matched without backtracking. Random globs of `*`, `**`,
//   letters and `/` against long paths stay within a time bound, and agree with the reference
//   (a regular expression, run only where its backtracking is cheap: short paths);
// - cross-hub receivers: every spelling of a sandbox receiver naming another hub's resource is
//   refused when a webhook is created or changed, and nothing reaches hub B's index.

const SEED = Number(process.env.COST_SEED ?? 20261126);

describe('fault globs: linear matching (24.8)', () => {
  // The one glob matcher (src/server/core/glob.ts), as fault rules read globs: `*` and `**`, `?` itself.
  const globMatches = (glob: string, path: string) => compileGlob(glob, { questionMark: false }).matches(path);
  const reference = (glob: string, path: string) =>
    new RegExp(`^${glob.replace(/[.+^${}()|[\]\\?]/g, '\\$&').replace(/\*\*+/g, '\u0000').replace(/\*/g, '[^/]*').replace(/\u0000/g, '.*')}$`).test(path);
  const globArb = fc.array(fc.constantFrom('*', '**', 'a', 'b', '/', '.', '?', '(', 'a*'), { minLength: 1, maxLength: 24 }).map((p) => p.join(''));
  const pathArb = fc.array(fc.constantFrom('a', 'b', '/', '.', '?'), { maxLength: 14 }).map((p) => p.join(''));

  it('agrees with the regular-expression reference on short paths', () => {
    fc.assert(
      fc.property(globArb, pathArb, (glob, path) => {
        expect(globMatches(glob, path), `${glob} vs ${path}`).toBe(reference(glob, path));
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });

  it('decides any glob of up to 512 characters against a 4,000-character path in under 50 ms', () => {
    let worst = 0;
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('*', '**', 'a', 'a', 'b', '/'), { minLength: 1, maxLength: 200 }).map((p) => p.join('').slice(0, 512)),
        fc.constantFrom('a', 'ab', 'a/', 'aab'),
        (glob, unit) => {
          const path = unit.repeat(Math.ceil(4000 / unit.length)).slice(0, 4000);
          const started = performance.now();
          globMatches(glob, path);
          worst = Math.max(worst, performance.now() - started);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
    console.log(`[reliability] fault globs: worst of 200 random globs against 4,000 characters: ${worst.toFixed(1)} ms`);
    expect(worst).toBeLessThan(50);
  });

  it("the issue's glob through the injector: 200 requests of a 100-character path", () => {
    const f = new FaultInjector();
    f.configure(parseFaults('503 100% on /v2/content/**a**a**a**a**a**a**b'), 1);
    const started = performance.now();
    for (let i = 0; i < 200; i++) f.decide('GET', `/v2/content/${'a'.repeat(100)}`);
    const ms = performance.now() - started;
    console.log(`[reliability] fault globs: 200 requests with the issue's glob in ${ms.toFixed(1)} ms (49 s per request before)`);
    expect(ms).toBeLessThan(500);
  });
});

describe('cross-hub sandbox receivers (24.6)', () => {
  let srv: TestServer;
  let admin: Api;
  let A: SearchSetup;
  let B: SearchSetup;
  let restricted: Api;

  const searchHub = async (): Promise<SearchSetup> => {
    const setup = await contentSetup(admin);
    await enableSearchModule(admin, setup.hubId);
    const index = await createIndex(admin, setup.hubId, { assignedContentTypes: [{ contentTypeUri: setup.uri }] });
    return { ...setup, hubName: '', index };
  };

  beforeAll(async () => {
    srv = await startServer();
    admin = await new Api(srv.url).login();
    A = await searchHub();
    B = await searchHub();
    restricted = await admin.client(unique('hub-a'), ['WEBHOOK:READ', 'WEBHOOK:CREATE', 'WEBHOOK:EDIT', 'CONTENT_ITEM:READ', 'CONTENT_ITEM:CREATE', 'CONTENT_ITEM:PUBLISH'].map((p) => `CONTENT:FUNCTIONAL:${p}`), [
      { resource: 'hubs', id: A.hubId, permissions: ['READ', 'EDIT'] },
      { resource: 'content-repositories', id: A.repoId, permissions: ['READ', 'EDIT', 'CREATE_CONTENT'] },
    ]);
  });
  afterAll(async () => srv?.stop());

  it('every spelling of a receiver of hub B is refused on create and on PATCH; B gets no record', async () => {
    const b = B.index.id;
    const a = A.index.id;
    const spellings = [
      `sandbox://search-index/${b}`,
      `sandbox://search-index//${b}`,
      `sandbox://search-index/${b}/`,
      `sandbox://search-index/${a}/../${b}`,
      `sandbox://search-index/./${b}`,
      `sandbox://search-index/%2e%2e/${b}`,
      `sandbox://search-index/${b}?hub=${A.hubId}`,
      `sandbox://search-index/${b}#${a}`,
      `sandbox://search-index:80/${b}`,
      `sandbox://user@search-index/${b}`,
      `sandbox://SEARCH-INDEX/${b}`,
      `sandbox://search-index/${b.toUpperCase()}`,
      `sandbox://search-index/${encodeURIComponent(b)}`,
      `sandbox://search-index/${b}%00`,
      `sandbox://__proto__/${b}`,
      `sandbox://constructor/${b}`,
      `sandbox:search-index/${b}`,
      `SANDBOX://search-index/${b}`,
    ];
    const hook = await restricted.post(`/hubs/${A.hubId}/webhooks`, { label: unique('ok'), events: ['content-item.published'], handlers: [`sandbox://search-index/${a}`] });
    expect(hook.status, hook.text).toBe(201);
    let refused = 0;
    for (const handler of spellings) {
      const created = await restricted.post(`/hubs/${A.hubId}/webhooks`, { label: unique('x'), events: ['content-item.published'], handlers: [handler] });
      const patched = await restricted.patch(`/hubs/${A.hubId}/webhooks/${hook.body.id}`, { handlers: [`sandbox://search-index/${a}`, handler] });
      expect([created.status, patched.status], handler).toEqual([400, 400]);
      refused += 2;
    }
    console.log(`[reliability] cross-hub receivers: ${refused} creates and PATCHes with ${spellings.length} spellings refused`);
    await publishItem(restricted, A, { title: 'planted everywhere' });
    await new Promise((r) => setTimeout(r, 300));
    const hits = (await admin.post(queryPath(b), { query: '' })).body;
    expect(JSON.stringify(hits)).not.toContain('planted everywhere');
  });
});
