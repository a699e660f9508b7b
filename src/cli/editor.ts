import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { CliError, ExitCode, UsageError } from '../core/errors.js';

/** The user's editor as words: VISUAL, else EDITOR; null when neither is set. */
export function editorCommand(env: NodeJS.ProcessEnv): string[] | null {
  const value = (env.VISUAL || env.EDITOR || '').trim();
  return value ? splitWords(value) : null;
}

/**
 * Splits a command line into words as a POSIX shell would (single and double quotes, backslash
 * escapes), without expanding anything: the editor is run directly, never through `sh -c`, so
 * `;`, `$()` or globs in EDITOR are plain characters.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === '\\' && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (c === '\\' && i + 1 < text.length) {
      word = (word ?? '') + text[++i];
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else word = (word ?? '') + c;
  }
  if (quote) throw new UsageError(`The editor command has an unclosed ${quote}: ${text}`, 'Fix VISUAL or EDITOR, e.g. EDITOR="code --wait".');
  if (word !== null) words.push(word);
  return words;
}

/**
 * Runs the editor on a file and waits for it; its exit status. Ctrl-C belongs to the editor
 * while it runs (vi uses it), so this process ignores SIGINT until the editor exits.
 */
export async function runEditor(words: readonly string[], file: string): Promise<number> {
  const saved = process.listeners('SIGINT');
  process.removeAllListeners('SIGINT');
  const ignore = () => {};
  process.on('SIGINT', ignore);
  try {
    return await new Promise<number>((resolve, reject) => {
      const child = spawn(words[0]!, [...words.slice(1), file], { stdio: 'inherit' });
      child.on('error', (err) => reject(new CliError(`Cannot run the editor '${words[0]}': ${(err as NodeJS.ErrnoException).code ?? err.message}`, 1, 'Set VISUAL or EDITOR to an editor on your PATH.')));
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
    });
  } finally {
    process.off('SIGINT', ignore);
    for (const l of saved) process.on('SIGINT', l as () => void);
  }
}

/** Rounds of "reopen to fix it" before giving up: a script as EDITOR could write the same mistake forever. */
export const MAX_EDIT_ROUNDS = 5;
const COMMENT = '#';

/**
 * Opens `file` in the editor until `check` accepts what was written, like `kubectl edit`: when
 * `check` refuses the text as invalid input (exit 2: not JSON, a schema error), the editor opens
 * again on the text as written, with the error as `#` lines on top (dropped again before
 * checking). Saving the same text again (or MAX_EDIT_ROUNDS) gives up with that error, the file
 * holding the text without the error lines; any other failure ends at once.
 */
export async function editUntilValid<T>(words: readonly string[], file: string, check: (text: string) => Promise<T>, say: (message: string) => void): Promise<T> {
  let previous: string | null = null;
  for (let round = 1; ; round++) {
    const status = await runEditor(words, file);
    if (status !== 0) throw new CliError(`The editor (${words[0]}) exited with status ${status}: nothing was saved`);
    const text = withoutErrorLines(readFileSync(file, 'utf8'));
    try {
      return await check(text);
    } catch (err) {
      const retry = err instanceof CliError && err.exitCode === ExitCode.USAGE && text !== previous && round < MAX_EDIT_ROUNDS;
      writeFileSync(file, retry ? `${errorLines(err as CliError)}${text}` : text, { mode: 0o600 });
      if (!retry) throw err;
      previous = text;
      say(`error: ${(err as CliError).message}\n  Reopening the editor to fix it (save it unchanged to give up).\n`);
    }
  }
}

function errorLines(err: CliError): string {
  const lines = ['The edit was not saved: fix it and save, or save it unchanged to give up.', ...err.message.split('\n'), ...(err.hint ? [err.hint] : [])];
  return `${lines.map((l) => `${COMMENT} ${l.trim()}`).join('\n')}\n`;
}

/** The text without the error lines put on top of it (JSON has no comments: `#` starts none of its lines). */
function withoutErrorLines(text: string): string {
  const lines = text.split('\n');
  let i = 0;
  while (i < lines.length && lines[i]!.trimStart().startsWith(COMMENT)) i++;
  return lines.slice(i).join('\n');
}
