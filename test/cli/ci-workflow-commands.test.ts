import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliHome } from '../helpers/cli.js';

// Issue 32 point 6 through the built binary: under GITHUB_ACTIONS=true, text from the service
// (labels printed by --query, -o yaml, tables, records, JSON, errors) never starts an output line
// with `::` nor holds `##[`, which the runner would take for a workflow command; elsewhere the same
// text is printed unchanged. cms's own annotations: test/cli/github-actions.test.ts.

const home = new CliHome();
const github = { GITHUB_ACTIONS: 'true' };
const SKIPPED = new RegExp(String.raw`[[\p{White_Space}\p{Cc}\p{M}\p{Default_Ignorable_Code_Point}]--[\n\r]]`, 'gv');
/** Output lines the runner would read as a command (its rule, made stricter: skipped characters removed first). */
const commands = (output: string) =>
  output.split(/\r\n|\r|\n/).filter((line) => {
    const bare = line.replace(SKIPPED, '');
    return bare.startsWith('::') || bare.includes('##[');
  });

const LABELS = ['::warning title=Deploy::pwned', '::stop-commands::tok', '\u00a0::add-mask::secret', '\ufe0f::error::selector', 'x ##[error]legacy', 'two\n::set-output name=a::b'];

beforeAll(async () => {
  for (const [i, label] of LABELS.entries()) {
    const res = await home.run(['hub', 'create', '--name', `ci-${i}`, '--label', label]);
    expect(res.exitCode, res.stderr).toBe(0);
  }
});
afterAll(() => home.cleanup());

describe('service text under GitHub Actions forms no workflow command', () => {
  const outputs: [string, string[]][] = [
    ['--query', ['hub', 'list', '--query', '[].label']],
    ['-o yaml', ['hub', 'list', '-o', 'yaml']],
    ['table', ['hub', 'list']],
    ['-o json', ['hub', 'list', '-o', 'json']],
    ['ndjson', ['hub', 'list', '-o', 'ndjson']],
    ['a field of a record', ['hub', 'get', 'ci-5', '--query', 'label']],
  ];
  for (const [name, args] of outputs) {
    it(`${name}: the labels are printed, none as a command`, async () => {
      const plain = await home.run(args);
      expect(plain.exitCode, plain.stderr).toBe(0);
      // Without GitHub Actions the same output does form commands (what the guard is for)...
      if (name !== '-o json' && name !== 'ndjson') expect(commands(plain.stdout).length).toBeGreaterThan(0);
      const res = await home.run(args, { env: github });
      expect(res.exitCode, res.stderr).toBe(0);
      // ...and under it none does.
      expect(commands(res.stdout), res.stdout).toEqual([]);
      expect(commands(res.stderr)).toEqual([]);
      if (name === '-o json') expect(JSON.parse(res.stdout).map((h: { label: string }) => h.label).sort()).toEqual([...LABELS].sort());
    });
  }

  it('an error naming what the user typed', async () => {
    const res = await home.run(['hub', 'get', 'nope\n::warning::from an argument\n##[error]x'], { env: github });
    expect(res.exitCode).toBe(1);
    expect(commands(res.stderr), res.stderr).toEqual([]);
    const json = await home.run(['hub', 'get', 'nope ##[error]x', '-o', 'json'], { env: github });
    expect(commands(json.stderr), json.stderr).toEqual([]);
    expect(JSON.parse(json.stderr).error.message).toContain('##[error]x');
  });
});
