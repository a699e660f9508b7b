import { constants } from 'node:os';
import { defineCommand } from '../../cli/define.js';
import { CommandExit, UsageError } from '../../core/errors.js';
import { allowWebhookToOption, corsOriginOption, interceptOptions, startServing } from './_serve.js';
import type { Sandbox } from '../../server/app.js';

interface Opts {
  seed?: string;
  faults?: string;
  faultsSeed?: number;
  dataDir?: string;
  tokenTtl?: number;
  corsOrigin?: string[];
  intercept?: boolean;
  offline?: boolean;
  allowWebhookTo?: string[];
}

/** Signals passed on to the command (Ctrl-C reaches it from the terminal too; a `kill` of cms only through here). */
const FORWARDED = ['SIGTERM', 'SIGHUP', 'SIGUSR1', 'SIGUSR2'] as const;

export default defineCommand<Opts>({
  summary: 'Run a command with a sandbox served for it, then stop the sandbox',
  description:
    'Serves a sandbox (in memory unless --data-dir is given) on a free port of 127.0.0.1, runs the command with CMS_API_URL, CMS_AUTH_URL, CMS_DELIVERY_URL (the sandbox\'s Content Delivery 2, <url>/cdn/{hubName}), CMS_CLIENT_ID, CMS_CLIENT_SECRET and CMS_SANDBOX_URL set, and CMS_HUB when the sandbox holds exactly one hub (as a seed does); a CMS_HUB of the caller is passed on only when it names a hub of the sandbox, and CMS_PROFILE never is. It forwards signals to the command and exits with its exit code (127 when it is not found, 126 when it cannot run, 128+n when signal n ended it). The sandbox is stopped and its port freed before cms exits. Put the command after --. With --intercept the command also reaches the sandbox at the hosted service\'s own hostnames, unchanged: a proxy on 127.0.0.1 and a CA it alone trusts (HTTPS_PROXY, NODE_EXTRA_CA_CERTS and the others of docs/testing-with-the-sandbox.md are set); the CA is kept in --data-dir, or made for the run in a private temporary directory.',
  examples: [
    'cms sandbox exec -- cms hub list',
    'cms sandbox exec --seed ./content-export -- cms item list --repo content',
    'cms sandbox exec --faults "503 20%" --faults-seed 1 -- node -e "console.log(process.env.CMS_API_URL)"',
    'cms sandbox exec --intercept --offline -- node -e "fetch(\'https://api.amplience.net/v2/content/hubs\').then((r) => console.log(r.status))"',
  ],
  args: [{ name: 'command', description: 'the command and its arguments (after --)', variadic: true }],
  options: [
    { flags: '--seed <snapshot|dir>', description: 'start from this snapshot file, or export directory (cms item export, dc-cli: its hub, model and items, all or nothing)' },
    { flags: '--faults <spec>', description: 'inject faults (as cms sandbox serve --faults)' },
    { flags: '--faults-seed <n>', description: 'seed for the fault dice', integer: true },
    { flags: '--data-dir <dir>', description: 'keep the data in this directory (default: in memory, gone when the command ends)' },
    { flags: '--token-ttl <seconds>', description: 'access token lifetime', integer: true },
    corsOriginOption,
    ...interceptOptions,
    allowWebhookToOption,
  ],
  async run(ctx, args, opts) {
    const command = (args.command as string[] | undefined) ?? [];
    if (!command[0]) throw new UsageError('Give the command to run after --', 'For example: cms sandbox exec -- npm test');
    if (opts.offline && !opts.intercept) throw new UsageError('--offline needs --intercept', 'For example: cms sandbox exec --intercept --offline -- npm test');
    // The CA of an in-memory run lives in a private directory of its own, gone when it ends.
    const runDir = opts.intercept && !opts.dataDir ? await privateRunDir() : undefined;
    const intercept = opts.intercept ? { caDir: opts.dataDir ?? runDir!, offline: opts.offline, nodeOptions: ctx.env.NODE_OPTIONS } : undefined;
    let served;
    try {
      served = await startServing(ctx, { dataDir: opts.dataDir ?? ':memory:', host: '127.0.0.1', port: 0, tokenTtl: opts.tokenTtl, faults: opts.faults, faultsSeed: opts.faultsSeed, corsOrigin: opts.corsOrigin, allowWebhookTo: opts.allowWebhookTo, seed: opts.seed, intercept });
    } catch (err) {
      if (runDir) await removeDir(runDir);
      throw err;
    }
    const { info, server } = served;
    // Everything the command reads points at this sandbox: delivery too (a caller's CMS_DELIVERY_URL
    // would have `--delivered` read production while the API is the sandbox), and a hub only if
    // the sandbox holds it (its only hub, else the caller's CMS_HUB when it names one of its hubs).
    const hub = info.hub ?? (ctx.env.CMS_HUB && holdsHub(served.sandbox, ctx.env.CMS_HUB) ? ctx.env.CMS_HUB : undefined);
    const env: NodeJS.ProcessEnv = {
      ...ctx.env,
      CMS_API_URL: info.apiUrl,
      CMS_AUTH_URL: info.authUrl,
      CMS_DELIVERY_URL: `${info.url}/cdn/{hubName}`,
      CMS_CLIENT_ID: info.clientId,
      CMS_CLIENT_SECRET: info.clientSecret,
      CMS_SANDBOX_URL: info.url,
      ...info.intercept?.env,
    };
    if (hub) env.CMS_HUB = hub;
    else delete env.CMS_HUB;
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
      if (runDir) await removeDir(runDir);
    }
    if (code !== 0) throw new CommandExit(code);
  },
});

async function privateRunDir(): Promise<string> {
  const [{ mkdtempSync }, { tmpdir }, { join }] = await Promise.all([import('node:fs'), import('node:os'), import('node:path')]);
  // mkdtemp makes it 0700.
  return mkdtempSync(join(tmpdir(), 'cms-intercept-'));
}

async function removeDir(dir: string): Promise<void> {
  (await import('node:fs')).rmSync(dir, { recursive: true, force: true });
}

function signalNumber(signal: NodeJS.Signals): number {
  return (constants.signals as Record<string, number>)[signal] ?? 0;
}

/** Whether the sandbox holds a hub of this name or id. */
function holdsHub(sandbox: Sandbox, hub: string): boolean {
  return sandbox.service.db.prepare('SELECT 1 FROM hubs WHERE name = ? OR id = ?').pluck().get(hub, hub) !== undefined;
}
