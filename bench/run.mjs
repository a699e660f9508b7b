#!/usr/bin/env node
// npm run bench: runs every benchmark script in bench/ in turn (each prints a Markdown table).
//   npm run bench -- startup        runs only bench/startup.mjs
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const scripts = readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && !['run.mjs', 'lib.mjs'].includes(f))
  .filter((f) => !only.length || only.includes(f.replace(/\.mjs$/, '')));
let failed = 0;
for (const script of scripts) {
  console.log(`\n## ${script}\n`);
  const res = spawnSync(process.execPath, [`${dir}${script}`], { stdio: 'inherit' });
  if (res.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
