// npm run generate: writes what is generated from the command tree (completions/ and
// docs/commands.md). Run after `npm run build`; a test fails while they are stale.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'dist', 'cli', 'manifest.json'), 'utf8'));
const { completionScript, referenceMarkdown, SHELLS } = await import(pathToFileURL(join(root, 'dist', 'cli', 'completion.js')).href);

mkdirSync(join(root, 'completions'), { recursive: true });
const ext = { bash: 'bash', zsh: 'zsh', fish: 'fish', powershell: 'ps1' };
for (const shell of SHELLS) writeFileSync(join(root, 'completions', `cms.${ext[shell]}`), completionScript(manifest, shell));
writeFileSync(join(root, 'docs', 'commands.md'), referenceMarkdown(manifest));
console.log(`wrote completions/cms.{${SHELLS.map((s) => ext[s]).join(',')}} and docs/commands.md`);
