import { confirm } from '../cli/confirm.js';
import { defineCommand } from '../cli/define.js';
import { yesOption } from '../cli/options.js';
import { UsageError } from '../core/errors.js';
import { BulkRun, concurrencyOption, dryRunOption, progressOption, type RunFlags } from '../ops/runs/bulk-run.js';
import { Journal } from '../ops/runs/journal.js';
import { clientProbe } from '../ops/runs/resolve.js';
import { Undo, clientForRun, openForUndo, resolveForUndo } from '../ops/undo.js';
import { markUndone } from '../ops/migration/record.js';

interface Opts extends RunFlags {
  /** Undefined: the governor adapts (pool.ts). */
  concurrency?: number;
  yes?: boolean;
}

export default defineCommand<Opts>({
  summary: 'Revert what a bulk run did (import, copy, move): archive what it created, restore what it updated',
  description: [
    'Reads the journal of the run (see cms runs) and reverts its steps, newest first: items it created are archived (their delivery keys released), items it updated get their previous version back (a new version restoring it, with the previous delivery key), what it archived is unarchived; folders it created are deleted and content type assignments it made removed.',
    'An item changed since the run (its version moved on) is refused and reported, never overwritten; the exit code is then 3. What a refused item still needs is kept and listed under KEPT (`kept` in JSON) with why: the items it links to, the content type assigned to its repository, its folder. Undo writes its own journal: an interrupted undo continues where it stopped with --resume <undo run> (what its interruption says), or by running cms undo <run> again.',
  ].join('\n\n'),
  examples: ['cms undo 20250101-120000-a1b2c3 --yes', 'cms undo 20250101-120000-a1b2c3 --dry-run -o json'],
  args: [{ name: 'run', description: 'id of the run to revert (see cms runs); not with --resume' }],
  options: [concurrencyOption, dryRunOption, progressOption, yesOption, { flags: '--resume <undo-run>', description: 'continue an interrupted undo (the id its interruption printed, see cms runs)' }],
  async run(ctx, args, opts) {
    const dataDir = ctx.connection().dataDir;
    const runId = revertedRun(dataDir, args.run, opts.resume);
    const { original } = openForUndo(dataDir, runId);
    const steps = original.steps();
    const clients = {
      target: await clientForRun(ctx, original.meta.target),
      source: original.meta.source ? await clientForRun(ctx, original.meta.source) : undefined,
    };
    if (!opts.dryRun) await confirm(ctx, `Revert the ${steps.length} step(s) of run ${runId} (cms ${original.meta.command})?`, opts.yes);
    const run = await BulkRun.begin(ctx, opts, { command: 'undo', options: { run: runId }, target: original.meta.target, source: original.meta.source, undoOf: runId });
    if (run.dryRun) for (const c of Object.values(clients)) if (c) c.readOnly = true;
    const out = await run.execute(async () => {
      // A dry run asks nothing (settling a create sends it again): its plan leaves out unjournaled writes.
      if (!run.dryRun) {
        const probes = { target: clientProbe(clients.target), source: clients.source && clientProbe(clients.source) };
        await resolveForUndo(dataDir, runId, probes);
        // The undo being resumed (its own journal, running again) settles its writes too.
        await run.resolvePending(probes);
      }
      const history = openForUndo(dataDir, runId);
      const undo = new Undo(run, { ...history.original.meta, steps: history.original.steps() }, history, clients, opts.concurrency, ctx.signal);
      await undo.all();
    });
    // An undone migration may be applied again: the hub's record says it was undone.
    if (!run.dryRun && !run.failures.length && original.meta.command === 'migration run' && original.meta.target.hubId) await markUndone(clients.target, original.meta.target.hubId, runId);
    return out;
  },
});

/** The run to revert: the argument, or with --resume the run that undo run was reverting. */
function revertedRun(dataDir: string, arg: string | undefined, resume: string | undefined): string {
  if (!resume) {
    if (!arg) throw new UsageError('Name the run to revert', 'cms undo <run> (see cms runs), or cms undo --resume <undo run> to continue an interrupted undo.');
    return String(arg);
  }
  if (arg) throw new UsageError('Give either a run to revert or --resume <undo run>, not both', `To continue the interrupted undo: cms undo --resume ${resume}`);
  const { meta } = Journal.open(dataDir, resume);
  if (meta.command !== 'undo' || !meta.undoOf) {
    throw new UsageError(`Run ${resume} is a '${meta.command}' run, not an undo`, `To revert it: cms undo ${resume}${meta.command !== 'undo' ? `; to continue it: cms ${meta.command} --resume ${resume}` : ''}`);
  }
  return meta.undoOf;
}
