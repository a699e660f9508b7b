import { describe, expect, it } from 'vitest';
import { CiLineGuard } from '../../src/output/workflow-commands.js';

// Issue 32 point 6: under GitHub Actions no output forms a workflow command, however it is cut
// into writes. `forms` is the runner's rule (actions/runner ActionCommand.cs) made stricter: the
// characters its trim and culture-aware comparisons may skip are removed first.

const SKIPPED = new RegExp(String.raw`[[\p{White_Space}\p{Cc}\p{M}\p{Default_Ignorable_Code_Point}]--[\n\r]]`, 'gv');
const forms = (output: string) =>
  output.split(/\r\n|\r|\n/).filter((line) => {
    const bare = line.replace(SKIPPED, '');
    return bare.startsWith('::') || bare.includes('##[');
  });

const HOSTILE = [
  '::warning title=Deploy::pwned',
  '::stop-commands::tok',
  '  ::add-mask::secret',
  '\u00a0\u3000::error::wide space',
  '\t::notice::tab',
  '\ufe0f::error::a kept variation selector',
  ':\ufe0f:error::split by one',
  'a label ##[error]legacy',
  '#\ufe0f#[warning]split',
  'ok\n::set-output name=x::y',
  'ok\r::debug::carriage return',
  ':::three',
];

describe('CiLineGuard', () => {
  it('escapes the character that completes a command, in text, JSON and HTML', () => {
    for (const kind of ['text', 'json', 'html'] as const) {
      for (const s of HOSTILE) {
        const out = new CiLineGuard().pass(`${s}\n`, kind);
        expect(forms(out), `${kind}: ${JSON.stringify(s)} -> ${JSON.stringify(out)}`).toEqual([]);
      }
    }
    expect(new CiLineGuard().pass('::warning::x\n', 'text')).toBe(':\\x3awarning::x\n');
    expect(new CiLineGuard().pass('a ##[error]x\n', 'text')).toBe('a ##\\x5berror]x\n');
    // JSON stays JSON, and the same value.
    const json = new CiLineGuard().pass(`${JSON.stringify({ label: '##[error]x' })}\n`, 'json');
    expect(forms(json)).toEqual([]);
    expect(JSON.parse(json)).toEqual({ label: '##[error]x' });
  });

  it('whatever the writes are cut into: one character at a time, the marks split across writes', () => {
    for (const s of HOSTILE) {
      const guard = new CiLineGuard();
      const out = Array.from(`before\n${s}\nafter\n`, (c) => guard.pass(c, 'text')).join('');
      expect(forms(out), JSON.stringify(out)).toEqual([]);
    }
    const guard = new CiLineGuard();
    expect(['  ', ':', ':warning::x\n', 'x #', '#', '[y]\n'].map((w) => guard.pass(w, 'text')).join('')).toBe('  :\\x3awarning::x\nx ##\\x5by]\n');
  });

  it('leaves ordinary output alone, colons and brackets included', () => {
    const text = 'id\tlabel\nabc\tTime: 12:30 [draft] #1 ## not [a] command\n  key: value\n{"a": [1, 2]}\n';
    expect(new CiLineGuard().pass(text, 'text')).toBe(text);
  });

  it("writes cms's own command on a line of its own, as it is", () => {
    const guard = new CiLineGuard();
    expect(guard.pass('progress', 'text')).toBe('progress');
    expect(guard.command('::error title=x::y\n')).toBe('\n::error title=x::y\n');
    expect(guard.command('::error title=x::z\n')).toBe('::error title=x::z\n');
  });
});
