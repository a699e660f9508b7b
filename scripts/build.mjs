// Compiles TypeScript to dist/ and writes dist/cli/manifest.json: the metadata of every verb
// (from src/commands/**), so the CLI builds its command tree without importing verb modules.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

// The newest source time this build sees: a file edited after this point is not in the build,
// whatever the output files' times say (the test setup compares against it).
const newestSource = (dir) => readdirSync(dir).reduce((t, name) => {
  const full = join(dir, name);
  const st = statSync(full);
  return Math.max(t, st.isDirectory() ? newestSource(full) : st.mtimeMs);
}, 0);
const sourcesAt = Math.max(newestSource(join(root, 'src')), statSync(join(root, 'package.json')).mtimeMs);

// Compile in place (a running cms keeps working meanwhile), then drop outputs whose source is gone.
const tsc = spawnSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
// The types of `cms-cli/sandbox` (package.json exports): src/fixture/api.ts imports nothing, so
// its declarations are emitted alone, not one .d.ts per source file.
const types = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--declaration', '--emitDeclarationOnly', '--strict', '--skipLibCheck', '--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--lib', 'ES2023,DOM', '--outDir', join(dist, 'fixture'), join(root, 'src', 'fixture', 'api.ts')],
  { stdio: 'inherit' },
);
if (types.status !== 0) process.exit(types.status ?? 1);
// The types of `cms-cli/migration`: src/ops/migration/api.ts imports nothing either.
const migrationTypes = spawnSync(
  process.execPath,
  [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '--declaration', '--emitDeclarationOnly', '--strict', '--skipLibCheck', '--target', 'ES2022', '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--lib', 'ES2023', '--outDir', join(dist, 'ops', 'migration'), join(root, 'src', 'ops', 'migration', 'api.ts')],
  { stdio: 'inherit' },
);
if (migrationTypes.status !== 0) process.exit(migrationTypes.status ?? 1);
const prune = (dir) => {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      prune(full);
      if (!readdirSync(full).length) rmSync(full, { recursive: true });
      continue;
    }
    const m = /^(.*)\.js(\.map)?$/.exec(relative(dist, full));
    if (m && !existsSync(join(root, 'src', `${m[1]}.ts`))) rmSync(full);
  }
};
prune(dist);
// The console's bundle (dist/console), after the prune: it has no one-to-one source file.
await (await import('./build-console.mjs')).buildConsole();

const commandsDir = join(dist, 'commands');
const files = [];
const walk = (dir) => {
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (name.endsWith('.js') && !name.startsWith('_')) files.push(full);
  }
};
walk(commandsDir);

const { groups } = await import(pathToFileURL(join(dist, 'cli', 'groups.js')).href);
const commands = [];
for (const file of files) {
  const spec = (await import(pathToFileURL(file).href)).default;
  const rel = relative(commandsDir, file).slice(0, -'.js'.length);
  if (!spec || typeof spec.run !== 'function') throw new Error(`${rel}: default export is not a command (defineCommand)`);
  if (!spec.examples?.length) throw new Error(`${rel}: every command needs at least one example`);
  const { run: _run, name, ...meta } = spec;
  const path = rel.split(sep);
  if (name) path[path.length - 1] = name;
  commands.push({ path, module: `commands/${rel.split(sep).join('/')}.js`, ...meta });
}

// Order: groups as listed in groups.ts, then top-level verbs; verbs in file order.
const order = Object.keys(groups);
const rank = (path) => {
  const i = order.indexOf(path.slice(0, -1).join(' ') || path[0]);
  return i < 0 ? order.length : i;
};
commands.sort((a, b) => rank(a.path) - rank(b.path));
const usedGroups = new Set(commands.flatMap((c) => c.path.slice(0, -1).map((_, i) => c.path.slice(0, i + 1).join(' '))));
const manifest = {
  version: JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version,
  groups: order.filter((g) => usedGroups.has(g)).map((g) => ({ path: g.split(' '), ...groups[g] })),
  commands,
};
const missing = [...usedGroups].filter((g) => !groups[g]);
if (missing.length) throw new Error(`groups without a summary in src/cli/groups.ts: ${missing.join(', ')}`);
writeFileSync(join(dist, 'build-stamp.json'), JSON.stringify({ sourcesAt }));

// For startup, the same tree in parts: an index (every group, the top-level verbs) and one file
// per noun, so a command line reads only the part it names.
const parts = join(dist, 'cli', 'manifest');
rmSync(parts, { recursive: true, force: true });
mkdirSync(parts);
const nouns = [...new Set(commands.filter((c) => c.path.length > 1).map((c) => c.path[0]))];
// '_root' cannot clash with a noun (a noun is a plain word: there is one called 'index').
writeFileSync(join(parts, '_root.json'), JSON.stringify({ ...manifest, commands: commands.filter((c) => c.path.length === 1) }));
for (const noun of nouns) writeFileSync(join(parts, `${noun}.json`), JSON.stringify(commands.filter((c) => c.path.length > 1 && c.path[0] === noun)));

const manifestFile = join(dist, 'cli', 'manifest.json');
writeFileSync(`${manifestFile}.tmp`, JSON.stringify(manifest));
renameSync(`${manifestFile}.tmp`, manifestFile);

// The CLI that bin/cms.js runs: the same sources bundled by esbuild into one CommonJS file,
// dist/bundle/cli/main.cjs, which bin/cms.js compiles with a V8 code cache made here (below).
// Each source module stays lazy inside it: a verb, the sandbox, the HTTP transport are set up
// only when a command line reaches them, and V8 compiles a function only when it first runs, so
// `cms hub list` runs the code of no other verb. One file instead of chunks of ES modules because
// Node 20 keeps no compiled code for ES modules: with the cache, an embedded `cms hub list` skips
// about 20 ms of compiling (bench/startup.mjs). Packages stay outside the bundle and load where
// the sources load them (zod with body schemas, ajv with content validation, undici for remote
// profiles, better-sqlite3 for the sandbox), except commander (below); an import() of a package
// becomes require() (Node >= 20.19 requires ES module packages such as chalk), because code
// compiled from a V8 code cache cannot run import() on Node 20.
const esbuild = await import('esbuild');
const bundle = join(dist, 'bundle');
const mainFile = join(bundle, 'cli', 'main.cjs');
// importVerb() of src/cli/main.ts: here a table of every verb module, each loaded when called.
const verbLoader = 'return (await import(new URL(`../${module}`, import.meta.url).href)).default;';
const verbTable = {
  name: 'verb-table',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]cli[\\/]main\.ts$/ }, (a) => {
      const source = readFileSync(a.path, 'utf8');
      if (!source.includes(verbLoader)) throw new Error(`${a.path}: expected ${verbLoader}`);
      const cases = commands.map((c) => `case ${JSON.stringify(c.module)}: return (await import(${JSON.stringify(join(root, 'src', c.module.replace(/\.js$/, '.ts')))})).default;`);
      return { contents: source.replace(verbLoader, `switch (module) {\n${cases.join('\n')}\n}\nthrow new Error(\`no verb module \${module}\`);`), loader: 'ts' };
    });
  },
};
// commander runs on every command line that reaches a verb: inside the bundle instead of seven
// CommonJS files that Node resolves, reads and wraps one by one. The sources load it with
// createRequire (no export scan when run unbundled); here that call becomes a plain require,
// which esbuild bundles. Its require()s of Node's modules read them with
// process.getBuiltinModule, child_process only when used: commander spawns only for executable
// subcommands, which cms has none of.
const requireCommander = "createRequire(import.meta.url)('commander')";
const commanderDir = dirname(createRequire(import.meta.url).resolve('commander'));
const bundleCommander = {
  name: 'bundle-commander',
  setup(build) {
    build.onResolve({ filter: /^commander$/ }, () => ({ path: join(commanderDir, 'index.js') }));
    build.onResolve({ filter: /^node:/ }, (a) => (a.importer.startsWith(commanderDir) ? { path: a.path, namespace: 'builtin' } : undefined));
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (a) => ({
      contents: a.path === 'node:child_process'
        ? `let m; module.exports = new Proxy({}, { get: (_, k) => (m ??= process.getBuiltinModule(${JSON.stringify(a.path)}))[k] });`
        : `module.exports = process.getBuiltinModule(${JSON.stringify(a.path)});`,
      loader: 'js',
    }));
    build.onLoad({ filter: /[\\/]src[\\/]cli[\\/]program\.ts$/ }, (a) => {
      const source = readFileSync(a.path, 'utf8');
      if (!source.includes(requireCommander)) throw new Error(`${a.path}: expected ${requireCommander}`);
      return { contents: source.replace(requireCommander, "require('commander')"), loader: 'ts' };
    });
  },
};
rmSync(bundle, { recursive: true, force: true });
const built = await esbuild.build({
  entryPoints: [join(root, 'src', 'cli', 'main.ts')],
  // At the depth of dist/cli/main.js: paths read relative to a module (./manifest/, ../../../dist/console/) hold in both.
  outfile: mainFile,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  supported: { 'dynamic-import': false },
  define: { 'import.meta.url': '__cms_module_url' },
  banner: { js: "var __cms_module_url = require('node:url').pathToFileURL(__filename).href;" },
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  plugins: [verbTable, bundleCommander],
  metafile: true,
});
// What went in (which sources, how big), for whoever tunes the bundle.
writeFileSync(join(dist, 'bundle-meta.json'), JSON.stringify(built.metafile));
// The bundle reads the same manifest parts, next to it.
mkdirSync(join(bundle, 'cli', 'manifest'), { recursive: true });
for (const name of readdirSync(parts)) writeFileSync(join(bundle, 'cli', 'manifest', name), readFileSync(join(parts, name)));
writeFileSync(join(bundle, 'cli', 'manifest.json'), JSON.stringify(manifest));
// `cms --help` off a terminal prints the same text every time (80 columns): kept from the real
// program here, so bin/cms.js prints it without loading commander (a terminal gets commander,
// which wraps to its width).
const help = spawnSync(process.execPath, [join(root, 'bin', 'cms.js'), '--help'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (help.status !== 0) throw new Error('cms --help failed on the bundled build');
writeFileSync(join(bundle, 'cli', 'help.txt'), help.stdout);
// The code cache, last: it is made from the bundle as written above.
// Without it cms works and only starts slower, so a failure here warns instead of failing the install.
const cache = spawnSync(process.execPath, [join(root, 'scripts', 'code-cache.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
const cacheKb = cache.status === 0 && existsSync(`${mainFile}.cache`) ? Math.round(statSync(`${mainFile}.cache`).size / 1024) : null;
if (cacheKb === null) console.warn('warning: the code cache of the bundle could not be made (see above); cms works, but starts about 20 ms slower');
console.log(`built ${commands.length} commands (bundle: ${Math.round(statSync(mainFile).size / 1024)} KB, code cache ${cacheKb === null ? 'none' : `${cacheKb} KB`})`);
