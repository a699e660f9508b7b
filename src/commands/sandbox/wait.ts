import { join } from 'node:path';
import { defineCommand } from '../../cli/define.js';
import { dataDir } from '../../config/paths.js';
import { UsageError, WaitTimeout } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { PID_FILE } from './_serve.js';
import { readPidFile } from './_pid.js';

export default defineCommand<{ timeout: number; interval: number; dataDir?: string }>({
  summary: 'Wait until the served sandbox answers (exit 8 on timeout)',
  description:
    'Waits for the sandbox `cms sandbox serve --detach` started on the data directory (its sandbox.pid) to answer, or, with a profile or CMS_API_URL naming a served sandbox, for that one. Prints the served JSON (-o json) once it answers. If it does not within --timeout, exits 8 (as `cms job wait`).',
  examples: ['cms sandbox serve --detach --port 0 && cms sandbox wait --timeout 30s && cms sandbox stop'],
  options: [
    { flags: '--timeout <duration>', description: 'give up after this long (exit 8; 30s, 2m, or seconds)', duration: true, default: '30s' },
    { flags: '--interval <duration>', description: 'time between tries', duration: true, default: '100ms' },
    { flags: '--data-dir <dir>', description: 'data directory of the detached sandbox (default: CMS_DATA_DIR or ~/.local/share/cms)' },
  ],
  async run(ctx, _args, opts) {
    if (opts.interval <= 0) throw new UsageError('--interval must be more than 0');
    const directory = opts.dataDir ?? dataDir(ctx.env);
    const conn = ctx.connection();
    const deadline = Date.now() + opts.timeout;
    for (;;) {
      const detached = await readPidFile(join(directory, PID_FILE));
      const url = detached?.url ?? (conn.embedded ? undefined : new URL(conn.apiUrl).origin);
      if (url) {
        try {
          const res = await fetch(`${url}/__sandbox/status`, { signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(Math.max(200, Math.min(2000, deadline - Date.now())))]) });
          if (res.ok) {
            await res.arrayBuffer();
            return item(detached ?? { url, apiUrl: conn.apiUrl });
          }
        } catch (err) {
          if (ctx.signal.aborted) throw err;
          /* not up yet */
        }
      }
      if (Date.now() >= deadline) {
        throw new WaitTimeout(url ? `The sandbox at ${url} did not answer within ${opts.timeout / 1000} s` : `No sandbox was serving ${directory} within ${opts.timeout / 1000} s (no sandbox.pid)`);
      }
      await new Promise((r) => setTimeout(r, Math.min(opts.interval, Math.max(0, deadline - Date.now()))));
    }
  },
});
