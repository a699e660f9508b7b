#!/usr/bin/env node
// Kept tiny: `cms --version` answers without loading anything else.
import { readFileSync } from 'node:fs';

const argv = process.argv.slice(2);
// A closed pipe (`cms item list | head`) is a normal way for output to end, not a crash.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else {
  let main;
  try {
    ({ main } = await import('../dist/cli/main.js'));
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    process.stderr.write('error: cms is not built yet; run `npm install` (or `npm run build`) in the project first\n');
    process.exit(1);
  }
  process.exitCode = await main(argv);
}
