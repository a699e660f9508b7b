import { confirm } from '../cli/confirm.js';
import { defineCommand } from '../cli/define.js';
import { yesOption } from '../cli/options.js';
import { BulkRun, concurrencyOption, dryRunOption, progressOption, type RunFlags } from '../ops/bulk-run.js';
import { clientProbe } from '../ops/resolve.js';
import { Undo, clientForRun, openForUndo, resolveForUndo } from '../ops/undo.js';

interface Opts extends Omit<RunFlags, 'resume'> {
  concurrency: number;
  yes?: boolean;
}

export default defineCommand<Opts>({
  summary: 'Revert what a bulk run did (import, copy, move): archive what it created, restore what it updated',
  description: [
    'Reads the journal of the run (see cms runs) and reverts its steps, newest first: items it created are archived (their delivery keys released), items it updated get their previous version back (a new version restoring it, with the previous delivery key), what it archived is unarchived; folders it created are deleted and content type assignments it made removed.',
    'An item changed since the run (its version moved on) is refused and reported, never overwritten; the exit code is then 3. Undo writes its own journal; running it again after an interruption continues where it stopped.',
  ].join('\n\n'),
  examples: ['cms undo 20250101-120000-a1b2c3 --yes', 'cms undo 20250101-120000-a1b2c3 --dry-run -o json'],
  args: [{ name: 'run', description: 'id of the run to revert (see cms runs)', required: true }],
  options: [concurrencyOption, dryRunOption, progressOption, yesOption],
  async run(ctx, args, opts) {
    const runId = String(args.run);
    const dataDir = ctx.connection().dataDir;
    const { original } = openForUndo(dataDir, runId);
    const steps = original.steps();
    const clients = {
      target: await clientForRun(ctx, original.meta.target),
      source: original.meta.source ? await clientForRun(ctx, original.meta.source) : undefined,
    };
    if (!opts.dryRun) await confirm(ctx, `Revert the ${steps.length} step(s) of run ${runId} (cms ${original.meta.command})?`, opts.yes);
    const run = await BulkRun.begin(ctx, opts, { command: 'undo', options: { run: runId }, target: original.meta.target, source: original.meta.source, undoOf: runId });
    if (run.dryRun) for (const c of Object.values(clients)) if (c) c.readOnly = true;
    return run.execute(async () => {
      // A dry run asks nothing (settling a create sends it again): its plan leaves out unjournaled writes.
      if (!run.dryRun) await resolveForUndo(dataDir, runId, { target: clientProbe(clients.target), source: clients.source && clientProbe(clients.source) });
      const history = openForUndo(dataDir, runId);
      const undo = new Undo(run, { ...history.original.meta, steps: history.original.steps() }, history, clients, opts.concurrency, ctx.signal);
      await undo.all();
    });
  },
});
