import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { concurrencyOption, dryRunOption, progressOption, resumeOption, type RunFlags } from '../../ops/runs/bulk-run.js';
import { destinationOptions, runCopy, type CopyFlags } from '../../ops/copy.js';

export default defineCommand<RunFlags & CopyFlags>({
  summary: 'Move content items to another repository, folder, hub or profile (copy, then archive the sources)',
  description: [
    'Copies the items like cms item copy --to-repo, then archives each source whose copy succeeded. Within one repository a move only changes the folder (the item keeps its id and history). Within one hub each delivery key is handed over to the copy (the source releases it first). Links from other items still name the archived sources.',
    'Every run is journaled: cms undo <run-id> archives the copies and unarchives the sources (with their delivery keys). --dry-run prints the plan without writing, --resume continues an interrupted run. Exit code 3 when some items failed.',
  ].join('\n\n'),
  examples: [
    'cms item move 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --to-folder 5f1a2b3c4d5e6f7a8b9c0d1e',
    'cms item move 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --to-repo archive --dry-run',
    'cms item move 0f8b6f2e-5c1d-4e8a-9b7c-2d3e4f5a6b7c --to-profile prod --to-repo content --with-deps',
  ],
  args: [{ name: 'item', description: 'content item id(s)', variadic: true }],
  options: [hubOption, ...destinationOptions, concurrencyOption, dryRunOption, resumeOption, progressOption],
  run: (ctx, args, opts) => runCopy(ctx, (args.item as string[] | undefined) ?? [], opts, true),
});
