// Bundles the sandbox console (src/console, preact + chart.js) into dist/console/app.js and
// app.css with esbuild: no framework build, one script and one stylesheet the sandbox serves.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'console');

export async function buildConsole() {
  rmSync(out, { recursive: true, force: true });
  await build({
    entryPoints: { app: join(root, 'src', 'console', 'main.tsx') },
    outdir: out,
    // Views loaded on demand (Search and its chart.js) become chunks next to app.js.
    splitting: true,
    chunkNames: 'chunk-[hash]',
    bundle: true,
    format: 'esm',
    target: 'es2022',
    minify: true,
    jsx: 'automatic',
    jsxImportSource: 'preact',
    legalComments: 'none',
    logLevel: 'warning',
  });
  await build({ entryPoints: [join(root, 'src', 'console', 'app.css')], outfile: join(out, 'app.css'), bundle: true, minify: true, logLevel: 'warning' });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildConsole();
