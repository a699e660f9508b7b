// Bundles the sandbox console (src/console, preact + chart.js) into dist/console/app.js and
// app.css with esbuild: no framework build, one script and one stylesheet the sandbox serves.
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'console');

export async function buildConsole() {
  await build({
    entryPoints: [join(root, 'src', 'console', 'main.tsx')],
    outfile: join(out, 'app.js'),
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
