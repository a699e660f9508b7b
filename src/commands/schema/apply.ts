import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { dryRunOption, progressOption, resumeOption } from '../../ops/runs/bulk-run.js';
import { applyOptions, runApply, type ApplyFlags } from '../../ops/apply.js';

export default defineCommand<ApplyFlags>({
  summary: 'Apply a directory of schema files to a hub: create, update (with a diff) or leave each schema',
  description: [
    'Every *.json file under <dir> is one content type schema: the JSON Schema document itself (its id is the schema id, validation level CONTENT_TYPE), or {schemaId, validationLevel, status, body} with the document as body. Schemas are written dependencies first ($ref to another schema of the set); a changed schema gets a new version and the content types registered from it get their cached schema refreshed.',
    '--dry-run prints the plan (create / update with a diff of the document / unchanged, and with --prune archive for schemas the hub has and the files do not) and writes nothing. --exit-code exits 1 when the hub differed from the files: with --dry-run, a drift check for CI. Every apply is journaled: cms undo <run-id> makes the previous versions current again and archives what it created. See docs/content-operations.md.',
  ].join('\n\n'),
  examples: ['cms schema apply ./model/schemas --hub site --dry-run', 'cms schema apply ./model/schemas --hub site --prune', 'cms schema apply ./model/schemas --hub prod --dry-run --exit-code'],
  args: [{ name: 'dir', description: 'directory of schema files (not needed with --resume)' }],
  options: [hubOption, ...applyOptions, dryRunOption, resumeOption, progressOption],
  run: (ctx, args, opts) => runApply(ctx, 'schema', args.dir as string | undefined, opts),
});
