import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { EMBEDDED_ORIGIN } from '../config/resolve.js';
import { TokenProvider } from '../core/auth.js';
import { ApiClient } from '../core/client.js';
import { CliError, UsageError } from '../core/errors.js';
import { inProcessTransport } from '../core/transport.js';
import { dcCliSource, detectLayout } from './dc-cli-layout.js';
import { MANIFEST, type RepositoryInfo } from './files/content-files.js';
import { MemoryMapping } from './files/mapping.js';
import { SafeDir } from './files/safe-files.js';
import { deliveryKeysFit, importItems, type ImportSource } from './import.js';
import { applySchemas, applyTypes, fileOfStep, readSchemaFiles, readTypeFiles, type SchemaFile, type TypeFile } from './model-files.js';
import { Syncer } from './runs/reconcile.js';
import { QuietRun, type RunSteps } from './runs/run-steps.js';
import type { Failure } from './runs/run-report.js';
import { directorySource } from './sources.js';

// A sandbox seeded from an export directory (`cms sandbox serve|exec --seed <dir>`,
// `startSandbox({ seed })`): the directory is applied to an empty in-memory sandbox with the
// engines of `cms schema apply`, `cms type apply` and `cms item import`, and that sandbox is saved
// as a snapshot, which the target then restores like any snapshot seed. So a seed that fails
// leaves the target as it was (nothing is written to it before the whole directory went in), and
// a good one replaces its content in one transaction. Loads none of the CLI.

/** Where the parts of an export directory are (undefined: the directory has none of that part). */
export interface SeedLayout {
  kind: 'cms' | 'dc-cli';
  schemas?: string;
  types?: string;
  /** Items: the export itself (cms), or a dc-cli content export (a directory per repository label). */
  content?: string;
}

const DC_CLI_PARTS = { schemas: 'content-type-schemas', types: 'content-types', content: 'content' } as const;

export const SEED_LAYOUTS =
  'expected manifest.json (cms item export) or a dc-cli export (content-type-schemas/, content-types/ and content/, or a content export alone: <repository label>/<folder>/<item>.json)';

/**
 * The layout of a seed directory, or null when it is neither: a `cms item export` (its manifest),
 * a dc-cli export of a hub (content-type-schemas/, content-types/, content/, as dc-cli writes
 * them side by side), or a dc-cli content export alone (the layout `cms item import` detects).
 */
export function seedLayout(dir: string): SeedLayout | null {
  const files = new SafeDir(dir);
  // A part is a directory inside this one (a symlink leading outside is refused) holding JSON files.
  const has = (name: string) => (files.exists(name) && isDir(join(dir, name)) && new SafeDir(join(dir, name)).jsonFiles().length ? join(dir, name) : undefined);
  if (files.exists(MANIFEST)) return { kind: 'cms', schemas: has('schemas'), types: has('types'), content: dir };
  const parts: SeedLayout = { kind: 'dc-cli' };
  for (const [part, name] of Object.entries(DC_CLI_PARTS) as [keyof typeof DC_CLI_PARTS, string][]) parts[part] = has(name);
  if (parts.schemas || parts.types || parts.content) return parts;
  if (!files.exists('items') && detectLayout(dir) === 'dc-cli') return { kind: 'dc-cli', content: dir };
  return null;
}

/** The layout, or a usage error (exit 2) saying what a seed directory holds. */
export function checkSeedDirectory(dir: string): SeedLayout {
  const layout = seedLayout(dir);
  if (!layout) throw new UsageError(`${dir} is not an export directory: ${SEED_LAYOUTS}`, 'Write one with `cms item export <dir> --hub <hub>`, or seed from a snapshot file (cms sandbox snapshot save ./file.snapshot).');
  return layout;
}

const isDir = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;

const HUB_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,254}$/;

/** A name the service takes (letters, digits, - and _), from a directory's name: `My Site` is my-site. */
export function nameFrom(text: string): string {
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/^[-_]+|-+$/g, '')
    .slice(0, 100);
  return name || 'seed';
}

/**
 * Creates the hub of an export directory, its repositories, schemas, types, folders and items,
 * through `client`; returns the hub's name (the export's source hub, or the directory's name:
 * dc-cli layouts have no manifest).
 */
export async function seedHub(client: ApiClient, dir: string, signal?: AbortSignal): Promise<string> {
  const layout = checkSeedDirectory(dir);
  // Everything is read first: a file that is not valid stops the seed before any request.
  const schemaFiles = layout.schemas ? readSchemaFiles(layout.schemas) : [];
  const typeFiles = layout.types ? readTypeFiles(layout.types) : [];
  const cms = layout.kind === 'cms' ? directorySource(dir) : undefined;
  const source: ImportSource | undefined = cms ?? (layout.content ? dcCliSource(layout.content, false) : undefined);
  const manifestHub = cms?.manifest.source?.hubName;
  const hubName = typeof manifestHub === 'string' && HUB_NAME.test(manifestHub) ? manifestHub : nameFrom(basename(resolve(dir)));

  const run = new QuietRun();
  const hub = await client.post<{ id: string }>('/hubs', { name: hubName, label: cms ? hubName : basename(resolve(dir)) });
  const repositories = wantedRepositories(source?.repositories ?? [], typeFiles, layout.kind === 'dc-cli');
  for (const repo of repositories) await createRepository(client, hub.id, repo);

  const sync = new Syncer(run, new MemoryMapping(), signal);
  if (schemaFiles.length) {
    run.fileOfKey = fileOfStep('schema', layout.schemas!, schemaFiles);
    await applySchemas(sync, client, { hubId: hub.id, prune: false }, schemaFiles);
    refusedFiles(run);
  }
  if (typeFiles.length) {
    run.fileOfKey = fileOfStep('type', layout.types!, typeFiles);
    await applyTypes(sync, client, { hubId: hub.id, prune: false }, typeFiles);
    refusedFiles(run);
  }
  if (source?.refs.size) {
    run.fileOfKey = undefined;
    // The hub is the seed's own: the delivery module that delivery keys need is enabled on it.
    const keepDeliveryKeys = await deliveryKeysFit(client, hub.id, source.deliveryKeys, 'enable', { note() {} }, false);
    await importItems(run, source, { client, hubId: hub.id, keepDeliveryKeys, mapping: new MemoryMapping(), publish: false, io: { warn() {}, note() {} }, signal });
    refusedFiles(run);
  }
  return hubName;
}

type WantedRepository = Pick<RepositoryInfo, 'name' | 'label'> & Partial<Pick<RepositoryInfo, 'features' | 'itemLocales'>>;

/**
 * The repositories to create: the export's (with their labels, features and item locales), and
 * those the type files name. A dc-cli content export names its repositories by label (a
 * directory each) and its type files by name: a label is given the name it slugs to, or the one
 * name the type files use that no label matches when there is exactly one of each.
 */
function wantedRepositories(source: RepositoryInfo[], typeFiles: TypeFile[], byLabel: boolean): WantedRepository[] {
  const named = [...new Set(typeFiles.flatMap((t) => t.repositories ?? []))];
  if (!byLabel) return [...source, ...named.filter((n) => !source.some((r) => r.name === n)).map((name) => ({ name, label: name }))];
  const out: WantedRepository[] = source.map((r) => ({ name: named.find((n) => n === r.label || n === nameFrom(r.label)) ?? '', label: r.label }));
  const unnamed = out.filter((r) => !r.name);
  const unused = named.filter((n) => !out.some((r) => r.name === n));
  if (unnamed.length === 1 && unused.length === 1) unnamed[0]!.name = unused.shift()!;
  for (const r of out) r.name ||= nameFrom(r.label);
  return [...out, ...unused.map((name) => ({ name, label: name }))];
}

async function createRepository(client: ApiClient, hubId: string, repo: WantedRepository): Promise<void> {
  const made = await client.post<{ id: string }>(`/hubs/${hubId}/content-repositories`, { name: repo.name, label: repo.label });
  for (const feature of repo.features ?? []) await client.post(`/content-repositories/${made.id}/features`, undefined, { query: { feature } });
  if (repo.itemLocales?.length) await client.post(`/content-repositories/${made.id}/item-locales`, { itemLocales: repo.itemLocales });
}

/** Failures so far (the service refused a schema, a type, an item): the seed stops, naming each file. */
function refusedFiles(run: RunSteps): void {
  if (!run.failures.length) return;
  const lines = run.failures.slice(0, 20).map((f: Failure) => `${f.file ?? f.id}: ${f.reason}`);
  if (run.failures.length > 20) lines.push(`… and ${run.failures.length - 20} more`);
  throw new UsageError(`the service refused ${run.failures.length} of its file(s):\n  ${lines.join('\n  ')}`);
}

/** A seed directory that did not go in (bad files, refused by the service): exit 2; nothing was changed. */
export class SeedError extends UsageError {}

/**
 * Applies an export directory to an empty in-memory sandbox and hands `use` a snapshot file of it
 * (in a private temporary directory, removed afterwards). A failure is a SeedError (exit 2)
 * naming the directory; nothing else was touched. `signal` (Ctrl-C) stops it.
 */
export async function withSeedSnapshot<T>(dir: string, use: (file: string) => T | Promise<T>, signal?: AbortSignal): Promise<T> {
  const { createSandbox, ADMIN_CLIENT_ID, ADMIN_CLIENT_SECRET } = await import('../server/app.js');
  const scratch = mkdtempSync(join(tmpdir(), 'cms-seed-'));
  try {
    const sandbox = createSandbox({ dataDir: ':memory:' });
    const transport = await inProcessTransport(sandbox);
    try {
      const tokens = new TokenProvider(transport, { authUrl: EMBEDDED_ORIGIN, clientId: ADMIN_CLIENT_ID, clientSecret: ADMIN_CLIENT_SECRET }, null);
      await seedHub(new ApiClient(transport, tokens, { apiUrl: EMBEDDED_ORIGIN, signal }), dir, signal);
      sandbox.service.saveSnapshot(join(scratch, 'seed.snapshot'));
    } catch (err) {
      // Anything the directory caused is bad input (exit 2), whatever exit the command would give it; Ctrl-C stays itself.
      if (err instanceof CliError && !signal?.aborted) throw new SeedError(`seeding from ${dir} failed: ${err.message}`, err.hint);
      throw err;
    } finally {
      await transport.close();
    }
    return await use(join(scratch, 'seed.snapshot'));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
