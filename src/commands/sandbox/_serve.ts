import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Context } from '../../cli/context.js';
import { CliError, UsageError } from '../../core/errors.js';
import { checkSeedDirectory } from '../../ops/seed.js';
import type { RunningServer } from '../../server/http.js';
import type { Sandbox } from '../../server/app.js';
import { sandboxOpenError } from '../../core/transport.js';
import type { OptionSpec } from '../../cli/define.js';

// What `sandbox serve` and `sandbox exec` share: a sandbox on a data directory (or in memory),
// seeded from a snapshot or an export directory, with faults, served over HTTP.

export interface ServeSettings {
  dataDir: string;
  host: string;
  port: number;
  tokenTtl?: number;
  faults?: string;
  faultsSeed?: number;
  allowHost?: string[];
  /** --cors-origin values: exact origins or *. */
  corsOrigin?: string[];
  /** --allow-webhook-to values: host names, addresses, CIDR ranges or * (server/webhooks/destinations.ts). */
  allowWebhookTo?: string[];
  seed?: string;
  /** Start the interception proxy (--intercept), its CA in this directory; refuse other hosts when offline. */
  intercept?: { caDir: string; offline?: boolean; nodeOptions?: string };
}

/** What a served sandbox prints (-o json, --detach) and what exec gives its command. */
export interface ServedInfo {
  url: string;
  consoleUrl: string;
  apiUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
  dataDir: string;
  /** The sandbox's hub when it holds exactly one (a seed's): what exec gives its command as CMS_HUB. */
  hub?: string;
  pid: number;
  /** With --intercept: the proxy and the environment that sends a command through it. */
  intercept?: { proxyUrl: string; caFile: string; env: Record<string, string> };
}

export interface Served {
  sandbox: Sandbox;
  server: RunningServer;
  info: ServedInfo;
  faultsGiven: boolean;
}

type Faults = ReturnType<typeof import('../../server/core/faults.js').parseFaults>;

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--port must be 0..65535, got '${value}'`);
  return port;
}

/** A --seed: a snapshot file, or an export directory (cms item export, dc-cli). */
export type Seed = { file: string } | { dir: string };

/**
 * The --seed, checked before anything starts: a missing path, or a directory that is not an
 * export directory, is bad input (exit 2).
 */
export function seedPath(seed: string): Seed {
  const path = resolve(seed);
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    throw new UsageError(`--seed: no snapshot at ${path}`, 'Save one with `cms sandbox snapshot save ./file.snapshot` or `cms sandbox serve --export-on-exit ./file.snapshot`, or give an export directory (cms item export <dir>).');
  }
  if (!isDir) return { file: path };
  try {
    checkSeedDirectory(path);
  } catch (err) {
    if (err instanceof CliError) throw new UsageError(`--seed: ${err.message}`, err.hint);
    throw err;
  }
  return { dir: path };
}

export async function startServing(ctx: Context, s: ServeSettings): Promise<Served> {
  const [{ parseFaults }, { parseAllowHost, parseCorsOrigin }] = await Promise.all([import('../../server/core/faults.js'), import('../../server/core/host.js')]);
  for (const value of s.allowHost ?? []) {
    try {
      parseAllowHost(value);
    } catch (err) {
      throw new UsageError(`--allow-host: ${(err as Error).message}`);
    }
  }
  for (const value of s.corsOrigin ?? []) {
    try {
      parseCorsOrigin(value);
    } catch (err) {
      throw new UsageError(`--cors-origin: ${(err as Error).message}`);
    }
  }
  if (s.allowWebhookTo?.length) {
    const { parseAllowRule } = await import('../../server/webhooks/destinations.js');
    for (const value of s.allowWebhookTo) {
      try {
        parseAllowRule(value);
      } catch (err) {
        throw new UsageError(`--allow-webhook-to: ${(err as Error).message}`);
      }
    }
  }
  let faults: Faults | undefined;
  try {
    faults = s.faults ? parseFaults(s.faults) : undefined;
  } catch (err) {
    throw new UsageError(`--faults: ${(err as Error).message}`);
  }
  const seed = s.seed === undefined ? undefined : seedPath(s.seed);
  if (seed && 'dir' in seed) {
    // Built aside first (an in-memory sandbox saved as a snapshot), then restored like a snapshot
    // seed: a directory the service refuses leaves the data directory as it was.
    const { SeedError, withSeedSnapshot } = await import('../../ops/seed.js');
    try {
      return await withSeedSnapshot(seed.dir, (file) => serveOn(ctx, s, faults, file), ctx.signal);
    } catch (err) {
      if (err instanceof SeedError) throw new UsageError(`--seed: ${err.message}`, `Nothing was served, and nothing was changed.${err.hint ? `\n${err.hint}` : ''}`);
      throw err;
    }
  }
  return serveOn(ctx, s, faults, seed?.file);
}

/** A sandbox on the data directory, started from the snapshot file when one is given, listening. */
async function serveOn(ctx: Context, s: ServeSettings, faults: Faults | undefined, seed: string | undefined): Promise<Served> {
  const [{ createSandbox, ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET }, { listen }, { SnapshotError }] = await Promise.all([
    import('../../server/app.js'),
    import('../../server/http.js'),
    import('../../server/core/snapshot-file.js'),
  ]);
  let sandbox: ReturnType<typeof createSandbox>;
  try {
    sandbox = createSandbox({
      dataDir: s.dataDir,
      tokenTtlSeconds: s.tokenTtl,
      faults,
      faultSeed: s.faultsSeed,
      allowWebhookTo: s.allowWebhookTo,
      onError: (err, req) => ctx.io.err(`sandbox: ${req.method} ${req.url} failed: ${(err as Error)?.stack ?? err}\n`),
    });
  } catch (err) {
    // A damaged sandbox.db is named, with the way out (sandbox reset moves it aside).
    throw sandboxOpenError(err);
  }
  let server: RunningServer;
  try {
    if (seed) {
      try {
        sandbox.service.restoreSnapshot(seed);
      } catch (err) {
        if (err instanceof SnapshotError) throw new UsageError(`--seed: ${err.message}`);
        throw err;
      }
    }
    const intercept = s.intercept && {
      ...s.intercept,
      onWarn: (message: string) => ctx.io.warn(message),
      onRefused: (host: string, why: string) => ctx.io.err(`cms: refused ${host}: ${why}\n`),
    };
    server = await listen(sandbox, s.host, s.port, { allowHosts: s.allowHost, corsOrigins: s.corsOrigin, intercept });
  } catch (err) {
    sandbox.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`Port ${s.port} is already in use`, 'Choose another with --port, or --port 0 for a free one.');
    throw err;
  }
  const info: ServedInfo = {
    url: server.url,
    consoleUrl: `${server.url}/`,
    apiUrl: `${server.url}/v2/content`,
    authUrl: server.url,
    clientId: ADMIN_CLIENT_ID,
    clientSecret: ADMIN_CLIENT_SECRET,
    dataDir: s.dataDir === ':memory:' ? 'memory' : s.dataDir,
    ...hubOf(sandbox),
    pid: process.pid,
    ...(server.intercept ? { intercept: server.intercept } : {}),
  };
  return { sandbox, server, info, faultsGiven: Boolean(faults?.length) };
}

/** The hub's name when the sandbox holds exactly one (what a seeded sandbox's CMS_HUB is). */
function hubOf(sandbox: Sandbox): { hub?: string } {
  const names = sandbox.service.db.prepare('SELECT name FROM hubs LIMIT 2').pluck().all() as string[];
  return names.length === 1 ? { hub: names[0] } : {};
}

/** The pid file of a detached sandbox: in its data directory. */
export const PID_FILE = 'sandbox.pid';

/** --intercept and --offline, for serve and exec alike. */
export const interceptOptions: OptionSpec[] = [
  {
    flags: '--intercept',
    description:
      "also answer the hosted service's own hostnames (api/auth.amplience.net, <hub>.cdn.content.amplience.net, hubs' staging hostnames) from the sandbox, through a proxy on 127.0.0.1 with a CA trusted only by the command (docs/testing-with-the-sandbox.md); other hosts pass through",
  },
  { flags: '--offline', description: 'with --intercept: refuse every other host (naming it) instead of passing it through' },
];

/** --cors-origin, for serve and exec alike (checked where the server starts: core/host.ts). */
export const allowWebhookToOption: OptionSpec = {
  flags: '--allow-webhook-to <host|address|range>',
  description:
    'let webhooks deliver to this host name, address or CIDR range (repeatable; * for anywhere), whoever wrote them; by default they reach public addresses, and loopback only when written by the admin client or a client with every permission (docs/threat-model.md)',
  repeatable: true,
};

export const corsOriginOption: OptionSpec = {
  flags: '--cors-origin <origin>',
  description:
    "let pages of this origin (e.g. http://localhost:3000) read delivery with CORS (repeatable): Content Delivery 2 at /cdn/<hub> and the staging query, rendering and staging hosts' delivery; * lets any origin read published content (/cdn) only; never the API, the token endpoint, /__sandbox or the console",
  repeatable: true,
};
