#!/usr/bin/env node
// Kept tiny: `cms --version` (and the root `--help` off a terminal) answer without loading anything else.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const argv = process.argv.slice(2);
// A closed pipe (`cms item list | head`) is a normal way for output to end, not a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}
/** The root help as the build wrote it, for output off a terminal (a terminal's width changes the wrapping). */
function builtHelp() {
  if (argv.length !== 1 || (argv[0] !== '--help' && argv[0] !== '-h') || process.stdout.isTTY) return null;
  try {
    return readFileSync(new URL('../dist/bundle/cli/help.txt', import.meta.url), 'utf8');
  } catch {
    return null;
  }
}

const help = builtHelp();
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if (help !== null) {
  process.stdout.write(help);
} else {
  let main;
  const bundled = fileURLToPath(new URL('../dist/bundle/cli/main.cjs', import.meta.url));
  try {
    const { loadBundle } = createRequire(import.meta.url)('./bundle.cjs');
    ({ main } = loadBundle(bundled).exports);
  } catch (err) {
    if (err?.code !== 'ENOENT' || err.path !== bundled) throw err;
    process.stderr.write('error: cms is not built yet; run `npm install` (or `npm run build`) in the project first\n');
    process.exit(1);
  }
  process.exitCode = await main(argv);
}
