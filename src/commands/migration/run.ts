import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { concurrencyOption, progressOption } from '../../ops/runs/bulk-run.js';
import { runMigration, type MigrationFlags } from '../../ops/migration/run.js';

export default defineCommand<MigrationFlags>({
  summary: 'Run a content migration (a TS/JS file): a dry run with a diff by default, --apply to write it, journaled for --resume and cms undo',
  description: [
    'A migration is a file in your repository (TypeScript or JavaScript) whose default export is defineMigration({ select, migrate }) from cms-cli/migration: which items it reads (content type, repository, folder, search query, where predicate) and, for each, the change to make (body, label, folder, delivery key, workflow state, archive, another content type), or nothing. See docs/migrations.md.',
    'Without --apply nothing is written: each item that would change is shown with a field-level diff (on a terminal; one row per changed field when piped; -o json for a document), with counts and the bodies their schema would refuse. --exit-code exits 1 when the migration would still change something (a CI check).',
    '--apply writes through the bulk engine (rate governor, bounded concurrency, version checks: an item changed by someone else since it was read is read again and migrated again, never overwritten), journaled: --resume <run> finishes a run that was killed, cms undo <run> restores every item it changed. The hub records applied migrations (name and content hash; cms migration status); applying one again is refused unless --force. An item whose migrate() throws, runs longer than --item-timeout, or returns a body its schema refuses (unless --ignore-schema-validation) fails alone; the run goes on and exits 3 with the list.',
    '--from <export dir> runs the migration offline on an export (cms item export) and, with --apply, writes the result beside it (<dir>.migrated, or --out).',
  ].join('\n\n'),
  examples: [
    'cms migration run migrations/rename-field.ts',
    'cms migration run migrations/rename-field.ts --apply',
    'cms migration run migrations/rename-field.ts --from ./content --apply',
    'cms migration run migrations/rename-field.ts --exit-code -o json',
  ],
  args: [{ name: 'file', description: 'the migration file (.ts, .mts, .js, .mjs); not needed with --resume' }],
  options: [
    hubOption,
    { flags: '--apply', description: 'write the changes (default: a dry run that writes nothing)' },
    { flags: '--from <export-dir>', description: 'run offline on an export directory (cms item export) instead of a hub' },
    { flags: '--out <dir>', description: 'with --from --apply: where the result is written (default: <export-dir>.migrated)' },
    { flags: '--resume <run-id>', description: 'finish an interrupted --apply run (see cms runs)' },
    { flags: '--force', description: 'apply a migration the hub records as applied already (or resume a run whose file changed)' },
    { flags: '--publish', description: 'publish again each changed item that was published' },
    { flags: '--ignore-schema-validation', description: 'write bodies their content type schema refuses (default: such items are skipped and reported)' },
    { flags: '--item-timeout <duration>', description: 'time limit of migrate() on one item (default 10s): past it the item fails', duration: true },
    { flags: '--exit-code', description: 'dry run: exit 1 when the migration would change something (0 when nothing is left to do)' },
    concurrencyOption,
    progressOption,
  ],
  run: (ctx, args, opts) => runMigration(ctx, args.file as string | undefined, opts),
});
