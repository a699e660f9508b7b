import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CliHome } from '../helpers/cli.js';
import { contentSetup, createItem, type ContentSetup } from '../helpers/content.js';
import { runInPty } from '../helpers/pty.js';
import { Api, ok, startServer, type TestServer } from '../helpers/server.js';

// What a demanding user's trial of the CLI broke (issue 13): Ctrl-C, the scheduling checklist,
// item graph of an unknown id, slot content properties, and the friction points. Every test runs
// the built binary; prompts run in a pseudo-terminal.

const home = new CliHome();
let srv: TestServer;
let api: Api;
let env: Record<string, string>;
let content: ContentSetup;
let hubName: string;

beforeAll(async () => {
  srv = await startServer();
  api = await new Api(srv.url).login();
  content = await contentSetup(api);
  hubName = (await ok(api.get(`/hubs/${content.hubId}`))).name;
  const login = await home.run(['login', '--profile', 's', '--api-url', srv.url, '--client-id', 'sandbox-admin', '--client-secret', 'sandbox-secret', '--hub', hubName]);
  expect(login.exitCode, login.stderr).toBe(0);
  env = { ...home.env, CMS_PROFILE: 's' };
}, 60_000);

afterAll(async () => {
  await srv?.stop();
  home.cleanup();
});

const cms = (args: string[], opts: { input?: string; env?: Record<string, string> } = {}) => home.run(args, { ...opts, env: { CMS_PROFILE: 's', ...opts.env } });

describe('Ctrl-C', () => {
  it('stops hub clone while it copies items: exit 130, what was done journaled, resumable', async () => {
    for (let i = 0; i < 40; i++) await createItem(api, content.repoId, content.uri);
    // Slow every write so the interrupt lands while items are being copied.
    await ok(api.post('/__sandbox/faults', { spec: 'latency 250ms 100% on POST' }));
    const runsDir = join(home.env.CMS_DATA_DIR, 'runs');
    const known = new Set(safeList(runsDir));
    const child = execa(process.execPath, [BIN, 'hub', 'clone', '--from', `s:${hubName}`, '--to', 's:ctrl-c-copy', '--concurrency', '1', '-o', 'json'], { env: { ...home.env }, reject: false });
    const itemCreates = () => {
      const runId = safeList(runsDir).find((id) => !known.has(id));
      if (!runId) return { runId, count: 0 };
      try {
        const lines = readFileSync(join(runsDir, runId, 'journal.ndjson'), 'utf8').split('\n').filter(Boolean);
        return { runId, count: lines.filter((l) => l.includes('"resource":"item"') && l.includes('"action":"create"')).length };
      } catch {
        return { runId, count: 0 };
      }
    };
    for (let waited = 0; itemCreates().count < 3; waited += 20) {
      if (waited > 60_000) throw new Error('the clone never copied 3 items');
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill('SIGINT');
    const res = await child;
    await ok(api.del('/__sandbox/faults'));
    const { runId, count } = itemCreates();
    expect(res.exitCode, String(res.stderr)).toBe(130);
    expect(String(res.stderr)).not.toContain('unexpected failure');
    expect(String(res.stderr)).toContain(`continue it with: cms hub clone --resume ${runId}`);
    // It stopped: at most the requests in flight finished after the interrupt.
    expect(count).toBeLessThan(10);
    const resumed = await home.run(['hub', 'clone', '--resume', runId!, '-o', 'json'], { timeout: 120_000 });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ runId, failed: 0 });
  }, 180_000);

  it('Ctrl-C at a prompt exits 130 without an error message', async () => {
    const res = await runInPty(['hub', 'delete', content.hubId], env, [['\\?', '\x03']]);
    expect(res.failed, res.transcript).toBeNull();
    expect(res.exitCode, res.transcript).toBe(130);
    expect(res.transcript).not.toContain('error');
    expect(res.transcript).not.toContain('force closed');
  });
});

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
