import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIN, CliHome } from '../helpers/cli.js';

// Completion words come from the service: a hostile repository, hub or event name must be offered
// literally (inserted quoted, never evaluated) by bash, zsh and fish. Real shells run the
// generated scripts; `cms` is a shell function running the built binary in a scratch directory,
// which must stay empty (every hostile name tries to create a file there).

const HOSTILE = [
  'x$(touch${IFS}pwned1)',
  'x`touch pwned2`',
  'x;touch pwned3',
  'x|touch pwned4',
  'x&&touch pwned5',
  `it's "quoted"`,
  '*',
  'g?[ab]*',
  '$HOME',
  '~root',
  '{a,b}',
  'back\\slash',
  'with space',
  'x:y=z',
  '$(touch pwned6)',
  'ns:$(touch pwned8) x',
];
/**
 * Names that are not plain words, offered by id only: a shell cannot show them as one word,
 * (a leading -) they are an option to cms even once inserted quoted (issue 24.13), or (a bidi
 * control) the output chokepoint prints them escaped, which would not read back as the name.
 */
const CONTROL = ['line\nbreak$(touch pwned7)', 'tab\there', '-rf', '--profile=prod', 'invoice\u202Efdp.exe'];

const home = new CliHome();
const slow = { CMS_COMPLETE_TIMEOUT_MS: '30000' };
let scratch: string;
/** The shells' own HOME (fish writes its settings there). */
const shellHome = mkdtempSync(join(tmpdir(), 'cms-complete-home-'));
const repoIds = new Map<string, string>();
let eventId: string;

beforeAll(async () => {
  // Two hubs: without --hub on the line there is no default hub, so `--hub site` must be honoured.
  await home.json(['hub', 'create', '--name', 'other', '--label', 'Other']);
  await home.json(['hub', 'create', '--name', 'site', '--label', '$(touch pwned-label)`id`']);
  for (const name of [...HOSTILE, ...CONTROL]) {
    const repo = await home.json<{ id: string }>(['repo', 'create', '--hub', 'site', `--name=${name}`, `--label=label $(touch pwned-l) ${name}`]);
    repoIds.set(name, repo.id);
  }
  eventId = (await home.json<{ id: string }>(['event', 'create', '--hub', 'site', '--name', 'x$(touch pwned-event)', '--start', '2030-01-01T00:00:00Z', '--end', '2030-01-02T00:00:00Z'])).id;
}, 120_000);
afterAll(() => home.cleanup());

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cms-complete-'));
});
afterEach(() => {
  // Nothing ran: the scratch directory holds only the script the test wrote.
  expect(readdirSync(scratch).filter((f) => !f.startsWith('script.'))).toEqual([]);
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(shellHome, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({ ...process.env, ...home.env, ...slow, HOME: shellHome, ...extra });
const script = async (shell: string) => {
  const res = await home.run(['completion', shell]);
  expect(res.exitCode).toBe(0);
  const file = join(scratch, `script.${shell}`);
  writeFileSync(file, res.stdout);
  return file;
};
const expected = (prefix = '') => [...HOSTILE.filter((n) => n.startsWith(prefix)), ...(prefix ? [] : CONTROL.map((n) => repoIds.get(n)!))].sort();

describe('bash', () => {
  /**
   * COMPREPLY of a line, each entry as the shell would read it back once inserted. `line` is
   * COMP_LINE when the words are not simply the line split at spaces (bash splits `a:b` into
   * `a`, `:`, `b`: ':' is in COMP_WORDBREAKS).
   */
  const complete = async (words: string[], extra: Record<string, string> = {}, line = words.join(' ')) => {
    const file = await script('bash');
    const program = `source ${file}
cms() { node ${BIN} "$@"; }
COMP_LINE=$1; shift
COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_POINT=\${#COMP_LINE}
_cms_complete
: > ${scratch}/script.reply
if ((\${#COMPREPLY[@]})); then printf '%s\\0' "\${COMPREPLY[@]}" > ${scratch}/script.reply; fi`;
    execFileSync('bash', ['-c', program, 'bash', line, ...words], { cwd: scratch, env: env(extra) });
    const reply = readReply();
    // What the user runs after accepting a candidate: the word must read back as the name.
    const readBack = reply.map((w) => execFileSync('bash', ['-c', `printf '%s\\0' ${w}`], { cwd: scratch, env: env(), encoding: 'utf8' }).split('\0').slice(0, -1));
    for (const r of readBack) expect(r).toHaveLength(1);
    return readBack.map((r) => r[0]!).sort();
  };
  const readReply = () => {
    const text = execFileSync('cat', [join(scratch, 'script.reply')], { encoding: 'utf8' });
    rmSync(join(scratch, 'script.reply'));
    return text.split('\0').slice(0, -1);
  };

  it('offers hostile repository names literally, in the hub typed on the line', async () => {
    expect(await complete(['cms', 'item', 'list', '--hub', 'site', '--repo', ''])).toEqual(expected());
  });

  it('runs nothing with the hub from the environment (the reported attack)', async () => {
    expect(await complete(['cms', 'item', 'list', '--repo', ''], { CMS_HUB: 'site' })).toEqual(expected());
  });

  it('filters by the typed prefix without expanding it', async () => {
    expect(await complete(['cms', 'item', 'list', '--hub', 'site', '--repo', 'x'])).toEqual(expected('x'));
  });

  it("completes a name holding ':' from the words bash split it into, offering only what follows the ':'", async () => {
    // Bash replaces only the text after the last ':' (a COMP_WORDBREAKS character).
    const line = 'cms item list --hub site --repo';
    expect(await complete([...line.split(' '), 'x', ':'], {}, `${line} x:`)).toEqual(['y=z']);
    expect(await complete([...line.split(' '), 'x', ':', 'y'], {}, `${line} x:y`)).toEqual(['y=z']);
    expect(await complete([...line.split(' '), 'ns', ':'], {}, `${line} ns:`)).toEqual(['$(touch pwned8) x']);
    // A ':' after a space starts a word of its own: nothing starts with it.
    expect(await complete([...line.split(' '), 'x', ':'], {}, `${line} x :`)).toEqual([]);
  });

  it("completes the value of --opt=value from the words bash split at '='", async () => {
    // '=' is in COMP_WORDBREAKS too: `--repo=x` arrives as `--repo`, `=`, `x`.
    const line = 'cms item list --hub site';
    const words = line.split(' ');
    expect(await complete([...words, '--repo', '='], {}, `${line} --repo=`)).toEqual(expected());
    expect(await complete([...words, '--repo', '=', 'x'], {}, `${line} --repo=x`)).toEqual(expected('x'));
    expect(await complete([...words, '--repo', '=', 'x', ':'], {}, `${line} --repo=x:`)).toEqual(['y=z']);
    expect(await complete([...words, '--repo', '=', 'x', ':', 'y', '='], {}, `${line} --repo=x:y=`)).toEqual(['z']);
    // --hub=site earlier on the line is the hub the names come from.
    expect(await complete(['cms', 'item', 'list', '--hub', '=', 'site', '--repo', ''], {}, 'cms item list --hub=site --repo ')).toEqual(expected());
    expect(await complete(['cms', 'hub', 'get', '--output', '='], {}, 'cms hub get --output=')).toEqual(['json', 'ndjson', 'table', 'wide', 'yaml'].sort());
    // An option that takes no value offers nothing after '='; nor does a short one (-o=json is not -o json).
    expect(await complete(['cms', 'hub', 'list', '--debug', '='], {}, 'cms hub list --debug=')).toEqual([]);
    expect(await complete(['cms', 'hub', 'get', '-o', '='], {}, 'cms hub get -o=')).toEqual([]);
  });

  it('honours --profile and --hub wherever they are on the line, and hub names', async () => {
    expect(await complete(['cms', 'repo', 'get', '--hub', 'site', ''])).toEqual(expected());
    expect(await complete(['cms', 'hub', 'get', ''])).toEqual(['other', 'site']);
  });
});

describe('bash line editor', () => {
  // The real thing: an interactive bash in a pseudo-terminal (driven by zsh/zpty) types a line and
  // TAB; a key bound after it writes the edited line. bash splits words at COMP_WORDBREAKS (':').
  const completeLine = async (typed: string) => {
    const file = await script('bash');
    const setup = join(scratch, 'script.setup.bash');
    writeFileSync(
      setup,
      `PS1='> '
cms() { node ${BIN} "$@"; }
source ${file}
dump() { printf '%s' "$READLINE_LINE" > ${scratch}/script.line; }
bind -x '"\\C-x": dump'
`,
    );
    const driver = `zmodload zsh/zpty
zpty z 'bash --norc --noprofile -i'
zpty -w z "source ${setup}; echo RE''ADY"
zpty -r z out '*READY*'
zpty -w -n z "$1"$'\t\x18'
for i in {1..600}; do [[ -e ${scratch}/script.line ]] && break; sleep 0.1; done
zpty -d z`;
    execFileSync('zsh', ['-f', '-c', driver, 'zsh', typed], { cwd: scratch, env: env({ INPUTRC: '/dev/null' }) });
    const line = execFileSync('cat', [join(scratch, 'script.line')], { encoding: 'utf8' });
    rmSync(join(scratch, 'script.line'));
    return line;
  };
  /** The words of an edited line as bash reads them (in the scratch directory: nothing may run). */
  const readBack = (line: string) => execFileSync('bash', ['-c', `printf '%s\\0' ${line}`], { cwd: scratch, env: env(), encoding: 'utf8' }).split('\0').slice(0, -1);

  it("inserts the rest of a name holding ':' once, quoted", async () => {
    const typed = 'cms item list --hub site --repo';
    for (const [prefix, name] of [['x:', 'x:y=z'], ['x:y', 'x:y=z'], ['ns:', 'ns:$(touch pwned8) x'], ['ns', 'ns:$(touch pwned8) x']]) {
      const line = await completeLine(`${typed} ${prefix}`);
      expect(line.startsWith(`${typed} ${prefix}`), line).toBe(true);
      expect(readBack(line).at(-1), line).toBe(name);
    }
  });

  it('completes --repo=<prefix> and --hub=<prefix>, keeping what was typed', async () => {
    const line = await completeLine('cms item list --hub=si');
    expect(line).toBe('cms item list --hub=site ');
    const withRepo = await completeLine('cms item list --hub=site --repo=x:y');
    expect(withRepo.startsWith('cms item list --hub=site --repo=x:y'), withRepo).toBe(true);
    expect(readBack(withRepo).at(-1)).toBe('--repo=x:y=z');
  });
});

describe('zsh', () => {
  // Completion widgets only run inside the line editor; a function named compadd (functions come
  // before builtins) records what the script hands zsh, which quotes each word on insertion.
  const complete = async (words: string[]) => {
    const file = await script('zsh');
    const program = `compdef() { :; }
source ${file}
cms() { node ${BIN} "$@"; }
compadd() { printf '%s\\0' "$@" > ${scratch}/script.args; local d=\${@[\${@[(i)-d]}+1]}; printf '%s\\0' "\${(@P)d}" > ${scratch}/script.desc; }
words=("$@"); CURRENT=$#
_cms`;
    execFileSync('zsh', ['-f', '-c', program, 'zsh', ...words], { cwd: scratch, env: env() });
    const args = execFileSync('cat', [join(scratch, 'script.args')], { encoding: 'utf8' }).split('\0').slice(0, -1);
    const shown = execFileSync('cat', [join(scratch, 'script.desc')], { encoding: 'utf8' }).split('\0').slice(0, -1);
    rmSync(join(scratch, 'script.args'));
    rmSync(join(scratch, 'script.desc'));
    return { args, shown };
  };

  it('hands compadd literal words (no -Q, no -U) with labels and ids as descriptions', async () => {
    const { args, shown } = await complete(['cms', 'item', 'list', '--hub', 'site', '--repo', '']);
    expect(args).not.toContain('-Q');
    expect(args).not.toContain('-U');
    const words = args.slice(args.indexOf('--') + 1).sort();
    expect(words).toEqual(expected());
    // What zsh lists (-d) carries each id.
    expect(shown).toHaveLength(words.length);
    for (const [name, id] of repoIds) expect(shown.some((d) => d.includes(id)), name).toBe(true);
  });

  it('honours --hub typed as --hub=site, and the positional argument after a value option', async () => {
    const { args } = await complete(['cms', 'repo', 'get', '--hub=site', '']);
    expect(args.slice(args.indexOf('--') + 1).sort()).toEqual(expected());
  });
});

describe('zsh line editor', () => {
  // The real thing: an interactive zsh in a pseudo-terminal (zsh/zpty) types a prefix and TAB;
  // a key bound after it writes the last word of the edited line, unquoted by zsh itself.
  const completeLine = async (typed: string) => {
    const file = await script('zsh');
    const setup = join(scratch, 'script.setup.zsh');
    writeFileSync(
      setup,
      `PS1='> '
autoload -U compinit; compinit -u -D
cms() { node ${BIN} "$@"; }
source ${file}
dump() { print -rn -- "\${(Q)\${(z)BUFFER}[-1]}" > ${scratch}/script.line; }
zle -N dump; bindkey '^X' dump
`,
    );
    const driver = `zmodload zsh/zpty
zpty z 'zsh -f -i'
zpty -w z 'source ${setup}'
zpty -w -n z "$1"$'\t\x18'
for i in {1..600}; do [[ -e ${scratch}/script.line ]] && break; sleep 0.1; done
zpty -d z`;
    execFileSync('zsh', ['-f', '-c', driver, 'zsh', typed], { cwd: scratch, env: env() });
    const line = execFileSync('cat', [join(scratch, 'script.line')], { encoding: 'utf8' });
    rmSync(join(scratch, 'script.line'));
    return line;
  };

  it('inserts a hostile name quoted: the line reads back as the name', async () => {
    expect(await completeLine('cms item list --hub site --repo x\\$\\(')).toBe('x$(touch${IFS}pwned1)');
    expect(await completeLine('cms item list --hub site --repo x\\;')).toBe('x;touch pwned3');
    expect(await completeLine("cms item list --hub site --repo it")).toBe(`it's "quoted"`);
  });
});

describe('fish', () => {
  const complete = async (line: string) => {
    const file = await script('fish');
    const program = `source ${file}
function cms; node ${BIN} $argv; end
complete -C ${fishQuote(line)}`;
    const out = execFileSync('fish', ['--no-config', '-c', program], { cwd: scratch, env: env(), encoding: 'utf8' });
    return out.split('\n').filter(Boolean).map((l) => l.split('\t') as [string, string?]);
  };
  const fishQuote = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

  it('offers hostile names literally with labels and ids as descriptions', async () => {
    const got = await complete('cms item list --hub site --repo ');
    expect(got.map(([w]) => w).sort()).toEqual(expected());
    const first = got.find(([w]) => w === HOSTILE[0]);
    expect(first?.[1]).toContain(repoIds.get(HOSTILE[0]!));
  });

  it('offers events by name with their id as description', async () => {
    const got = await complete('cms event get --hub site ');
    expect(got.map(([w]) => w)).toEqual(['x$(touch pwned-event)']);
    expect(got[0]![1]).toContain(eventId);
  });
});

describe('__complete', () => {
  it('prints word<TAB>description lines; names with control characters are offered by id', async () => {
    const res = await home.run(['__complete', 'repositories', '--hub', 'site'], { env: slow });
    const lines = res.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(HOSTILE.length + CONTROL.length);
    for (const line of lines) expect(line).not.toMatch(/[\x00-\x08\x0a-\x1f\x7f]/);
    expect(lines.map((l) => l.split('\t')[0]).sort()).toEqual(expected());
  });
});
