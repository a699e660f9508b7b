// Makes dist/bundle/cli/main.cjs.cache, the V8 code cache bin/cms.js compiles the bundle with:
// runs a few embedded commands in this process (their functions are then compiled) and saves
// what V8 compiled. Run by scripts/build.mjs in a child process with Node's default flags, as
// V8 accepts a cache only under the flags it was made with. Commands run on a throwaway sandbox
// and configuration, with their output discarded.
import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const file = join(root, 'dist', 'bundle', 'cli', 'main.cjs');
const home = mkdtempSync(join(tmpdir(), 'cms-code-cache-'));
for (const key of Object.keys(process.env)) if (key.startsWith('CMS_')) delete process.env[key];
Object.assign(process.env, { CMS_DATA_DIR: join(home, 'data'), CMS_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1' });
// What a command prints is not wanted here; what it compiles is.
process.stdout.write = () => true;
try {
  const { loadBundle } = createRequire(import.meta.url)('../bin/bundle.cjs');
  const bundle = loadBundle(file);
  const commands = [
    ['hub', 'create', '--name', 'cache', '--label', 'Cache'],
    ['hub', 'list'],
  ];
  for (const argv of commands) {
    const code = await bundle.exports.main(argv);
    if (code !== 0) throw new Error(`cms ${argv.join(' ')} exited ${code}`);
  }
  writeFileSync(`${file}.cache.tmp`, bundle.makeCache());
  renameSync(`${file}.cache.tmp`, `${file}.cache`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
