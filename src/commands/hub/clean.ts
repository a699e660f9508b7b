import { confirm } from '../../cli/confirm.js';
import { defineCommand } from '../../cli/define.js';
import { yesOption } from '../../cli/options.js';
import { BulkRun, dryRunOption, progressOption, resumeOption, type RunFlags } from '../../ops/runs/bulk-run.js';
import { UsageError } from '../../core/errors.js';
import { planClean, runClean } from '../../ops/clean-hub.js';

interface Options extends RunFlags {
  yes?: boolean;
}

export default defineCommand<Options>({
  summary: 'Empty a hub as the vendor\'s cleanup does: archive its items, delete its folders, archive its types and schemas',
  description: [
    'Archives every active content item of every repository of the hub, deletes every folder (sub-folders first; archived items do not hold a folder open), then archives every active content type and content type schema. The hub, its repositories and settings stay.',
    'Asks for confirmation unless --yes. --dry-run prints the plan and never asks. Every run is journaled: --resume <run-id> continues an interrupted run (the hub is read again, so only what is left is done), cms undo <run-id> unarchives the items, types and schemas (deleted folders stay deleted). A step that fails is listed with its reason and the exit code is 3.',
  ].join('\n\n'),
  examples: ['cms hub clean demo --dry-run', 'cms hub clean demo --yes'],
  args: [{ name: 'hub', description: 'hub id or name (not needed with --resume)' }],
  options: [yesOption, dryRunOption, resumeOption, progressOption],
  async run(ctx, args, opts) {
    const client = await ctx.client();
    const resumed = BulkRun.resumedOptions(ctx, opts.resume, 'hub clean') as { hubId: string } | undefined;
    // Named outright: a destructive run never falls back to the profile's or the only hub.
    if (!resumed && !args.hub) throw new UsageError('Name the hub to clean: cms hub clean <hub>', 'Or continue an interrupted run with --resume <run-id> (see cms runs).');
    const hubId = resumed?.hubId ?? (await ctx.hubId(args.hub as string, client));
    const plan = await planClean(client, hubId);
    if (!opts.dryRun) {
      const what = `archive ${plan.items.length} item(s), delete ${plan.folders.length} folder(s), archive ${plan.types.length} content type(s) and ${plan.schemas.length} schema(s)`;
      await confirm(ctx, `Clean hub ${args.hub ?? hubId}: ${what}?`, opts.yes);
    }
    const connection = ctx.connection();
    const run = await BulkRun.begin(ctx, opts, { command: 'hub clean', options: { hubId }, target: { apiUrl: connection.apiUrl, profile: connection.profile, hubId } });
    if (run.dryRun) client.readOnly = true;
    return run.execute(() => runClean(run, client, plan, ctx.signal));
  },
});
