import { appendFileSync, chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CliHome } from '../helpers/cli.js';
import { serveSandbox, type ServedSandbox } from '../helpers/serve.js';

/**
 * Every `cms ...` example of the docs runs: README.md and docs/*.md (code blocks, and inline spans
 * that are whole commands), every verb's `examples` (from the built manifest, so new verbs are
 * picked up), and the demo's "Try next" lines. They run through `sh -c` (pipes, redirects and
 * `&&` as written) against a fresh demo sandbox, with the docs' placeholder ids and names
 * replaced by real ones from the demo. An example that does not run fails this test.
 */

const ROOT = join(import.meta.dirname, '..', '..');

interface Example {
  source: string;
  line: string;
  /** From inline code: a bare verb there is prose naming it, not an example. */
  inline?: boolean;
}

/** Examples that are not run, each with why. Keep this short. */
const SKIPPED: Record<string, string> = {
  'cms sandbox console --open': 'opens a web browser',
  'npm install && npx cms demo': 'installs the package; the test runs the built bin (and `cms demo` runs below)',
  'cms item import ./dc-export/content --hub prod --layout dc-cli --mapping-file ~/.amplience/imports/hub-5f1a.json': 'needs the dc-cli repositories; dc-cli-layout.test.ts runs it on its fixture',
  'cms sandbox exec --cors-origin http://localhost:3000 -- npm run e2e': "runs the reader's own browser tests; sandbox-fixture.test.ts runs exec --cors-origin, console/cors.test.ts a real browser against serve --cors-origin",
  'cms sandbox exec --seed ./test/base.snapshot -- npm test': "runs the reader's own test suite; fixture-package.test.ts runs the doc's vitest and jest examples in a scratch project",
  'cms edition resolve 5f1a2b3c4d5e6f7a8b9c0d1e --item 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --version 2': 'needs an edition with a conflict; edition-scheduling contract tests cover resolve',
};

/** Examples that exit non-zero on purpose. */
const EXPECTED: Record<string, { code: number; why: string }> = {
  'cms edition schedule': { code: 2, why: 'asks for what is missing on a terminal; without one it names it (exit 2)' },
  'cms edition get 5f1a2b3c4d5e6f7a8b9c0d1e -w --timeout 2s': { code: 8, why: 'a draft edition reaches no final state: the watch ends at --timeout' },
  'cms item move 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --to-profile prod --to-repo content --with-deps': { code: 2, why: 'every profile here is the same sandbox hub, and within one hub --with-deps is refused' },
  'cms migration run migrations/rename-field.ts --exit-code -o json': { code: 1, why: 'the demo still has summaries to rename: the check says the migration would change something' },
  'npx cms migration run migrations/rename-field.ts --hub prod --exit-code': { code: 1, why: 'the same check, as the CI step runs it' },
  'cms migration run migrations/rename-field.ts --from ./content --exit-code': { code: 1, why: 'the same check, offline on the export' },
};

/** Long-running servers: run, wait for their URL, stop with SIGTERM, expect exit 0. */
// (--detach returns once the server answers: it runs as any example, and stops its server itself.)
const SERVERS = /^(npx )?cms sandbox serve\b(?!.*--detach)|^CMS_DATA_DIR=\S+ cms sandbox serve\b/;
/** Examples that replace the sandbox's data, or create a hub or repository the demo has: each runs in a fresh home of its own. */
const ISOLATED = /^cms (demo|sandbox reset|hub create|repo create|api POST \/hubs)\b/;

// Placeholders of the docs -> what they stand for. Ids depend on the noun (and the flag before them).
const PLACEHOLDER_24 = '5f1a2b3c4d5e6f7a8b9c0d1e';

function manifestExamples(): Example[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'dist', 'cli', 'manifest.json'), 'utf8')) as { commands: { path: string[]; examples: string[]; hidden?: boolean }[] };
  return manifest.commands.flatMap((c) => c.examples.map((line) => ({ source: `examples of cms ${c.path.join(' ')}`, line })));
}

/** `cms ...` lines of code blocks and whole commands in inline code; synopses (`<dir>`, `[--x]`, `a | b`) are not examples. */
export function docExamples(file: string, text: string): Example[] {
  const out: Example[] = [];
  let inBlock = false;
  for (const raw of text.split('\n')) {
    if (raw.trimStart().startsWith('```')) {
      inBlock = !inBlock;
      continue;
    }
    if (inBlock) {
      // A CI workflow's steps (`run: npx cms ...`, a GitLab script's `- npx cms ...`) are examples too.
      const line = raw.replace(/^\s*\$\s+/, '').trim().replace(/^(-\s+)?(run:\s+)?(?=(npx |npm exec --no -- )?cms\s)/, '').replace(/^npm exec --no -- (?=cms\s)/, '').replace(/\s+#.*$/, '');
      if (/^(npx )?cms\s/.test(line) || /^[A-Z_]+=\S+ cms\s/.test(line) || /&&\s*(npx )?cms\s/.test(line)) out.push({ source: file, line });
      continue;
    }
    for (const m of raw.matchAll(/`((?:npx )?cms [^`]+)`/g)) out.push({ source: file, line: m[1]!, inline: true });
  }
  return out.filter((e) => !isSynopsis(e.line));
}

const isSynopsis = (line: string) => /<[a-z-]+>|\[-|\s\|\s|\.\.\./i.test(line);

function allExamples(): Example[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'dist', 'cli', 'manifest.json'), 'utf8')) as { commands: { path: string[] }[]; groups: { path: string[] }[] };
  const verbs = new Set([...manifest.commands, ...manifest.groups].map((c) => `cms ${c.path.join(' ')}`));
  // commands.md is generated from the manifest's examples; migrating.md's commands run in order on the dc-cli fixture in dc-cli-layout.test.ts.
  const docs = [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && f !== 'commands.md' && f !== 'migrating.md').map((f) => join(ROOT, 'docs', f))];
  const fromDocs = docs.flatMap((f) => docExamples(f.slice(ROOT.length + 1), readFileSync(f, 'utf8')));
  return [...fromDocs.filter((e) => !(e.inline && isBareVerb(e.line, verbs))), ...manifestExamples()];
}

/** A command line that names only a verb (prose referring to it), not an example to run. */
function isBareVerb(line: string, verbs: Set<string>): boolean {
  return verbs.has(line.replace(/^npx /, '').replace(/ --help$/, ''));
}

interface Ids {
  [key: string]: string;
}

/** The demo with the examples' resources: every chain of examples runs on a copy of it. */
let template: CliHome;
let served: ServedSandbox;
let servedHome: Home;
let shimDir: string;
let tryNext: string[] = [];
const ids: Ids = {};
const homes: Home[] = [];

/** A home the examples run in: data, config and a working directory with the files they read. */
interface Home {
  dir: string;
  work: string;
  env: Record<string, string | undefined>;
}

/** What a user's shell has, without the test runner's variables that would choose a profile or a service. */
function shellEnv(dir: string, dataFrom?: string): Home {
  const work = join(dir, 'work');
  mkdirSync(work, { recursive: true });
  if (dataFrom) {
    for (const d of ['data', 'config']) if (existsSync(join(dataFrom, d))) cpSync(join(dataFrom, d), join(dir, d), { recursive: true });
    cpSync(join(template.dir, 'export'), work, { recursive: true });
    cpSync(DC_CLI_FIXTURE, join(work, 'dc-export'), { recursive: true });
    mkdirSync(join(dir, '.amplience', 'imports'), { recursive: true });
  }
  writeFixtures(work);
  // EDITOR: a stand-in that saves the file as it is (the examples' `code --wait` gets one too).
  const env: Record<string, string | undefined> = { CMS_DATA_DIR: join(dir, 'data'), CMS_CONFIG_DIR: join(dir, 'config'), NO_COLOR: '1', CMS_HUB: 'demo', HOME: dir, PATH: `${shimDir}:${process.env.PATH}`, EDITOR: 'editor-stand-in', VISUAL: undefined };
  for (const k of ['CMS_PROFILE', 'CMS_API_URL', 'CMS_AUTH_URL', 'CMS_DELIVERY_URL', 'CMS_CLIENT_ID', 'CMS_CLIENT_SECRET', 'CMS_ACCESS_TOKEN', 'CI', 'CMS_FORCE_TTY']) env[k] = undefined;
  return { dir, work, env };
}

const DC_CLI_FIXTURE = join(ROOT, 'test', 'fixtures', 'dc-cli');

/** A copy of the prepared demo (or of a stage of it): each example changes its own copy, never another's. */
function copyHome(from = template.dir): Home {
  const h = shellEnv(mkdtempSync(join(tmpdir(), 'cms-docs-')), from);
  homes.push(h);
  return h;
}

/** Setup commands, on the template, in its working directory. */
async function cms(args: string[]): Promise<string> {
  const res = await execa(process.execPath, [BIN, ...args], { cwd: join(template.dir, 'work'), env: { ...shellEnv(template.dir).env }, extendEnv: true, reject: false, input: '' });
  if (res.exitCode !== 0) throw new Error(`setup: cms ${args.join(' ')} exited ${res.exitCode}: ${res.stderr}`);
  return String(res.stdout);
}
const cmsJson = async <T = any>(args: string[]): Promise<T> => JSON.parse(await cms([...args, '-o', 'json'])) as T;

const SCHEMA_HOST = 'https://schemas.example.com';
const ARTICLE = `${SCHEMA_HOST}/demo/article.json`;
const HERO_SLOT = `${SCHEMA_HOST}/demo/hero-slot.json`;

function schemaDoc(id: string, title: string, validation = 'object'): string {
  return JSON.stringify({
    $schema: `http://bigcontent.io/cms/schema/v1/schema#`,
    id,
    title,
    type: validation,
    allOf: [{ $ref: `http://bigcontent.io/cms/schema/v1/core#/definitions/content` }],
    properties: { title: { type: 'string' } },
  });
}

/** Fixture files made from the setup's resources (item versions, ids). */
const fixtureFiles: Record<string, string> = {};

/** Files the examples read, in the working directory they run in. */
function writeFixtures(dir: string): void {
  const files: Record<string, string> = {
    ...fixtureFiles,
    'banner.json': schemaDoc('https://schemas.example.com/banner.json', 'Banner'),
    'promo.json': schemaDoc('https://schemas.example.com/promo.json', 'Promo'),
    'slot.json': schemaDoc('https://schemas.example.com/slot.json', 'Slot'),
    'page.json': schemaDoc('https://schemas.example.com/page-local.json', 'Page'),
    'hub.json': JSON.stringify({ name: 'from-file', label: 'From a file' }),
    'settings.json': JSON.stringify({}),
    'secret.txt': 'sandbox-secret\n',
    'commerce.json': JSON.stringify({ 'commerce-credentials': {}, 'cms-credentials': {}, 'commerce-api': {}, rendering: {} }),
    'marketing.json': JSON.stringify({ 'marketing-credentials': {}, 'cms-credentials': {}, rendering: {}, contentAssets: {} }),
    'extension.json': JSON.stringify({ name: 'from-file', label: 'From a file', url: 'https://ext.example.com/f/', category: 'CONTENT_FIELD' }),
    'facets.json': JSON.stringify({ fields: [{ facetAs: 'ENUM', field: 'schema', name: 'schema' }], returnEntities: false }),
    'model/schemas/banner.json': schemaDoc('https://schemas.example.com/banner.json', 'Banner'),
    'model/types/banner.json': JSON.stringify({ contentTypeUri: 'https://schemas.example.com/banner.json', settings: { label: 'Banner' } }),
  };
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), body);
  }
  // The migrations of docs/migrations.md, run as the docs name them (migrations/<file>).
  cpSync(join(ROOT, 'docs', 'examples', 'migrations'), join(dir, 'migrations'), { recursive: true });
}

beforeAll(async () => {
  template = new CliHome();
  shimDir = join(template.dir, 'bin');
  mkdirSync(shimDir, { recursive: true });
  // `cms` and `npx cms` as a user has them after `npm install` (npx finds bin/ through PATH here).
  writeFileSync(join(shimDir, 'cms'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  writeFileSync(join(shimDir, 'npx'), `#!/bin/sh\n[ "$1" = cms ] && shift\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(shimDir, 'cms'), 0o755);
  chmodSync(join(shimDir, 'npx'), 0o755);
  // The workflows' `npm test` under `cms sandbox exec`: a suite that fails unless it was given the sandbox and it answers.
  writeFileSync(join(shimDir, 'npm'), `#!/bin/sh\n[ "$1" = test ] || exit 64\n[ -n "$CMS_API_URL" ] && [ -n "$CMS_AUTH_URL" ] && [ -n "$CMS_CLIENT_ID" ] && [ -n "$CMS_CLIENT_SECRET" ] || exit 65\nexec "${process.execPath}" "${BIN}" hub list\n`);
  chmodSync(join(shimDir, 'npm'), 0o755);
  for (const editor of ['editor-stand-in', 'code']) {
    writeFileSync(join(shimDir, editor), '#!/bin/sh\nexit 0\n');
    chmodSync(join(shimDir, editor), 0o755);
  }

  const demo = await template.run(['demo']);
  if (demo.exitCode !== 0) throw new Error(`cms demo failed: ${demo.stderr}`);
  tryNext = demo.stdout.split('Try next:')[1]?.split('\n').map((l) => l.trim().replace(/\s+\(.*\)$/, '')).filter((l) => /^(npx )?cms /.test(l)) ?? [];
  await setupResources();
  // Examples that name a URL reach a served copy of it.
  servedHome = copyHome();
  served = await serveSandbox(servedHome.env as Record<string, string>);
}, 240_000);

afterAll(async () => {
  await served?.stop();
  template?.cleanup();
  for (const h of homes) rmSync(h.dir, { recursive: true, force: true });
});

/** Copies of the template at a stage of the setup, for examples that create what a later stage made. */
const stages: Record<string, string> = {};
function saveStage(name: string): void {
  stages[name] = join(template.dir, 'stages', name);
  for (const d of ['data', 'config']) if (existsSync(join(template.dir, d))) cpSync(join(template.dir, d), join(stages[name]!, d), { recursive: true });
}

async function setupResources(): Promise<void> {
  saveStage('demo');
  const id = async (args: string[]) => ((await cmsJson(args)) as { id: string }).id;
  const fx = join(template.dir, 'work');
  const repos = await cmsJson<{ id: string; name: string }[]>(['repo', 'list']);
  const items = await cmsJson<{ id: string; label: string }[]>(['item', 'list', '--repo', 'content']);
  const item = (label: string) => items.find((i) => i.label === label)!.id;
  Object.assign(ids, {
    hub: await id(['hub', 'get', 'demo']),
    content: repos.find((r) => r.name === 'content')!.id,
    launch: item('Launch announcement'),
    background: item('Launch background'),
    roundup: item('Weekly roundup'),
    folder: (await cmsJson<{ id: string }[]>(['folder', 'list', '--repo', 'content']))[0]!.id,
    slot: (await cmsJson<{ id: string }[]>(['slot', 'list', '--repo', 'slots']))[0]!.id,
  });
  for (const name of ['archive', 'old-content', 'slots-repo']) await cms(['repo', 'create', '--name', name, '--label', name]);
  await cms(['type', 'assign', ARTICLE, '--repo', 'archive']);
  await cms(['hub', 'create', '--name', 'old-demo', '--label', 'Old demo']);
  // The clients (users) the share, access and login examples name.
  await cms(['sandbox', 'client', 'create', '--id', 'ci-bot', '--secret', 's3cret', '--permission', 'all', '--acl', 'hub:demo:READ,EDIT,SHARE', '--acl', `repo:${ids.content}:READ,EDIT_CONTENT`]);
  await cms(['sandbox', 'client', 'create', '--id', 'my-id', '--secret', 'sandbox-secret', '--permission', 'all', '--acl', 'hub:demo:READ']);
  ids.schema = await id(['schema', 'create', '--file', join(fx, 'banner.json')]);
  saveStage('schema');
  // The named resources the examples use: a Banner type, an event with editions, snapshots, jobs, ...
  ids.type = ((await cmsJson(['type', 'register', 'https://schemas.example.com/banner.json', '--label', 'Banner'])) as { id: string }).id;
  await cms(['type', 'assign', 'Banner', '--repo', 'content']);
  ids.emptyFolder = await id(['folder', 'create', 'Winter', '--repo', 'content']);
  // Slots of their own for the editions, so scheduling meets no other edition's slot.
  const slot = async (label: string) => id(['slot', 'create', '--repo', 'slots', '--schema', HERO_SLOT, '--label', label, '--set', `body.title=${label}`]);
  ids.slotA = await slot('Side banner');
  ids.slotB = await slot('Footer banner');
  ids.event = await id(['event', 'create', '--name', 'Black Friday', '--start', '+1m', '--end', '+20d']);
  ids.edition = await id(['edition', 'create', '--event', ids.event!, '--name', 'Doors open', '--start', '+2d', '--end', '+3d']);
  ids.edition2 = await id(['edition', 'create', '--event', ids.event!, '--name', 'Early birds', '--start', '+4d', '--end', '+5d']);
  const slots = await cmsJson<any>(['edition', 'slots', ids.edition!, '--add', ids.slotA!]);
  ids.editionSlot = (Array.isArray(slots) ? slots[0] : slots).id;
  const slots2 = await cmsJson<any>(['edition', 'slots', ids.edition2!, '--add', ids.slotB!]);
  ids.editionSlot2 = (Array.isArray(slots2) ? slots2[0] : slots2).id;
  await cms(['edition', 'preview', ids.edition!, '--create']);
  ids.snapshot = await id(['snapshot', 'create', '--root', ids.launch!, '--comment', 'one']);
  ids.snapshot2 = await id(['snapshot', 'create', '--root', ids.background!, '--comment', 'two']);
  // Due in seconds, so `cms job wait` returns; and one far ahead to cancel.
  ids.job = await id(['job', 'create', '--snapshot', ids.snapshot!, '--at', '+5s']);
  ids.laterJob = await id(['job', 'create', '--snapshot', ids.snapshot2!, '--at', '+30d']);
  ids.webhook = await id(['webhook', 'create', '--label', 'Example hook', '--event', 'content-item.published', '--handler', 'https://example.com/hook', '--secret', 's3cret']);
  // On the slot type, so the examples can add the article type; the roundup published after it is one of its objects.
  ids.index = await id(['index', 'create', '--suffix', 'products', '--label', 'Products', '--type', 'PRODUCTION', '--content-type', HERO_SLOT]);
  saveStage('index');
  await cms(['index', 'types', 'add', 'products', '--type', ARTICLE]);
  const bulk = await cmsJson<any>(['job', 'bulk', 'publish', '--item', ids.roundup!]);
  ids.bulkJob = bulk.id ?? bulk.jobId ?? bulk.job?.id;
  await cms(['job', 'wait', ids.bulkJob!]).catch(() => cms(['item', 'publish', ids.roundup!, '--wait']));
  ids.indexWebhook = (await cmsJson<{ id: string }[]>(['index', 'types', 'list', 'products']))[0]?.id ?? '';
  ids.workflow = await id(['workflow', 'create', '--label', 'In review', '--color', 'rgb(255,165,0)']);
  ids.extension = await id(['extension', 'create', '--name', 'rich-text', '--label', 'Rich text', '--url', 'https://ext.example.com/rte/', '--category', 'CONTENT_FIELD']);
  ids.commerce = await id(['integration', 'commerce', 'create', '--body-file', join(fx, 'commerce.json'), '--label', 'EU site']);
  ids.marketing = await id(['integration', 'marketing', 'create', '--body-file', join(fx, 'marketing.json'), '--label', 'EU site', '--active']);
  // Directories the import examples read: an export of the content repository.
  await cms(['item', 'export', join(template.dir, 'export', 'content'), '--repo', 'content']);
  await cms(['item', 'export', join(template.dir, 'export', 'pages'), '--repo', 'content', '--folder', ids.folder!]);
  const launch = await cmsJson<any>(['item', 'get', ids.launch!]);
  fixtureFiles['home.json'] = JSON.stringify({ label: 'Home', body: { ...launch.body, _meta: { schema: ARTICLE, name: 'home' } } });
  fixtureFiles['changes.json'] = JSON.stringify({ label: 'Launch (edited)' });
  fixtureFiles['updates.json'] = JSON.stringify([{ id: ids.launch, version: launch.version, label: 'Launch (bulk)' }]);
  fixtureFiles['selection.json'] = JSON.stringify([{ id: ids.roundup, version: (await cmsJson<any>(['item', 'get', ids.roundup!])).version }]);
  fixtureFiles['snapshots.json'] = JSON.stringify([{ contentRoot: ids.launch, comment: 'from a file', createdFrom: 'content-item', type: 'generated' }]);
  for (const p of ['prod', 'staging', 'sandbox', 'old-staging']) await cms(['login', '--profile', p, '--sandbox', '--hub', 'demo']);
  // Runs to resume and undo: an import and a clone.
  const runs = async () => (await cmsJson<{ id: string }[]>(['runs'])).map((r) => r.id);
  const before = await runs();
  // 'staging' of the examples: a clone of the demo without its content, with delivery keys on.
  await cms(['hub', 'clone', '--from', 'prod:demo', '--to', 'sandbox:staging-site', '--step', 'settings,extensions,schemas,types,repositories']);
  ids.cloneRun = (await runs()).find((r) => !before.includes(r))!;
  await cms(['api', 'POST', `/admin/hubs/${await id(['hub', 'get', 'staging-site'])}/modules/content-delivery-2`]);
  await cms(['item', 'import', join(template.dir, 'export', 'content'), '--hub', 'staging-site']);
  ids.importRun = (await runs()).find((r) => r !== ids.cloneRun && !before.includes(r))!;
}

/** Examples that create what a stage of the setup made: they run on a copy taken before it. */
const STAGE_OF: [RegExp, string][] = [
  [/^cms schema create\b/, 'demo'],
  [/^cms (type register|index create|extension create)\b/, 'schema'],
  [/^cms index types add\b/, 'index'],
];

/** State an example is about (undoing a change): made on its copy first. */
const PRELUDES: [RegExp, (m: RegExpMatchArray) => string][] = [
  [/^cms (type|schema|index|item) unarchive (\S+)/, (m) => `cms ${m[1]} archive ${m[2]}`],
  [/^cms edition unschedule (\S+)/, (m) => `cms edition schedule ${m[1]} --ignore-warnings --yes`],
  [/^cms login --profile editor\b/, () => 'cms sandbox client create --id editor --secret s3cret --permission all --acl hub:demo:READ'],
  [/^cms sandbox snapshot (?:restore|delete) (\S+)/, (m) => `cms sandbox snapshot save ${m[1]}`],
  [/^(?:npx )?cms sandbox (?:serve|exec)\b.*--seed (\S+\.snapshot)(?:\s|$)/, (m) => `cms sandbox snapshot save ${m[1]}`],
  // A seed that is not a snapshot file is an export directory (of the demo hub).
  [/^(?:npx )?cms sandbox (?:serve|exec)\b.*--seed (?!\S+\.snapshot(?:\s|$))(\S+)/, (m) => `cms item export ${m[1]} --hub demo`],
];

const UUID_ITEMS: Record<string, string> = {
  '0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c': 'launch',
  '2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11': 'roundup',
  '7d0f3a52-1b9e-4f7a-8c1d-0a2b3c4d5e6f': 'background',
  '7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d': 'background',
  '3fa85f64-5717-4562-b3fc-2c963f66afa6': 'roundup',
};
const OTHER_IDS: Record<string, string> = {
  '6a7b8c9d0e1f2a3b4c5d6e7f': 'editionSlot',
  '7e8f9a0b1c2d3e4f5a6b7c8d': 'snapshot',
  '8f9a0b1c2d3e4f5a6b7c8d9e': 'snapshot2',
  '5f1a2b3c4d5e6f7a8b9c0d2f': 'edition2',
};
const RUN_ID = '20250101-120000-a1b2c3';
/** What a 24-hex placeholder stands for after a flag, or else in a noun's examples. */
const BY_FLAG: Record<string, string> = { '--folder': 'folder', '--to-folder': 'folder', '--parent': 'folder', '--event': 'event', '--snapshot': 'snapshot', '--add-snapshot': 'snapshot', '--copy-from': 'edition2' };
const BY_NOUN: Record<string, string> = {
  api: 'hub', hub: 'hub', repo: 'content', schema: 'schema', 'type register': 'schema', type: 'type', 'folder delete': 'emptyFolder', folder: 'folder', workflow: 'workflow', event: 'event', edition: 'edition', snapshot: 'snapshot',
  'job bulk-status': 'bulkJob', 'job cancel': 'laterJob', job: 'job', webhook: 'webhook', 'index types': 'indexWebhook', index: 'index', 'integration commerce': 'commerce', 'integration marketing': 'marketing', extension: 'extension',
};
const SLOT_CONTEXT = /^cms (slot|edition slots|integration commerce live)\b/;

/** The example with the docs' placeholders replaced by the demo's ids and names. */
export function substitute(line: string, url: string): string {
  const words = line.split(/\s+/);
  const at = words.indexOf('cms');
  const noun = Object.keys(BY_NOUN).find((n) => words.slice(at + 1, at + 1 + n.split(' ').length).join(' ') === n);
  return words
    .map((w, i) => {
      if (w === PLACEHOLDER_24 || (OTHER_IDS[w] && BY_FLAG[words[i - 1] ?? ''])) {
        // `edition slots --copy-from` names an edition slot, `edition create --copy-from` an edition.
        const kind = /^cms edition slots\b/.test(line) && words[i - 1] === '--copy-from' ? 'editionSlot2' : (BY_FLAG[words[i - 1] ?? ''] ?? (noun ? BY_NOUN[noun] : undefined));
        if (!kind || !ids[kind]) throw new Error(`no id for ${w} in: ${line}`);
        return ids[kind]!;
      }
      if (UUID_ITEMS[w]) return ids[SLOT_CONTEXT.test(line) || words[i - 1] === '--slot' ? (UUID_ITEMS[w] === 'launch' ? 'slot' : 'slotB') : UUID_ITEMS[w]]!;
      if (OTHER_IDS[w]) return ids[OTHER_IDS[w]] ?? w;
      if (w === RUN_ID) return ids[/^cms hub clone\b/.test(line) ? 'cloneRun' : 'importRun']!;
      return w;
    })
    .join(' ')
    .replace(/--hub staging\b/g, '--hub staging-site')
    .replace(/--(to-)?hub (site|prod|dev)\b/g, '--$1hub demo')
    .replace(/--repo site\b/g, '--repo content')
    .replace(/\/hubs\/5f1a2b3c4d5e6f7a8b9c0d1e\b/g, `/hubs/${ids.hub}`)
    .replace('CMS_DATA_DIR=/tmp/sb', 'CMS_DATA_DIR=$HOME/sb')
    // Every profile here is the one sandbox: a clone goes to a new hub of it.
    .replace(/--to sandbox(?= |$)/, '--to sandbox:demo-copy')
    // The console, the request journal and browse are on the served sandbox's port.
    .replace(/^cms (sandbox console|sandbox requests|browse)\b.*/, (m) => `${m.replace(/ --port \d+/, '')} --port ${new URL(url).port}`)
    .replace(/\b(prod|staging):site\b/g, '$1:demo')
    .replace(/https?:\/\/(127\.0\.0\.1:8787|api\.example\.com)/g, url)
    .replace(/--port (8787|9000)/g, '--port 0')
    .replace(/https:\/\/schemas\.example\.com\/(page|hero-slot|product)\.json/g, (m) => (m.includes('hero-slot') ? HERO_SLOT : ARTICLE));
}

describe('docs examples', () => {
  it('the demo leaves no active webhook aimed at its own (closed) receiver, and its hints say npx cms', async () => {
    expect(tryNext.length).toBeGreaterThan(3);
    for (const line of tryNext) expect(line).toMatch(/^npx cms /);
    const hooks = await cmsJson<{ active: boolean; handlers: string[]; label: string }[]>(['webhook', 'list', '--hub', 'demo']);
    expect(hooks.filter((h) => h.active && h.handlers.some((u) => u.startsWith('http://127.0.0.1')))).toEqual([]);
  });

  it('every example runs', async () => {
    const examples = [...allExamples(), ...tryNext.map((line) => ({ source: 'cms demo "Try next"', line }))];
    expect(examples.length).toBeGreaterThan(100);
    const failures: string[] = [];
    let ran = 0;
    let skipped = 0;
    const check = async (ex: Example) => {
      if (SKIPPED[ex.line]) return void skipped++;
      ran++;
      let line: string;
      try {
        line = substitute(ex.line, served.url);
      } catch (err) {
        failures.push(`${ex.source}: ${ex.line}\n  ${(err as Error).message}`);
        return;
      }
      const res = ISOLATED.test(ex.line) ? await runIsolated(line) : await runOnCopy(line);
      const want = EXPECTED[ex.line]?.code ?? 0;
      if (process.env.DOCS_EXAMPLES_LOG) appendFileSync(process.env.DOCS_EXAMPLES_LOG, `${res.exitCode} ${line}\n${res.exitCode !== want ? res.stderr : ''}`);
      if (res.exitCode !== want) failures.push(`${ex.source}: ${ex.line}\n  ran: ${line}\n  exit ${res.exitCode} (want ${want}): ${res.stderr.trim().split('\n').slice(0, 3).join(' / ')}`);
    };
    const queue = [...examples];
    await Promise.all(Array.from({ length: PARALLEL }, async () => {
      for (let ex = queue.shift(); ex; ex = queue.shift()) await check(ex);
    }));
    console.log(`docs examples: ${ran} run, ${skipped} skipped, ${failures.length} failed`);
    expect(failures.join('\n')).toBe('');
  }, 600_000);
});

/** Chains running at once: the examples wait on the sandbox's disk and on Node starting as much as on a core. */
const PARALLEL = 4;
/** No example may take longer (a wait that never ends fails its example, not the suite). */
const EXAMPLE_TIMEOUT_MS = 30_000;

/** On a copy of the demo (of the stage the example needs), after its prelude. */
async function runOnCopy(line: string): Promise<{ exitCode: number; stderr: string }> {
  const stage = STAGE_OF.find(([re]) => re.test(line))?.[1];
  const home = copyHome(stage ? stages[stage] : template.dir);
  for (const [re, make] of PRELUDES) {
    const m = line.match(re);
    if (!m) continue;
    const pre = await runShell(make(m), home);
    if (pre.exitCode !== 0) return { exitCode: pre.exitCode, stderr: `prelude ${make(m)}: ${pre.stderr}` };
  }
  const res = SERVERS.test(line) ? await runServer(line, home) : await runExample(line, home);
  rmSync(home.dir, { recursive: true, force: true });
  return res;
}

/** In a fresh, empty home of its own: the example replaces the sandbox's data, or creates what the demo has. */
async function runIsolated(line: string): Promise<{ exitCode: number; stderr: string }> {
  const own = shellEnv(mkdtempSync(join(tmpdir(), 'cms-docs-')));
  homes.push(own);
  // A repository needs a hub: the only one there, named as the docs' examples name it.
  if (/^cms repo create\b/.test(line)) await execa(process.execPath, [BIN, 'hub', 'create', '--name', 'site', '--label', 'Site'], { env: own.env, reject: false });
  return runExample(line, { ...own, env: { ...own.env, CMS_HUB: undefined } });
}

/**
 * Runs one example through `sh -c` in its own process group, so a pipeline is stopped whole:
 * `stop` (a server) ends it with SIGTERM after its first output, the timeout kills it.
 */
async function runShell(line: string, home: Home, stop = false): Promise<{ exitCode: number; stderr: string }> {
  const child = execa('sh', ['-c', line], { cwd: home.work, env: home.env, extendEnv: true, reject: false, input: '', detached: true });
  const group = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      /* already gone */
    }
  };
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    group('SIGKILL');
  }, EXAMPLE_TIMEOUT_MS);
  if (stop) {
    let stopped = false;
    const first = () => {
      if (!stopped) group('SIGTERM');
      stopped = true;
    };
    child.stdout!.once('data', first);
    child.stderr!.once('data', first);
  }
  const res = await child;
  clearTimeout(timer);
  const stderr = String(res.stderr);
  return timedOut ? { exitCode: -1, stderr: `timed out after ${EXAMPLE_TIMEOUT_MS / 1000} s\n${stderr}` } : { exitCode: res.exitCode ?? -1, stderr };
}

const runExample = (line: string, home: Home) => runShell(line, home);
/** A server: its first output is its URL; then stop it as Ctrl-C would, and it exits 0. */
// Port 0 where the example takes the default: 8787 may be in use on a shared machine.
// (`&` dropped: the test stops the server itself.)
const runServer = (line: string, home: Home) => runShell(`${line.replace(/\s*&$/, '').replace(/^((?:[A-Z_]+=\S+ )*)/, '$1exec ')}${/--port /.test(line) ? '' : ' --port 0'}`, home, true);
