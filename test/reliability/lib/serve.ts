import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from '../../helpers/cli.js';

// `cms sandbox serve` as a child process (the built binary), with its stderr kept and a way to
// kill it hard (SIGKILL, as kill -9 would) or stop it cleanly (SIGTERM).

export interface Served {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** kill -9: no shutdown code runs. Resolves once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM and wait for a clean exit; resolves the exit code. */
  stop(): Promise<number | null>;
}

/** Environment for a child: the caller's, minus anything that would pick another profile or sandbox. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const k of Object.keys(env)) if (k.startsWith('CMS_')) delete env[k];
  return { ...env, ...extra };
}

/** Starts `cms sandbox serve --port 0 -o json <args>` and resolves once it printed its URL. */
export function serve(args: string[], env: Record<string, string>, timeoutMs = 30_000): Promise<Served> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '-o', 'json', ...args], { env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise<Served>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`cms sandbox serve did not start in ${timeoutMs} ms: ${out} ${err}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`cms sandbox serve exited (${code}) before it listened: ${out} ${err}`));
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      const info = JSON.parse(line) as { url: string };
      resolve({
        url: info.url,
        pid: child.pid!,
        child,
        stderr: () => err,
        kill9: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
  });
}
