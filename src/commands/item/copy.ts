import { defineCommand } from '../../cli/define.js';
import { hubOption, repoOption } from '../../cli/options.js';
import { UsageError } from '../../core/errors.js';
import { item } from '../../output/result.js';
import { BulkRun, concurrencyOption, dryRunOption, progressOption, resumeOption, type RunFlags } from '../../ops/runs/bulk-run.js';
import { copyItems, destinationOptions, planCopy, runCopy, type CopyFlags, type CopyPlan } from '../../ops/copy.js';
import { ITEM_COLUMNS } from './_shared.js';

interface Options extends RunFlags, CopyFlags {
  repo?: string;
  label?: string;
  version?: string;
  name?: string;
  folder?: string;
  locale?: string;
}

export default defineCommand<Options>({
  summary: 'Copy content items to another repository, folder, hub or profile (with what they link to)',
  description: [
    'cms item copy <item...> --to-repo <repo> copies the items into a repository (and --to-folder), of this hub or another (--to-hub), on this service or another profile (--to-profile). --with-deps copies everything the items link to as well, with the copies linking to each other. Copies are always new items. Within one hub they never take the delivery key (keys are unique in a hub); across hubs keys and locales travel with them.',
    'Every run is journaled (cms runs; cms undo <run-id> archives the copies); --dry-run prints the plan without writing, --resume continues an interrupted run. Failed items are listed with their reasons and the exit code is 3.',
    '--label, --version, --name and --locale shape the copy of a single item. --repo and --folder, the older form for a single item, still work with a deprecation warning: use --to-repo and --to-folder.',
  ].join('\n\n'),
  examples: [
    'cms item copy 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --to-repo archive --label "Archived copy"',
    'cms item copy 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c 2c5e1e0e-4f4b-4c1a-9a53-3f1f0c9d9a11 --to-repo content --to-folder 5f1a2b3c4d5e6f7a8b9c0d1e',
    'cms item copy 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --to-profile prod --to-hub site --to-repo content --with-deps --dry-run',
  ],
  args: [{ name: 'item', description: 'content item id(s)', variadic: true }],
  options: [
    hubOption,
    ...destinationOptions,
    concurrencyOption,
    dryRunOption,
    resumeOption,
    progressOption,
    { ...repoOption, description: 'deprecated: use --to-repo' },
    { flags: '--label <label>', description: 'label of the copy (default: the source label)' },
    { flags: '--version <n|latest>', description: 'version to copy (default: latest)' },
    { flags: '--name <name>', description: 'body._meta.name of the copy' },
    { flags: '--folder <id>', description: 'deprecated: use --to-folder' },
    { flags: '--locale <locale>', description: 'locale of the copy (default: the source locale, if the destination accepts it)' },
  ],
  async run(ctx, args, opts) {
    const ids = (args.item as string[] | undefined) ?? [];
    const service = serviceFields(opts);
    if (!opts.repo) {
      if (opts.folder) throw new UsageError('--folder goes with --repo; use --to-folder with --to-repo');
      return runCopy(ctx, ids, opts, false, service);
    }
    ctx.io.warn(`--repo${opts.folder ? ' and --folder are' : ' is'} deprecated; use --to-repo${opts.folder ? ' and --to-folder' : ''} (cms item copy <item> --to-repo ${opts.repo}${opts.folder ? ` --to-folder ${opts.folder}` : ''})`);
    if (ids.length !== 1 || opts.toRepo || opts.toFolder || opts.toProfile || opts.toHub || opts.withDeps || opts.resume) {
      throw new UsageError('--repo copies a single item within its hub', 'For several items, other hubs or profiles, use --to-repo (with --to-folder, --to-hub, --to-profile, --with-deps).');
    }
    return singleCopy(ctx, ids[0]!, opts, service);
  },
});

/** The original form: one service copy, journaled like any run, printing the copy. */
async function singleCopy(ctx: Parameters<typeof runCopy>[0], id: string, opts: Options, service: CopyPlan['service']) {
  const flags = { hub: opts.hub, toRepo: opts.repo, toFolder: opts.folder, concurrency: 1 };
  if (opts.dryRun) return runCopy(ctx, [id], { ...flags, dryRun: true, progress: opts.progress }, false, service);
  const { plan, clients } = await planCopy(ctx, [id], flags, false, service);
  const run = await BulkRun.begin(ctx, { progress: 'none' }, { command: 'item copy', options: { ...plan }, target: clients.targetRun, source: clients.sourceRun });
  let copyId: string | undefined;
  await run.execute(async () => {
    copyId = ((await copyItems(run, plan, clients, ctx.io, ctx.signal)).copies as Record<string, string>)[id];
    // One item: its failure is the command's, with the service's own exit code.
    if (!copyId) throw run.lastError;
  });
  return item(await clients.target.get(`/content-items/${copyId}`), ITEM_COLUMNS);
}

function serviceFields(opts: Options): CopyPlan['service'] {
  const version = opts.version === undefined || opts.version === 'latest' ? 'latest' : Number(opts.version);
  if (version !== 'latest' && (!Number.isInteger(version) || version < 1)) throw new UsageError(`--version must be a version number or latest, got '${opts.version}'`);
  return { label: opts.label, version, name: opts.name, locale: opts.locale };
}
