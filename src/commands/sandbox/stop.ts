import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { defineCommand } from '../../cli/define.js';
import { dataDir } from '../../config/paths.js';
import { CliError } from '../../core/errors.js';
import { done } from '../../output/result.js';
import { PID_FILE } from './_serve.js';
import { findDetached, isSameProcess, pidFileNames } from './_pid.js';

/** How long a stopping sandbox may take (its in-flight requests, deliveries, --export-on-exit). */
const STOP_TIMEOUT_MS = 30_000;

export default defineCommand<{ dataDir?: string }>({
  summary: 'Stop the sandbox `cms sandbox serve --detach` started',
  description:
    'Sends SIGTERM to the detached sandbox of the data directory (its sandbox.pid) and waits until it has stopped (its --export-on-exit snapshot saved). Only a process proven to be that sandbox is signalled (the start time sandbox.pid records, or where the system does not tell, the sandbox at its URL naming its pid): a sandbox that died and left its pid to another process counts as none. Exit 1 when no sandbox is running there.',
  examples: ['cms sandbox serve --detach --port 0 && cms sandbox stop'],
  options: [{ flags: '--data-dir <dir>', description: 'data directory of the detached sandbox (default: CMS_DATA_DIR or ~/.local/share/cms)' }],
  async run(ctx, _args, opts) {
    const directory = opts.dataDir ?? dataDir(ctx.env);
    const file = join(directory, PID_FILE);
    // Only a process proven to be the sandbox is signalled: a pid alone may be another process's now (_pid.ts).
    const found = await findDetached(file);
    if (!found) {
      rmSync(file, { force: true });
      throw new CliError(`No sandbox is running on ${directory}`, 1, 'Start one with `cms sandbox serve --detach`.');
    }
    const running = found.info;
    process.kill(running.pid, 'SIGTERM');
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    // Its pid file goes first, then the process: stopped means both (a successor on its pid is not it).
    while (pidFileNames(file)?.pid === running.pid || isSameProcess(running.pid, found.start) !== false) {
      if (Date.now() > deadline) throw new CliError(`The sandbox (pid ${running.pid}) did not stop within ${STOP_TIMEOUT_MS / 1000} s`, 1);
      await new Promise((r) => setTimeout(r, 25));
    }
    return done(`Stopped the sandbox on ${running.url}`);
  },
});
