#!/usr/bin/env node
// Startup time of `cms` against bare node, measured in one run on the same machine.
// Rounds interleave the commands in a shuffled order so background noise spreads evenly;
// the result is each command's median divided by the median of `node -e 0`.
//   node bench/startup.mjs [--rounds 30] [--json]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'cms.js');
const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 30;
const home = mkdtempSync(join(tmpdir(), 'cms-bench-startup-'));
const env = { ...process.env, CMS_DATA_DIR: join(home, 'data'), CMS_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1' };

const cases = [
  { name: 'node -e 0', argv: ['-e', '0'] },
  { name: 'cms --version', argv: [bin, '--version'], target: 1.5 },
  { name: 'cms --help', argv: [bin, '--help'], target: 1.5 },
  { name: 'cms hub list', argv: [bin, 'hub', 'list'], target: 2.5 },
];

// A hub to list, and a warm sandbox database (created once, as after a first command).
const seed = spawnSync(process.execPath, [bin, 'hub', 'create', '--name', 'bench', '--label', 'Bench'], { env, encoding: 'utf8' });
if (seed.status !== 0) throw new Error(`seeding failed: ${seed.stderr}`);

const samples = new Map(cases.map((c) => [c.name, []]));
for (let r = 0; r < rounds + 2; r++) {
  const order = [...cases].sort(() => Math.random() - 0.5);
  for (const c of order) {
    const t0 = process.hrtime.bigint();
    const res = spawnSync(process.execPath, c.argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (res.status !== 0) throw new Error(`${c.name} failed: ${res.stderr}`);
    if (r >= 2) samples.get(c.name).push(ms); // two warm-up rounds
  }
}
rmSync(home, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const base = median(samples.get('node -e 0'));
const rows = cases.map((c) => {
  const m = median(samples.get(c.name));
  const ratio = m / base;
  return { command: c.name, medianMs: +m.toFixed(1), ratio: +ratio.toFixed(2), target: c.target ?? null, ok: c.target ? ratio <= c.target : null };
});
if (args.includes('--json')) console.log(JSON.stringify({ rounds, node: process.version, rows }, null, 2));
else {
  console.log(`startup, ${rounds} interleaved rounds, node ${process.version}\n`);
  console.log('| command | median ms | x node -e 0 | target | |');
  console.log('|---|---:|---:|---:|---|');
  for (const r of rows) console.log(`| \`${r.command}\` | ${r.medianMs} | ${r.ratio} | ${r.target ? `<= ${r.target}` : ''} | ${r.ok === null ? '' : r.ok ? 'ok' : 'OVER'} |`);
}
