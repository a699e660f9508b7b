import { defineCommand } from '../../cli/define.js';
import { concurrencyOption, dryRunOption, progressOption, resumeOption } from '../../ops/runs/bulk-run.js';
import { STEPS } from '../../ops/clone/context.js';
import { runClone, type CloneFlags } from '../../ops/clone/runner.js';

export default defineCommand<CloneFlags>({
  summary: 'Copy a hub (settings, content model, repositories, folders, items, events, webhooks, search indexes) to another hub or service',
  description: [
    `--from and --to are <profile>[:<hub>]: a saved profile or sandbox (the embedded sandbox), and a hub name or id (the target hub is created when missing, named as given or like the source). The steps run in this order: ${STEPS.join(', ')}. --step <name> (repeatable, or a comma list) runs only those.`,
    'Running the clone again updates the target instead of duplicating: each resource is matched through the id mapping kept in the journals of earlier clones between the same hubs, else by name. Items are written by the item import engine (links rewritten to the target ids, delivery keys, locales, folders). Edition slots get new snapshots of the target copies of their items; editions are created DRAFT and scheduled only with --schedule. Webhooks are created inactive unless --webhooks active; secret header values cannot be read and get a placeholder the summary names.',
    'Every run is journaled: --resume <run-id> continues an interrupted clone, --dry-run prints what each step would create or update (with the field differences) and sends no write. One failed resource does not stop the clone: the summary lists failures with reasons and the exit code is 3. See docs/content-operations.md.',
  ].join('\n\n'),
  examples: [
    'cms hub clone --from prod:site --to sandbox:site --dry-run',
    'cms hub clone --from prod:site --to staging:site-copy --schedule --progress json',
    'cms hub clone --from prod:site --to sandbox --step schemas --step types',
    'cms hub clone --resume 20250101-120000-a1b2c3',
  ],
  options: [
    { flags: '--from <profile[:hub]>', description: 'source: profile (or sandbox) and hub name or id; only read' },
    { flags: '--to <profile[:hub]>', description: 'target: profile (or sandbox) and hub name or id (created when missing; default name: the source hub name)' },
    { flags: '--step <name>', description: `run only this step (repeatable or comma list): ${STEPS.join(', ')}`, repeatable: true },
    { flags: '--schedule', description: 'schedule on the target the editions scheduled in the source' },
    { flags: '--webhooks <mode>', description: 'inactive: new webhooks are created inactive; active: webhooks follow the source active flag', choices: ['inactive', 'active'], default: 'inactive' },
    concurrencyOption,
    dryRunOption,
    resumeOption,
    progressOption,
  ],
  run: (ctx, _args, opts) => runClone(ctx, opts),
});
