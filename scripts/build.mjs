// Compiles TypeScript to dist/ and writes dist/cli/manifest.json: the metadata of every verb
// (from src/commands/**), so the CLI builds its command tree without importing verb modules.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
console.log(`built ${commands.length} commands`);
