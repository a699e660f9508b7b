import { writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { Api, createHub, ok, startServer } from '../helpers/server.js';
import { createContentRepo, createContentType } from '../helpers/content.js';
import { serveSandbox } from '../helpers/serve.js';

// Friction a demanding user found (issue 26): flags that behave alike everywhere, content links
// without hand-written JSON, diffs of every field, an editor that lets you fix a mistake. Each
// runs the built binary on the embedded sandbox (or a served one where two processes race).

const HUB = 'friction';
const home = new CliHome();
let uri: string;

beforeAll(async () => {
  const srv = await startServer({ dataDir: home.env.CMS_DATA_DIR });
  try {
    const admin = await new Api(srv.url).login();
    const hubId = (await createHub(admin, HUB)).id;
    const type = await createContentType(admin, hubId);
    uri = type.uri;
    const repo = await createContentRepo(admin, hubId, type.id, ['en-GB', 'fr-FR']);
    await admin.patch(`/content-repositories/${repo.id}`, { name: 'content' });
  } finally {
    await srv.stop();
  }
});

afterAll(() => home.cleanup());

const cms = (args: string[], opts: { input?: string; env?: Record<string, string> } = {}) => home.run(args, { ...opts, env: { CMS_HUB: HUB, ...opts.env } });
const json = <T = any>(args: string[], opts: { input?: string; env?: Record<string, string> } = {}) => home.json<T>(args, { ...opts, env: { CMS_HUB: HUB, ...opts.env } });
const create = (label: string, ...extra: string[]) => json(['item', 'create', '--repo', 'content', '--label', label, '--schema', uri, '--set', 'body.title=Hello', ...extra]);

describe('required flags', () => {
  it('are marked in help and refused before any request (exit 2, naming the flag)', async () => {
    const help = await cms(['item', 'create', '--help']);
    expect(help.stdout).toMatch(/--repo <id\|name>\s+content repository \(id or name\) \(required\)/);
    expect((await cms(['snapshot', 'create', '--help'])).stdout).toMatch(/--root <item>[^\n]*\(required\)/);
    // A service that cannot answer: a request would fail with exit 1, the check comes first.
    const env = { CMS_API_URL: 'http://127.0.0.1:9', CMS_CLIENT_ID: 'x', CMS_CLIENT_SECRET: 'y' };
    for (const args of [['item', 'create', '--label', 'x'], ['snapshot', 'create', '--root', 'abc'], ['item', 'localize', 'abc'], ['edition', 'resolve', 'abc', '--item', 'x']]) {
      const res = await cms(args, { env });
      expect(res.exitCode, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toMatch(/Missing required option/);
      expect(res.stderr).not.toMatch(/127\.0\.0\.1|connect/i);
    }
  });
});

describe('consistent flags', () => {
  it('item restore takes --version like item get (--to still works)', async () => {
    const a = await create('Restore me');
    await json(['item', 'update', a.id, '--set', 'body.title=Changed']);
    const restored = await json(['item', 'restore', a.id, '--version', '1']);
    expect(restored).toMatchObject({ version: 3, body: { title: 'Hello' } });
    expect((await json(['item', 'restore', a.id, '--to', '2'])).body.title).toBe('Changed');
    expect((await cms(['item', 'restore', a.id, '--to', '1', '--version', '2'])).exitCode).toBe(2);
    expect((await cms(["item", "restore", "--help"])).stdout).not.toMatch(/^\s+--to/m);
  });

  it('accepts lower-case values where the service spells them upper case', async () => {
    const a = await create('Case');
    await cms(['item', 'archive', a.id]);
    const archived = await json(['item', 'list', '--repo', 'content', '--status', 'archived']);
    expect(archived.map((i: any) => i.id)).toContain(a.id);
    expect(archived.every((i: any) => i.status === 'ARCHIVED')).toBe(true);
    const script = await cms(['completion', 'BASH']);
    expect(script.exitCode).toBe(0);
    expect((await cms(['completion', 'tcsh'])).exitCode).toBe(2);
  });

  it('every verb with --wait has --timeout', async () => {
    const { readFileSync } = await import('node:fs');
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'dist', 'cli', 'manifest.json'), 'utf8'));
    const waiting = manifest.commands.filter((c: any) => (c.options ?? []).some((o: any) => /--(\[no-\])?wait\b/.test(o.flags)));
    expect(waiting.length).toBeGreaterThan(2);
    for (const c of waiting) expect((c.options ?? []).some((o: any) => o.flags.startsWith('--timeout ')), c.path.join(' ')).toBe(true);
  });

  it('cms type create suggests register; admin members takes hub for hubs', async () => {
    const res = await cms(['type', 'create', '--schema', 'x']);
    expect(res.exitCode).toBe(2);
    expect(res.stderr).toMatch(/cms type register/);
    const members = await cms(['admin', 'members', 'hub', HUB]);
    expect(members.exitCode, members.stderr).toBe(0);
  });
});

describe('content links', () => {
  it('--link field=<id> builds the link from the target item type, on create and update', async () => {
    const target = await create('Target');
    const other = await create('Other');
    const linking = await create('Linking', '--link', `links=${target.id},${other.id}`);
    const link = (id: string) => ({ _meta: { schema: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content-link' }, contentType: uri, id });
    expect(linking.body.links).toEqual([link(target.id), link(other.id)]);
    const updated = await json(['item', 'update', linking.id, '--link', `body.links[0]=${other.id}`]);
    expect(updated.body.links).toEqual([link(other.id), link(other.id)]);
    const missing = await cms(['item', 'update', linking.id, '--link', 'links=00000000-0000-0000-0000-000000000000']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/00000000-0000-0000-0000-000000000000/);
    expect((await cms(['item', 'update', linking.id, '--link', 'links'])).exitCode).toBe(2);
  });
});

describe('item diff', () => {
  it('shows label, folder, locale and other field changes, not only the body', async () => {
    const a = await create('Before');
    await json(['item', 'update', a.id, '--label', 'After', '--locale', 'fr-FR']);
    const changes = await json(['item', 'diff', a.id]);
    expect(changes).toEqual(expect.arrayContaining([
      { path: 'label', op: 'change', from: 'Before', to: 'After' },
      { path: 'locale', op: 'change', from: null, to: 'fr-FR' },
    ]));
    const text = await cms(['item', 'diff', a.id]);
    expect(text.stdout).toMatch(/-\s+"label": "Before"/);
    expect(text.stdout).toMatch(/\+\s+"label": "After"/);
  });
});

describe('item update --set without --version', () => {
  it('retries once on a version conflict by reading the item again', async () => {
    const dir = new CliHome();
    const served = await serveSandbox(dir.env);
    try {
      const api = await new Api(served.url).login();
      const hubId = (await createHub(api, 'race')).id;
      const type = await createContentType(api, hubId);
      const repo = await createContentRepo(api, hubId, type.id);
      const created = await ok(api.post(`/content-repositories/${repo.id}/content-items`, { label: 'race', body: { _meta: { schema: type.uri }, title: 't' } }));
      // Both updates read version 1, then their writes are held back so they land together.
      await ok(api.post('/__sandbox/faults', { spec: 'latency 1500ms 100% on PATCH /v2/content/content-items/*' }));
      expect((await dir.run(['login', '--profile', 'served', '--api-url', served.url, '--client-id', 'sandbox-admin', '--client-secret', 'sandbox-secret'])).exitCode).toBe(0);
      const [a, b] = await Promise.all([dir.run(['item', 'update', created.id, '--set', 'body.count=1']), dir.run(['item', 'update', created.id, '--set', 'body.title="second"'])]);
      expect([a.exitCode, b.exitCode], a.stderr + b.stderr).toEqual([0, 0]);
      const now = await ok(api.get(`/content-items/${created.id}`));
      expect(now).toMatchObject({ version: 3, body: { count: 1, title: 'second' } });
      // A pinned --version never retries: the conflict is the answer.
      const pinned = await dir.run(['item', 'update', created.id, '--version', '1', '--set', 'body.count=2']);
      expect(pinned.exitCode).toBe(1);
    } finally {
      await served.stop();
      dir.cleanup();
    }
  });
});

describe('cms item edit', () => {
  it('reopens the editor on invalid JSON and on a schema error, keeping the text', async () => {
    const a = await create('Edit me');
    // An editor script: the first time it writes broken JSON, the second a body the schema
    // refuses, the third a good one; it records what it was given each time.
    const log = join(home.dir, 'editor.log');
    const editor = join(home.dir, 'editor.sh');
    writeFileSync(editor, `#!/bin/sh
n=$(cat "${log}.n" 2>/dev/null || echo 0); n=$((n+1)); echo $n > "${log}.n"
cp "$1" "${log}.$n"
case $n in
  1) printf '{ "label": ' > "$1" ;;
  2) sed 's/"title": "Hello"/"title": 42/' "${log}.1" > "$1" ;;
  *) sed 's/"title": "Hello"/"title": "Edited"/' "${log}.1" > "$1" ;;
esac
`);
    chmodSync(editor, 0o755);
    const res = await cms(['item', 'edit', a.id], { env: { EDITOR: editor, CMS_FORCE_TTY: '100' } });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stderr).toMatch(/not valid JSON/i);
    expect(res.stderr).toMatch(/title/);
    const { readFileSync } = await import('node:fs');
    // The second opening shows the broken text with the error, not the original.
    expect(readFileSync(`${log}.2`, 'utf8')).toContain('{ "label": ');
    expect((await json(['item', 'get', a.id])).body.title).toBe('Edited');
  });
});

describe('cms profile use sandbox', () => {
  it('returns to the embedded sandbox from a saved profile', async () => {
    const other = new CliHome();
    try {
      const { mkdirSync } = await import('node:fs');
      mkdirSync(other.env.CMS_CONFIG_DIR, { recursive: true });
      writeFileSync(join(other.env.CMS_CONFIG_DIR, 'config.json'), JSON.stringify({ current: 'remote', profiles: { remote: { apiUrl: 'http://127.0.0.1:9', clientId: 'a', clientSecret: 'b' } } }), { mode: 0o600 });
      expect((await other.json(['profile', 'show'])).profile).toBe('remote');
      const res = await other.run(['profile', 'use', 'sandbox']);
      expect(res.exitCode, res.stderr).toBe(0);
      expect(await other.json(['profile', 'show'])).toMatchObject({ profile: null, mode: 'embedded sandbox' });
      // The saved profile stays, to go back to.
      expect((await other.json(['profile', 'list'])).map((p: any) => p.name)).toEqual(['remote']);
    } finally {
      other.cleanup();
    }
  });
});

describe('the console from the command line', () => {
  const local = new CliHome();
  let served: Awaited<ReturnType<typeof serveSandbox>>;
  let itemId: string;
  let editionId: string;
  beforeAll(async () => {
    served = await serveSandbox(local.env);
    const api = await new Api(served.url).login();
    const hubId = (await createHub(api, 'browse')).id;
    const type = await createContentType(api, hubId);
    const repo = await createContentRepo(api, hubId, type.id);
    itemId = (await ok(api.post(`/content-repositories/${repo.id}/content-items`, { label: 'b', body: { _meta: { schema: type.uri }, title: 't' } }))).id;
    const event = await ok(api.post(`/hubs/${hubId}/events`, { name: 'e', start: '2030-01-01T00:00:00.000Z', end: '2030-01-02T00:00:00.000Z' }));
    editionId = (await ok(api.post(`/events/${event.id}/editions`, { name: 'ed', start: '2030-01-01T00:00:00.000Z', end: '2030-01-02T00:00:00.000Z' }))).id;
  });
  afterAll(async () => {
    await served.stop();
    local.cleanup();
  });

  it('cms sandbox console finds a running serve on any port (the embedded sandbox, same data directory)', async () => {
    const res = await local.json(['sandbox', 'console']);
    expect(res.url).toBe(`${served.url}/__sandbox/console`);
  });

  it('cms browse <id> prints the console URL of that resource when it cannot open a browser', async () => {
    const res = await local.run(['browse', itemId]);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stdout.trim()).toBe(`${served.url}/__sandbox/console#/content/item/${itemId}`);
    expect((await local.json(['browse', editionId, '--no-browser'])).url).toBe(`${served.url}/__sandbox/console#/planning/edition/${editionId}`);
    const unknown = await local.run(['browse', '5f1a2b3c4d5e6f7a8b9c0d1e']);
    expect(unknown.exitCode).toBe(1);
    expect(unknown.stderr).toMatch(/5f1a2b3c4d5e6f7a8b9c0d1e/);
  });
});

describe('PowerShell completion', () => {
  it('cms completion powershell prints a Register-ArgumentCompleter script', async () => {
    const res = await cms(['completion', 'powershell']);
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/Register-ArgumentCompleter -Native -CommandName cms/);
    expect(res.stdout).toMatch(/__complete/);
  });
});

describe('watch mode (-w)', () => {
  it('item list -w prints the rows, then each new one as it appears; Ctrl-C ends it with 130', async () => {
    const { execa } = await import('execa');
    const { BIN } = await import('../helpers/cli.js');
    await create('Watched first');
    const child = execa(process.execPath, [BIN, 'item', 'list', '--repo', 'content', '-w', '--interval', '200ms', '--columns', 'label'], { env: { ...home.env, CMS_HUB: HUB }, reject: false });
    let out = '';
    const seen = (text: string) =>
      new Promise<void>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`never printed '${text}': ${out}`)), 20_000);
        const check = () => out.includes(text) && (clearTimeout(t), resolve());
        child.stdout!.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          check();
        });
        check();
      });
    await seen('Watched first');
    await create('Watched second');
    await seen('Watched second');
    child.kill('SIGINT');
    const res = await child;
    expect(res.exitCode).toBe(130);
    // Piped: rows without a header, each row printed once.
    expect(out).not.toMatch(/LABEL/);
    expect(out.split('\n').filter((l) => l === 'Watched first')).toHaveLength(1);
  });

  it('job get -w ends when the job reaches a final state; edition get -w ends at --timeout with 8', async () => {
    const a = await create('Publish me');
    const job = (await cms(['item', 'publish', a.id, '-q'])).stdout.trim();
    const watched = await cms(['job', 'get', job, '-w', '--interval', '100ms', '-o', 'json']);
    expect(watched.exitCode, watched.stderr).toBe(0);
    expect(watched.stdout).toMatch(/"state": "COMPLETED"/);
    const event = await json(['event', 'create', '--name', 'Watch', '--start', '+30d', '--end', '+32d']);
    const edition = await json(['edition', 'create', '--event', event.id, '--name', 'Watched', '--start', '+30d', '--end', '+31d']);
    const started = Date.now();
    const res = await cms(['edition', 'get', edition.id, '-w', '--interval', '200ms', '--timeout', '1s', '-o', 'json']);
    expect(res.exitCode).toBe(8);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(res.stdout.match(/"publishingStatus"/g)).toHaveLength(1);
  });
});

describe('cms runs', () => {
  it('shows hub and target columns, filters by --hub, and prunes old finished runs', async () => {
    const runsHome = new CliHome();
    try {
      const { mkdirSync, existsSync } = await import('node:fs');
      const day = 24 * 3600 * 1000;
      const run = (id: string, hubId: string, status: string, ageDays: number, profile: string | null = null) => {
        const dir = join(runsHome.env.CMS_DATA_DIR, 'runs', id);
        mkdirSync(dir, { recursive: true });
        const at = new Date(Date.now() - ageDays * day).toISOString();
        writeFileSync(join(dir, 'meta.json'), JSON.stringify({ id, command: 'item import', options: {}, target: { apiUrl: profile ? 'https://api.example.com' : 'http://sandbox.localhost', profile, hubId }, startedAt: at, finishedAt: status === 'interrupted' ? undefined : at, status: status === 'interrupted' ? 'running' : status, pid: 2 ** 22 + 4321, counts: { created: 1 } }));
        writeFileSync(join(dir, 'journal.ndjson'), '');
        return dir;
      };
      const HUB_A = 'aaaaaaaaaaaaaaaaaaaaaaaa';
      const HUB_B = 'bbbbbbbbbbbbbbbbbbbbbbbb';
      const old = run('20250101-120000-000001', HUB_A, 'completed', 60, 'prod');
      const oldInterrupted = run('20250101-120000-000002', HUB_A, 'interrupted', 60);
      const recent = run('20250101-120000-000003', HUB_B, 'completed', 1);
      const table = await runsHome.run(['runs'], { env: { CMS_FORCE_TTY: '200' } });
      expect(table.stdout).toMatch(/HUB\s+TARGET/);
      expect(table.stdout).toMatch(new RegExp(`000001.*${HUB_A}\\s+prod`));
      expect(table.stdout).toMatch(new RegExp(`000003.*${HUB_B}\\s+sandbox`));
      expect((await runsHome.json(['runs', '--hub', HUB_B])).map((r: any) => r.id)).toEqual(['20250101-120000-000003']);
      // Without --yes off a terminal: nothing removed.
      expect((await runsHome.run(['runs', 'prune', '--older-than', '30d'])).exitCode).toBe(2);
      expect(existsSync(old)).toBe(true);
      const pruned = await runsHome.json(['runs', 'prune', '--older-than', '30d', '--yes']);
      expect(pruned.map((r: any) => r.id)).toEqual(['20250101-120000-000001']);
      expect(existsSync(old)).toBe(false);
      // An interrupted run can still be resumed or undone: kept unless asked for.
      expect(existsSync(oldInterrupted)).toBe(true);
      expect(existsSync(recent)).toBe(true);
    } finally {
      runsHome.cleanup();
    }
  });
});

describe('cms edition list', () => {
  it('with no flags lists the upcoming editions of the hub', async () => {
    const event = await json(['event', 'create', '--name', 'Upcoming', '--start', '+40d', '--end', '+42d']);
    const edition = await json(['edition', 'create', '--event', event.id, '--name', 'Soon', '--start', '+40d', '--end', '+41d']);
    const listed = await json(['edition', 'list']);
    expect(listed.map((e: any) => e.id)).toContain(edition.id);
  });
});

describe('piped plans and summaries', () => {
  it('are TSV rows without headers; JSON and piped records name each field once', async () => {
    const dir = join(home.dir, 'model');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'schemas'), { recursive: true });
    const id = 'https://schemas.example.com/piped-plan.json';
    writeFileSync(join(dir, 'schemas', 'a.json'), JSON.stringify({ $schema: 'http://bigcontent.io/cms/schema/v1/schema#', id, title: 'A', type: 'object', allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }], properties: { title: { type: 'string' } } }));
    const plan = await cms(['schema', 'apply', dir, '--dry-run']);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout).toBe(`create\tschema\t${id} (schemas/a.json)\t\n`);
    const applied = await json(['schema', 'apply', dir]);
    expect(applied.created).toBe(1);
    expect(Object.keys(applied).filter((k) => / (create|update|archive)$/.test(k))).toEqual([]);
    const again = await cms(['schema', 'apply', dir]);
    expect(again.stdout).toBe(`unchanged\tschema\t${id} (schemas/a.json)\t\n`);

    const exported = join(home.dir, 'piped-export');
    await create('Exported');
    expect((await cms(['item', 'export', exported, '--repo', 'content'])).exitCode).toBe(0);
    const importPlan = await cms(['item', 'import', exported, '--dry-run']);
    expect(importPlan.exitCode, importPlan.stderr).toBe(0);
    const rows = importPlan.stdout.split('\n').filter(Boolean);
    expect(rows.length).toBeGreaterThan(0);
    expect(importPlan.stdout).not.toMatch(/ACTION|Dry run|WOULD/);
    // action, resource, source id, label, repository, folder, and an update's target id and label.
    for (const row of rows) expect(row.split('\t')).toHaveLength(8);
    const summary = await cms(['item', 'import', exported, '--repo', 'content']);
    expect(summary.exitCode, summary.stderr).toBe(0);
    expect(summary.stdout).not.toMatch(/RESULT|COUNT|Run /);
    expect(summary.stdout).toMatch(/^created\t\d+$/m);
  });

  it('item localize --wait prints each field of the job once when piped', async () => {
    const a = await create('Localize me', '--locale', 'en-GB');
    const res = await cms(['item', 'localize', a.id, '--locale', 'fr-FR', '--wait']);
    expect(res.exitCode, res.stderr).toBe(0);
    const names = res.stdout.trim().split('\n').map((l) => l.split('\t')[0]);
    expect(names.length).toBeGreaterThan(3);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('item import of items with delivery keys into a hub without the delivery module', () => {
  it('says so before starting; --drop-delivery-keys or --enable-delivery-module go ahead', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const keyed = await create('Keyed');
    const dir = join(home.dir, 'keyed-export');
    expect((await cms(['item', 'export', dir, '--repo', 'content'])).exitCode).toBe(0);
    const file = join(dir, 'items', 'content', `${keyed.id}.json`);
    expect(readdirSync(join(dir, 'items', 'content'))).toContain(`${keyed.id}.json`);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), deliveryKey: 'friction/keyed', label: 'Keyed again' }));

    const runsBefore = (await json(['runs'])).length;
    const refused = await cms(['item', 'import', dir]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toMatch(/1 item.*deliver(y)? key/i);
    expect(refused.stderr).toMatch(/--drop-delivery-keys/);
    expect(refused.stderr).toMatch(/--enable-delivery-module/);
    // Nothing was written.
    expect((await json(['item', 'get', keyed.id])).label).toBe('Keyed');
    expect(await json(['runs'])).toHaveLength(runsBefore);

    const dropped = await cms(['item', 'import', dir, '--drop-delivery-keys']);
    expect(dropped.exitCode, dropped.stderr).toBe(0);
    expect(await json(['item', 'get', keyed.id])).toMatchObject({ label: 'Keyed again', deliveryKey: null });

    const enabled = await cms(['item', 'import', dir, '--enable-delivery-module']);
    expect(enabled.exitCode, enabled.stderr).toBe(0);
    expect((await json(['item', 'get', keyed.id])).deliveryKey).toBe('friction/keyed');
    expect((await json(['admin', 'modules'])).find((m: any) => /DELIVERY_2/.test(m.name)).enabled).toBe(true);

    // item copy to another hub without the module: the same choice, before the first write.
    const { schemaDocument } = await import('../helpers/content.js');
    expect((await cms(['hub', 'create', '--name', 'keyless', '--label', 'Keyless'])).exitCode).toBe(0);
    expect((await cms(['repo', 'create', '--hub', 'keyless', '--name', 'content', '--label', 'Content'])).exitCode).toBe(0);
    const registered = await cms(['schema', 'create', '--hub', 'keyless', '--file', '-', '--register', '--label', 'T', '--repo', 'content'], { input: JSON.stringify(schemaDocument(uri)) });
    expect(registered.exitCode, registered.stderr).toBe(0);
    const copyRefused = await cms(['item', 'copy', keyed.id, '--to-hub', 'keyless', '--to-repo', 'content']);
    expect(copyRefused.exitCode).toBe(2);
    expect(copyRefused.stderr).toMatch(/--drop-delivery-keys/);
    const copied = await json(['item', 'copy', keyed.id, '--to-hub', 'keyless', '--to-repo', 'content', '--drop-delivery-keys']);
    expect(copied.created).toBe(1);
  });
});

describe('workflow states in tables', () => {
  it('are shown by their label, not their id', async () => {
    const state = await json(['workflow', 'create', '--label', 'In review', '--color', '#336699']);
    const a = await create('Reviewed');
    const res = await cms(['workflow', 'assign', a.id, 'In review'], { env: { CMS_FORCE_TTY: '200' } });
    expect(res.exitCode, res.stderr).toBe(0);
    expect(res.stdout).toMatch(/WORKFLOW STATE\s+In review/);
    expect(res.stdout).not.toMatch(new RegExp(`WORKFLOW STATE\\s+${state.id}`));
    // JSON keeps the service's shape.
    expect((await json(['item', 'get', a.id])).workflow).toEqual({ state: state.id });
  });

  it('item get and item list show the state by label too (piped: a last column), reading each state once', async () => {
    const review = await json(['workflow', 'create', '--label', 'Legal review', '--color', '#663399']);
    const done = await json(['workflow', 'create', '--label', 'Signed off', '--color', '#00aa00']);
    const first = await create('Workflow first');
    const second = await create('Workflow second');
    const third = await create('Workflow none');
    expect((await cms(['workflow', 'assign', first.id, review.id])).exitCode).toBe(0);
    expect((await cms(['workflow', 'assign', second.id, done.id])).exitCode).toBe(0);
    const fourth = await create('Workflow fourth');
    expect((await cms(['workflow', 'assign', fourth.id, review.id])).exitCode).toBe(0);
    const got = await cms(['item', 'get', first.id], { env: { CMS_FORCE_TTY: '200' } });
    expect(got.exitCode, got.stderr).toBe(0);
    expect(got.stdout, got.stdout).toMatch(/WORKFLOW\s+Legal review/);
    const listed = await cms(['item', 'list', '--repo', 'content', '--all', '--debug']);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const rows = new Map(listed.stdout.replace(/\n$/, '').split('\n').map((l) => l.split('\t')).map((r) => [r[0], r]));
    expect(rows.get(first.id)!.at(-1)).toBe('Legal review');
    expect(rows.get(second.id)!.at(-1)).toBe('Signed off');
    expect(rows.get(third.id)!.at(-1)).toBe('');
    expect(rows.get(fourth.id)!.at(-1)).toBe('Legal review');
    // One read per state shown, however many items share it (the earlier test assigned one more).
    const shown = new Set([...rows.values()].map((r) => r.at(-1)).filter(Boolean));
    expect(shown.size, [...shown].join(', ')).toBeGreaterThanOrEqual(2);
    expect(listed.stderr.match(/GET \S*\/workflow-states\//g), [...shown].join(', ')).toHaveLength(shown.size);
    // JSON output reads no state at all.
    const asJson = await cms(['item', 'list', '--repo', 'content', '--all', '-o', 'json', '--debug']);
    expect(asJson.stderr).not.toMatch(/workflow-states/);
  });
});
