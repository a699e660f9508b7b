import { defineCommand } from '../cli/define.js';
import { confirm } from '../cli/confirm.js';
import { hubOption, limitOf, limitOption, allOption, yesOption } from '../cli/options.js';
import { UsageError } from '../core/errors.js';
import { col, item, list } from '../output/result.js';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Journal, listRuns, runsDir, type RunMeta } from '../ops/runs/journal.js';

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

/** Where a run made its changes: the profile, or the embedded sandbox, or the API it was given. */
const targetOf = (r: RunMeta) => r.target?.profile ?? (/^http:\/\/sandbox\.localhost\b/.test(r.target?.apiUrl ?? '') ? 'sandbox' : (r.target?.apiUrl ?? ''));

/** The hub by its name when the run recorded it (its id is in JSON and `cms runs <id>`). */
const hubOf = (r: RunMeta) => r.target?.hubName ?? r.target?.hubId ?? '';

const RUN_COLUMNS = [col('id'), col('command'), { ...col('status', statusOf), whole: true }, col('hub', hubOf), col('target', targetOf), col('started', 'startedAt'), col('counts', counts), col('undo of', 'undoOf')];

interface Options {
  hub?: string;
  limit: number;
  olderThan: number;
  includeInterrupted?: boolean;
  yes?: boolean;
}

export default defineCommand<Options>({
  summary: 'List bulk runs (import, copy, move, undo) with their status, hub, target and counts, newest first; `cms runs prune` removes old ones',
  description:
    'Every mutating bulk run keeps a journal in the data directory (runs/<id>/). A run whose process died shows as interrupted: continue it with --resume <id> on the same command, or revert it with cms undo <id>. With a run id, shows that run: its options, target and counts. --hub shows the runs that changed that hub. `cms runs prune` removes the journals of runs that finished before --older-than (30 days by default): they can no longer be undone. Interrupted runs are kept (they can be resumed) unless --include-interrupted.',
  examples: ['cms runs', 'cms runs --limit 5 -o json', 'cms runs 20250101-120000-a1b2c3', 'cms runs --hub demo', 'cms runs prune --older-than 90d --yes'],
  args: [{ name: 'run', description: 'show this run; or prune' }],
  options: [
    hubOption,
    limitOption,
    allOption,
    { flags: '--older-than <duration>', description: 'prune: runs that finished longer ago than this (e.g. 30d, 12h)', duration: true, default: '30d' },
    { flags: '--include-interrupted', description: 'prune: interrupted runs too (they can no longer be resumed)' },
    yesOption,
  ],
  async run(ctx, args, opts) {
    const dataDir = ctx.connection().dataDir;
    if (args.run === 'prune') return prune(ctx, dataDir, opts);
    if (args.run) {
      const journal = Journal.open(dataDir, String(args.run));
      return item({ ...journal.meta, status: journal.status, steps: journal.steps().length });
    }
    const hubId = await hubFilter(ctx, opts.hub);
    const runs = listRuns(dataDir).filter((r) => !hubId || r.target?.hubId === hubId || r.source?.hubId === hubId);
    return list(runs.map((r) => ({ ...r, steps: stepsOf(dataDir, r) })), RUN_COLUMNS, limitOf(opts));
  },
});

const HEX_ID = /^[0-9a-f]{24}$/i;

/** --hub as an id: an id as given (the hub may be another profile's), a name through the current connection. */
async function hubFilter(ctx: Parameters<typeof prune>[0], hub: string | undefined): Promise<string | undefined> {
  if (!hub) return undefined;
  return HEX_ID.test(hub) ? hub : ctx.hubId(hub);
}

/** Removes the journals of finished runs older than --older-than (after asking, unless --yes). */
async function prune(ctx: import('../cli/context.js').Context, dataDir: string, opts: Options) {
  const cutoff = Date.now() - opts.olderThan;
  const hubId = await hubFilter(ctx, opts.hub);
  const done = (r: RunMeta) => r.status !== 'running' && (r.status !== 'interrupted' || opts.includeInterrupted);
  const old = (r: RunMeta) => Date.parse(r.finishedAt ?? r.startedAt) < cutoff;
  const chosen = listRuns(dataDir).filter((r) => done(r) && old(r) && (!hubId || r.target?.hubId === hubId || r.source?.hubId === hubId));
  if (!chosen.length) {
    ctx.io.note('No run to prune.');
    return list([], RUN_COLUMNS);
  }
  await confirm(ctx, `Remove the journals of ${chosen.length} run${chosen.length === 1 ? '' : 's'} (they can no longer be undone or resumed)?`, opts.yes);
  for (const r of chosen) {
    // A run id is a directory name the journal made: refuse anything else rather than remove it.
    if (!/^[\w-]+$/.test(r.id)) throw new UsageError(`Run id '${r.id}' is not one the journal makes: not removed`);
    rmSync(join(runsDir(dataDir), r.id), { recursive: true, force: true });
  }
  return list(chosen.map((r) => ({ ...r, steps: 0 })), RUN_COLUMNS);
}
