import { execa, type ResultPromise } from 'execa';
import { BIN } from './cli.js';

export interface ServedSandbox {
  url: string;
  process: ResultPromise;
  stop(): Promise<void>;
}

/** `cms sandbox serve --port 0` as a child process (the real binary), on the given environment. */
export async function serveSandbox(env: Record<string, string>, extraArgs: string[] = []): Promise<ServedSandbox> {
  const child = execa(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '-o', 'json', ...extraArgs], { env, reject: false });
  const info = await new Promise<{ url: string }>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buf += chunk.toString();
      const line = buf.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve(JSON.parse(line));
    });
    child.on('exit', () => reject(new Error(`serve exited early: ${buf}`)));
  });
  return {
    url: info.url,
    process: child,
    stop: async () => {
      child.kill('SIGTERM');
      await child;
    },
  };
}
