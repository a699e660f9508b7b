import { defineCommand } from '../cli/define.js';
import { limitOf, limitOption, allOption } from '../cli/options.js';
import { col, item, list } from '../output/result.js';
import { Journal, listRuns, type RunMeta } from '../ops/journal.js';

const counts = (r: RunMeta) =>
  Object.entries(r.counts ?? {})
    .filter(([, n]) => n)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');

export default defineCommand<{ limit: number }>({
  summary: 'List bulk runs (import, copy, move, undo) with their status and counts, newest first',
  description:
    'Every mutating bulk run keeps a journal in the data directory (runs/<id>/). A run whose process died shows as interrupted: continue it with --resume <id> on the same command, or revert it with cms undo <id>. With a run id, shows that run: its options, target and counts.',
  examples: ['cms runs', 'cms runs --limit 5 -o json', 'cms runs 20250101-120000-a1b2c3'],
  args: [{ name: 'run', description: 'show this run' }],
  options: [limitOption, allOption],
  async run(ctx, args, opts) {
    const dataDir = ctx.connection().dataDir;
    if (args.run) {
      const journal = Journal.open(dataDir, String(args.run));
      return item({ ...journal.meta, status: journal.status, steps: journal.steps().length });
    }
    const columns = [col('id'), col('command'), col('status'), col('started', 'startedAt'), col('counts', counts), col('undo of', 'undoOf')];
    return list(listRuns(dataDir), columns, limitOf(opts));
  },
});
