import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { dryRunOption, progressOption, resumeOption } from '../../ops/runs/bulk-run.js';
import { applyOptions, runApply, type ApplyFlags } from '../../ops/apply.js';

export default defineCommand<ApplyFlags>({
  summary: 'Apply a directory of content type files to a hub: register, update (with a diff) or leave each type',
  description: [
    'Every *.json file under <dir> is one content type: {contentTypeUri, settings: {label, icons, visualizations, cards}, status, repositories: [names]}. Without repositories the assignments are left as they are; with it the type is assigned to exactly those repositories. The schema must exist in the hub (see cms schema apply).',
    '--dry-run prints the plan (create / update with the settings fields and repository assignments that change / unchanged, and with --prune archive for types the hub has and the files do not) and writes nothing. --exit-code exits 1 when the hub differed from the files. Every apply is journaled: cms undo <run-id> puts the previous settings and assignments back and archives what it registered. See docs/content-operations.md.',
  ].join('\n\n'),
  examples: ['cms type apply ./model/types --hub site --dry-run', 'cms type apply ./model/types --hub site', 'cms type apply ./model/types --hub prod --dry-run --exit-code'],
  args: [{ name: 'dir', description: 'directory of content type files (not needed with --resume)' }],
  options: [hubOption, ...applyOptions, dryRunOption, resumeOption, progressOption],
  run: (ctx, args, opts) => runApply(ctx, 'type', args.dir as string | undefined, opts),
});
