import { resolve } from 'node:path';
import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { repoId } from '../../cli/resolve.js';
import type { ApiClient } from '../../core/client.js';
import { UsageError } from '../../core/errors.js';
import { BulkRun, concurrencyOption, dryRunOption, progressOption, resumeOption, type RunFlags } from '../../ops/runs/bulk-run.js';
import { deliveryKeysFit, importItems, type DeliveryKeysChoice, type ImportSource } from '../../ops/import.js';
import { FileMapping } from '../../ops/files/mapping.js';
import { directorySource } from '../../ops/sources.js';
import { LAYOUTS, dcCliSource, detectLayout, readMappingFile, useMappingFile, writeMappingFile, type Layout } from '../../ops/dc-cli-layout.js';

interface Opts extends RunFlags {
  hub?: string;
  repo?: string;
  folder?: string;
  /** Undefined: the governor adapts (pool.ts). */
  concurrency?: number;
  publish?: boolean;
  layout?: string;
  mappingFile?: string;
  dropDeliveryKeys?: boolean;
  enableDeliveryModule?: boolean;
}

/** What defines an import run: saved in its journal, reused by --resume. */
interface ImportOptions {
  dir: string;
  hubId: string;
  repoId?: string;
  folderId?: string;
  /** Undefined: the governor adapts (pool.ts). */
  concurrency?: number;
  publish: boolean;
  layout?: Layout;
  mappingFile?: string;
  deliveryKeys?: DeliveryKeysChoice;
}

export default defineCommand<Opts>({
  summary: 'Import an export directory into a hub: create or update its items, linked items first',
  description: [
    'Creates each item of <dir> (see cms item export) in the repository named like its source repository (or --repo) and in the folder of the same path (created when missing; or --folder), with its locale and delivery key (delivery keys need the delivery module of the hub: when items carry keys and the hub lacks it, the import stops before writing anything unless --enable-delivery-module or --drop-delivery-keys). Content links are rewritten to the target ids; linked items are written first, and items in a cycle are written without their links to each other first and completed in a second pass.',
    'The source -> target id mapping is kept per target hub in the data directory, so running the import again updates what changed and leaves unchanged items alone instead of duplicating them. An export imported back into the hub it came from (content kept in git) updates that hub\'s items in place, matched by id. Content types the items use are assigned to the target repositories when the hub has them; otherwise the import stops before writing anything and says how to create them from <dir>/schemas and <dir>/types.',
    'The directory may also be a content export of the hosted service\'s own CLI (dc-cli: <repository label>/<folder>/.../<item>.json), detected when it has no manifest.json, or named with --layout dc-cli; there each top-level directory is the repository with that label (or name), or with --repo the whole directory is that repository. --mapping-file reads that CLI\'s mapping file (source id -> target id of its earlier imports) and writes it back with this run\'s items. See docs/migrating.md.',
    'Every run is journaled: --resume <run-id> continues an interrupted run without duplicates, cms undo <run-id> reverts it, cms runs lists runs. --dry-run prints the plan and sends no write request. Failed items do not stop the run; they are listed with their reasons and the exit code is 3.',
  ].join('\n\n'),
  examples: [
    'cms item import ./content --hub staging',
    'cms item import ./content --hub prod --dry-run',
    'cms item import ./pages --hub prod --repo site --folder 5f1a2b3c4d5e6f7a8b9c0d1e --publish --progress json',
    'cms item import ./dc-export/content --hub prod --layout dc-cli --mapping-file ~/.amplience/imports/hub-5f1a.json',
    'cms item import --resume 20250101-120000-a1b2c3',
  ],
  args: [{ name: 'dir', description: 'export directory (not needed with --resume)' }],
  options: [
    hubOption,
    { flags: '--repo <id|name>', description: 'put every item in this repository (default: the one named like its source repository)', complete: 'repositories' },
    { flags: '--folder <id>', description: 'put every item in this folder (default: recreate the source folder paths)' },
    concurrencyOption,
    { flags: '--publish', description: 'publish each imported item, and wait for the publishing jobs at the end' },
    { flags: '--layout <layout>', description: 'layout of the directory: cms (a cms item export) or dc-cli (the hosted service CLI\'s content export); default: detected', choices: [...LAYOUTS] },
    { flags: '--mapping-file <file>', description: "dc-cli's mapping file: its item ids are reused, and it is written back with this run's" },
    { flags: '--drop-delivery-keys', description: 'import the items without their delivery keys (for a hub without the delivery module)' },
    { flags: '--enable-delivery-module', description: 'enable the delivery module (Content Delivery 2) on the hub when items carry delivery keys and it lacks it' },
    dryRunOption,
    resumeOption,
    progressOption,
  ],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const options = (BulkRun.resumedOptions(ctx, opts.resume, 'item import', { dir: args.dir as string | undefined }) as ImportOptions | undefined) ?? (await newOptions(ctx, client, args.dir as string | undefined, opts));
    const layout = options.layout ?? detectLayout(options.dir);
    const source = layout === 'dc-cli' ? dcCliSource(options.dir, Boolean(options.repoId)) : sameHubAware(directorySource(options.dir), options.hubId);
    const connection = ctx.connection();
    const target = { apiUrl: connection.apiUrl, profile: connection.profile, hubId: options.hubId };
    // Read (and refused when unusable) before the run begins; used once the run holds its lock.
    const mappingFile = options.mappingFile ? readMappingFile(options.mappingFile) : undefined;
    // Keys the hub cannot take would fail item by item: settled before anything is written.
    const keepDeliveryKeys = await deliveryKeysFit(client, options.hubId, source.deliveryKeys, options.deliveryKeys, ctx.io, Boolean(opts.dryRun));
    const run = await BulkRun.begin(ctx, opts, { command: 'item import', options: { ...options }, target });
    if (run.dryRun) client.readOnly = true;
    let mapping: FileMapping | undefined;
    try {
      return await run.execute(async () => {
        // What earlier runs created in the hub, read under the lock: a run that held it until a
        // moment ago has written all of its mapping (read before, its items would be created again).
        mapping = FileMapping.forTarget(connection.dataDir, target, { readOnly: run.dryRun });
        const outsideMapping = mappingFile ? useMappingFile(mappingFile, mapping) : undefined;
        await importItems(run, source, {
          client,
          hubId: options.hubId,
          repoId: options.repoId,
          folderId: options.folderId,
          keepDeliveryKeys,
          mapping,
          outsideMapping,
          concurrency: options.concurrency,
          publish: options.publish,
          io: ctx.io,
          signal: ctx.signal,
        });
      });
    } finally {
      if (mapping && mappingFile && options.mappingFile && !run.dryRun) writeMappingFile(options.mappingFile, mappingFile, mapping);
      mapping?.close();
    }
  },
});

/**
 * An export of the hub it is imported into (content kept in git, edited, imported back) holds the
 * hub's own items: those the hub still has, by id, are updated, not created again. The service's
 * URL is not compared (one service has several); only items the repository holds under the same
 * id are taken (adoptSameIds in import.ts).
 */
function sameHubAware(source: ReturnType<typeof directorySource>, hubId: string): ImportSource {
  return source.manifest.source?.hubId === hubId ? { ...source, sameHubIds: true } : source;
}

async function newOptions(ctx: Parameters<typeof repoId>[0], client: ApiClient, dir: string | undefined, opts: Opts): Promise<ImportOptions> {
  if (!dir) throw new UsageError('Name the export directory: cms item import <dir>', 'Or continue an interrupted run with --resume <run-id> (see cms runs).');
  if (opts.concurrency !== undefined && opts.concurrency < 1) throw new UsageError('--concurrency must be at least 1');
  if (opts.dropDeliveryKeys && opts.enableDeliveryModule) throw new UsageError('Give --drop-delivery-keys or --enable-delivery-module, not both');
  const deliveryKeys: DeliveryKeysChoice | undefined = opts.dropDeliveryKeys ? 'drop' : opts.enableDeliveryModule ? 'enable' : undefined;
  const hubId = await ctx.hubId(opts.hub, client);
  let targetRepo = opts.repo ? await repoId(ctx, opts.repo, opts.hub, client) : undefined;
  if (opts.folder) {
    // A folder belongs to one repository: it names the target repository too.
    const folder = await client.get<{ contentRepositoryId: string }>(`/folders/${opts.folder}`);
    if (targetRepo && folder.contentRepositoryId !== targetRepo) throw new UsageError(`Folder ${opts.folder} is not in repository ${opts.repo}`);
    targetRepo = folder.contentRepositoryId;
  }
  const layout = opts.layout as Layout | undefined;
  const mappingFile = opts.mappingFile ? resolve(opts.mappingFile) : undefined;
  return { dir: resolve(dir), hubId, repoId: targetRepo, folderId: opts.folder, concurrency: opts.concurrency, publish: Boolean(opts.publish), layout, mappingFile, deliveryKeys };
}
