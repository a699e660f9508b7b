// Workflow commands in the output of a CI runner. Under GitHub Actions the runner reads every line
// a step writes to stdout or stderr, and takes for a command (actions/runner ActionCommand.cs):
// - a line that starts with `::` once leading white space is trimmed (`::warning title=…::…`,
//   `::add-mask::…`, `::stop-commands::<token>`, which turns off every later command, cms's own
//   annotations included);
// - a line that holds `##[` anywhere (the legacy form, `##[error]…`), tried when the first fails.
// The runner compares with .NET's culture-aware StartsWith/IndexOf, which skip characters such as a
// variation selector, so "invisible" characters between or before the marks count as nothing.
// Text from the service or from files must never form either: under GITHUB_ACTIONS=true the output
// chokepoint (src/cli/io.ts) passes each stream through a CiLineGuard, which writes the one
// character that would complete a command escaped, the way the rest of that output escapes what it
// must not show raw: the second `:` of a line-leading `::` as `\x3a`, the `[` of `##[` as `\x5b`
// (`\u003a`/`\u005b` in JSON, which parses back to the same value; `&#x3a;`/`&#x5b;` in HTML, the
// same page). cms's own annotations (src/ops/runs/github-actions.ts) go through IO.workflowCommand.
//
// A stream is written in pieces (`"  "` then `"::warning::x\n"`): the guard remembers what the
// current line holds so far, as far as it matters: nothing but skipped characters, those and one
// colon, or a trailing `#` or `##` (with skipped characters between).

/** What the runner's trim and culture-aware comparisons may pass over: white space (not line ends), controls, marks, default-ignorable characters. */
const SKIPPED = String.raw`[[\p{White_Space}\p{Cc}\p{M}\p{Default_Ignorable_Code_Point}]--[\n\r]]`;
// Each starts with the character it replaces, the lookbehind after it: the engine then looks only
// at colons and brackets (a leading lookbehind ran at every position: 1.5 s for 4 MB of JSON).
/** The second colon of a line that would start with `::`. */
const LINE_COLON = new RegExp(String.raw`:(?<=(?:^|[\n\r])${SKIPPED}*:${SKIPPED}*:)`, 'gv');
/** The `[` of a `##[`. */
const HASH_BRACKET = new RegExp(String.raw`\[(?<=#${SKIPPED}*#${SKIPPED}*\[)`, 'gv');
const ONLY_SKIPPED = new RegExp(String.raw`^${SKIPPED}*$`, 'v');
const ONE_COLON = new RegExp(String.raw`^${SKIPPED}*:${SKIPPED}*$`, 'v');
const TWO_HASHES = new RegExp(String.raw`#${SKIPPED}*#${SKIPPED}*$`, 'v');
const ONE_HASH = new RegExp(String.raw`#${SKIPPED}*$`, 'v');

export type OutputKind = 'text' | 'json' | 'html';

const ESCAPED: Record<OutputKind, { colon: string; bracket: string }> = {
  text: { colon: '\\x3a', bracket: '\\x5b' },
  json: { colon: '\\u003a', bracket: '\\u005b' },
  html: { colon: '&#x3a;', bracket: '&#x5b;' },
};

/** Whether the runner of this environment reads workflow commands from the output (GitHub Actions). */
export function inGitHubActions(env: NodeJS.ProcessEnv): boolean {
  return env.GITHUB_ACTIONS === 'true';
}

/** One output stream's guard: what the current line holds so far, reduced to what can still complete a command. */
export class CiLineGuard {
  /** '' (a line start: nothing or skipped characters), ':' (and one colon), 'x' (anything else), 'x#', 'x##' (ending in one or two `#`). */
  private carry = '';

  /** The text to write instead of `text`, with every character that would complete a command escaped. */
  pass(text: string, kind: OutputKind): string {
    if (!text) return text;
    const carry = this.carry;
    const all = carry + text;
    const { colon, bracket } = ESCAPED[kind];
    // The carry holds no character either expression escapes (no second colon, no `[`): only the text's are replaced.
    const out = all.includes(':') || all.includes('[') ? all.replace(LINE_COLON, colon).replace(HASH_BRACKET, bracket) : all;
    this.carry = carryOf(out);
    return out.slice(carry.length);
  }

  /** Our own command line (ending in a newline): on a line of its own, passed as it is. */
  command(line: string): string {
    const before = this.carry === '' ? '' : '\n';
    this.carry = '';
    return before + line;
  }
}

function carryOf(text: string): string {
  const line = text.slice(Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r')) + 1);
  if (line === '') return '';
  // Most lines start with a visible ASCII character and hold no `#`: nothing to carry, no expression to run.
  const first = line.charCodeAt(0);
  if (first > 0x20 && first < 0x7f && first !== 0x3a && !line.includes('#')) return 'x';
  if (ONLY_SKIPPED.test(line)) return '';
  if (ONE_COLON.test(line)) return ':';
  if (TWO_HASHES.test(line)) return 'x##';
  if (ONE_HASH.test(line)) return 'x#';
  return 'x';
}
