import { defineCommand } from '../cli/define.js';
import { limitOf, limitOption, allOption } from '../cli/options.js';
import { col, item, list } from '../output/result.js';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Journal, listRuns, runsDir, type RunMeta } from '../ops/journal.js';

/** How many steps a run journaled: 0 when its journal is empty (one stat, no read), else the count. */
function stepsOf(dataDir: string, run: RunMeta): number {
  try {
    if (statSync(join(runsDir(dataDir), run.id, 'journal.ndjson')).size === 0) return 0;
  } catch {
    return 0;
  }
  return Journal.open(dataDir, run.id).steps().length;
}

/** A run that stopped (interrupted, failed) before its first step says so: there is nothing to undo or resume past. */
const statusOf = (r: RunMeta & { steps: number }) => (r.steps === 0 && (r.status === 'interrupted' || r.status === 'failed') ? `${r.status} before any change` : r.status);

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
    const columns = [col('id'), col('command'), col('status', statusOf), col('started', 'startedAt'), col('counts', counts), col('undo of', 'undoOf')];
    return list(listRuns(dataDir).map((r) => ({ ...r, steps: stepsOf(dataDir, r) })), columns, limitOf(opts));
  },
});
