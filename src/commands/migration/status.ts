import { defineCommand } from '../../cli/define.js';
import { hubOption } from '../../cli/options.js';
import { col, list } from '../../output/result.js';
import { migrationStatus } from '../../ops/migration/status.js';

export default defineCommand<{ hub?: string }>({
  summary: 'List the migrations the hub records as applied; with files, whether each is applied, changed since, or not applied',
  description:
    'The hub keeps a record of every migration applied to it with cms migration run --apply: its name (the file name, or the name it declares), the SHA-256 of the file, the run and its counts. Given migration files, each is shown as applied, changed (applied, but the file differs now), partial (its run had failures) or not applied. The record is the settings of the hub extension cms-migrations (see docs/migrations.md).',
  examples: ['cms migration status', 'cms migration status migrations/rename-field.ts -o json'],
  args: [{ name: 'files', description: 'migration files to check against the record', variadic: true }],
  options: [hubOption],
  async run(ctx, args, opts) {
    const rows = await migrationStatus(ctx, (args.files as string[] | undefined) ?? [], opts.hub);
    return list(rows, [col('name'), col('status'), col('applied', 'appliedAt'), col('run', 'runId'), col('hash', (r: { hash?: string }) => r.hash?.slice(0, 12) ?? ''), col('file')]);
  },
});
