import { spawn } from 'node:child_process';
import { defineCommand } from '../../cli/define.js';
import { CliError, ExitCode, UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { answers } from './_local.js';

interface Opts {
  port: string;
  open?: boolean;
}

export default defineCommand<Opts>({
  summary: 'Print the URL of the sandbox console (and open it in the browser)',
  description:
    'The console is served by `cms sandbox serve` at its root. For a profile that points at a served sandbox the URL is on that server; for the embedded sandbox it is on the local serve port (--port). Checks the sandbox answers there; with --open, opens the URL in the system browser (or in $BROWSER when set).',
  examples: ['cms sandbox console', 'cms sandbox console --open', 'cms sandbox console --port 9000 -o json'],
  options: [
    { flags: '--port <port>', description: 'port of the local `cms sandbox serve`, for the embedded sandbox', default: '8787' },
    { flags: '--open', description: 'open the console in the system browser' },
  ],
  async run(ctx, _args, opts) {
    const port = Number(opts.port);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`--port must be 1..65535, got '${opts.port}'`);
    const conn = ctx.connection();
    const origin = conn.embedded ? `http://127.0.0.1:${port}` : new URL(conn.apiUrl).origin;
    const url = `${origin}/__sandbox/console`;
    if (!(await answers(origin))) {
      throw new CliError(
        `No sandbox answers at ${origin}`,
        ExitCode.FAILURE,
        conn.embedded ? `The console is served by the sandbox server: start it with \`cms sandbox serve${port === 8787 ? '' : ` --port ${port}`}\`, then run this again.` : 'Start the sandbox this profile points at (cms sandbox serve), or choose another profile.',
      );
    }
    const opened = opts.open ? await openBrowser(url, ctx.env) : undefined;
    if (opened === false) ctx.io.warn(`could not open a browser; open ${url} yourself`);
    return item({ url, ...(opts.open ? { opened } : {}) });
  },
});

/** Opens the URL with $BROWSER, else the platform's opener; false when it could not start. */
function openBrowser(url: string, env: NodeJS.ProcessEnv): Promise<boolean> {
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
