import { constants } from 'node:os';
import { defineCommand } from '../../cli/define.js';
import { CommandExit, UsageError } from '../../core/errors.js';
import { allowWebhookToOption, corsOriginOption, startServing } from './_serve.js';

interface Opts {
  seed?: string;
  faults?: string;
  faultsSeed?: number;
  dataDir?: string;
  tokenTtl?: number;
  corsOrigin?: string[];
  allowWebhookTo?: string[];
}

/** Signals passed on to the command (Ctrl-C reaches it from the terminal too; a `kill` of cms only through here). */
const FORWARDED = ['SIGTERM', 'SIGHUP', 'SIGUSR1', 'SIGUSR2'] as const;

export default defineCommand<Opts>({
  summary: 'Run a command with a sandbox served for it, then stop the sandbox',
  description:
    'Serves a sandbox (in memory unless --data-dir is given) on a free port of 127.0.0.1, runs the command with CMS_API_URL, CMS_AUTH_URL, CMS_CLIENT_ID and CMS_CLIENT_SECRET set (and CMS_HUB when the sandbox holds exactly one hub, as a seed does), forwards signals to it, and exits with its exit code (127 when it is not found, 126 when it cannot run, 128+n when signal n ended it). The sandbox is stopped and its port freed before cms exits. Put the command after --.',
  examples: [
    'cms sandbox exec -- cms hub list',
    'cms sandbox exec --seed ./content-export -- cms item list --repo content',
    'cms sandbox exec --faults "503 20%" --faults-seed 1 -- node -e "console.log(process.env.CMS_API_URL)"',
  ],
  args: [{ name: 'command', description: 'the command and its arguments (after --)', variadic: true }],
  options: [
    { flags: '--seed <snapshot|dir>', description: 'start from this snapshot file, or export directory (cms item export, dc-cli: its hub, model and items, all or nothing)' },
    { flags: '--faults <spec>', description: 'inject faults (as cms sandbox serve --faults)' },
    { flags: '--faults-seed <n>', description: 'seed for the fault dice', integer: true },
    { flags: '--data-dir <dir>', description: 'keep the data in this directory (default: in memory, gone when the command ends)' },
    { flags: '--token-ttl <seconds>', description: 'access token lifetime', integer: true },
    corsOriginOption,
    allowWebhookToOption,
  ],
  async run(ctx, args, opts) {
    const command = (args.command as string[] | undefined) ?? [];
    if (!command[0]) throw new UsageError('Give the command to run after --', 'For example: cms sandbox exec -- npm test');
    const served = await startServing(ctx, { dataDir: opts.dataDir ?? ':memory:', host: '127.0.0.1', port: 0, tokenTtl: opts.tokenTtl, faults: opts.faults, faultsSeed: opts.faultsSeed, corsOrigin: opts.corsOrigin, allowWebhookTo: opts.allowWebhookTo, seed: opts.seed });
    const { info, server } = served;
    const hub = info.hub;
    const env: NodeJS.ProcessEnv = {
      ...ctx.env,
      CMS_API_URL: info.apiUrl,
      CMS_AUTH_URL: info.authUrl,
      CMS_CLIENT_ID: info.clientId,
      CMS_CLIENT_SECRET: info.clientSecret,
      CMS_SANDBOX_URL: info.url,
      ...(hub ? { CMS_HUB: hub } : {}),
    };
    // A profile chosen by name would win over CMS_API_URL for a cms the command runs.
    delete env.CMS_PROFILE;
    const { spawn } = await import('node:child_process');
    let code: number;
    const forward: Partial<Record<NodeJS.Signals, () => void>> = {};
    try {
      code = await new Promise<number>((resolve) => {
        const child = spawn(command[0]!, command.slice(1), { stdio: 'inherit', env });
        child.once('error', (err: NodeJS.ErrnoException) => {
          // As a shell: 127 not found, 126 found but not runnable (in its words).
          const why = err.code === 'ENOENT' ? 'command not found' : err.code === 'EACCES' || err.code === 'EISDIR' ? 'Permission denied' : err.message;
          ctx.io.err(`cms: ${command[0]}: ${why}\n`);
          resolve(err.code === 'ENOENT' ? 127 : 126);
        });
        child.once('exit', (status, signal) => resolve(status ?? 128 + (signal ? signalNumber(signal) : 0)));
        for (const sig of FORWARDED) {
          forward[sig] = () => child.kill(sig);
          process.on(sig, forward[sig]!);
        }
        // Ctrl-C (or a SIGINT sent to cms alone): the command decides when to stop; cms waits for it.
        ctx.signal.addEventListener('abort', () => child.kill('SIGINT'), { once: true });
      });
    } finally {
      for (const [sig, fn] of Object.entries(forward)) process.off(sig, fn);
      await server.close();
    }
    if (code !== 0) throw new CommandExit(code);
  },
});

function signalNumber(signal: NodeJS.Signals): number {
  return (constants.signals as Record<string, number>)[signal] ?? 0;
}
