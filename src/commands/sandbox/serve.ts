import type { Context } from '../../cli/context.js';
import { defineCommand } from '../../cli/define.js';
import { dataDir } from '../../config/paths.js';
import { CliError, UsageError, writeFailure } from '../../core/errors.js';
import { done } from '../../output/result.js';
import { PID_FILE, allowWebhookToOption, corsOriginOption, interceptOptions, parsePort, seedPath, startServing, type ServedInfo } from './_serve.js';

interface Opts {
  host: string;
  port: string;
  dataDir?: string;
  tokenTtl?: number;
  faults?: string;
  faultsSeed?: number;
  allowHost?: string[];
  allowWebhookTo?: string[];
  corsOrigin?: string[];
  seed?: string;
  exportOnExit?: string;
  force?: boolean;
  detach?: boolean;
  pidFile?: string;
  intercept?: boolean;
  offline?: boolean;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|::1|\[::1\])$/;
/** How long --detach waits for the served sandbox to answer before giving up. */
const DETACH_TIMEOUT_MS = 20_000;
/** With an export directory to seed from: its items are written first (about 3-6 ms each). */
const DETACH_SEED_DIR_TIMEOUT_MS = 180_000;

export default defineCommand<Opts>({
  summary: 'Serve the sandbox over HTTP for other clients (SDKs, curl, CI)',
  description:
    'Serves the whole sandbox service on HTTP, on the same data directory the CLI uses by default, and runs due work (scheduled publishing, jobs, webhook deliveries) on a timer. Prints the base URL and the admin credentials. Stops cleanly on Ctrl-C or SIGTERM. --seed starts from a snapshot, or from an export directory (cms item export, or a dc-cli export: its hub, repositories, schemas, types, folders and items are created first, all or nothing: a file the service refuses is named and nothing is served, exit 2), replacing the data directory\'s content; the hub is printed when the sandbox holds exactly one; --export-on-exit saves a snapshot when stopped; --detach starts it in the background (prints the -o json line, writes sandbox.pid in the data directory: `cms sandbox wait`, `cms sandbox stop`).',
  examples: [
    'cms sandbox serve',
    'cms sandbox serve --port 0 -o json',
    'CMS_DATA_DIR=/tmp/sb cms sandbox serve --port 9000',
    'cms sandbox serve --faults "429 10%; 503 5%" --faults-seed 7',
    'cms sandbox serve --host 0.0.0.0 --allow-host sandbox.internal --allow-host .ci.example.com',
    'cms sandbox serve --cors-origin http://localhost:3000',
    'cms sandbox serve --port 0 --export-on-exit ./state.snapshot',
    'cms sandbox serve --port 0 --seed ./content-export',
    'cms sandbox serve --detach --port 0 && cms sandbox wait && cms sandbox stop',
    'cms sandbox serve --port 0 --intercept',
  ],
  options: [
    { flags: '--host <address>', description: 'address to bind (other than loopback exposes the sandbox to the network)', default: '127.0.0.1' },
    {
      flags: '--allow-host <name>',
      description:
        "also answer requests whose Host is this name (repeatable): name, name:port, .domain (and its subdomains) or * (any); loopback names, the --host address and the hubs' staging hostnames are always served",
      repeatable: true,
    },
    corsOriginOption,
    ...interceptOptions,
    allowWebhookToOption,
    { flags: '--port <port>', description: 'port to listen on (0 picks a free one)', default: '8787' },
    { flags: '--data-dir <dir>', description: 'data directory (default: CMS_DATA_DIR or ~/.local/share/cms)' },
    { flags: '--token-ttl <seconds>', description: 'access token lifetime', integer: true },
    {
      flags: '--faults <spec>',
      description: 'inject faults, e.g. "429 10%; 503 5%; latency 200ms 20%; drop 1% on POST /v2/content/**" ("on * <path>" is every method; a rule that matches no operation is refused; also POST /__sandbox/faults)',
    },
    { flags: '--faults-seed <n>', description: 'seed for the fault dice (same seed, same faults)', integer: true },
    { flags: '--seed <snapshot|dir>', description: 'start from this snapshot file or export directory (cms item export, dc-cli); replaces what the data directory holds' },
    { flags: '--export-on-exit <file>', description: 'save a snapshot of everything to this file when stopped (Ctrl-C, SIGTERM, cms sandbox stop)' },
    { flags: '--force', description: 'with --export-on-exit: replace the file even when it is not a snapshot (refused otherwise, exit 2)' },
    { flags: '--detach', description: 'serve in the background: print the -o json line once it answers, write sandbox.pid in the data directory' },
    { flags: '--pid-file <file>', description: 'write the served JSON with its pid here while serving (what --detach uses)', hidden: true },
  ],
  async run(ctx, _args, opts) {
    const port = parsePort(opts.port);
    const directory = opts.dataDir ?? dataDir(ctx.env);
    const { resolve, dirname } = await import('node:path');
    const exportFile = opts.exportOnExit === undefined ? undefined : resolve(opts.exportOnExit);
    if (exportFile) {
      const { statSync } = await import('node:fs');
      if (!statSync(dirname(exportFile), { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--export-on-exit: no directory ${dirname(exportFile)}`);
      // Found out now, not when stopped: then the export would be lost.
      if (statSync(exportFile, { throwIfNoEntry: false })?.isDirectory()) throw new UsageError(`--export-on-exit: ${exportFile} is a directory: give the snapshot file's path`);
      if (!opts.force) {
        // A package.json given by mistake is refused now, not turned into a database when stopped.
        const { checkSnapshotTarget, SnapshotError } = await import('../../server/core/snapshot-file.js');
        try {
          checkSnapshotTarget(exportFile);
        } catch (err) {
          if (err instanceof SnapshotError) throw new UsageError(`--export-on-exit: ${err.message}`, 'Give another file, or add --force to replace it.');
          throw err;
        }
      }
    }
    const seed = opts.seed === undefined ? undefined : seedPath(opts.seed);
    if (opts.offline && !opts.intercept) throw new UsageError('--offline needs --intercept');
    if (opts.detach) return detach(ctx, opts, directory, port, seed && 'dir' in seed ? DETACH_SEED_DIR_TIMEOUT_MS : DETACH_TIMEOUT_MS);

    const served = await startServing(ctx, { dataDir: directory, host: opts.host, port, tokenTtl: opts.tokenTtl, faults: opts.faults, faultsSeed: opts.faultsSeed, allowHost: opts.allowHost, corsOrigin: opts.corsOrigin, allowWebhookTo: opts.allowWebhookTo, seed: opts.seed, intercept: opts.intercept ? { caDir: directory, offline: opts.offline, nodeOptions: ctx.env.NODE_OPTIONS } : undefined });
    const { server, sandbox, info } = served;
    // From here the port is open with the well-known admin credentials: any failure closes it all
    // before it is reported (a serve left listening after its error ignored SIGTERM, and a detached
    // one lived on as an orphan `sandbox stop` could not see).
    let onTerm: (() => void) | undefined;
    const stopped = new Promise<void>((resolve) => {
      // Ctrl-C while it was starting (a seed being written) stops it at once.
      if (ctx.signal.aborted) resolve();
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
      process.once('SIGTERM', (onTerm = () => resolve()));
    });
    const { noteServe, forgetServe, serveNotePath } = await import('./_console.js');
    try {
      if (!LOOPBACK.test(opts.host)) {
        ctx.io.warn(`the sandbox is bound to ${opts.host}: anyone who can reach this address can use it with the well-known admin credentials`);
      }
      try {
        noteServe(directory, server.url);
      } catch (err) {
        throw writeFailure(err, serveNotePath(directory), 'the note of the running sandbox');
      }
      if (opts.pidFile) {
        const { writePidFile } = await import('./_pid.js');
        try {
          writePidFile(opts.pidFile, info);
        } catch (err) {
          throw writeFailure(err, opts.pidFile, 'the pid file');
        }
      }
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
            ...(info.hub ? [`  Hub            ${info.hub}`] : []),
            ...(served.faultsGiven ? [`  Faults         ${opts.faults}`] : []),
            ...(exportFile ? [`  On exit        saves a snapshot to ${exportFile}`] : []),
            ...(info.intercept ? [`  Intercepting   ${info.intercept.proxyUrl}${opts.offline ? ' (offline: other hosts refused)' : ''}; for a command to use it, export:`, ...exportLines(info.intercept.env)] : []),
            'Press Ctrl-C to stop.',
            '',
          ].join('\n'),
        );
      } else ctx.io.outJson(`${JSON.stringify(info)}\n`);
    } catch (err) {
      process.off('SIGTERM', onTerm!);
      try {
        forgetServe(directory);
      } catch {
        /* what could not be written may not be removable either */
      }
      try {
        await server.close();
      } finally {
        if (opts.pidFile) await removePidFile(opts.pidFile);
      }
      throw err;
    }

    await stopped;
    ctx.io.err('Stopping the sandbox…\n');
    forgetServe(directory);
    let saved: string | undefined;
    try {
      await server.close(exportFile ? () => void (saved = `Saved a snapshot of the sandbox to ${exportFile} (${sandbox.service.saveSnapshot(exportFile, { force: opts.force }).counts.items} items)`) : undefined);
    } finally {
      if (opts.pidFile) await removePidFile(opts.pidFile);
    }
    if (saved) ctx.io.err(`${saved}\n`);
    return done('Sandbox stopped');
  },
});

/** The environment as shell lines (values single-quoted). */
function exportLines(env: Record<string, string>): string[] {
  return Object.entries(env).map(([k, v]) => `    export ${k}='${v.replace(/'/g, "'\\''")}'`);
}

async function removePidFile(file: string): Promise<void> {
  const [{ rmSync }, { pidFileNames }] = await Promise.all([import('node:fs'), import('./_pid.js')]);
  try {
    // Only our own: another serve may have taken the directory over since.
    if (pidFileNames(file)?.pid === process.pid) rmSync(file, { force: true });
  } catch {
    /* gone already */
  }
}

/** Starts `cms sandbox serve` again in the background, waits for its pid file, prints its JSON. */
async function detach(ctx: Context, opts: Opts, directory: string, port: number, timeoutMs: number) {
  const [{ spawn }, fs, { join }, { readPidFile, pidFileNames }, { ensurePrivateDir }] = await Promise.all([
    import('node:child_process'),
    import('node:fs'),
    import('node:path'),
    import('./_pid.js'),
    import('../../config/private-dir.js'),
  ]);
  ensurePrivateDir(directory, 'data directory');
  const pidFile = join(directory, PID_FILE);
  // A pid file whose process is gone, or is another process now, is no sandbox (_pid.ts).
  const running = await readPidFile(pidFile);
  if (running) throw new CliError(`A sandbox is already serving this data directory: pid ${running.pid} on ${running.url}`, 1, 'Stop it with `cms sandbox stop`, or use another --data-dir.');
  fs.rmSync(pidFile, { force: true });
  const logFile = join(directory, 'sandbox.log');
  const log = fs.openSync(logFile, 'w', 0o600);
  const args = [process.argv[1]!, 'sandbox', 'serve', '--host', opts.host, '--port', String(port), '--data-dir', directory, '--pid-file', pidFile, '-o', 'json'];
  const pass: [string, string | number | undefined][] = [
    ['--token-ttl', opts.tokenTtl],
    ['--faults', opts.faults],
    ['--faults-seed', opts.faultsSeed],
    ['--seed', opts.seed === undefined ? undefined : (await import('node:path')).resolve(opts.seed)],
    ['--export-on-exit', opts.exportOnExit === undefined ? undefined : (await import('node:path')).resolve(opts.exportOnExit)],
  ];
  for (const [flag, value] of pass) if (value !== undefined) args.push(flag, String(value));
  if (opts.force) args.push('--force');
  for (const h of opts.allowHost ?? []) args.push('--allow-host', h);
  for (const o of opts.corsOrigin ?? []) args.push('--cors-origin', o);
  if (opts.intercept) args.push('--intercept');
  if (opts.offline) args.push('--offline');
  for (const w of opts.allowWebhookTo ?? []) args.push('--allow-webhook-to', w);
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', log, log], env: ctx.env });
  fs.closeSync(log);
  let exited: number | null = null;
  child.once('exit', (code, signal) => (exited = code ?? (signal ? 128 : 1)));
  child.unref();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const info = pidFileNames(pidFile);
    if (info && info.pid === child.pid) {
      ctx.io.out(`${JSON.stringify(info)}\n`);
      return;
    }
    if (exited !== null || Date.now() > deadline) {
      if (exited === null) await stopChild(child, () => exited !== null);
      const tail = fs.readFileSync(logFile, 'utf8').trim().split('\n').slice(-3).join(' / ');
      throw new CliError(`The detached sandbox did not start${exited !== null ? ` (exit ${exited})` : ` within ${timeoutMs / 1000} s`}: ${tail}`, exited === 2 ? 2 : 1, `Its output is in ${logFile}.`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** SIGTERM, then SIGKILL if it still runs after 5 s: a detach that gives up leaves no sandbox behind. */
async function stopChild(child: import('node:child_process').ChildProcess, gone: () => boolean): Promise<void> {
  child.kill('SIGTERM');
  for (let waited = 0; !gone() && waited < 5000; waited += 25) await new Promise((r) => setTimeout(r, 25));
  if (!gone()) child.kill('SIGKILL');
}
