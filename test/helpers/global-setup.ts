import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

function newest(dir: string): number {
  let t = 0;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    const s = statSync(full);
    t = Math.max(t, s.isDirectory() ? newest(full) : s.mtimeMs);
  }
  return t;
}

/** CLI tests run the built bin/cms.js: rebuild dist/ when a source file is newer than what the last build saw. */
export default function setup(): void {
  let built = 0;
  try {
    built = (JSON.parse(readFileSync(join(root, 'dist', 'build-stamp.json'), 'utf8')) as { sourcesAt: number }).sourcesAt;
  } catch {
    /* not built yet */
  }
  if (built >= Math.max(newest(join(root, 'src')), statSync(join(root, 'package.json')).mtimeMs)) return;
  const res = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('build failed; fix the TypeScript errors above');
}
