import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';
import { SHELLS, completionScript, referenceMarkdown } from '../../src/cli/completion.js';
import type { Manifest } from '../../src/cli/define.js';

const root = join(import.meta.dirname, '..', '..');
const manifest = () => JSON.parse(readFileSync(join(root, 'dist', 'cli', 'manifest.json'), 'utf8')) as Manifest;

describe('generated completions and reference', () => {
  it('completions/ and docs/commands.md are up to date with the command tree (run `npm run generate`)', () => {
    const m = manifest();
    const ext = (shell: string) => (shell === 'powershell' ? 'ps1' : shell);
    for (const shell of SHELLS) expect(readFileSync(join(root, 'completions', `cms.${ext(shell)}`), 'utf8'), `completions/cms.${ext(shell)} is stale: run npm run generate`).toBe(completionScript(m, shell));
    expect(readFileSync(join(root, 'docs', 'commands.md'), 'utf8'), 'docs/commands.md is stale: run npm run generate').toBe(referenceMarkdown(m));
  });

  it('every visible command has a description and an example in the reference', () => {
    const m = manifest();
    const doc = referenceMarkdown(m);
    for (const c of m.commands.filter((x) => !x.hidden)) {
      expect(c.summary.length, c.path.join(' ')).toBeGreaterThan(5);
      expect(c.examples.length, c.path.join(' ')).toBeGreaterThan(0);
      expect(doc).toContain(`### cms ${c.path.join(' ')}\n`);
    }
  });
});

describe('cms completion and __complete', () => {
  const home = new CliHome();
  beforeAll(async () => {
    await home.run(['hub', 'create', '--name', 'alpha', '--label', 'A']);
    await home.run(['hub', 'create', '--name', 'beta', '--label', 'B']);
    await home.run(['repo', 'create', '--hub', 'alpha', '--name', 'articles', '--label', 'Articles']);
  });
  afterAll(() => home.cleanup());

  it('prints each shell script; an unknown shell is a usage error', async () => {
    for (const shell of SHELLS) {
      const res = await home.run(['completion', shell]);
      expect(res.exitCode).toBe(0);
      expect(res.stdout).toBe(completionScript(manifest(), shell));
    }
    expect((await home.run(['completion', 'tcsh'])).exitCode).toBe(2);
  });

  it('__complete lists identifiers of the current profile and stays silent on errors', async () => {
    const slow = { CMS_COMPLETE_TIMEOUT_MS: '30000' };
    const words = async (args: string[]) => (await home.run(args, { env: slow })).stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]).sort();
    expect(await words(['__complete', 'hubs'])).toEqual(['alpha', 'beta']);
    expect(await words(['__complete', 'repositories', '--hub', 'alpha'])).toEqual(['articles']);
    const broken = await home.run(['__complete', 'repositories'], { env: { CMS_API_URL: 'http://127.0.0.1:9', CMS_CLIENT_ID: 'x', CMS_CLIENT_SECRET: 'y' } });
    expect(broken).toMatchObject({ exitCode: 0, stderr: '' });
    expect(broken.stdout.trim()).toBe('');
  });

  it('bash completes nouns, verbs, options, enum values and hub names', async () => {
    const script = (await home.run(['completion', 'bash'])).stdout;
    const complete = (line: string) => {
      const words = line.split(' ');
      const program = `${script}\ncms() { node ${join(root, 'bin', 'cms.js')} "$@"; }\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _cms_complete; printf '%s\\n' "\${COMPREPLY[@]}"`;
      // A generous deadline: a loaded test machine must not be mistaken for a broken completion.
      return execFileSync('bash', ['-c', program], { env: { ...process.env, ...home.env, CMS_COMPLETE_TIMEOUT_MS: '30000' }, encoding: 'utf8' }).split('\n').filter(Boolean);
    };
    expect(complete('cms re')).toEqual(['repo']);
    expect(complete('cms hub ')).toEqual(expect.arrayContaining(['list', 'get', 'create', 'delete']));
    expect(complete('cms hub list --l')).toEqual(['--limit']);
    expect(complete('cms hub list -o ')).toEqual(['table', 'wide', 'json', 'ndjson', 'yaml']);
    expect(complete('cms hub get ').sort()).toEqual(['alpha', 'beta']);
    expect(complete('cms repo list --hub a')).toEqual(['alpha']);
    expect(complete('cms completion ')).toEqual(['bash', 'zsh', 'fish', 'powershell']);
  });
});
