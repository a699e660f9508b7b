import { defineCommand } from '../../cli/define.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { consoleOrigin, openBrowser } from './_console.js';

interface Opts {
  port?: string;
  open?: boolean;
}

export default defineCommand<Opts>({
  summary: 'Print the URL of the sandbox console (and open it in the browser)',
  description:
    'The console is served by `cms sandbox serve` at its root. For a profile that points at a served sandbox the URL is on that server; for the embedded sandbox it is on the `cms sandbox serve` running on the same data directory (whatever its port), else on --port (8787). Checks the sandbox answers there; with --open, opens the URL in the system browser (or in $BROWSER when set). `cms browse <id>` opens it at one resource.',
  examples: ['cms sandbox console', 'cms sandbox console --open', 'cms sandbox console --port 9000 -o json'],
  options: [
    { flags: '--port <port>', description: 'port of the local `cms sandbox serve`, for the embedded sandbox (default: the running one, else 8787)' },
    { flags: '--open', description: 'open the console in the system browser' },
  ],
  async run(ctx, _args, opts) {
    const port = opts.port === undefined ? undefined : Number(opts.port);
    if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65535)) throw new UsageError(`--port must be 1..65535, got '${opts.port}'`);
    const url = `${await consoleOrigin(ctx, port)}/__sandbox/console`;
    const opened = opts.open ? await openBrowser(url, ctx.env) : undefined;
    if (opened === false) ctx.io.warn(`could not open a browser; open ${url} yourself`);
    return item({ url, ...(opts.open ? { opened } : {}) });
  },
});
