import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CliHome } from '../helpers/cli.js';
import { newerSnapshot, olderSnapshot, truncatedSnapshot } from '../helpers/snapshots.js';

// `cms-cli/sandbox` as a user gets it (issue 25 point 1): the packed package (npm pack) unpacked
// into a scratch project's node_modules, its dependencies linked from this install (hermetic: no
// registry). The examples of docs/testing-with-the-sandbox.md (`// file: <path>` blocks) are
// written into the project and run: the vitest one with vitest, the jest one with jest (the command
// the doc shows, with --detectOpenHandles), the TypeScript one through tsc.

const ROOT = join(import.meta.dirname, '..', '..');
const DOC = join(ROOT, 'docs', 'testing-with-the-sandbox.md');
let scratch: string;
let home: CliHome;

/** The one-line ```sh command of the doc's section under `### <heading>`. */
export function docCommand(text: string, heading: string): string {
  const section = text.split(/^(?=##)/m).find((s) => s.startsWith(`### ${heading}\n`)) ?? '';
  const blocks = [...section.matchAll(/```sh\n([^\n]+)\n```/g)].map((m) => m[1]!);
  expect(blocks, `one sh command under ### ${heading}`).toHaveLength(1);
  return blocks[0]!;
}

/** The doc's code blocks whose first line is `// file: <path>`. */
export function docFiles(text: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const m of text.matchAll(/```\w*\n\/\/ file: (\S+)\n([\s\S]*?)```/g)) files[m[1]!] = m[2]!;
  return files;
}

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'cms-fixture-pkg-'));
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: ROOT, env: { npm_config_loglevel: 'error' } });
  const tarball = join(scratch, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
  const pkgDir = join(scratch, 'node_modules', 'cms-cli');
  mkdirSync(pkgDir, { recursive: true });
  await execa('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1']);
  // Its dependencies (and the project's: the SDK, vitest, typescript) from this install.
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  for (const dep of [...Object.keys(pkg.dependencies), 'dc-management-sdk-js', 'vitest', 'typescript', '@types/node', 'jest', '@jest/globals']) {
    const to = join(scratch, 'node_modules', dep);
    mkdirSync(dirname(to), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dep), to);
  }
  // What npm install puts there for the doc's `npx jest` to find (npx then needs no registry).
  mkdirSync(join(scratch, 'node_modules', '.bin'));
  symlinkSync(join('..', 'jest', 'bin', 'jest.js'), join(scratch, 'node_modules', '.bin', 'jest'));
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  for (const [path, body] of Object.entries(docFiles(readFileSync(DOC, 'utf8')))) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), body);
  }
  // The doc's base state, made as the doc says: cms demo, then a snapshot.
  home = new CliHome();
  expect((await home.run(['demo'])).exitCode).toBe(0);
  const saved = await home.run(['sandbox', 'snapshot', 'save', join(scratch, 'test', 'base.snapshot')]);
  expect(saved.exitCode, saved.stderr).toBe(0);
  // The same hub as an export directory (cms item export): a seed too.
  const exported = await home.run(['item', 'export', join(scratch, 'test', 'base-export'), '--hub', 'demo']);
  expect(exported.exitCode, exported.stderr).toBe(0);
}, 180_000);

afterAll(() => {
  home?.cleanup();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const node = (args: string[], opts: { timeout?: number; env?: Record<string, string> } = {}) =>
  execa(process.execPath, args, { cwd: scratch, reject: false, timeout: opts.timeout ?? 120_000, env: { ...opts.env, NODE_OPTIONS: '' } });

describe('cms-cli/sandbox from the packed package', () => {
  it('the package holds the API and its types, and nothing of the tests', () => {
    const files = readdirSync(join(scratch, 'node_modules', 'cms-cli', 'dist', 'fixture'));
    expect(files).toEqual(expect.arrayContaining(['index.js', 'api.d.ts']));
  });

  it("runs the doc's vitest example: one sandbox per worker, a snapshot restored before each test, the vendor's SDK", async () => {
    const res = await node([join(scratch, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'vitest.config.mjs', '--maxWorkers=1'], { env: { NO_COLOR: '1' } });
    expect(res.exitCode, `${res.stdout}\n${res.stderr}`).toBe(0);
    expect(String(res.stdout)).toMatch(/Tests\s+3 passed/);
  });

  it("runs the doc's jest example under jest, with the doc's command: it passes and leaves no handle open", async () => {
    const command = docCommand(readFileSync(DOC, 'utf8'), 'jest');
    expect(command).toMatch(/\bnpx jest$/);
    // --detectOpenHandles: jest lists any handle a test left open (a server, a socket, a timer).
    const res = await execa('sh', ['-c', `${command} --detectOpenHandles`], {
      cwd: scratch,
      reject: false,
      // A sandbox left open keeps jest from ever exiting: killed at the timeout, the run fails.
      timeout: 60_000,
      env: { NO_COLOR: '1', CI: 'true', npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
    });
    const out = `${res.stdout}\n${res.stderr}`;
    expect(res.exitCode, out).toBe(0);
    expect(String(res.stderr)).toMatch(/Tests:\s+3 passed, 3 total/);
    expect(out).not.toMatch(/open handle|did not exit|Jest has detected|A worker process has failed to exit/i);
  }, 120_000);

  it("type-checks the doc's TypeScript example against the package's types", async () => {
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM', 'ESNext.Disposable'], strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files: ['types-check.mts'] }),
    );
    const res = await node([join(scratch, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json']);
    expect(res.exitCode, String(res.stdout)).toBe(0);
    // A mistake is caught: the types are really read.
    writeFileSync(join(scratch, 'wrong.mts'), "import { startSandbox } from 'cms-cli/sandbox';\nawait startSandbox({ port: 'eighty' });\n");
    const wrong = await node([join(scratch, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--strict', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--target', 'ES2022', '--skipLibCheck', 'wrong.mts']);
    expect(wrong.exitCode).not.toBe(0);
    expect(String(wrong.stdout)).toMatch(/wrong.mts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
  }, 180_000);

  it('importing it and starting a sandbox loads none of the CLI', async () => {
    const log = join(scratch, 'loaded.txt');
    writeFileSync(
      join(scratch, 'record-hooks.mjs'),
      `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) { const r = await next(specifier, context); appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }\n`,
    );
    writeFileSync(join(scratch, 'record.mjs'), "import { register } from 'node:module';\nregister('./record-hooks.mjs', import.meta.url);\n");
    writeFileSync(
      join(scratch, 'load.mjs'),
      "import { createRequire } from 'node:module';\nconst { startSandbox } = await import('cms-cli/sandbox');\nconst sb = await startSandbox();\nconst res = await fetch(sb.url + '/__sandbox/status');\nconsole.log(res.status);\nawait sb.snapshot();\nawait sb.close();\n// Seeding from an export directory reaches the import engine: still none of the CLI.\nconst seeded = await startSandbox({ seed: 'test/base-export' });\nawait seeded.close();\nconsole.log(JSON.stringify(Object.keys(createRequire(import.meta.url).cache)));\n",
    );
    const res = await node(['--import', './record.mjs', 'load.mjs']);
    expect(res.exitCode, String(res.stderr)).toBe(0);
    const lines = String(res.stdout).trim().split('\n');
    expect(lines[0]).toBe('200');
    const loaded = [...readFileSync(log, 'utf8').trim().split('\n'), ...(JSON.parse(lines[1]!) as string[])];
    expect(loaded.some((f) => /cms-cli\/dist\/server\//.test(f))).toBe(true);
    expect(loaded.filter((f) => /node_modules\/(commander|@inquirer|cli-table3|cli-progress|chalk)\/|cms-cli\/dist\/(cli|commands|output|bundle)\//.test(f))).toEqual([]);
  });

  it('leaves no handle open after close(): the process exits on its own', async () => {
    writeFileSync(
      join(scratch, 'exits.mjs'),
      [
        "import { startSandbox } from 'cms-cli/sandbox';",
        "import { DynamicContent } from 'dc-management-sdk-js';",
        "const sb = await startSandbox({ seed: 'test/base.snapshot' });",
        "const dc = new DynamicContent({ client_id: sb.clientId, client_secret: sb.clientSecret }, { apiUrl: sb.apiUrl, authUrl: sb.authUrl });",
        'const hubs = (await dc.hubs.list()).getItems().map((h) => h.name);',
        "await sb.clock.advance('1h');",
        'await sb.restore(await sb.snapshot());',
        "await fetch(sb.url + '/__sandbox/status');",
        'await sb.close();',
        "console.log('closed', JSON.stringify(hubs), Date.now());",
      ].join('\n'),
    );
    const res = await node(['exits.mjs'], { timeout: 30_000 });
    const ended = Date.now();
    expect(res.exitCode, String(res.stderr)).toBe(0);
    const [, hubs, closedAt] = String(res.stdout).trim().split(' ');
    expect(JSON.parse(hubs!)).toContain('demo');
    // A keep-alive socket or a timer left open would hold the process for seconds.
    expect(ended - Number(closedAt)).toBeLessThan(1500);
  });

  it('close() is idempotent, await using closes, a bad seed fails before anything is served, a refused clock leaves nothing serving', async () => {
    writeFileSync(
      join(scratch, 'dispose.mjs'),
      [
        "import { startSandbox } from 'cms-cli/sandbox';",
        "import { writeFileSync } from 'node:fs';",
        'let url;',
        '{',
        '  const sb = await startSandbox();',
        '  url = sb.url;',
        '  await sb[Symbol.asyncDispose]();',
        '  await sb.close();',
        '}',
        "const after = await fetch(url + '/__sandbox/status').then(() => 'answered', () => 'refused');",
        "writeFileSync('not-a-snapshot.bin', 'hello');",
        "const bad = await startSandbox({ seed: 'not-a-snapshot.bin' }).then(() => 'started', (e) => e.name + ': ' + e.message);",
        "const missing = await startSandbox({ seed: 'nope.snapshot' }).then(() => 'started', (e) => e.name + ': ' + e.message);",
        // Refused by the sandbox once it serves: it is closed again (else this process would not exit).
        "const clock = await startSandbox({ clock: 'soon' }).then(() => 'started', (e) => e.name + ': ' + e.message);",
        'console.log(JSON.stringify({ after, bad, missing, clock }));',
      ].join('\n'),
    );
    const res = await node(['dispose.mjs'], { timeout: 30_000 });
    expect(res.exitCode, String(res.stderr)).toBe(0);
    const out = JSON.parse(String(res.stdout).trim());
    expect(out.after).toBe('refused');
    expect(out.bad).toMatch(/^SandboxError: .*not a sandbox snapshot/);
    expect(out.missing).toMatch(/^SandboxError: No snapshot at/);
    expect(out.clock).toMatch(/^SandboxError: .*'soon' is not an ISO 8601 date-time/);
  });

  it('refuses a snapshot from a newer cms and a truncated one (seed or restore: a SandboxError, nothing changed), and migrates one from an older cms', async () => {
    const base = join(scratch, 'test', 'base.snapshot');
    newerSnapshot(base, join(scratch, 'newer.snapshot'));
    truncatedSnapshot(base, join(scratch, 'cut.snapshot'));
    const olderVersion = olderSnapshot(base, join(scratch, 'older.snapshot'));
    writeFileSync(
      join(scratch, 'bad-snapshots.mjs'),
      [
        "import { startSandbox } from 'cms-cli/sandbox';",
        'const failed = (p) => p.then(() => "accepted", (e) => `${e.name} ${e.status}: ${e.message}`);',
        'const out = {};',
        "out.seedNewer = await failed(startSandbox({ seed: 'newer.snapshot' }));",
        "out.seedCut = await failed(startSandbox({ seed: 'cut.snapshot' }));",
        "const sb = await startSandbox({ seed: 'test/base.snapshot' });",
        "const counts = async () => (await (await fetch(sb.url + '/__sandbox/status')).json()).counts;",
        'const before = await counts();',
        "out.restoreNewer = await failed(sb.restore('./newer.snapshot'));",
        "out.restoreCut = await failed(sb.restore('./cut.snapshot'));",
        "out.restoreMissing = await failed(sb.restore('./missing.snapshot'));",
        'out.unchanged = JSON.stringify(await counts()) === JSON.stringify(before);',
        "const older = await sb.restore('./older.snapshot');",
        'out.older = { schemaVersion: older.schemaVersion, cmsVersion: older.cmsVersion, repositories: (await counts()).repositories };',
        "const again = await startSandbox({ seed: 'older.snapshot' });",
        "out.seededOlder = (await (await fetch(again.url + '/__sandbox/status')).json()).counts.hubs;",
        'await again.close();',
        'await sb.close();',
        'console.log(JSON.stringify(out));',
      ].join('\n'),
    );
    const olderBytes = readFileSync(join(scratch, 'older.snapshot'));
    const res = await node(['bad-snapshots.mjs'], { timeout: 30_000 });
    expect(res.exitCode, String(res.stderr)).toBe(0);
    const out = JSON.parse(String(res.stdout).trim());
    expect(out.seedNewer).toMatch(/^SandboxError 400: .*newer\.snapshot was saved by a newer cms .*upgrade cms to restore it$/);
    expect(out.seedCut).toMatch(/^SandboxError 400: .*cut\.snapshot is truncated/);
    expect(out.restoreNewer).toMatch(/^SandboxError 400: .*was saved by a newer cms/);
    expect(out.restoreCut).toMatch(/^SandboxError 400: .*is truncated/);
    expect(out.restoreMissing).toMatch(/^SandboxError 400: No snapshot at .*missing\.snapshot$/);
    expect(out.unchanged).toBe(true);
    // The older one holds the hubs only (no repositories), migrated to this cms; its file left as it was.
    expect(out.older).toEqual({ schemaVersion: olderVersion, cmsVersion: '0.0.1', repositories: 0 });
    expect(out.seededOlder).toBe(1);
    expect(readFileSync(join(scratch, 'older.snapshot')).equals(olderBytes)).toBe(true);
  });
});

describe('cms-cli/sandbox seeded from an export directory', () => {
  it('startSandbox({ seed: <export dir> }): the hub, its items and links through the SDK; a directory of neither layout is refused', async () => {
    writeFileSync(
      join(scratch, 'seed-export.mjs'),
      [
        "import { startSandbox } from 'cms-cli/sandbox';",
        "import { DynamicContent } from 'dc-management-sdk-js';",
        "import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';",
        "const sb = await startSandbox({ seed: 'test/base-export' });",
        "const dc = new DynamicContent({ client_id: sb.clientId, client_secret: sb.clientSecret }, { apiUrl: sb.apiUrl, authUrl: sb.authUrl });",
        'const hub = (await dc.hubs.list()).getItems()[0];',
        'const items = [];',
        'for (const repo of (await hub.related.contentRepositories.list()).getItems()) items.push(...(await repo.related.contentItems.list()).getItems());',
        "const launch = items.find((i) => i.label === 'Launch announcement' && i.locale === 'en-GB');",
        'const linked = items.find((i) => i.id === launch.body.related?.[0]?.id)?.label ?? null;',
        'const seededHub = sb.hub;',
        'await sb.reset();',
        'const afterReset = (await fetch(sb.apiUrl + "/hubs", { headers: { authorization: "Bearer " + (await (await fetch(sb.authUrl + "/oauth/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", client_id: sb.clientId, client_secret: sb.clientSecret }) })).json()).access_token } }).then((r) => r.json()))._embedded.hubs.length;',
        'const hubAfterReset = sb.hub ?? null;',
        'await sb.close();',
        "mkdirSync('not-an-export', { recursive: true });",
        "writeFileSync('not-an-export/readme.txt', 'hello');",
        "const bad = await startSandbox({ seed: 'not-an-export' }).then(() => 'started', (e) => e.name + ': ' + e.message);",
        // On disk too; and an item its schema refuses: rejected, naming the file.
        "const onDisk = await startSandbox({ memory: false, seed: 'test/base-export' });",
        'const diskHub = onDisk.hub;',
        'await onDisk.close();',
        "cpSync('test/base-export', 'bad-export', { recursive: true });",
        "const dir = 'bad-export/items/content';",
        "const file = readdirSync(dir).find((f) => JSON.parse(readFileSync(dir + '/' + f, 'utf8')).label === 'Launch background');",
        "const item = JSON.parse(readFileSync(dir + '/' + file, 'utf8'));",
        "writeFileSync(dir + '/' + file, JSON.stringify({ ...item, body: { ...item.body, title: '' } }));",
        "const refused = await startSandbox({ seed: 'bad-export' }).then(() => 'started', (e) => e.name + ': ' + e.message);",
        'console.log(JSON.stringify({ hub: hub.name, seededHub, hubAfterReset, items: items.length, linked, afterReset, bad, diskHub, refused, file }));',
      ].join('\n'),
    );
    const res = await node(['seed-export.mjs'], { timeout: 30_000 });
    expect(res.exitCode, String(res.stderr)).toBe(0);
    const out = JSON.parse(String(res.stdout).trim());
    expect(out).toMatchObject({ hub: 'demo', seededHub: 'demo', hubAfterReset: null, items: 6, linked: 'Launch background', afterReset: 0 });
    expect(out.bad).toMatch(/^SandboxError: .*not-an-export is not an export directory: expected manifest\.json/);
    expect(out.diskHub).toBe('demo');
    expect(out.refused).toMatch(/^SandboxError: seeding from .*bad-export failed: the service refused 2 of its file\(s\)/);
    expect(out.refused).toContain(`bad-export/items/content/${out.file}: 400`);
  });
});

// The CLI examples of the same doc run in docs-examples.test.ts; this only checks they exist.
it('the doc has the vitest, jest and TypeScript examples', () => {
  expect(Object.keys(docFiles(readFileSync(DOC, 'utf8'))).sort()).toEqual(['jest.config.mjs', 'jest/folders.test.mjs', 'jest/sandbox-setup.mjs', 'test/folders.test.mjs', 'test/sandbox-setup.mjs', 'types-check.mts', 'vitest.config.mjs']);
  expect(BIN).toBeTruthy();
});
