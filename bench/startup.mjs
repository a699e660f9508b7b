#!/usr/bin/env node
// Startup time of `cms` against bare node, measured in one run on the same machine.
// Rounds interleave the commands in a shuffled order so background noise spreads evenly;
// the result is each command's median divided by the median of `node -e 0`. `cms` runs the
// bundled build (dist/bundle, what bin/cms.js loads); the rows marked "unbundled" run the same
// commands from the TypeScript compiler's output (dist/cli/main.js), for comparison.
//   node bench/startup.mjs [--rounds 30] [--json]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'cms.js');
const args = process.argv.slice(2);
const rounds = Number(args[args.indexOf('--rounds') + 1]) || 30;
const home = mkdtempSync(join(tmpdir(), 'cms-bench-startup-'));
const env = { ...process.env, CMS_DATA_DIR: join(home, 'data'), CMS_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1' };

const unbundled = (...argv) => ['--input-type=module', '-e', `const { main } = await import(${JSON.stringify(join(root, 'dist', 'cli', 'main.js'))}); process.exitCode = await main(process.argv.slice(1));`, ...argv];
const cases = [
  { name: 'node -e 0', argv: ['-e', '0'] },
  { name: 'cms --version', argv: [bin, '--version'], target: 1.5 },
  { name: 'cms --help', argv: [bin, '--help'], target: 1.2 },
  { name: 'cms hub list', argv: [bin, 'hub', 'list'], target: 1.8 },
  { name: 'cms --help (unbundled)', argv: unbundled('--help') },
  { name: 'cms hub list (unbundled)', argv: unbundled('hub', 'list') },
];

// CPU time of each run as well (user + system, from the process itself at exit): on a shared,
// busy machine wall time also counts waiting for a core, CPU time does not.
const cpuHook = join(home, 'cpu.cjs');
writeFileSync(cpuHook, "process.on('exit', () => { const u = process.cpuUsage(); require('fs').writeSync(2, `\\ncpu-us ${u.user + u.system}\\n`); });\n");

// A hub to list, and a warm sandbox database (created once, as after a first command).
const seed = spawnSync(process.execPath, [bin, 'hub', 'create', '--name', 'bench', '--label', 'Bench'], { env, encoding: 'utf8' });
if (seed.status !== 0) throw new Error(`seeding failed: ${seed.stderr}`);

const samples = new Map(cases.map((c) => [c.name, []]));
const cpu = new Map(cases.map((c) => [c.name, []]));
for (let r = 0; r < rounds + 2; r++) {
  const order = [...cases].sort(() => Math.random() - 0.5);
  for (const c of order) {
    const t0 = process.hrtime.bigint();
    const res = spawnSync(process.execPath, ['--require', cpuHook, ...c.argv], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (res.status !== 0) throw new Error(`${c.name} failed: ${res.stderr}`);
    if (r < 2) continue; // two warm-up rounds
    samples.get(c.name).push(ms);
    cpu.get(c.name).push(Number(/cpu-us (\d+)/.exec(String(res.stderr))[1]) / 1000);
  }
}
rmSync(home, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const base = median(samples.get('node -e 0'));
const cpuBase = median(cpu.get('node -e 0'));
const rows = cases.map((c) => {
  const xs = samples.get(c.name);
  const m = median(xs);
  const ratio = m / base;
  const cpuMs = median(cpu.get(c.name));
  return { command: c.name, cpuMs: +cpuMs.toFixed(1), cpuRatio: +(cpuMs / cpuBase).toFixed(2), medianMs: +m.toFixed(1), minMs: +Math.min(...xs).toFixed(1), maxMs: +Math.max(...xs).toFixed(1), ratio: +ratio.toFixed(2), target: c.target ?? null, ok: c.target ? ratio <= c.target : null };
});
if (args.includes('--json')) console.log(JSON.stringify({ rounds, node: process.version, rows }, null, 2));
else {
  console.log(`startup, ${rounds} interleaved rounds, node ${process.version}\n`);
  console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  console.log('| command | median ms | min–max ms | x node -e 0 | target | | CPU ms (median) | CPU x node -e 0 |');
  console.log('|---|---:|---:|---:|---:|---|---:|---:|');
  for (const r of rows) console.log(`| \`${r.command}\` | ${r.medianMs} | ${r.minMs}–${r.maxMs} | ${r.ratio} | ${r.target ? `<= ${r.target}` : ''} | ${r.ok === null ? '' : r.ok ? 'met' : 'NOT met'} | ${r.cpuMs} | ${r.cpuRatio} |`);
}
