import { confirm } from '../../../cli/confirm.js';
import { defineCommand } from '../../../cli/define.js';
import { yesOption } from '../../../cli/options.js';
import { item } from '../../../output/result.js';
import { isSnapshotFile, withEmbeddedService } from './_target.js';

export default defineCommand<{ yes?: boolean }>({
  summary: 'Replace everything in the sandbox with a snapshot (a name, or a file)',
  description:
    'Replaces every hub, item, client, the signing key and the clock with the snapshot, in one transaction. A snapshot saved by an older cms is migrated on the way (the file is left as it is); one from a newer cms, a truncated file, a file that is not a snapshot, or one whose schema is not exactly one cms makes (a view, a trigger, a table of its own: a snapshot is data, nothing in it is run) is refused (exit 2) and nothing changes. A snapshot of another sandbox brings its signing key: tokens issued before are refused, clients get new ones.',
  examples: ['cms sandbox snapshot save base && cms sandbox snapshot restore base --yes', 'cms sandbox snapshot save ./base.snapshot && cms sandbox snapshot restore ./base.snapshot --yes'],
  args: [{ name: 'target', description: 'snapshot name, or a file path (containing a slash)', required: true }],
  options: [yesOption],
  async run(ctx, args, opts) {
    const target = args.target as string;
    if (isSnapshotFile(target)) {
      await confirm(ctx, `Replace everything in the sandbox with the snapshot ${target}?`, opts.yes);
      return item(await withEmbeddedService(ctx, target, (service, file) => ({ file, ...service.restoreSnapshot(file) })));
    }
    const client = await ctx.client();
    await confirm(ctx, `Replace everything in the sandbox with the snapshot '${target}'?`, opts.yes);
    return item(await client.post(`/__sandbox/snapshots/${encodeURIComponent(target)}/restore`));
  },
});
