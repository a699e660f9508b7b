import { defineCommand } from '../../cli/define.js';
import { sandboxOpenError } from '../../core/transport.js';
import { dataDir } from '../../config/paths.js';
import { UsageError } from '../../core/errors.js';
import { done } from '../../output/result.js';

interface Opts {
  host: string;
  port: string;
  dataDir?: string;
  tokenTtl?: number;
  faults?: string;
  faultsSeed?: number;
  allowHost?: string[];
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;

export default defineCommand<Opts>({
  summary: 'Serve the sandbox over HTTP for other clients (SDKs, curl, CI)',
  description:
    'Serves the whole sandbox service on HTTP, on the same data directory the CLI uses by default, and runs due work (scheduled publishing, jobs, webhook deliveries) on a timer. Prints the base URL and the admin credentials. Stops cleanly on Ctrl-C or SIGTERM.',
  examples: [
    'cms sandbox serve',
    'cms sandbox serve --port 0 -o json',
    'CMS_DATA_DIR=/tmp/sb cms sandbox serve --port 9000',
    'cms sandbox serve --faults "429 10%; 503 5%" --faults-seed 7',
    'cms sandbox serve --host 0.0.0.0 --allow-host sandbox.internal --allow-host .ci.example.com',
  ],
  options: [
    { flags: '--host <address>', description: 'address to bind (other than loopback exposes the sandbox to the network)', default: '127.0.0.1' },
    {
      flags: '--allow-host <name>',
      description:
        "also answer requests whose Host is this name (repeatable): name, name:port, .domain (and its subdomains) or * (any); loopback names, the --host address and the hubs' staging hostnames are always served",
      repeatable: true,
    },
    { flags: '--port <port>', description: 'port to listen on (0 picks a free one)', default: '8787' },
    { flags: '--data-dir <dir>', description: 'data directory (default: CMS_DATA_DIR or ~/.local/share/cms)' },
    { flags: '--token-ttl <seconds>', description: 'access token lifetime', integer: true },
    {
      flags: '--faults <spec>',
      description: 'inject faults, e.g. "429 10%; 503 5%; latency 200ms 20%; drop 1% on POST /v2/content/**" ("on * <path>" is every method; a rule that matches no operation is refused; also POST /__sandbox/faults)',
    },
    { flags: '--faults-seed <n>', description: 'seed for the fault dice (same seed, same faults)', integer: true },
  ],
  async run(ctx, _args, opts) {
    const port = Number(opts.port);
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0..65535, got '${opts.port}'`);
    const directory = opts.dataDir ?? dataDir(ctx.env);
    const { createSandbox, ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET } = await import('../../server/app.js');
    const { listen } = await import('../../server/http.js');
    const { parseFaults } = await import('../../server/core/faults.js');
    const { parseAllowHost } = await import('../../server/core/host.js');
    for (const value of opts.allowHost ?? []) {
      try {
        parseAllowHost(value);
      } catch (err) {
        throw new UsageError(`--allow-host: ${(err as Error).message}`);
      }
    }
    let faults: ReturnType<typeof parseFaults> | undefined;
    try {
      faults = opts.faults ? parseFaults(opts.faults) : undefined;
    } catch (err) {
      throw new UsageError(`--faults: ${(err as Error).message}`);
    }
    const sandbox = (() => {
      try {
        return createSandbox({
          dataDir: directory,
          tokenTtlSeconds: opts.tokenTtl,
          faults,
          faultSeed: opts.faultsSeed,
          onError: (err, req) => ctx.io.err(`sandbox: ${req.method} ${req.url} failed: ${(err as Error)?.stack ?? err}\n`),
        });
      } catch (err) {
        throw sandboxOpenError(err);
      }
    })();
    let server;
    try {
      server = await listen(sandbox, opts.host, port, { allowHosts: opts.allowHost });
    } catch (err) {
      sandbox.close();
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EADDRINUSE') throw new UsageError(`Port ${port} is already in use`, 'Choose another with --port, or --port 0 for a free one.');
      throw err;
    }
    // Listen for Ctrl-C / SIGTERM before printing the URL: whoever reads it may stop the server at once.
    const stopped = new Promise<void>((resolve) => {
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      process.once('SIGTERM', () => resolve());
    });
    if (!LOOPBACK.test(opts.host)) {
      ctx.io.warn(`the sandbox is bound to ${opts.host}: anyone who can reach this address can use it with the well-known admin credentials`);
    }
    const info = { url: server.url, consoleUrl: `${server.url}/`, apiUrl: `${server.url}/v2/content`, authUrl: server.url, clientId: ADMIN_CLIENT_ID, clientSecret: ADMIN_CLIENT_SECRET, dataDir: directory };
    if (ctx.globals.output === 'table') {
      ctx.io.out(
        [
          `Sandbox listening on ${info.url}`,
          `  Console        ${info.consoleUrl}`,
          `  API base       ${info.apiUrl}`,
          `  Token endpoint ${info.url}/oauth/token`,
          `  Client id      ${info.clientId}`,
          `  Client secret  ${info.clientSecret}   (well-known sandbox admin credentials)`,
          `  Data directory ${info.dataDir}`,
          ...(faults?.length ? [`  Faults         ${opts.faults}`] : []),
          'Press Ctrl-C to stop.',
          '',
        ].join('\n'),
      );
    } else ctx.io.out(`${JSON.stringify(info)}\n`);

    await stopped;
    ctx.io.err('Stopping the sandbox…\n');
    await server.close();
    return done('Sandbox stopped');
  },
});
