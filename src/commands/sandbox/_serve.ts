import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Context } from '../../cli/context.js';
import { UsageError } from '../../core/errors.js';
import type { RunningServer } from '../../server/http.js';
import type { Sandbox } from '../../server/app.js';
import { sandboxOpenError } from '../../core/transport.js';

// What `sandbox serve` and `sandbox exec` share: a sandbox on a data directory (or in memory),
// seeded from a snapshot, with faults, served over HTTP.

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
  seed?: string;
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
  pid: number;
}

export interface Served {
  sandbox: Sandbox;
  server: RunningServer;
  info: ServedInfo;
  faultsGiven: boolean;
}

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new UsageError(`--port must be 0..65535, got '${value}'`);
  return port;
}

/** The --seed file, checked before anything starts: a missing path or a directory is bad input (exit 2). */
export function seedFile(seed: string): string {
  const file = resolve(seed);
  let isDir: boolean;
  try {
    isDir = statSync(file).isDirectory();
  } catch {
    throw new UsageError(`--seed: no snapshot at ${file}`, 'Save one with `cms sandbox snapshot save ./file.snapshot` or `cms sandbox serve --export-on-exit ./file.snapshot`.');
  }
  if (isDir) {
    throw new UsageError(
      `--seed: ${file} is a directory; --seed takes a snapshot file`,
      'Export directories are imported into a running sandbox: `cms sandbox exec -- cms item import <dir> --hub <hub>`, then save a snapshot of it.',
    );
  }
  return file;
}

export async function startServing(ctx: Context, s: ServeSettings): Promise<Served> {
  const [{ createSandbox, ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET }, { listen }, { parseFaults }, { parseAllowHost, parseCorsOrigin }, { SnapshotError }] = await Promise.all([
    import('../../server/app.js'),
    import('../../server/http.js'),
    import('../../server/core/faults.js'),
    import('../../server/core/host.js'),
    import('../../server/core/snapshot-file.js'),
  ]);
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
  let faults: ReturnType<typeof parseFaults> | undefined;
  try {
    faults = s.faults ? parseFaults(s.faults) : undefined;
  } catch (err) {
    throw new UsageError(`--faults: ${(err as Error).message}`);
  }
  const seed = s.seed === undefined ? undefined : seedFile(s.seed);
  let sandbox: ReturnType<typeof createSandbox>;
  try {
    sandbox = createSandbox({
      dataDir: s.dataDir,
      tokenTtlSeconds: s.tokenTtl,
      faults,
      faultSeed: s.faultsSeed,
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
    server = await listen(sandbox, s.host, s.port, { allowHosts: s.allowHost, corsOrigins: s.corsOrigin });
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
    pid: process.pid,
  };
  return { sandbox, server, info, faultsGiven: Boolean(faults?.length) };
}

/** The hub's name when the sandbox holds exactly one (what a seeded sandbox's CMS_HUB is). */
export function onlyHub(sandbox: Sandbox): string | undefined {
  const names = sandbox.service.db.prepare('SELECT name FROM hubs LIMIT 2').pluck().all() as string[];
  return names.length === 1 ? names[0] : undefined;
}

/** The pid file of a detached sandbox: in its data directory. */
export const PID_FILE = 'sandbox.pid';
