import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../cli/context.js';
import { CliError, ExitCode } from '../../core/errors.js';
import { answers } from './_local.js';
import { isSameProcess, processStart, readNote as readNoteFile } from './_pid.js';

// Where the sandbox console is: `cms sandbox serve` notes its URL in the data directory it
// serves, so `cms sandbox console` and `cms browse` find it on whatever port it listens.

const SERVE_FILE = 'serve.json';
export const DEFAULT_PORT = 8787;

interface ServeNote {
  pid: number;
  url: string;
  /** When the process started (_pid.ts): a pid alone may be another process's after a crash. */
  processStart?: string;
}

export const serveNotePath = (dataDir: string) => join(dataDir, SERVE_FILE);

/** Notes the running server (0600, in the private data directory). */
export function noteServe(dataDir: string, url: string): void {
  const start = processStart(process.pid);
  writeFileSync(serveNotePath(dataDir), `${JSON.stringify({ pid: process.pid, url, ...(start ? { processStart: start } : {}) } satisfies ServeNote)}\n`, { mode: 0o600 });
}

/** Removes the note when it is this process's (another serve may have started since). */
export function forgetServe(dataDir: string): void {
  if (readNote(dataDir)?.pid === process.pid) rmSync(join(dataDir, SERVE_FILE), { force: true });
}

function readNote(dataDir: string): ServeNote | null {
  try {
    const note = JSON.parse(readNoteFile(serveNotePath(dataDir)) ?? '') as Partial<ServeNote>;
    if (typeof note.pid !== 'number' || typeof note.url !== 'string' || !/^http:\/\/[^/?#]+$/.test(note.url)) return null;
    return { pid: note.pid, url: note.url, processStart: typeof note.processStart === 'string' ? note.processStart : undefined };
  } catch {
    return null;
  }
}

/** The URL of a `cms sandbox serve` still running on this data directory, if any. */
function runningServe(dataDir: string): string | null {
  const note = readNote(dataDir);
  // Its process, not whatever has its pid now (where the system cannot tell, a live pid will do:
  // the URL must still answer as a sandbox).
  return note && isSameProcess(note.pid, note.processStart) !== false ? note.url : null;
}

/**
 * The origin serving the console: for a profile, its server; for the embedded sandbox, the
 * given port, else a running serve of the data directory, else the default port. A sandbox
 * must answer there.
 */
export async function consoleOrigin(ctx: Context, port?: number): Promise<string> {
  const conn = ctx.connection();
  const found = conn.embedded && port === undefined ? runningServe(conn.dataDir) : null;
  const origin = !conn.embedded ? new URL(conn.apiUrl).origin : (found ?? `http://127.0.0.1:${port ?? DEFAULT_PORT}`);
  if (!(await answers(origin))) {
    throw new CliError(
      `No sandbox answers at ${origin}`,
      ExitCode.FAILURE,
      conn.embedded ? `The console is served by the sandbox server: start it with \`cms sandbox serve${port === undefined || port === DEFAULT_PORT ? '' : ` --port ${port}`}\`, then run this again.` : 'Start the sandbox this profile points at (cms sandbox serve), or choose another profile.',
    );
  }
  return origin;
}

/** Opens the URL with $BROWSER, else the platform's opener; false when it could not start. */
export function openBrowser(url: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  const [command, args] = env.BROWSER
    ? [env.BROWSER, [url]]
    : process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}
