import { spawn } from 'node:child_process';
import { CliError, UsageError } from '../core/errors.js';

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
