import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve.js';

// A project adds cms the way docs/ci.md says (issue 34.1): the packed package (npm pack) installed
// into a scratch project with `npm ci`, offline: its dependencies come from npm's cache (this
// install's `npm ci` put them there), pinned by a lockfile written from ours. Then the GitHub
// Actions steps of docs/ci.md run from that project as written (`npm exec --no -- cms …`): the
// suite in a sandbox (with faults too), the drift check and the export, against a served sandbox
// standing in for the hosted service.

const ROOT = join(import.meta.dirname, '..', '..');
let project: string;
let served: ServedSandbox;
const home = new CliHome();

/** The `run:` steps of docs/ci.md's GitHub Actions workflow that call cms. */
function workflowSteps(): string[] {
  const doc = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
  const yaml = doc.split('## GitHub Actions')[1]!.split('```yaml')[1]!.split('```')[0]!;
  return [...yaml.matchAll(/^\s*(?:- )?run: (.*cms .*)$/gm)].map((m) => m[1]!.trim());
}

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'cms-install-'));
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: ROOT, env: { npm_config_loglevel: 'error' } });
  const tarball = (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename;
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const ours = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; link?: boolean }> };
  // The lockfile `npm install --save-dev ./<tarball>` would write: the package, and its dependencies at our versions.
  const packages: Record<string, unknown> = {
    '': { name: 'scratch', devDependencies: { 'cms-cli': `file:${tarball}` } },
    'node_modules/cms-cli': {
      version: pkg.version,
      resolved: `file:${tarball}`,
      integrity: `sha512-${createHash('sha512').update(readFileSync(join(project, tarball))).digest('base64')}`,
      dev: true,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [path, entry] of Object.entries(ours.packages)) if (path.startsWith('node_modules/') && !entry.dev && !entry.link) packages[path] = { ...entry, dev: true };
  writeFileSync(join(project, 'package-lock.json'), JSON.stringify({ name: 'scratch', lockfileVersion: 3, requires: true, packages }, null, 2));
  // The project's own suite: reads the hubs of the service the environment names (retrying the injected 503s).
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'scratch', private: true, type: 'module', scripts: { test: 'node suite.mjs' }, devDependencies: { 'cms-cli': `file:${tarball}` } }, null, 2),
  );
  writeFileSync(
    join(project, 'suite.mjs'),
    `const { CMS_API_URL, CMS_AUTH_URL, CMS_CLIENT_ID, CMS_CLIENT_SECRET } = process.env;
for (let attempt = 1; ; attempt++) {
  try {
    const token = await fetch(CMS_AUTH_URL + '/oauth/token', { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials', client_id: CMS_CLIENT_ID, client_secret: CMS_CLIENT_SECRET }) });
    if (!token.ok) throw new Error('token ' + token.status);
    const hubs = await fetch(CMS_API_URL + '/hubs', { headers: { authorization: 'Bearer ' + (await token.json()).access_token } });
    if (!hubs.ok) throw new Error('hubs ' + hubs.status);
    const names = (await hubs.json())._embedded.hubs.map((h) => h.name);
    if (!names.includes('demo')) throw new Error('no demo hub: ' + names);
    console.log('suite passed: ' + names.join(','));
    break;
  } catch (err) {
    if (attempt >= 20) throw err;
  }
}
`,
  );
  // npm ci, offline and without install scripts: nothing is fetched or compiled...
  const ci = await execa('npm', ['ci', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: project, env: { npm_config_loglevel: 'error' }, reject: false });
  expect(ci.exitCode, ci.stderr).toBe(0);
  // ...so better-sqlite3's addon is the one its install script made here (the same version, for this Node).
  cpSync(join(ROOT, 'node_modules', 'better-sqlite3', 'build'), join(project, 'node_modules', 'better-sqlite3', 'build'), { recursive: true });

  // The seed the workflow names, made as the docs say; the model and a hub `prod` on a served sandbox.
  expect((await home.run(['demo'], { timeout: 120_000 })).exitCode).toBe(0);
  mkdirSync(join(project, 'test'));
  expect((await home.run(['sandbox', 'snapshot', 'save', join(project, 'test', 'base.snapshot')])).exitCode).toBe(0);
  served = await serveSandbox(home.env);
  const env = { CMS_API_URL: served.url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
  expect((await home.run(['hub', 'create', '--name', 'prod', '--label', 'Production'], { env })).exitCode).toBe(0);
  const uri = 'https://schemas.example.com/install-page.json';
  const schema = { $schema: 'http://bigcontent.io/cms/schema/v1/schema#', id: uri, title: 'Page', allOf: [{ $ref: 'http://bigcontent.io/cms/schema/v1/core#/definitions/content' }], type: 'object', properties: { title: { type: 'string' } } };
  expect((await home.run(['schema', 'create', '--hub', 'prod', '--file', '-', '--register', '--label', 'Page'], { env, input: JSON.stringify(schema) })).exitCode).toBe(0);
  // An item of it: the export then writes the model the drift check compares (schemas/, types/).
  for (const args of [['repo', 'create', '--hub', 'prod', '--name', 'content', '--label', 'Content'], ['type', 'assign', uri, '--hub', 'prod', '--repo', 'content'], ['item', 'create', '--hub', 'prod', '--repo', 'content', '--schema', uri, '--label', 'Home', '--set', 'body.title=Home']]) {
    const res = await home.run(args, { env });
    expect(res.exitCode, `${args.join(' ')}: ${res.stderr}`).toBe(0);
  }
  const model = join(home.dir, 'model-export');
  expect((await home.run(['item', 'export', model, '--hub', 'prod'], { env })).exitCode).toBe(0);
  mkdirSync(join(project, 'model'));
  for (const dir of ['schemas', 'types']) cpSync(join(model, dir), join(project, 'model', dir), { recursive: true });
}, 600_000);

afterAll(async () => {
  await served?.stop();
  home.cleanup();
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('cms installed into a project from the packed package (docs/ci.md)', () => {
  it('npm ci put the bin and the package where the docs call them', () => {
    expect(existsSync(join(project, 'node_modules', '.bin', 'cms'))).toBe(true);
    expect(JSON.parse(readFileSync(join(project, 'node_modules', 'cms-cli', 'package.json'), 'utf8')).name).toBe('cms-cli');
  });

  it("runs every GitHub Actions step of docs/ci.md from the project, as written, under CI=true", { timeout: 300_000 }, async () => {
    const steps = workflowSteps();
    // The suite twice (plain, with faults), the drift check of schemas and of types, the export.
    expect(steps).toHaveLength(5);
    for (const step of steps) {
      expect(step, 'never a bare npx: it would download another package named cms').toMatch(/^npm exec --no -- cms /);
      const service = /sandbox exec/.test(step) ? {} : { CMS_API_URL: served.url, CMS_AUTH_URL: served.url, CMS_CLIENT_ID: 'sandbox-admin', CMS_CLIENT_SECRET: 'sandbox-secret' };
      const res = await execa('sh', ['-c', step], {
        cwd: project,
        reject: false,
        timeout: 120_000,
        env: { CI: 'true', CMS_DATA_DIR: join(project, '.cms-data'), CMS_CONFIG_DIR: join(project, '.cms-config'), npm_config_offline: 'true', npm_config_loglevel: 'error', ...service },
      });
      expect(res.exitCode, `${step}\n${res.stdout}\n${res.stderr}`).toBe(0);
      if (/sandbox exec/.test(step)) expect(res.stdout).toContain('suite passed: demo');
    }
    expect(existsSync(join(project, 'export', 'manifest.json'))).toBe(true);
  });

  it('the same invocation in a project without the package fails, and installs nothing', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'cms-noinstall-'));
    try {
      writeFileSync(join(empty, 'package.json'), JSON.stringify({ name: 'empty', private: true }));
      const res = await execa('sh', ['-c', 'npm exec --no -- cms sandbox exec -- true'], { cwd: empty, reject: false, timeout: 60_000, env: { CI: 'true', npm_config_offline: 'true', npm_config_loglevel: 'error' } });
      expect(res.exitCode).not.toBe(0);
      expect(existsSync(join(empty, 'node_modules'))).toBe(false);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
